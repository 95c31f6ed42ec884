//! Accounts against a real store: sign-up, log-in, sessions, log-out, API tokens and
//! their ownership, demo accounts and their expiry and limits, the log-in rate limit,
//! names compared after normalisation, control and bidi characters refused.

use std::time::Duration;

use backend::Store;
use backend::{Auth, AuthConfig, AuthError, TOKEN_PREFIX};
use secrecy::{ExposeSecret, SecretString};

async fn auth(config: AuthConfig) -> (Auth, Store, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_in(dir.path()).await.unwrap();
    (Auth::new(store.clone(), config), store, dir)
}

fn pw(s: &str) -> SecretString {
    SecretString::from(s)
}

#[tokio::test]
async fn sign_up_log_in_and_out() {
    let (auth, store, _dir) = auth(AuthConfig::default()).await;
    let (alice, session) = auth.sign_up(" Alice ", &pw("correct horse battery")).await.unwrap();
    assert_eq!(alice.name, "alice");
    let token = session.token.expose_secret().to_string();
    assert_eq!(auth.session(&token).await.unwrap().map(|a| a.user), Some(alice.user));

    // Stored: an argon2id PHC string and the session's digest, never the secrets.
    let (hash,): (String,) = sqlx::query_as("SELECT password_hash FROM users WHERE id = $1")
        .bind(alice.user.0)
        .fetch_one(store.pool())
        .await
        .unwrap();
    assert!(hash.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{hash}");
    let stored: Vec<String> =
        sqlx::query_scalar("SELECT token_hash FROM sessions").fetch_all(store.pool()).await.unwrap();
    assert!(stored.iter().all(|h| h.len() == 64 && *h != token));

    assert!(matches!(auth.sign_up("ALICE", &pw("another long one")).await, Err(AuthError::NameTaken)));
    assert!(matches!(auth.sign_up("bob", &pw("short")).await, Err(AuthError::PasswordShort)));
    assert!(matches!(auth.sign_up("local", &pw("long enough pw")).await, Err(AuthError::NameReserved)));

    let (again, second) = auth.log_in("alice", &pw("correct horse battery"), "10.0.0.1").await.unwrap();
    assert_eq!(again.user, alice.user);
    assert!(matches!(
        auth.log_in("alice", &pw("wrong password!"), "10.0.0.1").await,
        Err(AuthError::InvalidCredentials)
    ));
    assert!(matches!(
        auth.log_in("nobody", &pw("correct horse battery"), "10.0.0.1").await,
        Err(AuthError::InvalidCredentials)
    ));

    auth.log_out(&token).await.unwrap();
    assert_eq!(auth.session(&token).await.unwrap(), None, "logged out");
    assert!(auth.session(second.token.expose_secret()).await.unwrap().is_some(), "other sessions stay");
    assert_eq!(auth.session("made-up").await.unwrap(), None);
}

#[tokio::test]
async fn api_tokens_belong_to_their_owner() {
    let (auth, _store, _dir) = auth(AuthConfig::default()).await;
    let (alice, _) = auth.sign_up("alice", &pw("correct horse battery")).await.unwrap();
    let (bob, _) = auth.sign_up("bob", &pw("staple battery horse")).await.unwrap();
    let (info, token) = auth.create_token(alice.user, "laptop script").await.unwrap();
    let token = token.expose_secret().to_string();
    assert!(token.starts_with(TOKEN_PREFIX) && info.prefix.len() == TOKEN_PREFIX.len() + 4);
    assert_eq!(auth.bearer(&token).await.unwrap().map(|a| a.user), Some(alice.user));
    let listed = auth.tokens(alice.user).await.unwrap();
    assert_eq!(listed.len(), 1);
    assert!(listed[0].last_used_at.is_some(), "use is recorded");
    assert!(auth.tokens(bob.user).await.unwrap().is_empty());

    assert!(!auth.revoke_token(bob.user, info.id).await.unwrap(), "bob cannot revoke alice's token");
    assert!(auth.bearer(&token).await.unwrap().is_some());
    assert!(auth.revoke_token(alice.user, info.id).await.unwrap());
    assert_eq!(auth.bearer(&token).await.unwrap(), None, "revoked");
    assert_eq!(auth.bearer("sou_pat_made-up").await.unwrap(), None);
    assert!(auth.create_token(alice.user, "  ").await.is_err());
}

#[tokio::test]
async fn demo_accounts_expire_with_their_data() {
    let config = AuthConfig { demo_ttl: Duration::from_millis(1500), ..AuthConfig::default() };
    let (auth, store, _dir) = auth(config).await;
    let (demo, session) = auth.demo("10.0.0.1").await.unwrap();
    assert!(demo.name.starts_with("demo-") && demo.demo_expires_at.is_some());
    assert!(!backend::demo::seed(&store, demo.user).await.unwrap(), "the demo ledger is already there");
    let token = session.token.expose_secret().to_string();
    assert!(auth.session(&token).await.unwrap().is_some());
    let (other, _) = auth.sign_up("alice", &pw("correct horse battery")).await.unwrap();

    tokio::time::sleep(Duration::from_millis(1600)).await;
    assert_eq!(auth.session(&token).await.unwrap(), None, "an expired demo signs no one in");
    assert_eq!(auth.purge_expired().await.unwrap(), 1);
    let left: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM transactions WHERE user_id = $1")
        .bind(demo.user.0)
        .fetch_one(store.pool())
        .await
        .unwrap();
    assert_eq!(left, 0, "the demo's ledger went with it");
    // Expired and purged, it no longer counts against the limit of live demos.
    let full = AuthConfig { max_live_demos: 1, ..AuthConfig::default() };
    let limited = Auth::new(store.clone(), full);
    limited.demo("10.0.0.2").await.unwrap();
    assert!(matches!(limited.demo("10.0.0.3").await, Err(AuthError::DemoFull)));
    let users: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM users WHERE id = $1")
        .bind(other.user.0)
        .fetch_one(store.pool())
        .await
        .unwrap();
    assert_eq!(users, 1, "real accounts stay");
}

#[tokio::test]
async fn failed_log_ins_slow_down_one_address_never_the_owner_elsewhere() {
    let config = AuthConfig { max_failures_per_client: 8, ..AuthConfig::default() };
    let (auth, _store, _dir) = auth(config).await;
    auth.sign_up("alice", &pw("correct horse battery")).await.unwrap();
    auth.sign_up("bob", &pw("staple battery horse")).await.unwrap();
    // Three attempts are free; the next one from that address must come a second after
    // the third. Sooner, it is refused unchecked, the right password too, and counts:
    // the one after it waits two seconds.
    for _ in 0..3 {
        assert!(matches!(
            auth.log_in("alice", &pw("guess guess 1"), "1.1.1.1").await,
            Err(AuthError::InvalidCredentials)
        ));
    }
    let limited = auth.log_in("alice", &pw("correct horse battery"), "1.1.1.1").await;
    assert!(
        matches!(limited, Err(AuthError::RateLimited { retry_after }) if retry_after == Duration::from_secs(2)),
        "{limited:?}"
    );
    // The owner, from another address, is not blocked by the attacker's failures…
    assert!(auth.log_in("alice", &pw("correct horse battery"), "2.2.2.2").await.is_ok());
    // …nor by their own, nor a look-alike of the name typed.
    assert!(auth.log_in("ＡＬＩＣＥ", &pw("correct horse battery"), "2.2.2.2").await.is_ok());

    // Once the wait said has passed, the next attempt is checked; the wait doubles with
    // every attempt.
    tokio::time::sleep(Duration::from_millis(2100)).await;
    assert!(matches!(
        auth.log_in("alice", &pw("guess guess 2"), "1.1.1.1").await,
        Err(AuthError::InvalidCredentials)
    ));
    let limited = auth.log_in("alice", &pw("guess guess 3"), "1.1.1.1").await;
    assert!(
        matches!(limited, Err(AuthError::RateLimited { retry_after }) if retry_after == Duration::from_secs(8)),
        "{limited:?}"
    );
    // Bob from the same address: a streak of his own, but the address's failures add up
    // (4 checked so far, 8 allowed) and then stop it on every account.
    for _ in 0..3 {
        assert!(matches!(
            auth.log_in("bob", &pw("wrong wrong wrong"), "1.1.1.1").await,
            Err(AuthError::InvalidCredentials)
        ));
    }
    assert!(matches!(
        auth.log_in("carol", &pw("wrong wrong wrong"), "1.1.1.1").await,
        Err(AuthError::InvalidCredentials)
    ));
    let limited = auth.log_in("dave", &pw("wrong wrong wrong"), "1.1.1.1").await;
    assert!(
        matches!(limited, Err(AuthError::RateLimited { retry_after }) if retry_after > Duration::from_secs(800)),
        "{limited:?}"
    );
    assert!(auth.log_in("bob", &pw("staple battery horse"), "3.3.3.3").await.is_ok(), "bob elsewhere");
    let text = AuthError::RateLimited { retry_after: Duration::from_secs(42) }.to_string();
    assert_eq!(text, "too many failed attempts; try again in 42 s");
}

#[tokio::test]
async fn an_address_starts_only_a_few_demos() {
    let config = AuthConfig { max_demos_per_client: 2, ..AuthConfig::default() };
    let (auth, _store, _dir) = auth(config).await;
    auth.demo("10.0.0.1").await.unwrap();
    auth.demo("10.0.0.1").await.unwrap();
    let third = auth.demo("10.0.0.1").await;
    assert!(
        matches!(&third, Err(AuthError::DemoLimited { retry_after }) if *retry_after > Duration::from_secs(3500)),
        "{third:?}"
    );
    assert_eq!(third.unwrap_err().code(), "demo_limited");
    // Another address may; another address of the same IPv6 network may not.
    auth.demo("10.0.0.2").await.unwrap();
    auth.demo("2001:db8::1").await.unwrap();
    auth.demo("2001:db8::2").await.unwrap();
    assert!(matches!(auth.demo("2001:db8::3").await, Err(AuthError::DemoLimited { .. })));
}

#[tokio::test]
async fn look_alike_names_are_the_same_name() {
    let (auth, store, _dir) = auth(AuthConfig::default()).await;
    let (alice, _) = auth.sign_up("alice", &pw("correct horse battery")).await.unwrap();
    for look_alike in ["ＡＬＩＣＥ", "ａｌｉｃｅ", "Ａlice"] {
        assert!(
            matches!(auth.sign_up(look_alike, &pw("another long one")).await, Err(AuthError::NameTaken)),
            "{look_alike}"
        );
    }
    let (bob, _) = auth.sign_up("ＢＯＢ", &pw("staple battery horse")).await.unwrap();
    assert_eq!(bob.name, "bob", "stored normalised");
    let (again, _) = auth.log_in("ａｌｉｃｅ", &pw("correct horse battery"), "10.0.0.1").await.unwrap();
    assert_eq!((again.user, again.name.as_str()), (alice.user, "alice"));

    // An account from before names were normalised, whose name is not its key, and one
    // whose key another has: after the store is opened again both sign in by their name.
    let hash: String = sqlx::query_scalar("SELECT password_hash FROM users WHERE id = $1")
        .bind(alice.user.0)
        .fetch_one(store.pool())
        .await
        .unwrap();
    for old in ["ｃａｒｏｌ", "ａｌｉｃｅ"] {
        sqlx::query("INSERT INTO users (name, password_hash) VALUES ($1, $2)")
            .bind(old)
            .bind(&hash)
            .execute(store.pool())
            .await
            .unwrap();
    }
    let url = format!("sqlite://{}", _dir.path().join("sou.db").display());
    let reopened = Store::open(&url).await.unwrap();
    let keys: Vec<(String, Option<String>)> = sqlx::query_as(
        "SELECT name, name_key FROM users WHERE name IN ('ｃａｒｏｌ', 'ａｌｉｃｅ') ORDER BY id",
    )
    .fetch_all(reopened.pool())
    .await
    .unwrap();
    assert_eq!(
        keys,
        [("ｃａｒｏｌ".to_string(), Some("carol".to_string())), ("ａｌｉｃｅ".to_string(), None)]
    );
    let auth = Auth::new(reopened, AuthConfig::default());
    assert!(matches!(auth.sign_up("Carol", &pw("another long one")).await, Err(AuthError::NameTaken)));
    let (carol, _) = auth.log_in("carol", &pw("correct horse battery"), "10.0.0.1").await.unwrap();
    assert_eq!(carol.name, "ｃａｒｏｌ");
    let (old, _) = auth.log_in("ａｌｉｃｅ", &pw("correct horse battery"), "10.0.0.1").await.unwrap();
    assert_ne!(old.user, alice.user, "the old full-width account keeps its own name");
    let (again, _) = auth.log_in("alice", &pw("correct horse battery"), "10.0.0.1").await.unwrap();
    assert_eq!(again.user, alice.user);
}

#[tokio::test]
async fn names_and_token_labels_refuse_control_and_bidi_characters() {
    let (auth, _store, _dir) = auth(AuthConfig::default()).await;
    for bad in ["ali\u{0}ce", "ali\u{1b}[31mce", "ali\u{202E}ce", "\u{2067}alice", "ali\u{7f}ce"] {
        let e = auth.sign_up(bad, &pw("correct horse battery")).await.unwrap_err();
        assert!(matches!(e, AuthError::NameCharacters), "{bad:?}: {e:?}");
    }
    let (alice, _) = auth.sign_up("alice", &pw("correct horse battery")).await.unwrap();
    for bad in ["laptop\u{0}", "\u{1b}[2Jscript", "gpj.\u{202E}exe", "a\u{200F}b", "x\u{061C}y", "c1\u{85}x"]
    {
        let e = auth.create_token(alice.user, bad).await.unwrap_err();
        assert!(matches!(e, AuthError::TokenLabelCharacters), "{bad:?}: {e:?}");
        assert_eq!(e.to_string(), "a token label may not contain control or text-direction characters");
    }
    assert!(auth.tokens(alice.user).await.unwrap().is_empty(), "none was made");
    auth.create_token(alice.user, "Script d'export — été").await.unwrap();
}

/// Two servers' `Auth` on one database count the same failures and the same demos, and
/// a token held by one is shown by the other, to the same session only, once.
async fn shared_by_two_servers(a: Store, b: Store) {
    let config = AuthConfig { max_demos_per_client: 3, ..AuthConfig::default() };
    let (one, two) = (Auth::new(a, config.clone()), Auth::new(b.clone(), config));
    let (alice, session) = one.sign_up("alice", &pw("correct horse battery")).await.unwrap();
    for _ in 0..3 {
        let failed = one.log_in("alice", &pw("guess guess 1"), "1.1.1.1").await;
        assert!(matches!(failed, Err(AuthError::InvalidCredentials)), "{failed:?}");
    }
    let limited = two.log_in("alice", &pw("correct horse battery"), "1.1.1.1").await;
    assert!(
        matches!(limited, Err(AuthError::RateLimited { .. })),
        "the other server counts them: {limited:?}"
    );
    assert!(two.log_in("alice", &pw("correct horse battery"), "2.2.2.2").await.is_ok());

    // Ten demos asked at once from one address, half on each server: three are made.
    let asks = (0..10).map(|i| {
        let auth = if i % 2 == 0 { one.clone() } else { two.clone() };
        async move { auth.demo("10.9.8.7").await }
    });
    let made = futures::future::join_all(asks).await;
    assert_eq!(made.iter().filter(|r| r.is_ok()).count(), 3, "{made:?}");
    assert!(made.iter().filter_map(|r| r.as_ref().err()).all(|e| matches!(e, AuthError::DemoLimited { .. })));

    // A token held on one server, shown by the other to the browser that made it.
    let cookie = session.token.expose_secret().to_string();
    let (info, token) = one.create_token(alice.user, "script").await.unwrap();
    one.hold_for_reveal(alice.user, info.id, &token, &cookie).await.unwrap();
    assert!(two.take_reveal(alice.user, info.id, "another browser").await.unwrap().is_none());
    // Asked by the wrong browser, it is gone: held for one page load, once.
    one.hold_for_reveal(alice.user, info.id, &token, &cookie).await.unwrap();
    let shown = two.take_reveal(alice.user, info.id, &cookie).await.unwrap().expect("shown");
    assert_eq!(shown.expose_secret(), token.expose_secret());
    assert!(two.take_reveal(alice.user, info.id, &cookie).await.unwrap().is_none(), "once");
    // What the database holds is not the token.
    let sealed: Vec<u8> = {
        one.hold_for_reveal(alice.user, info.id, &token, &cookie).await.unwrap();
        let mut db = b.tenant(alice.user).await.unwrap();
        let v = sqlx::query_scalar("SELECT sealed FROM token_reveals WHERE user_id = $1")
            .bind(alice.user.0)
            .fetch_one(&mut *db)
            .await
            .unwrap();
        db.commit().await.unwrap();
        v
    };
    let secret = token.expose_secret().as_bytes();
    assert!(!sealed.windows(secret.len()).any(|w| w == secret));
}

#[tokio::test]
async fn limits_and_held_tokens_are_shared_by_servers_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let a = Store::open_in(dir.path()).await.unwrap();
    let b = Store::open_in(dir.path()).await.unwrap();
    shared_by_two_servers(a, b).await;
}

#[tokio::test]
async fn limits_and_held_tokens_are_shared_by_servers_on_postgres() {
    let fresh = backend::testing::FreshDatabase::create().await.expect("PostgreSQL at 127.0.0.1:5432");
    let (a, b) = (fresh.open_store().await.unwrap(), fresh.open_store().await.unwrap());
    shared_by_two_servers(a, b).await;
    fresh.drop().await;
}

/// The streak of `auth`'s one account and address so far: how many attempts it counted.
async fn streak(store: &Store) -> i64 {
    sqlx::query_scalar("SELECT COALESCE(MAX(failures), 0) FROM login_streaks")
        .fetch_one(store.pool())
        .await
        .unwrap()
}

/// Sign-in attempts sent together are each counted, in the database, before any
/// password is checked: of twelve wrong ones, the three free ones are checked and nine
/// refused unchecked; of eleven wrong ones and then the right one while they are being
/// checked, the right one is refused too. One address's failures on many accounts at
/// once stop at its allowance. (The first wait is a minute here: the burst's timing on
/// a slow machine cannot let an attempt through.)
async fn bursts_are_counted_before_checking(store: Store) {
    let config = AuthConfig {
        first_delay: Duration::from_secs(60),
        max_delay: Duration::from_secs(600),
        max_failures_per_client: 20,
        ..AuthConfig::default()
    };
    let auth = Auth::new(store.clone(), config);
    auth.sign_up("alice", &pw("correct horse battery")).await.unwrap();
    let burst = (0..12).map(|i| {
        let auth = auth.clone();
        tokio::spawn(async move { auth.log_in("alice", &pw(&format!("wrong guess {i}")), "1.1.1.1").await })
    });
    let answers: Vec<_> = futures::future::join_all(burst).await.into_iter().map(Result::unwrap).collect();
    let checked = answers.iter().filter(|a| matches!(a, Err(AuthError::InvalidCredentials))).count();
    let refused = answers.iter().filter(|a| matches!(a, Err(AuthError::RateLimited { .. }))).count();
    assert_eq!((checked, refused), (3, 9), "{answers:?}");
    assert_eq!(streak(&store).await, 12, "each attempt counted");

    // The right one, sent while eleven wrong ones from another address are checked.
    let burst: Vec<_> = (0..11)
        .map(|i| {
            let auth = auth.clone();
            tokio::spawn(
                async move { auth.log_in("alice", &pw(&format!("wrong guess {i}")), "2.2.2.2").await },
            )
        })
        .collect();
    let counted = async {
        while sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM login_streaks WHERE failures >= 11")
            .fetch_one(store.pool())
            .await
            .unwrap()
            < 2
        {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    };
    tokio::time::timeout(Duration::from_secs(60), counted).await.unwrap();
    let right = auth.log_in("alice", &pw("correct horse battery"), "2.2.2.2").await;
    assert!(
        matches!(right, Err(AuthError::RateLimited { retry_after }) if retry_after >= Duration::from_secs(60)),
        "{right:?}"
    );
    let answers: Vec<_> = futures::future::join_all(burst).await.into_iter().map(Result::unwrap).collect();
    assert!(answers.iter().all(|a| a.is_err()), "{answers:?}");
    let checked = answers.iter().filter(|a| matches!(a, Err(AuthError::InvalidCredentials))).count();
    assert_eq!(checked, 3, "{answers:?}");
    // From elsewhere the owner signs in, and that streak of theirs starts over.
    assert!(auth.log_in("alice", &pw("correct horse battery"), "3.3.3.3").await.is_ok());

    // Thirty wrong passwords for thirty names at once from one address: twenty checked.
    let burst = (0..30).map(|i| {
        let auth = auth.clone();
        tokio::spawn(
            async move { auth.log_in(&format!("user{i}"), &pw("wrong wrong wrong"), "4.4.4.4").await },
        )
    });
    let answers: Vec<_> = futures::future::join_all(burst).await.into_iter().map(Result::unwrap).collect();
    let checked = answers.iter().filter(|a| matches!(a, Err(AuthError::InvalidCredentials))).count();
    let refused = answers.iter().filter(|a| matches!(a, Err(AuthError::RateLimited { .. }))).count();
    assert_eq!((checked, refused), (20, 10), "{answers:?}");
}

backend::on_both_databases!(
    bursts_are_counted_before_checking_on_sqlite,
    bursts_are_counted_before_checking_on_postgres,
    |store| bursts_are_counted_before_checking(store)
);

/// A right password gives back what it counted against its address: signing in often
/// from one address (an office) never stops it.
#[tokio::test]
async fn successes_do_not_use_up_an_address() {
    let config = AuthConfig { max_failures_per_client: 3, ..AuthConfig::default() };
    let (auth, _store, _dir) = auth(config).await;
    auth.sign_up("alice", &pw("correct horse battery")).await.unwrap();
    for _ in 0..6 {
        auth.log_in("alice", &pw("correct horse battery"), "5.5.5.5").await.unwrap();
    }
    for _ in 0..3 {
        let failed = auth.log_in("bob", &pw("wrong wrong wrong"), "5.5.5.5").await;
        assert!(matches!(failed, Err(AuthError::InvalidCredentials)), "{failed:?}");
    }
    let limited = auth.log_in("carol", &pw("wrong wrong wrong"), "5.5.5.5").await;
    assert!(matches!(limited, Err(AuthError::RateLimited { .. })), "{limited:?}");
}

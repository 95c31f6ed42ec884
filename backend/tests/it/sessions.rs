//! One's own sessions on both databases: listed with their device, address and last
//! use, the caller's marked; ended one by one (never another user's) or all but this
//! one; a password change that needs the current one, checks the new one as sign-up
//! does, is slowed like sign-in and ends every other session; sessions that end after
//! a time unused, as well as at their age.

use std::time::Duration;

use backend::Store;
use backend::{Auth, AuthConfig, AuthError, Client};
use secrecy::{ExposeSecret, SecretString};

const CHROME_LINUX: &str =
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const FIREFOX_WINDOWS: &str =
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0";

fn pw(s: &str) -> SecretString {
    SecretString::from(s)
}

fn from<'a>(address: &'a str, user_agent: &'a str) -> Client<'a> {
    Client { address, user_agent: Some(user_agent) }
}

async fn own_sessions(store: Store) {
    let auth = Auth::new(store.clone(), AuthConfig::default());
    let right = pw("correct horse battery");
    let (alice, first) = auth.sign_up_from("alice", &right, from("203.0.113.5", CHROME_LINUX)).await.unwrap();
    let first = first.token.expose_secret().to_string();
    let (_, second) = auth.log_in("alice", &right, from("198.51.100.7", FIREFOX_WINDOWS)).await.unwrap();
    let second = second.token.expose_secret().to_string();
    let (_, third) = auth.log_in("alice", &right, from("::ffff:192.0.2.1", "<b>made up</b>")).await.unwrap();
    let third = third.token.expose_secret().to_string();
    let (bob, bobs) = auth.sign_up("bob", &pw("staple battery horse")).await.unwrap();
    let bobs = bobs.token.expose_secret().to_string();

    let listed = auth.sessions(alice.user, Some(&first)).await.unwrap();
    assert_eq!(listed.len(), 3, "{listed:?}");
    assert!(listed[0].current && !listed[1].current && !listed[2].current, "this one first: {listed:?}");
    let described: Vec<_> = listed.iter().map(|s| (s.browser, s.os, s.address.as_deref())).collect();
    assert_eq!(described[0], (Some("Chrome"), Some("Linux"), Some("203.0.113.5")));
    assert!(described.contains(&(Some("Firefox"), Some("Windows"), Some("198.51.100.7"))), "{described:?}");
    assert!(described.contains(&(None, None, Some("192.0.2.1"))), "{described:?}");
    assert!(listed.iter().all(|s| s.id.len() == 32 && !first.contains(&s.id)));
    assert!(listed.iter().all(|s| s.last_seen_at >= s.created_at));
    let bobs_list = auth.sessions(bob.user, None).await.unwrap();
    assert_eq!(bobs_list.len(), 1);

    // One ended: never another user's.
    assert_eq!(auth.end_session(alice.user, &bobs_list[0].id, Some(&first)).await.unwrap(), None);
    assert!(auth.session(&bobs).await.unwrap().is_some());
    let firefox = listed.iter().find(|s| s.browser == Some("Firefox")).unwrap();
    assert_eq!(auth.end_session(alice.user, &firefox.id, Some(&first)).await.unwrap(), Some(false));
    assert_eq!(auth.session(&second).await.unwrap(), None, "ended");
    assert_eq!(auth.end_session(alice.user, &firefox.id, Some(&first)).await.unwrap(), None, "once");
    assert_eq!(auth.sessions(alice.user, Some(&first)).await.unwrap().len(), 2);

    // The password: the current one first, a new one as sign-up wants it.
    let new = pw("a brand new passphrase");
    let wrong =
        auth.change_password(alice.user, &pw("not my password"), &new, Some(&first), "203.0.113.5").await;
    assert!(matches!(wrong, Err(AuthError::WrongPassword)), "{wrong:?}");
    let short = auth.change_password(alice.user, &right, &pw("short"), Some(&first), "203.0.113.5").await;
    assert!(matches!(short, Err(AuthError::PasswordShort)), "{short:?}");
    assert!(auth.session(&third).await.unwrap().is_some(), "nothing ended yet");
    let ended = auth.change_password(alice.user, &right, &new, Some(&first), "203.0.113.5").await.unwrap();
    assert_eq!(ended, 1, "the other session");
    assert!(auth.session(&first).await.unwrap().is_some(), "this one stays");
    assert_eq!(auth.session(&third).await.unwrap(), None);
    assert!(auth.session(&bobs).await.unwrap().is_some(), "no one else's");
    assert!(matches!(auth.log_in("alice", &right, "10.0.0.1").await, Err(AuthError::InvalidCredentials)));
    let (_, fourth) = auth.log_in("alice", &new, "10.0.0.1").await.unwrap();

    // Everywhere else.
    assert_eq!(auth.end_other_sessions(alice.user, Some(&first)).await.unwrap(), 1);
    assert_eq!(auth.session(fourth.token.expose_secret()).await.unwrap(), None);
    assert_eq!(auth.sessions(alice.user, Some(&first)).await.unwrap().len(), 1);
    assert!(auth.session(&first).await.unwrap().is_some());

    // Guessing the current password is slowed as signing in is.
    for _ in 0..3 {
        let guess =
            auth.change_password(alice.user, &pw("guess guess"), &new, Some(&first), "192.0.2.9").await;
        assert!(matches!(guess, Err(AuthError::WrongPassword)), "{guess:?}");
    }
    let limited = auth.change_password(alice.user, &new, &right, Some(&first), "192.0.2.9").await;
    assert!(matches!(limited, Err(AuthError::RateLimited { .. })), "{limited:?}");

    // A demo account has no password to change.
    let (demo, _) = auth.demo("10.1.1.1").await.unwrap();
    let none = auth.change_password(demo.user, &right, &new, None, "10.1.1.1").await;
    assert!(matches!(none, Err(AuthError::NoPassword)), "{none:?}");
}

backend::on_both_databases!(own_sessions_on_sqlite, own_sessions_on_postgres, |store| own_sessions(store));

/// A session unused for `session_idle` ends, though its age is far off; each use keeps
/// it alive; the hourly purge deletes it.
async fn idle_sessions_end(store: Store) {
    let config = AuthConfig { session_idle: Duration::from_secs(2), ..AuthConfig::default() };
    let auth = Auth::new(store.clone(), config);
    let (alice, session) = auth.sign_up("alice", &pw("correct horse battery")).await.unwrap();
    let token = session.token.expose_secret().to_string();
    tokio::time::sleep(Duration::from_millis(1200)).await;
    assert!(auth.session(&token).await.unwrap().is_some(), "used after 1.2 s");
    tokio::time::sleep(Duration::from_millis(1200)).await;
    assert!(auth.session(&token).await.unwrap().is_some(), "2.4 s after sign-in, 1.2 s after its last use");
    tokio::time::sleep(Duration::from_millis(2200)).await;
    assert_eq!(auth.session(&token).await.unwrap(), None, "unused for 2.2 s");
    assert!(auth.sessions(alice.user, Some(&token)).await.unwrap().is_empty());
    auth.purge_expired().await.unwrap();
    let mut db = store.tenant(alice.user).await.unwrap();
    let left: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM sessions WHERE user_id = $1")
        .bind(alice.user.0)
        .fetch_one(&mut *db)
        .await
        .unwrap();
    db.commit().await.unwrap();
    assert_eq!(left, 0, "purged");
}

backend::on_both_databases!(idle_sessions_end_on_sqlite, idle_sessions_end_on_postgres, |store| {
    idle_sessions_end(store)
});

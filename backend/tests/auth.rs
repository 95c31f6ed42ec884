#![allow(clippy::unwrap_used, clippy::expect_used)]

//! Accounts against a real store: sign-up, log-in, sessions, log-out, API tokens and
//! their ownership, demo accounts and their expiry, the log-in rate limit.

use std::time::Duration;

use backend::auth::{Auth, AuthConfig, AuthError, TOKEN_PREFIX};
use backend::Store;
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
    let (demo, session) = auth.demo().await.unwrap();
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
    limited.demo().await.unwrap();
    assert!(matches!(limited.demo().await, Err(AuthError::DemoFull)));
    let users: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM users WHERE id = $1")
        .bind(other.user.0)
        .fetch_one(store.pool())
        .await
        .unwrap();
    assert_eq!(users, 1, "real accounts stay");
}

#[tokio::test]
async fn failed_log_ins_are_limited_per_account_and_per_client() {
    let config =
        AuthConfig { max_failures_per_account: 3, max_failures_per_client: 5, ..AuthConfig::default() };
    let (auth, _store, _dir) = auth(config).await;
    auth.sign_up("alice", &pw("correct horse battery")).await.unwrap();
    auth.sign_up("bob", &pw("staple battery horse")).await.unwrap();
    for _ in 0..3 {
        assert!(matches!(
            auth.log_in("alice", &pw("guess guess 1"), "1.1.1.1").await,
            Err(AuthError::InvalidCredentials)
        ));
    }
    // Even the right password is refused now, from anywhere.
    let limited = auth.log_in("alice", &pw("correct horse battery"), "2.2.2.2").await;
    assert!(
        matches!(limited, Err(AuthError::RateLimited { retry_after }) if retry_after > Duration::from_secs(800))
    );
    // Bob is not affected, but the client that guessed is after two more failures.
    assert!(auth.log_in("bob", &pw("staple battery horse"), "2.2.2.2").await.is_ok());
    for _ in 0..2 {
        assert!(auth.log_in("bob", &pw("wrong wrong wrong"), "1.1.1.1").await.is_err());
    }
    assert!(matches!(
        auth.log_in("bob", &pw("staple battery horse"), "1.1.1.1").await,
        Err(AuthError::RateLimited { .. })
    ));
    let text = AuthError::RateLimited { retry_after: Duration::from_secs(42) }.to_string();
    assert_eq!(text, "too many failed attempts; try again in 42 s");
}

//! Sou on PostgreSQL, as the server runs it: connected as a role that owns nothing,
//! the migrations run by the owner. What happens before the user is known (a session
//! or token lookup, signing out) and for every user at once (the purges) goes through
//! the owner's functions; everything else is visible only inside the user's
//! transaction.

use std::time::Duration;

use backend::{AuthConfig, AuthError};
use backend::{ChatRequest, Sou, Store};
use futures::StreamExt;
use secrecy::{ExposeSecret, SecretString};

use crate::support;

#[tokio::test]
async fn accounts_sessions_and_purges_through_the_owner_functions() {
    let (store, fresh) = support::postgres().await;
    let config = AuthConfig { demo_ttl: Duration::from_millis(1500), ..AuthConfig::default() };
    let sou = Sou::new(store.clone(), chrono_tz::Europe::Paris).with_auth(config);
    let auth = sou.auth();
    let pw = SecretString::from("correct horse battery");

    let (alice, _) = auth.sign_up("alice", &pw).await.unwrap();
    assert!(matches!(
        auth.log_in("alice", &SecretString::from("wrong password!"), "t").await,
        Err(AuthError::InvalidCredentials)
    ));
    let (_, session) = auth.log_in("ALICE", &pw, "t").await.unwrap();
    // Names are compared after NFKC and case folding here too.
    assert!(matches!(auth.sign_up("ａｌｉｃｅ", &pw).await, Err(AuthError::NameTaken)));
    assert_eq!(auth.log_in("ＡＬＩＣＥ", &pw, "t").await.unwrap().0.user, alice.user);
    // A transaction that only reads cannot write.
    let mut read = store.tenant_read(alice.user).await.unwrap();
    let write =
        sqlx::query("DELETE FROM sessions WHERE user_id = $1").bind(alice.user.0).execute(&mut *read).await;
    assert!(write.is_err_and(|e| e.to_string().contains("read-only")));
    drop(read);
    let cookie = session.token.expose_secret().to_string();
    assert_eq!(auth.session(&cookie).await.unwrap().map(|a| a.user), Some(alice.user));
    let (_, token) = auth.create_token(alice.user, "script").await.unwrap();
    assert_eq!(auth.bearer(token.expose_secret()).await.unwrap().map(|a| a.user), Some(alice.user));
    assert!(auth.tokens(alice.user).await.unwrap()[0].last_used_at.is_some(), "the use is recorded");

    // Alice's conversation exists, yet the app's role sees no row of it outside her
    // transaction: row-level security is what scopes it, not only the WHERE clauses.
    let stream = sou
        .chat(
            alice.user,
            ChatRequest {
                message: "mes abonnements".into(),
                conversation_id: None,
                plan: None,
                locale: None,
            },
        )
        .await
        .unwrap();
    stream.events.for_each(|_| async {}).await;
    let outside: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM conversations").fetch_one(store.pool()).await.unwrap();
    assert_eq!(outside, 0, "no user set, no rows");
    assert_eq!(sou.conversations().list(alice.user, 10).await.unwrap().len(), 1);
    let error = sqlx::query("INSERT INTO conversations (id, user_id, title) VALUES ('x', $1, 't')")
        .bind(alice.user.0)
        .execute(store.pool())
        .await
        .expect_err("a write outside the user's transaction is refused")
        .to_string();
    assert!(error.contains("row-level security"), "{error}");

    auth.log_out(&cookie).await.unwrap();
    assert_eq!(auth.session(&cookie).await.unwrap(), None, "signed out");

    // A demo: seeded, then purged with everything it owns once expired.
    let (demo, demo_session) = auth.demo("127.0.0.1").await.unwrap();
    let demo_cookie = demo_session.token.expose_secret().to_string();
    let seeded = sou.store().vocabulary(demo.user).await.unwrap();
    assert!(seeded.merchants.len() > 10);
    tokio::time::sleep(Duration::from_millis(1600)).await;
    assert_eq!(auth.session(&demo_cookie).await.unwrap(), None);
    assert_eq!(auth.purge_expired().await.unwrap(), 1);
    assert_eq!(sou.store().vocabulary(demo.user).await.map(|v| v.merchants.len()).unwrap_or(0), 0);

    // The retention purge reaches every user's old conversations, and only those.
    assert_eq!(sou.conversations().purge(1).await.unwrap(), 0, "Alice's is fresh");
    assert_eq!(sou.conversations().purge(0).await.unwrap(), 1, "older than now");
    assert_eq!(sou.conversations().list(alice.user, 10).await.unwrap().len(), 0);
    assert!(auth.session(&cookie).await.unwrap().is_none());

    drop(sou);
    store.pool().close().await;
    fresh.drop().await;
}

#[tokio::test]
async fn a_role_that_owns_the_tables_is_refused() {
    let (_store, fresh) = support::postgres().await;
    // The admin owns the tables: connecting as it must fail with the reason.
    let owner = backend::testing::postgres_server();
    let error = Store::open(&format!("{owner}/{}", fresh.database())).await.expect_err("refused").to_string();
    assert!(error.contains("must not be a superuser"), "{error}");
    fresh.drop().await;
}

//! Each user's parser is kept in memory and built again only when their vocabulary
//! changes — from this server or another one on the same database — or their currency.

use std::sync::Arc;

use agent::protocol::{ChatEvent, ChatRequest, PlanRequest};
use backend::{demo, Sou, Store, UserId};
use futures::StreamExt;

async fn exec(store: &Store, user: UserId, sql: &str) {
    let mut tx = store.tenant(user).await.unwrap();
    sqlx::query(sql).bind(user.0).execute(&mut *tx).await.unwrap();
    tx.commit().await.unwrap();
}

async fn merchant_of(sou: &Sou, user: UserId, message: &str) -> Option<String> {
    let req = PlanRequest { message: message.into(), ..PlanRequest::default() };
    let outcome = sou.plan(user, req).await.unwrap();
    match &outcome.plan()?.call {
        agent::ToolCall::SpendingSummary(a) => a.merchant.clone(),
        other => panic!("{message:?}: {other:?}"),
    }
}

/// The plan an answer ran and its result's currency (a balance's total).
async fn answer(sou: &Sou, user: UserId, message: &str) -> (Option<agent::ToolCall>, Option<String>) {
    let req = ChatRequest { message: message.into(), ..ChatRequest::default() };
    let events: Vec<ChatEvent> = sou.chat(user, req).await.unwrap().events.collect().await;
    assert!(events.last().is_some_and(|e| e.is_terminal()), "{events:?}");
    let call = events.iter().find_map(|e| match e {
        ChatEvent::Plan { plan } => Some(plan.call.clone()),
        _ => None,
    });
    let currency = events.iter().find_map(|e| match e {
        ChatEvent::ToolResult(agent::ToolOutput::Balances(r)) => Some(r.total.currency.to_string()),
        _ => None,
    });
    (call, currency)
}

/// An answer uses the parser kept for the user at once and reads their stamp meanwhile
/// (alongside a quick plan's read): a change made elsewhere since is never acted on
/// with the old parser.
async fn answers_follow_a_change_made_elsewhere(store: Store) {
    let alice = store.ensure_user("alice").await.unwrap();
    demo::seed(&store, alice).await.unwrap();
    let here = Sou::new(store.clone(), chrono_tz::UTC);
    let balance = "quel est mon solde ?";
    assert_eq!(answer(&here, alice, balance).await.1.as_deref(), Some("EUR"));
    // The currency changes (another server, or a write): the next balance, a plan that
    // runs at once, is read and totalled in the new one, not with the kept parser's.
    exec(&store, alice, "UPDATE users SET currency = 'CHF' WHERE id = $1").await;
    assert_eq!(answer(&here, alice, balance).await.1.as_deref(), Some("CHF"));
    // A merchant added since the parser was kept: the next answer's plan names it.
    let question = "combien j'ai dépensé chez Boulangerie Dupain en 2025";
    let merchant = |call: Option<agent::ToolCall>| match call {
        Some(agent::ToolCall::SpendingSummary(a)) => a.merchant,
        _ => None,
    };
    assert_eq!(merchant(answer(&here, alice, question).await.0), None);
    exec(
        &store,
        alice,
        "INSERT INTO merchants (user_id, key, name, aliases) VALUES ($1, 'dupain', 'Boulangerie Dupain', '[]')",
    )
    .await;
    assert_eq!(merchant(answer(&here, alice, question).await.0).as_deref(), Some("dupain"));
}

#[tokio::test]
async fn answers_follow_changes_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    answers_follow_a_change_made_elsewhere(Store::open_in(dir.path()).await.unwrap()).await;
}

#[tokio::test]
async fn answers_follow_changes_on_postgres() {
    let fresh = backend::testing::FreshDatabase::create().await.expect("PostgreSQL at 127.0.0.1:5432");
    answers_follow_a_change_made_elsewhere(fresh.open_store().await.unwrap()).await;
    fresh.drop().await;
}

async fn parsers_follow_every_change(store: Store) {
    let alice = store.ensure_user("alice").await.unwrap();
    let bob = store.ensure_user("bob").await.unwrap();
    demo::seed(&store, alice).await.unwrap();
    demo::seed(&store, bob).await.unwrap();
    let here = Sou::new(store.clone(), chrono_tz::UTC);
    let there = Sou::new(store.clone(), chrono_tz::UTC);

    let first = here.parser(alice).await.unwrap();
    assert!(Arc::ptr_eq(&first, &here.parser(alice).await.unwrap()), "kept while nothing changes");
    let question = "combien chez Boulangerie Dupain en 2025";
    assert_eq!(merchant_of(&here, alice, question).await, None);

    // Another server (or any write) adds a merchant: this server's next parse knows it.
    let _ = there.parser(alice).await.unwrap();
    exec(
        &store,
        alice,
        "INSERT INTO merchants (user_id, key, name, aliases) VALUES ($1, 'dupain', 'Boulangerie Dupain', '[]')",
    )
    .await;
    let second = here.parser(alice).await.unwrap();
    assert!(!Arc::ptr_eq(&first, &second), "built again after a change");
    assert_eq!(merchant_of(&here, alice, question).await.as_deref(), Some("dupain"));
    assert_eq!(merchant_of(&there, alice, question).await.as_deref(), Some("dupain"));

    // Bob's changes leave Alice's parser as it is.
    exec(
        &store,
        bob,
        "UPDATE categories SET aliases = '[\"bouffe\"]' WHERE user_id = $1 AND key = 'groceries'",
    )
    .await;
    assert!(Arc::ptr_eq(&second, &here.parser(alice).await.unwrap()));

    // Renamed, then deleted: each change is seen.
    exec(&store, alice, "UPDATE merchants SET name = 'Maison Dupain' WHERE user_id = $1 AND key = 'dupain'")
        .await;
    assert_eq!(
        merchant_of(&here, alice, "combien chez Maison Dupain en 2025").await.as_deref(),
        Some("dupain")
    );
    exec(&store, alice, "DELETE FROM merchants WHERE user_id = $1 AND key = 'dupain'").await;
    assert_eq!(merchant_of(&here, alice, "combien chez Maison Dupain en 2025").await, None);

    // Accounts, categories and the currency too.
    let before = here.parser(alice).await.unwrap();
    exec(
        &store,
        alice,
        "UPDATE accounts SET aliases = '[\"le joint\"]' WHERE user_id = $1 AND key = 'compte_courant'",
    )
    .await;
    let after = here.parser(alice).await.unwrap();
    assert!(!Arc::ptr_eq(&before, &after));
    exec(&store, alice, "UPDATE users SET currency = 'CHF' WHERE id = $1").await;
    let chf = here.parser(alice).await.unwrap();
    assert_eq!(chf.vocabulary().currency.map(|c| c.to_string()).as_deref(), Some("CHF"));
}

#[tokio::test]
async fn parsers_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    parsers_follow_every_change(Store::open_in(dir.path()).await.unwrap()).await;
}

#[tokio::test]
async fn parsers_on_postgres() {
    let fresh = backend::testing::FreshDatabase::create().await.expect("PostgreSQL at 127.0.0.1:5432");
    parsers_follow_every_change(fresh.open_store().await.unwrap()).await;
    fresh.drop().await;
}

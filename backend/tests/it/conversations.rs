//! The conversation history: listing, renaming and deleting — only one's own — and the
//! retention purge.

use agent::protocol::ChatEvent;
use backend::{demo, BackendError, ChatRequest, Sou, Store, UserId};
use futures::StreamExt;

async fn ask(sou: &Sou, user: UserId, message: &str) -> String {
    let req = ChatRequest { message: message.into(), conversation_id: None, plan: None, locale: None };
    let stream = sou.chat(user, req).await.unwrap();
    let id = stream.conversation_id.clone();
    let events: Vec<ChatEvent> = stream.events.collect().await;
    assert!(events.last().is_some_and(ChatEvent::is_terminal));
    id
}

#[tokio::test]
async fn history_is_per_user_and_purged_after_the_retention_period() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_in(dir.path()).await.unwrap();
    let alice = store.ensure_user("alice").await.unwrap();
    let bob = store.ensure_user("bob").await.unwrap();
    demo::seed(&store, alice).await.unwrap();
    demo::seed(&store, bob).await.unwrap();
    let sou = Sou::new(store.clone(), chrono_tz::UTC);

    let first = ask(&sou, alice, "Combien j'ai dépensé en courses en janvier 2026 ?").await;
    let second = ask(&sou, alice, "Quel est mon solde ?").await;
    let bobs = ask(&sou, bob, "Quel est mon solde ?").await;
    let list = sou.conversations().list(alice, 50).await.unwrap();
    assert_eq!(list.iter().map(|c| c.id.as_str()).collect::<Vec<_>>(), [second.as_str(), first.as_str()]);
    assert!(list[1].title.contains("courses"), "{:?}", list[1]);

    sou.conversations().rename(alice, &first, "  Courses de janvier ").await.unwrap();
    assert_eq!(sou.conversations().list(alice, 50).await.unwrap()[1].title, "Courses de janvier");
    assert!(matches!(
        sou.conversations().rename(alice, &first, "   ").await,
        Err(BackendError::BadRequest(_))
    ));

    // Bob can neither rename nor delete Alice's conversation, nor see it.
    assert!(matches!(sou.conversations().rename(bob, &first, "mine").await, Err(BackendError::NotFound)));
    assert!(matches!(sou.conversations().delete(bob, &first).await, Err(BackendError::NotFound)));
    assert!(matches!(
        sou.conversations().get(bob, &first, agent::Locale::En).await,
        Err(BackendError::NotFound)
    ));
    assert_eq!(sou.conversations().list(bob, 50).await.unwrap().len(), 1);

    sou.conversations().delete(alice, &second).await.unwrap();
    assert!(matches!(
        sou.conversations().get(alice, &second, agent::Locale::En).await,
        Err(BackendError::NotFound)
    ));
    let messages: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM messages WHERE conversation_id = $1")
        .bind(&second)
        .fetch_one(store.pool())
        .await
        .unwrap();
    assert_eq!(messages, 0, "its messages went with it");

    // Retention: only what was inactive for longer than the period goes.
    sqlx::query("UPDATE conversations SET updated_at = '2026-01-01T00:00:00.000Z' WHERE id = $1")
        .bind(&bobs)
        .execute(store.pool())
        .await
        .unwrap();
    assert_eq!(sou.conversations().purge(30).await.unwrap(), 1);
    assert!(sou.conversations().list(bob, 50).await.unwrap().is_empty());
    assert_eq!(sou.conversations().list(alice, 50).await.unwrap().len(), 1);
}

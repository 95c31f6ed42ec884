//! A question is stored before anything of its answer is sent or kept, on SQLite and
//! PostgreSQL, also when the parser's plan reads while the question's transaction
//! commits, or is stored with it in one (`backend/src/runs/stored.rs`, `record.rs`):
//!
//! - a question that cannot be stored fails the request, and leaves nothing behind:
//!   no conversation, message, run, event or step;
//! - on PostgreSQL, with the question's transaction made slow (a trigger sleeping on
//!   the run's row), the stream is returned only once the question can be read from
//!   another connection, and its events are the whole answer, in order;
//! - on PostgreSQL, a plan the parser is sure of whose read outlasts the question's
//!   linger (the tool's read made to wait for a lock the test holds): the stream starts
//!   when the question is stored, with the plan in it, while the read still waits;
//! - on PostgreSQL, a conversation deleted while an answer's batch is stored in it is
//!   deleted, though PostgreSQL stops the delete for a deadlock.

use agent::protocol::ChatEvent;
use agent::Date;
use backend::{demo, ChatRequest, Sou, Store, UserId};
use futures::StreamExt;
use sqlx::Connection;

fn today() -> Date {
    Date::new(2026, 11, 20).unwrap()
}

const QUESTION: &str = "quel est mon solde ?";

fn request() -> ChatRequest {
    ChatRequest { message: QUESTION.into(), conversation_id: None, plan: None, locale: Some("fr".into()) }
}

/// How many rows of each table that a question and its answer write `user` has.
async fn rows(store: &Store, user: UserId) -> Vec<(&'static str, i64)> {
    let mut counts = Vec::new();
    for table in ["conversations", "messages", "runs", "run_events", "run_steps"] {
        let mut db = store.tenant(user).await.unwrap();
        let sql = format!("SELECT CAST(COUNT(*) AS BIGINT) FROM {table} WHERE user_id = $1");
        let n: i64 = sqlx::query_scalar(&sql).bind(user.0).fetch_one(&mut *db).await.unwrap();
        db.commit().await.unwrap();
        counts.push((table, n));
    }
    counts
}

/// Asks while `fail` (SQL that makes storing a run fail) is in force, then again
/// without it (`unfail`).
async fn unstored_questions_leave_nothing(store: Store, fail: &str, unfail: &str) {
    let user = store.ensure_user("local").await.unwrap();
    assert!(demo::seed(&store, user).await.unwrap());
    let sou = Sou::new(store.clone(), chrono_tz::UTC).with_today(today());
    let before = rows(&store, user).await;
    assert!(before.iter().all(|(_, n)| *n == 0), "{before:?}");

    sqlx::raw_sql(fail).execute(store.pool()).await.unwrap();
    // The parser is sure of this plan: its tool reads while the question is stored.
    let Err(e) = sou.chat(user, request()).await else {
        panic!("a question that was not stored was answered")
    };
    // Why is logged by the run's writer; the request says only that it was not stored.
    assert!(matches!(e, backend::BackendError::Unstored), "{e:?}");
    // Whatever the answer's task did meanwhile is over well within this.
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert_eq!(rows(&store, user).await, before);

    sqlx::raw_sql(unfail).execute(store.pool()).await.unwrap();
    let stream = sou.chat(user, request()).await.unwrap();
    let events: Vec<ChatEvent> = stream.events.collect().await;
    assert!(events.iter().any(|e| matches!(e, ChatEvent::ToolResult(_))), "{events:?}");
    let after = rows(&store, user).await;
    let count = |table| after.iter().find(|(t, _)| *t == table).map(|(_, n)| *n);
    assert_eq!(count("messages"), Some(2), "{after:?}");
    assert_eq!(count("runs"), Some(1), "{after:?}");
    assert_eq!(count("run_events"), Some(events.len() as i64), "{after:?}");
}

#[tokio::test]
async fn unstored_questions_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_in(dir.path()).await.unwrap();
    unstored_questions_leave_nothing(
        store,
        "CREATE TRIGGER no_runs BEFORE INSERT ON runs BEGIN SELECT RAISE(ABORT, 'no run'); END",
        "DROP TRIGGER no_runs",
    )
    .await;
}

#[tokio::test]
async fn unstored_questions_on_postgres() {
    let fresh = backend::testing::FreshDatabase::create().await.expect("PostgreSQL at 127.0.0.1:5432");
    let store = fresh.open_store().await.unwrap();
    let owner = sqlx::PgPool::connect(&fresh.owner_url()).await.unwrap();
    sqlx::raw_sql(
        "CREATE FUNCTION no_runs() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN RAISE EXCEPTION 'no run'; END $$",
    )
    .execute(&owner)
    .await
    .unwrap();
    let role = fresh.role();
    // The app's role may not create triggers: the owner does, through a function the
    // test calls as the app (granted for the test only).
    sqlx::raw_sql(&format!(
        "CREATE FUNCTION toggle_no_runs(on_ boolean) RETURNS void LANGUAGE plpgsql SECURITY DEFINER AS $$
         BEGIN
           IF on_ THEN CREATE TRIGGER no_runs BEFORE INSERT ON runs FOR EACH ROW EXECUTE FUNCTION no_runs();
           ELSE DROP TRIGGER no_runs ON runs; END IF;
         END $$;
         GRANT EXECUTE ON FUNCTION toggle_no_runs(boolean) TO {role};"
    ))
    .execute(&owner)
    .await
    .unwrap();
    owner.close().await;
    unstored_questions_leave_nothing(store, "SELECT toggle_no_runs(true)", "SELECT toggle_no_runs(false)")
        .await;
    fresh.drop().await;
}

#[tokio::test]
async fn the_stream_starts_once_the_question_is_stored_on_postgres() {
    let fresh = backend::testing::FreshDatabase::create().await.expect("PostgreSQL at 127.0.0.1:5432");
    let store = fresh.open_store().await.unwrap();
    let owner = sqlx::PgPool::connect(&fresh.owner_url()).await.unwrap();
    // Storing a run's row takes half a second: the parser's plan has read long before.
    sqlx::raw_sql(
        "CREATE FUNCTION slow_runs() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN PERFORM pg_sleep(0.5); RETURN NEW; END $$;
         CREATE TRIGGER slow_runs BEFORE INSERT ON runs FOR EACH ROW EXECUTE FUNCTION slow_runs();",
    )
    .execute(&owner)
    .await
    .unwrap();
    let user = store.ensure_user("local").await.unwrap();
    assert!(demo::seed(&store, user).await.unwrap());
    let sou = Sou::new(store.clone(), chrono_tz::UTC).with_today(today());
    let stream = sou.chat(user, request()).await.unwrap();
    let run_id = stream.run_id.clone();
    // Read by another connection (the owner's, which row-level security does not
    // limit): the question is there before the first event is read (the answer may be
    // too: it goes on without the client).
    let stored: Vec<(String, String)> =
        sqlx::query_as("SELECT role, content FROM messages WHERE user_id = $1 ORDER BY id")
            .bind(user.0)
            .fetch_all(&owner)
            .await
            .unwrap();
    assert_eq!(stored.first(), Some(&("user".to_string(), QUESTION.to_string())), "{stored:?}");
    let run: Option<String> = sqlx::query_scalar("SELECT status FROM runs WHERE id = $1")
        .bind(&run_id)
        .fetch_optional(&owner)
        .await
        .unwrap();
    assert!(run.is_some());
    let events: Vec<ChatEvent> = stream.events.collect().await;
    let kinds: Vec<&str> = events.iter().map(ChatEvent::kind).collect();
    assert_eq!(kinds.first(), Some(&"plan"), "{kinds:?}");
    assert!(kinds.contains(&"tool_result"), "{kinds:?}");
    assert!(events.last().is_some_and(ChatEvent::is_terminal), "{kinds:?}");
    let recorded: i64 =
        sqlx::query_scalar("SELECT CAST(COUNT(*) AS BIGINT) FROM run_events WHERE run_id = $1")
            .bind(&run_id)
            .fetch_one(&owner)
            .await
            .unwrap();
    assert_eq!(recorded, events.len() as i64);
    owner.close().await;
    fresh.drop().await;
}

#[tokio::test]
async fn a_slow_quick_answer_shows_its_plan_once_the_question_is_stored_on_postgres() {
    let fresh = backend::testing::FreshDatabase::create().await.expect("PostgreSQL at 127.0.0.1:5432");
    let store = fresh.open_store().await.unwrap();
    let user = store.ensure_user("local").await.unwrap();
    assert!(demo::seed(&store, user).await.unwrap());
    let sou = Sou::new(store.clone(), chrono_tz::UTC).with_today(today());
    // A first answer: the user's parser is kept (building it reads the accounts).
    let first: Vec<ChatEvent> = sou.chat(user, request()).await.unwrap().events.collect().await;
    assert!(first.iter().any(|e| e.kind() == "tool_result"));
    // Reading the accounts now waits for a lock the test holds, as long as it holds it.
    let owner = sqlx::PgPool::connect(&fresh.owner_url()).await.unwrap();
    sqlx::raw_sql(
        "CREATE FUNCTION gate() RETURNS boolean LANGUAGE plpgsql AS $$
         BEGIN PERFORM pg_advisory_xact_lock_shared(7205); RETURN true; END $$;
         CREATE POLICY gate ON accounts AS RESTRICTIVE FOR SELECT USING (gate());",
    )
    .execute(&owner)
    .await
    .unwrap();
    let mut holder = owner.acquire().await.unwrap();
    sqlx::query("SELECT pg_advisory_lock(7205)").execute(&mut *holder).await.unwrap();
    let stream = sou.chat(user, request()).await.unwrap();
    let mut events = stream.events;
    // The question was stored after its linger; the plan is there, though its read waits.
    let plan = tokio::time::timeout(std::time::Duration::from_secs(30), events.next()).await;
    let kind = plan.ok().flatten().map(|e| e.kind());
    sqlx::query("SELECT pg_advisory_unlock(7205)").execute(&mut *holder).await.unwrap();
    assert_eq!(kind, Some("plan"), "the plan is sent when the question is stored, before the read ends");
    let rest: Vec<ChatEvent> = events.collect().await;
    let kinds: Vec<&str> = rest.iter().map(ChatEvent::kind).collect();
    assert!(kinds.contains(&"tool_result"), "{kinds:?}");
    assert!(rest.last().is_some_and(ChatEvent::is_terminal), "{kinds:?}");
    drop(holder);
    owner.close().await;
    fresh.drop().await;
}

/// What a quick answer left: its question then its answer, the run ended (no server
/// holds it), and the conversation last moved by the answer.
async fn stored_as_one(store: &Store, user: UserId, run: &str, conversation: &str) {
    let mut db = store.tenant(user).await.unwrap();
    let messages: Vec<(String, String, Option<String>)> = sqlx::query_as(
        "SELECT role, created_at, public_id FROM messages WHERE conversation_id = $1 ORDER BY id",
    )
    .bind(conversation)
    .fetch_all(&mut *db)
    .await
    .unwrap();
    let (status, owner, finished, total): (String, Option<String>, Option<String>, Option<i64>) =
        sqlx::query_as("SELECT status, owner, finished_at, CAST(total_ms AS BIGINT) FROM runs WHERE id = $1")
            .bind(run)
            .fetch_one(&mut *db)
            .await
            .unwrap();
    let updated: String = sqlx::query_scalar("SELECT updated_at FROM conversations WHERE id = $1")
        .bind(conversation)
        .fetch_one(&mut *db)
        .await
        .unwrap();
    db.commit().await.unwrap();
    let last = messages.last().unwrap();
    assert_eq!(messages[messages.len() - 2].0, "user", "{messages:?}");
    assert_eq!((last.0.as_str(), last.2.as_deref()), ("assistant", Some(run)), "{messages:?}");
    assert!(messages[messages.len() - 2].1 <= last.1, "{messages:?}");
    assert_eq!(updated, last.1);
    assert_eq!((status.as_str(), owner), ("done", None));
    assert_eq!(finished.as_deref(), Some(updated.as_str()));
    assert!(total.is_some());
}

/// Asks a question the parser is sure of, in a new conversation then in the same one;
/// checks what each answer left. Returns the two runs.
async fn two_quick_answers(store: &Store) -> (UserId, [String; 2]) {
    let user = store.ensure_user("local").await.unwrap();
    assert!(demo::seed(store, user).await.unwrap());
    // The answer is stored with its question when it comes within the first batch's
    // linger (100 ms in use): here long enough for a loaded machine. The batch still
    // ends as soon as the answer's last record comes.
    let runs = backend::RunConfig {
        first_linger: std::time::Duration::from_secs(30),
        ..backend::RunConfig::default()
    };
    let sou = Sou::new(store.clone(), chrono_tz::UTC).with_today(today()).with_runs(runs);
    let first = sou.chat(user, request()).await.unwrap();
    let (conversation, run) = (first.conversation_id.clone(), first.run_id.clone());
    let events: Vec<ChatEvent> = first.events.collect().await;
    assert!(events.last().is_some_and(ChatEvent::is_terminal));
    stored_as_one(store, user, &run, &conversation).await;
    let again = ChatRequest { conversation_id: Some(conversation.clone()), ..request() };
    let second = sou.chat(user, again).await.unwrap();
    let next = second.run_id.clone();
    let events: Vec<ChatEvent> = second.events.collect().await;
    assert!(events.iter().any(|e| matches!(e, ChatEvent::ToolResult(_))), "{events:?}");
    stored_as_one(store, user, &next, &conversation).await;
    (user, [run, next])
}

#[tokio::test]
async fn a_quick_answer_is_stored_with_its_question_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_in(dir.path()).await.unwrap();
    two_quick_answers(&store).await;
}

/// On PostgreSQL, each quick answer is one transaction: its conversation (when new),
/// question, run, events and answer share one transaction id.
#[tokio::test]
async fn a_quick_answer_is_one_transaction_on_postgres() {
    let fresh = backend::testing::FreshDatabase::create().await.expect("PostgreSQL at 127.0.0.1:5432");
    let store = fresh.open_store().await.unwrap();
    let owner = sqlx::PgPool::connect(&fresh.owner_url()).await.unwrap();
    let mut setup = String::from(
        "CREATE TABLE written (tbl text, xid bigint);
         CREATE FUNCTION written() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER AS $$
         BEGIN INSERT INTO written VALUES (TG_TABLE_NAME, txid_current()); RETURN NULL; END $$;",
    );
    for table in ["conversations", "messages", "runs", "run_events"] {
        setup += &format!(
            "CREATE TRIGGER written AFTER INSERT ON {table} FOR EACH ROW EXECUTE FUNCTION written();"
        );
    }
    sqlx::raw_sql(&setup).execute(&owner).await.unwrap();
    two_quick_answers(&store).await;
    let written: Vec<(String, i64)> =
        sqlx::query_as("SELECT tbl, xid FROM written ORDER BY xid, tbl").fetch_all(&owner).await.unwrap();
    let xids: std::collections::BTreeSet<i64> = written.iter().map(|(_, x)| *x).collect();
    assert_eq!(xids.len(), 2, "{written:?}");
    for xid in xids {
        let tables: std::collections::BTreeSet<&str> =
            written.iter().filter(|(_, x)| *x == xid).map(|(t, _)| t.as_str()).collect();
        assert!(tables.is_superset(&["messages", "runs", "run_events"].into()), "{written:?}");
    }
    assert_eq!(written.iter().filter(|(t, _)| t == "conversations").count(), 1, "{written:?}");
    assert_eq!(written.iter().filter(|(t, _)| t == "messages").count(), 4, "{written:?}");
    owner.close().await;
    fresh.drop().await;
}

/// Runs not recorded (`RunConfig::record`, off only to measure what recording costs),
/// the question is stored on its own, and its answer after it, never without it.
#[tokio::test]
async fn unrecorded_runs_store_the_question_then_the_answer() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_in(dir.path()).await.unwrap();
    let user = store.ensure_user("local").await.unwrap();
    assert!(demo::seed(&store, user).await.unwrap());
    let sou = Sou::new(store.clone(), chrono_tz::UTC)
        .with_today(today())
        .with_runs(backend::RunConfig { record: false, ..backend::RunConfig::default() });
    let roles = |conversation: String| {
        let store = store.clone();
        async move {
            let mut db = store.tenant(user).await.unwrap();
            let roles: Vec<String> =
                sqlx::query_scalar("SELECT role FROM messages WHERE conversation_id = $1 ORDER BY id")
                    .bind(&conversation)
                    .fetch_all(&mut *db)
                    .await
                    .unwrap();
            db.commit().await.unwrap();
            roles
        }
    };
    let stream = sou.chat(user, request()).await.unwrap();
    let conversation = stream.conversation_id.clone();
    let events: Vec<ChatEvent> = stream.events.collect().await;
    assert!(events.last().is_some_and(ChatEvent::is_terminal));
    assert_eq!(roles(conversation.clone()).await, ["user", "assistant"]);

    // A follow-up whose question cannot be stored: its answer is not stored either.
    sqlx::raw_sql(
        "CREATE TRIGGER no_questions BEFORE INSERT ON messages WHEN NEW.role = 'user'
         BEGIN SELECT RAISE(ABORT, 'no question'); END",
    )
    .execute(store.pool())
    .await
    .unwrap();
    // The database's one writer is held meanwhile: the answer is ready before the
    // question fails.
    let mut writer = store.pool().begin_with("BEGIN IMMEDIATE").await.unwrap();
    let again = ChatRequest { conversation_id: Some(conversation.clone()), ..request() };
    let asked = tokio::spawn({
        let sou = sou.clone();
        async move { sou.chat(user, again).await.map(|s| s.run_id) }
    });
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    sqlx::query("SELECT 1").execute(&mut *writer).await.unwrap();
    writer.commit().await.unwrap();
    let e = asked.await.unwrap().expect_err("a question that was not stored was answered");
    assert!(matches!(e, backend::BackendError::Unstored), "{e:?}");
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert_eq!(roles(conversation).await, ["user", "assistant"]);
    assert_eq!(rows(&store, user).await.iter().find(|(t, _)| *t == "runs").map(|(_, n)| *n), Some(0));
}

/// A conversation deleted while an answer's batch is being stored in it: the batch holds
/// its run's row (an event's reference) and then waits for the conversation's row (its
/// move), the delete holds the conversation's and waits for the run's. PostgreSQL stops
/// the delete (here the batch checks for deadlocks late, so that it is always the
/// delete); it is tried again and deletes the conversation.
#[tokio::test]
async fn a_delete_that_meets_an_answers_batch_is_tried_again_on_postgres() {
    let fresh = backend::testing::FreshDatabase::create().await.expect("PostgreSQL at 127.0.0.1:5432");
    let store = fresh.open_store().await.unwrap();
    let user = store.ensure_user("local").await.unwrap();
    assert!(demo::seed(&store, user).await.unwrap());
    let sou = Sou::new(store.clone(), chrono_tz::UTC).with_today(today());
    let stream = sou.chat(user, request()).await.unwrap();
    let (conversation, run) = (stream.conversation_id.clone(), stream.run_id.clone());
    let _: Vec<ChatEvent> = stream.events.collect().await;

    // A batch as the run's writer sends it, stopped between its two writes. It runs as
    // the owner with a long deadlock timeout: PostgreSQL stops whichever waiter checks
    // first, and on a busy machine the batch's check (a second after it began to wait)
    // could come before the delete's, which waited first.
    let mut batch = sqlx::PgConnection::connect(&fresh.owner_url()).await.unwrap();
    sqlx::query("BEGIN").execute(&mut batch).await.unwrap();
    sqlx::query("SET LOCAL deadlock_timeout = '60s'").execute(&mut batch).await.unwrap();
    sqlx::query("INSERT INTO run_events (run_id, user_id, seq, event) VALUES ($1, $2, 1000, '{}')")
        .bind(&run)
        .bind(user.0)
        .execute(&mut batch)
        .await
        .unwrap();
    let deleting = tokio::spawn({
        let (sou, conversation) = (sou.clone(), conversation.clone());
        async move { sou.conversations().delete(user, &conversation).await }
    });
    // The delete holds the conversation's row and waits for the run's; the batch then
    // waits for the conversation's, and is still waiting when the delete's deadlock
    // check (a second after it began to wait) stops the delete. The batch goes on only
    // once the delete waits (on a busy machine a fixed pause was not always enough, and
    // the batch, waiting first, was the one stopped).
    let mut waits = 0;
    for _ in 0..200 {
        let (n,): (i64,) = sqlx::query_as(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
        )
        .fetch_one(store.pool())
        .await
        .unwrap();
        waits = n;
        if n > 0 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(25)).await;
    }
    assert_eq!(waits, 1, "the delete never waited for the run's row");
    assert!(!deleting.is_finished());
    sqlx::query("UPDATE conversations SET updated_at = 'z' WHERE id = $1")
        .bind(&conversation)
        .execute(&mut batch)
        .await
        .unwrap();
    sqlx::query("COMMIT").execute(&mut batch).await.unwrap();

    deleting.await.unwrap().unwrap();
    let counts = rows(&store, user).await;
    assert!(counts.iter().all(|(_, n)| *n == 0), "{counts:?}");
    fresh.drop().await;
}

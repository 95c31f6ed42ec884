//! A message's row: how a question or an answer is written. Conversations store
//! questions and most answers; a run's writer stores a chat answer with the run's last
//! records, in one transaction (`runs/record.rs`).

use agent::protocol::ChatEvent;
use agent::ToolCallPlan;
use sqlx::AnyConnection;

use crate::error::BackendError;
use crate::ids::UserId;
use crate::statements::Statements;
use crate::store::Store;

/// A message to store, its plan and events already in their stored form (JSON).
pub(crate) struct NewMessage {
    conversation: String,
    /// An answer's public id; a question has none.
    public_id: Option<String>,
    content: String,
    plan: Option<String>,
    events: Option<String>,
}

impl NewMessage {
    pub(crate) fn new(
        conversation: &str,
        public_id: Option<&str>,
        content: &str,
        plan: Option<&ToolCallPlan>,
        events: &[ChatEvent],
    ) -> Result<NewMessage, serde_json::Error> {
        Ok(NewMessage {
            conversation: conversation.to_string(),
            public_id: public_id.map(str::to_string),
            content: content.to_string(),
            plan: plan.map(serde_json::to_string).transpose()?,
            events: if events.is_empty() { None } else { Some(serde_json::to_string(events)?) },
        })
    }

    /// Stores it in the caller's transaction, and moves its conversation's `updated_at`,
    /// in one call.
    pub(crate) async fn insert(&self, db: &mut AnyConnection, user: UserId) -> Result<(), sqlx::Error> {
        let now = crate::store::timestamp(chrono::Utc::now());
        let mut st = Statements::on(db);
        self.push(&mut st, user, &now);
        st.execute(db, true).await
    }

    /// The same, as writes of `st` (stored at `now`).
    pub(crate) fn push<'q>(&'q self, st: &mut Statements<'q>, user: UserId, now: &'q str) {
        NewMessage::push_all(st, user, &[(self, now)], Some(now));
    }

    /// `messages` (each with when it was written), of one conversation and in this
    /// order, as one write of `st` (their ids follow that order, even as parts of one
    /// PostgreSQL statement, which run in no set order); then that conversation's
    /// `updated_at` moved to `moved`, if given.
    pub(crate) fn push_all<'q>(
        st: &mut Statements<'q>,
        user: UserId,
        messages: &[(&'q NewMessage, &'q str)],
        moved: Option<&'q str>,
    ) {
        let Some((first, _)) = messages.first() else { return };
        let rows: Vec<String> = messages
            .iter()
            .map(|(m, at)| {
                let role = if m.public_id.is_some() { "assistant" } else { "user" };
                let values = [
                    st.bind(m.conversation.as_str()),
                    st.bind(user.0),
                    st.bind(role),
                    st.bind(m.content.as_str()),
                    st.bind(m.plan.as_deref()),
                    st.bind(m.events.as_deref()),
                    st.bind(*at),
                    st.bind(m.public_id.as_deref()),
                ];
                format!("({})", values.join(", "))
            })
            .collect();
        st.push(format!(
            "INSERT INTO messages (conversation_id, user_id, role, content, plan, events, created_at, public_id)
             VALUES {}",
            rows.join(", ")
        ));
        if let Some(moved) = moved {
            let (at, id, user) = (st.bind(moved), st.bind(first.conversation.as_str()), st.bind(user.0));
            st.push(format!(
                "UPDATE conversations SET updated_at = {at} WHERE id = {id} AND user_id = {user}"
            ));
        }
    }

    /// The conversation it belongs to.
    pub(crate) fn conversation(&self) -> &str {
        &self.conversation
    }
}

/// Stores an answer in `conversation` under its public id, with the plan it ran and
/// every event it sent.
pub(crate) async fn insert_answer(
    store: &Store,
    user: UserId,
    (conversation, public_id): (&str, &str),
    content: &str,
    plan: Option<&ToolCallPlan>,
    events: &[ChatEvent],
) -> Result<(), BackendError> {
    let answer = NewMessage::new(conversation, Some(public_id), content, plan, events)
        .map_err(|e| BackendError::Corrupt(e.to_string()))?;
    let mut tx = store.tenant(user).await?;
    answer.insert(&mut tx, user).await?;
    tx.commit().await?;
    Ok(())
}

/// An answer stored again with more events (a plan's steps, once they ran).
pub(crate) async fn rewrite_answer(
    store: &Store,
    user: UserId,
    public_id: &str,
    content: &str,
    events: &[ChatEvent],
) -> Result<(), BackendError> {
    let events = serde_json::to_string(events).map_err(|e| BackendError::Corrupt(e.to_string()))?;
    let mut tx = store.tenant(user).await?;
    sqlx::query("UPDATE messages SET content = $1, events = $2 WHERE user_id = $3 AND public_id = $4")
        .bind(content)
        .bind(events)
        .bind(user.0)
        .bind(public_id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(())
}

/// Whether the answer with this public id is stored.
pub(crate) async fn answer_exists(
    store: &Store,
    user: UserId,
    public_id: &str,
) -> Result<bool, BackendError> {
    let mut db = store.tenant_read(user).await?;
    let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM messages WHERE user_id = $1 AND public_id = $2")
        .bind(user.0)
        .bind(public_id)
        .fetch_one(&mut *db)
        .await?;
    db.commit().await?;
    Ok(n > 0)
}

//! A message's row: how a question or an answer is written. Conversations store
//! questions and most answers; a run's writer stores a chat answer with the run's last
//! records, in one transaction (`runs/record.rs`).

use agent::protocol::ChatEvent;
use agent::ToolCallPlan;
use sqlx::AnyConnection;

use crate::ids::UserId;

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

    /// Stores it in the caller's transaction; a trigger moves its conversation's
    /// `updated_at`.
    pub(crate) async fn insert(&self, db: &mut AnyConnection, user: UserId) -> Result<(), sqlx::Error> {
        self.insert_returning(db, user, "").await.map(|_| ())
    }

    /// The same for a question, returning its user's vocabulary stamp (the version of
    /// their categories, merchants, accounts and datasets, and their currency), read by
    /// the statement that stores it.
    pub(crate) async fn insert_stamped(
        &self,
        db: &mut AnyConnection,
        user: UserId,
    ) -> Result<Option<(i64, String)>, sqlx::Error> {
        let returning = " RETURNING (SELECT CAST(vocabulary_version AS BIGINT) FROM users WHERE id = $2),
                                    (SELECT currency FROM users WHERE id = $2)";
        let row = self.insert_returning(db, user, returning).await?;
        Ok(row.and_then(|r| {
            use sqlx::Row;
            let (version, currency): (Option<i64>, Option<String>) = (r.get(0), r.get(1));
            version.zip(currency)
        }))
    }

    async fn insert_returning(
        &self,
        db: &mut AnyConnection,
        user: UserId,
        returning: &str,
    ) -> Result<Option<sqlx::any::AnyRow>, sqlx::Error> {
        let role = if self.public_id.is_some() { "assistant" } else { "user" };
        let now = crate::store::timestamp(chrono::Utc::now());
        let sql = format!(
            "INSERT INTO messages (conversation_id, user_id, role, content, plan, events, created_at, public_id)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8){returning}"
        );
        sqlx::query(&sql)
            .bind(&self.conversation)
            .bind(user.0)
            .bind(role)
            .bind(&self.content)
            .bind(self.plan.as_deref())
            .bind(self.events.as_deref())
            .bind(&now)
            .bind(self.public_id.as_deref())
            .fetch_optional(&mut *db)
            .await
    }
}

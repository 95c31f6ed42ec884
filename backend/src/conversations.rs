//! Conversations as they are stored: created with the first message, each message kept
//! with its plan and the events it streamed, listed and read back for the history
//! sidebar and the chat page, renamed, deleted, and purged after the retention period.
//! Every query is scoped to the owner; anyone else's conversation is `NotFound`.

use agent::protocol::{ChatEvent, ConversationSummary, ConversationView, Role, StoredMessage};
use agent::runs::RunStatus;
use agent::ToolCallPlan;

use crate::approvals::Approvals;
use crate::error::BackendError;
use crate::ids::UserId;
use crate::messages::NewMessage;
use crate::runs::record::Recorder;
use crate::runs::{Opening, Runs, Start, Stored};
use crate::store::owner::Sweep;
use crate::store::Store;
use crate::widgets::{Visitor, Widgets};

/// Longest conversation title, in characters.
pub const MAX_TITLE_CHARS: usize = 120;

fn role(stored: &str) -> Role {
    if stored == "user" {
        Role::User
    } else {
        Role::Assistant
    }
}

/// The user's conversations, reached as `sou.conversations()`: what they read with —
/// the store, the runs that answered them, their approvals as they are now, and the
/// widget sites a visitor asks on — borrowed from the facade.
pub struct Conversations<'a> {
    pub(crate) store: &'a Store,
    pub(crate) runs: &'a Runs,
    pub(crate) approvals: &'a Approvals,
    pub(crate) widgets: &'a Widgets,
}

impl Conversations<'_> {
    /// The turns before the message being answered (stored last), oldest first: at
    /// most the last 20, as a model reads the conversation.
    pub(crate) async fn earlier_turns(
        &self,
        user: UserId,
        conversation: &str,
    ) -> Result<Vec<(Role, String)>, BackendError> {
        let mut db = self.store.tenant_read(user).await?;
        let rows: Vec<(String, String)> = sqlx::query_as(
            "SELECT role, content FROM messages WHERE conversation_id = $1 AND user_id = $2
             ORDER BY id DESC LIMIT 20 OFFSET 1",
        )
        .bind(conversation)
        .bind(user.0)
        .fetch_all(&mut *db)
        .await?;
        db.commit().await?;
        Ok(rows.into_iter().rev().map(|(stored_role, content)| (role(&stored_role), content)).collect())
    }

    pub(crate) async fn check_owner(&self, user: UserId, id: &str) -> Result<(), BackendError> {
        let mut db = self.store.tenant_read(user).await?;
        let mine: Option<i64> = sqlx::query_scalar(
            "SELECT 1 FROM conversations WHERE id = $1 AND user_id = $2 AND visitor IS NULL",
        )
        .bind(id)
        .bind(user.0)
        .fetch_optional(&mut *db)
        .await?;
        db.commit().await?;
        mine.map(|_| ()).ok_or(BackendError::NotFound)
    }

    /// A question and the run that answers it: the run's recorder, whose first batch
    /// stores the question (with its conversation when `new`) and the run's row. The
    /// answer may read meanwhile; it sends nothing before [`Stored`] says the question
    /// is there.
    pub(crate) async fn ask(
        &self,
        user: UserId,
        (conversation, new): (&str, bool),
        message: &str,
        visitor: Option<&Visitor>,
        (locale, started): (agent::Locale, std::time::Instant),
    ) -> Result<(Recorder, Stored), BackendError> {
        let question = NewMessage::new(conversation, None, message, None, &[])
            .map_err(|e| BackendError::Corrupt(e.to_string()))?;
        let opens = new.then(|| Opening {
            title: agent::protocol::conversation_title(message),
            site: visitor.map(|v| v.site.id.clone()),
            visitor: visitor.map(|v| v.key.clone()),
        });
        let start = Start {
            question,
            opens,
            locale,
            at: crate::store::timestamp(chrono::Utc::now()),
            owner: self.runs.hub.instance.clone(),
        };
        let run = uuid::Uuid::new_v4().simple().to_string();
        Ok(self.runs.start_run(user, run, started, start))
    }

    /// One of the visitor's conversations with its messages; anything else is
    /// `NotFound`.
    pub async fn of_visitor(
        &self,
        visitor: &Visitor,
        id: &str,
    ) -> Result<agent::protocol::ConversationView, BackendError> {
        self.widgets.check_visitor(visitor, id).await?;
        self.any(visitor.owner, id).await
    }

    /// The plan of the last answer that had one: the context for follow-ups.
    pub(crate) async fn last_plan(
        &self,
        user: UserId,
        conversation: &str,
    ) -> Result<Option<ToolCallPlan>, BackendError> {
        let mut db = self.store.tenant_read(user).await?;
        let plan: Option<String> = sqlx::query_scalar(
            "SELECT plan FROM messages WHERE conversation_id = $1 AND user_id = $2 AND plan IS NOT NULL
             ORDER BY id DESC LIMIT 1",
        )
        .bind(conversation)
        .bind(user.0)
        .fetch_optional(&mut *db)
        .await?;
        db.commit().await?;
        plan.map(|p| serde_json::from_str(&p).map_err(|e| BackendError::Corrupt(format!("stored plan: {e}"))))
            .transpose()
    }

    /// A conversation with its messages, for its owner only (a visitor's on the
    /// owner's widget is not the owner's to read).
    /// Each answer carries its run's trace (labels in `locale`), and an answer still
    /// being written (or a plan whose steps are running) shows the events it has so far.
    pub async fn get(
        &self,
        user: UserId,
        id: &str,
        locale: agent::Locale,
    ) -> Result<ConversationView, BackendError> {
        self.check_owner(user, id).await?;
        // The runs before the messages: a plan stores its whole answer before it ends, so
        // a run read as ended has its answer in the messages read next. (Read the other
        // way, a plan ending in between showed its old answer as ended, and no page
        // followed it.)
        let mut traces = self.runs.conversation_traces(user, id, locale).await?;
        let mut view = self.any(user, id).await?;
        for m in view.messages.iter_mut().filter(|m| m.role == Role::Assistant) {
            let Some(i) = traces.iter().position(|t| Some(&t.id) == m.id.as_ref()) else { continue };
            let trace = traces.remove(i);
            if matches!(trace.status, RunStatus::Running | RunStatus::Paused) {
                m.events = self.runs.events(user, &trace.id).await?;
            }
            m.trace = Some(Box::new(trace));
        }
        // An answer still being written has no message yet: its events so far.
        for trace in traces.into_iter().filter(|t| t.status == RunStatus::Running) {
            let events = self.runs.events(user, &trace.id).await?;
            view.messages.push(StoredMessage {
                id: Some(trace.id.clone()),
                role: Role::Assistant,
                content: String::new(),
                events,
                trace: Some(Box::new(trace)),
            });
        }
        Ok(view)
    }

    /// A conversation of `user`'s rows, whoever held it: the caller checked who asks.
    pub(crate) async fn any(&self, user: UserId, id: &str) -> Result<ConversationView, BackendError> {
        let mut db = self.store.tenant_read(user).await?;
        let title: String =
            sqlx::query_scalar("SELECT title FROM conversations WHERE id = $1 AND user_id = $2")
                .bind(id)
                .bind(user.0)
                .fetch_optional(&mut *db)
                .await?
                .ok_or(BackendError::NotFound)?;
        let rows: Vec<(String, String, Option<String>, Option<String>)> = sqlx::query_as(
            "SELECT role, content, events, public_id FROM messages WHERE conversation_id = $1 AND user_id = $2
             ORDER BY id",
        )
        .bind(id)
        .bind(user.0)
        .fetch_all(&mut *db)
        .await?;
        db.commit().await?;
        let mut messages = Vec::with_capacity(rows.len());
        for (stored_role, content, events, public_id) in rows {
            let mut events: Vec<ChatEvent> = match events {
                Some(e) => serde_json::from_str(&e)
                    .map_err(|e| BackendError::Corrupt(format!("stored events: {e}")))?,
                None => Vec::new(),
            };
            self.approvals.refresh_approvals(user, &mut events).await?;
            messages.push(StoredMessage {
                id: public_id,
                role: role(&stored_role),
                content,
                events,
                trace: None,
            });
        }
        Ok(ConversationView { id: id.to_string(), title, messages })
    }

    /// The user's conversations, most recently active first (at most `limit`).
    pub async fn list(&self, user: UserId, limit: u32) -> Result<Vec<ConversationSummary>, BackendError> {
        let mut db = self.store.tenant_read(user).await?;
        let rows: Vec<(String, String, String)> = sqlx::query_as(
            "SELECT id, title, updated_at FROM conversations WHERE user_id = $1 AND visitor IS NULL
             ORDER BY updated_at DESC, created_at DESC, id LIMIT $2",
        )
        .bind(user.0)
        .bind(i64::from(limit))
        .fetch_all(&mut *db)
        .await?;
        db.commit().await?;
        Ok(rows
            .into_iter()
            .map(|(id, title, updated_at)| ConversationSummary { id, title, updated_at })
            .collect())
    }

    /// Renames one of the user's conversations; anyone else's is `NotFound`.
    pub async fn rename(&self, user: UserId, id: &str, title: &str) -> Result<(), BackendError> {
        let title = title.trim();
        let n = title.chars().count();
        if n == 0 || n > MAX_TITLE_CHARS {
            return Err(BackendError::BadRequest(format!("a title has 1 to {MAX_TITLE_CHARS} characters")));
        }
        if agent::text::hidden_control(title).is_some() {
            return Err(BackendError::BadRequest(
                "a title may not contain control or text-direction characters".into(),
            ));
        }
        let query = sqlx::query(
            "UPDATE conversations SET title = $3 WHERE id = $1 AND user_id = $2 AND visitor IS NULL",
        )
        .bind(id)
        .bind(user.0);
        if !self.store.change(user, query.bind(title)).await? {
            return Err(BackendError::NotFound);
        }
        Ok(())
    }

    /// Deletes one of the user's conversations with its messages; anyone else's is
    /// `NotFound`.
    ///
    /// On PostgreSQL a delete can meet an answer's batch being stored in the same
    /// conversation: the batch holds its run's row and waits for the conversation's, the
    /// delete holds the conversation's and waits for the run's. PostgreSQL then stops one
    /// of them (after a second), most often the delete, which waited first: it is tried
    /// again (a batch is retried by its writer).
    pub async fn delete(&self, user: UserId, id: &str) -> Result<(), BackendError> {
        let mut attempt = 1;
        let deleted = loop {
            let query =
                sqlx::query("DELETE FROM conversations WHERE id = $1 AND user_id = $2 AND visitor IS NULL")
                    .bind(id)
                    .bind(user.0);
            match self.store.change(user, query).await {
                Err(sqlx::Error::Database(e)) if attempt < 3 && e.code().as_deref() == Some("40P01") => {
                    tracing::warn!(attempt, "deleting a conversation met a deadlock; trying again");
                    attempt += 1;
                }
                other => break other?,
            }
        };
        if !deleted {
            return Err(BackendError::NotFound);
        }
        Ok(())
    }

    /// Deletes every conversation not active for `days` days (the retention period),
    /// messages included. Returns how many went.
    pub async fn purge(&self, days: u32) -> Result<u64, BackendError> {
        let cutoff = crate::store::timestamp(chrono::Utc::now() - chrono::TimeDelta::days(i64::from(days)));
        Ok(self.store.sweep(Sweep::Conversations, &cutoff).await?)
    }
}

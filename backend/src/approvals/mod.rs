//! Writes, with the user's approval. A write plan (from the parser, a model or a
//! client) is never run: [`Approvals::propose`] computes its effect by a dry run and stores
//! an approval bound, by a digest, to the user, the canonical call, the rows it will
//! write, the effect shown and an expiry. [`ApprovalsOf::decide`] takes the user's answer:
//! `approve` runs it — exactly once, in one transaction, after checking the digest
//! again and that every row is still as the dry run saw it — `reject`, or `edit` (a new
//! dry run and a new approval replace it). Each executed write is a change that
//! [`Approvals::undo`] reverts, if its rows are still as it left them.
//!
//! The approval is committed before the write runs, and the write's transaction is the
//! only one that marks it executed: a server stopped in between finds it approved when
//! it starts again ([`Approvals::resume_approved`]) and runs it then, once.

use agent::protocol::ChatEvent;
use std::future::Future;
use std::pin::Pin;

use agent::{Approval, ApprovalState, Change, Effect, Locale, ToolCall, ToolCallPlan};
use sha2::{Digest, Sha256};
use sqlx::AnyConnection;

use crate::error::BackendError;
use crate::ids::Dialect;
use crate::ids::UserId;
use crate::store::owner::Owner;
use crate::store::{timestamp, Store};
use crate::tools::writes::{self, apply, RowChange, Way};
use crate::vocabulary::Parsers;

mod error;
pub use error::WriteError;

/// What the user answers to an approval.
#[derive(Clone, Debug)]
pub enum Decision {
    /// `digest`, when given, must be the approval's: "this, not another".
    Approve {
        digest: Option<String>,
    },
    Reject,
    /// New arguments for the same tool: a new dry run and a new approval.
    Edit {
        args: serde_json::Value,
    },
}

/// Refuses an edit that changes, adds or removes an argument the card does not show:
/// a Restaurants budget stays a Restaurants budget.
fn only_editable(call: &agent::ToolCall, args: &serde_json::Value) -> Result<(), WriteError> {
    let editable = agent::writes::editable_fields(call.name());
    let value = serde_json::json!({ "tool": call.name(), "args": args });
    // Arguments that are not valid are refused as such, after this.
    let Ok(edited) = crate::registry::Registry::get().validate(&value) else { return Ok(()) };
    let args_of = |c: &agent::ToolCall| {
        serde_json::to_value(c).ok().and_then(|v| v.get("args").cloned()).unwrap_or_default()
    };
    let (old, new) = (args_of(call), args_of(&edited));
    let empty = serde_json::Map::new();
    let (old, new) = (old.as_object().unwrap_or(&empty), new.as_object().unwrap_or(&empty));
    let mut keys: Vec<&String> = old.keys().chain(new.keys()).collect();
    keys.sort();
    keys.dedup();
    for key in keys {
        if !editable.contains(&key.as_str()) && old.get(key) != new.get(key) {
            let key: String = key.chars().take(40).collect();
            return Err(WriteError::NotEditable(key));
        }
    }
    Ok(())
}

/// The digest an approval is bound to.
fn digest(user: UserId, call: &str, rows: &str, effect: &str, expires_at: &str) -> String {
    let mut h = Sha256::new();
    for part in [user.0.to_string().as_str(), call, rows, effect, expires_at] {
        h.update((part.len() as u64).to_be_bytes());
        h.update(part.as_bytes());
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

fn corrupt(e: serde_json::Error) -> BackendError {
    BackendError::Corrupt(e.to_string())
}

fn to_json<T: serde::Serialize>(v: &T) -> Result<String, BackendError> {
    serde_json::to_string(v).map_err(corrupt)
}

const COLUMNS: &str =
    "id, plan, title, effect, digest, state, expires_at, change_id, reason, rows, conversation_id, resume";

/// An approval's row, read.
#[derive(sqlx::FromRow)]
struct Stored {
    id: String,
    plan: String,
    title: String,
    effect: String,
    digest: String,
    state: String,
    expires_at: String,
    change_id: Option<String>,
    reason: Option<String>,
    rows: String,
    #[sqlx(rename = "conversation_id")]
    conversation: Option<String>,
    /// The model's tool loop that proposed it, waiting for the decision (JSON).
    resume: Option<String>,
}

impl Stored {
    fn plan(&self) -> Result<ToolCallPlan, BackendError> {
        serde_json::from_str(&self.plan).map_err(corrupt)
    }

    /// The state as the user sees it: a pending approval past its expiry has expired.
    fn state(&self, now: &str) -> Result<ApprovalState, BackendError> {
        let state = ApprovalState::parse(&self.state)
            .ok_or_else(|| BackendError::Corrupt(format!("approval state {:?}", self.state)))?;
        Ok(if state == ApprovalState::Pending && *now >= *self.expires_at {
            ApprovalState::Expired
        } else {
            state
        })
    }

    /// Whether it is still bound to what was shown: the digest of its columns.
    fn intact(&self, user: UserId) -> Result<bool, BackendError> {
        let call = to_json(&self.plan()?.call)?;
        Ok(digest(user, &call, &self.rows, &self.effect, &self.expires_at) == self.digest)
    }
}

async fn stored(db: &mut AnyConnection, user: UserId, id: &str) -> Result<Stored, BackendError> {
    if !crate::reports::well_formed(id) {
        return Err(BackendError::NotFound);
    }
    sqlx::query_as(&format!("SELECT {COLUMNS} FROM approvals WHERE user_id = $1 AND id = $2"))
        .bind(user.0)
        .bind(id)
        .fetch_optional(&mut *db)
        .await?
        .ok_or(BackendError::NotFound)
}

async fn change_of(db: &mut AnyConnection, user: UserId, id: &str) -> Result<Option<Change>, BackendError> {
    let row: Option<ChangeRow> =
        sqlx::query_as(&format!("SELECT {CHANGE_COLUMNS} FROM changes WHERE user_id = $1 AND id = $2"))
            .bind(user.0)
            .bind(id)
            .fetch_optional(&mut *db)
            .await?;
    Ok(row.map(Change::from))
}

const CHANGE_COLUMNS: &str = "id, tool, summary, created_at, undone_at";

/// A change's row, read.
#[derive(sqlx::FromRow)]
struct ChangeRow {
    id: String,
    tool: String,
    summary: String,
    created_at: String,
    undone_at: Option<String>,
}

impl From<ChangeRow> for Change {
    fn from(r: ChangeRow) -> Change {
        Change {
            id: r.id,
            tool: r.tool,
            summary: r.summary,
            created_at: r.created_at,
            undone_at: r.undone_at,
        }
    }
}

fn reason_text(code: &str, locale: Locale) -> String {
    let code = if code == "changed" { "approval_changed" } else { "conflict" };
    agent::writes::refusal_text(code, locale).unwrap_or_default().to_string()
}

async fn view(db: &mut AnyConnection, user: UserId, s: Stored) -> Result<Approval, BackendError> {
    let plan = s.plan()?;
    let state = s.state(&timestamp(chrono::Utc::now()))?;
    let change = match &s.change_id {
        Some(id) => change_of(db, user, id).await?,
        None => None,
    };
    let reason = s.reason.as_deref().map(|code| reason_text(code, plan.meta.locale));
    Ok(Approval {
        id: s.id,
        effect: serde_json::from_str::<Effect>(&s.effect).map_err(corrupt)?,
        plan,
        title: s.title,
        digest: s.digest,
        expires_at: s.expires_at,
        state,
        change,
        reason,
        continued_in: None,
    })
}

/// How long a proposed write waits for the user, and a pause between an approval and
/// its execution (for crash tests only; zero otherwise).
#[derive(Clone, Copy, Debug)]
pub struct WriteConfig {
    pub approval_ttl: std::time::Duration,
    pub pause_before_execute: std::time::Duration,
}

impl Default for WriteConfig {
    fn default() -> WriteConfig {
        WriteConfig {
            approval_ttl: std::time::Duration::from_secs(30 * 60),
            pause_before_execute: std::time::Duration::ZERO,
        }
    }
}

/// What a decision needs from the chat: a model's tool loop that proposed the write
/// goes on once it is decided. Returns the run that does, if any.
pub(crate) trait Resume: Send + Sync {
    fn go_on<'a>(
        &'a self,
        user: UserId,
        approval: &'a Approval,
    ) -> Pin<Box<dyn Future<Output = Option<String>> + Send + 'a>>;
}

/// Proposed writes, their decisions, the changes they made and their undoing.
#[derive(Clone)]
pub struct Approvals {
    store: Store,
    parsers: Parsers,
    pub(crate) config: WriteConfig,
}

/// [`Approvals`] as the surfaces reach them: with the chat, which a decision lets go on.
pub struct ApprovalsOf<'a> {
    approvals: &'a Approvals,
    resume: &'a dyn Resume,
}

impl<'a> ApprovalsOf<'a> {
    pub(crate) fn new(approvals: &'a Approvals, resume: &'a dyn Resume) -> ApprovalsOf<'a> {
        ApprovalsOf { approvals, resume }
    }

    /// The user's answer to an approval: approves, rejects or edits a pending one.
    /// Returns the approval as it is after it (for an edit, the new one that replaced
    /// it). A model's tool loop that proposed it goes on once it is approved (and run)
    /// or rejected, with what became of it.
    pub async fn decide(&self, user: UserId, id: &str, decision: Decision) -> Result<Approval, WriteError> {
        let goes_on = !matches!(decision, Decision::Edit { .. });
        let mut approval = self.approvals.decide(user, id, decision).await?;
        if goes_on {
            approval.continued_in = self.resume.go_on(user, &approval).await;
        }
        Ok(approval)
    }
}

impl std::ops::Deref for ApprovalsOf<'_> {
    type Target = Approvals;

    fn deref(&self) -> &Approvals {
        self.approvals
    }
}

impl Approvals {
    pub(crate) fn new(store: Store, parsers: Parsers) -> Approvals {
        Approvals { store, parsers, config: WriteConfig::default() }
    }

    /// The vocabulary a write's title is worded with.
    async fn parser(&self, user: UserId) -> Result<std::sync::Arc<agent::Parser>, BackendError> {
        self.parsers.get(&self.store, user, None).await
    }

    /// A transaction that may write `user`'s rows with `tools::writes::rows::apply`:
    /// one at a time per user. SQLite's writer transaction is alone already; on
    /// PostgreSQL (read committed) the user's advisory lock makes a write's check of its
    /// rows and its writing of them one step that no other write interleaves with.
    async fn writer(&self, user: UserId) -> Result<crate::store::Tenant, BackendError> {
        let mut db = self.store.tenant(user).await?;
        if self.store.dialect() == Dialect::Postgres {
            sqlx::query("SELECT pg_advisory_xact_lock(7170, CAST($1 AS INTEGER))")
                .bind(i32::try_from(user.0 % i64::from(i32::MAX)).unwrap_or_default())
                .execute(&mut *db)
                .await?;
        }
        Ok(db)
    }

    /// Proposes a write: its dry run, stored as a pending approval (in `conversation`,
    /// when asked in one). The plan must be a validated write.
    pub async fn propose(
        &self,
        user: UserId,
        conversation: Option<&str>,
        plan: &ToolCallPlan,
    ) -> Result<Approval, WriteError> {
        if !plan.call.is_write() {
            return Err(BackendError::BadRequest(format!(
                "{} reads; it needs no approval",
                plan.call.name()
            ))
            .into());
        }
        // Whoever made the plan (the parser's are not read from JSON), the registry's
        // checks hold: a write says which rows it is about.
        crate::registry::check_call(&plan.call).map_err(BackendError::from)?;
        let locale = plan.meta.locale;
        let parser = self.parser(user).await?;
        let vocab = parser.vocabulary();
        let mut db = self.store.tenant(user).await?;
        let run = writes::dry_run(&mut db, user, &plan.call, locale).await?;
        writes::check_size(&run)?;
        if run.effect.empty {
            return Err(WriteError::Nothing);
        }
        let title = agent::tool::describe(vocab, &plan.call, locale);
        let id = crate::reports::new_id();
        let now = chrono::Utc::now();
        let expires_at =
            timestamp(now + chrono::Duration::from_std(self.config.approval_ttl).unwrap_or_default());
        let (call, rows, effect) = (to_json(&plan.call)?, to_json(&run.rows)?, to_json(&run.effect)?);
        let digest = digest(user, &call, &rows, &effect, &expires_at);
        sqlx::query(
            "INSERT INTO approvals (id, user_id, conversation_id, plan, title, effect, rows, digest, created_at, expires_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
        )
        .bind(&id)
        .bind(user.0)
        .bind(conversation)
        .bind(to_json(plan)?)
        .bind(&title)
        .bind(&effect)
        .bind(&rows)
        .bind(&digest)
        .bind(timestamp(now))
        .bind(&expires_at)
        .execute(&mut *db)
        .await?;
        let s = stored(&mut db, user, &id).await?;
        let approval = view(&mut db, user, s).await?;
        db.commit().await?;
        tracing::info!(user = %crate::trace::user(user), tool = plan.call.name(), rows = run.rows.len(), "write proposed");
        Ok(approval)
    }

    /// An approval of `user`'s, as it is now.
    pub async fn approval(&self, user: UserId, id: &str) -> Result<Approval, BackendError> {
        let mut db = self.store.tenant_read(user).await?;
        let s = stored(&mut db, user, id).await?;
        let approval = view(&mut db, user, s).await?;
        db.commit().await?;
        Ok(approval)
    }

    /// Keeps a model's tool loop with the approval of the write it proposed.
    pub(crate) async fn pause_for_approval(
        &self,
        user: UserId,
        approval: &str,
        paused: &Paused,
    ) -> Result<(), BackendError> {
        self.keep_resume(user, approval, &to_json(paused)?).await
    }

    async fn keep_resume(&self, user: UserId, approval: &str, resume: &str) -> Result<(), BackendError> {
        let mut db = self.store.tenant(user).await?;
        sqlx::query("UPDATE approvals SET resume = $1 WHERE user_id = $2 AND id = $3")
            .bind(resume)
            .bind(user.0)
            .bind(approval)
            .execute(&mut *db)
            .await?;
        db.commit().await?;
        Ok(())
    }

    /// The tool loop kept with a decided approval, and its conversation; taken once.
    pub(crate) async fn take_paused(
        &self,
        user: UserId,
        approval: &str,
    ) -> Result<Option<(Paused, String)>, BackendError> {
        let mut db = self.store.tenant(user).await?;
        let s = stored(&mut db, user, approval).await?;
        let taken = sqlx::query(
            "UPDATE approvals SET resume = NULL WHERE user_id = $1 AND id = $2 AND resume IS NOT NULL",
        )
        .bind(user.0)
        .bind(approval)
        .execute(&mut *db)
        .await?
        .rows_affected();
        db.commit().await?;
        match (s.resume, s.conversation) {
            (Some(r), Some(c)) if taken == 1 => Ok(Some((serde_json::from_str(&r).map_err(corrupt)?, c))),
            _ => Ok(None),
        }
    }

    /// Approves, rejects or edits a pending approval, and nothing more: the surfaces
    /// decide through [`ApprovalsOf::decide`], which lets a waiting tool loop go on.
    async fn decide(&self, user: UserId, id: &str, decision: Decision) -> Result<Approval, WriteError> {
        let now = timestamp(chrono::Utc::now());
        let mut db = self.store.tenant(user).await?;
        let s = stored(&mut db, user, id).await?;
        match s.state(&now)? {
            ApprovalState::Pending => {}
            ApprovalState::Expired => return Err(WriteError::Expired),
            other => return Err(WriteError::Decided(other)),
        }
        if let Decision::Edit { args } = &decision {
            only_editable(&s.plan()?.call, args)?;
        }
        let target = match &decision {
            Decision::Approve { digest: Some(d) } if *d != s.digest => return Err(WriteError::Changed),
            Decision::Approve { .. } => "approved",
            Decision::Reject => "rejected",
            Decision::Edit { .. } => "superseded",
        };
        let moved = sqlx::query(
            "UPDATE approvals SET state = $1, decided_at = $2
             WHERE user_id = $3 AND id = $4 AND state = 'pending' AND expires_at > $2",
        )
        .bind(target)
        .bind(&now)
        .bind(user.0)
        .bind(id)
        .execute(&mut *db)
        .await?
        .rows_affected();
        if moved == 0 {
            // Another request decided it first.
            return Err(WriteError::Decided(ApprovalState::Approved));
        }
        match decision {
            Decision::Approve { .. } => {
                db.commit().await?;
                tracing::info!(user = %crate::trace::user(user), "write approved");
                // The write runs in a task of its own: a client that goes away does not
                // leave it approved and not run.
                let (approvals, id, pause) = (self.clone(), id.to_string(), self.config.pause_before_execute);
                let run = tokio::spawn(async move {
                    if !pause.is_zero() {
                        tokio::time::sleep(pause).await;
                    }
                    approvals.execute(user, &id).await
                });
                run.await.map_err(|e| BackendError::Corrupt(format!("the write's task: {e}")))?
            }
            Decision::Reject => {
                let s = stored(&mut db, user, id).await?;
                let approval = view(&mut db, user, s).await?;
                db.commit().await?;
                Ok(approval)
            }
            Decision::Edit { args } => {
                let old = s.plan()?;
                let value = serde_json::json!({ "tool": old.call.name(), "args": args });
                let mut call =
                    crate::registry::Registry::get().validate(&value).map_err(BackendError::from)?;
                agent::period::renamed(&mut call, old.meta.locale);
                db.commit().await?;
                let mut plan = old.clone();
                plan.call = call;
                plan.meta.confidence = agent::Confidence::High;
                plan.meta.confidence_reasons =
                    vec![agent::Reason::new(agent::ReasonCode::UserSelected, plan.meta.locale, &s.title)];
                let result = self.propose(user, s.conversation.as_deref(), &plan).await;
                if result.is_err() {
                    // The edit was refused: the approval it would replace waits again.
                    let mut db = self.store.tenant(user).await?;
                    sqlx::query(
                        "UPDATE approvals SET state = 'pending', decided_at = NULL
                         WHERE user_id = $1 AND id = $2 AND state = 'superseded'",
                    )
                    .bind(user.0)
                    .bind(id)
                    .execute(&mut *db)
                    .await?;
                    db.commit().await?;
                }
                let approval = result?;
                // A model's tool loop waits for the edited approval now.
                if let Some(resume) = &s.resume {
                    self.keep_resume(user, &approval.id, resume).await?;
                }
                if let Some(conversation) = &s.conversation {
                    // The new approval exists; the conversation only shows it.
                    if let Err(e) = self.post_approval(user, conversation, &approval).await {
                        tracing::error!(error = %e, "adding the edited approval to its conversation failed");
                    }
                }
                Ok(approval)
            }
        }
    }

    /// Adds a new approval to its conversation, as an answer, so the page shows it.
    async fn post_approval(
        &self,
        user: UserId,
        conversation: &str,
        approval: &Approval,
    ) -> Result<(), BackendError> {
        let message_id = uuid::Uuid::new_v4().simple().to_string();
        let events = [
            ChatEvent::Plan { plan: approval.plan.clone() },
            ChatEvent::ApprovalRequired { approval: Box::new(approval.clone()) },
        ];
        crate::messages::insert_answer(
            &self.store,
            user,
            (conversation, &message_id),
            "",
            Some(&approval.plan),
            &events,
        )
        .await
    }

    /// Runs an approved write: once, in one transaction, only if it is still bound to
    /// what was shown and every row is as the dry run saw it.
    async fn execute(&self, user: UserId, id: &str) -> Result<Approval, WriteError> {
        let mut db = self.writer(user).await?;
        // Takes the row (PostgreSQL locks it; SQLite's writer transaction is alone), so
        // two executions cannot both find it approved.
        let claimed = sqlx::query(
            "UPDATE approvals SET decided_at = decided_at WHERE user_id = $1 AND id = $2 AND state = 'approved'",
        )
        .bind(user.0)
        .bind(id)
        .execute(&mut *db)
        .await?
        .rows_affected();
        let s = stored(&mut db, user, id).await?;
        if claimed == 0 {
            let now = timestamp(chrono::Utc::now());
            return Err(WriteError::Decided(s.state(&now)?));
        }
        let outcome = self.write(&mut db, user, &s).await;
        match outcome {
            Ok(()) => {
                let s = stored(&mut db, user, id).await?;
                let approval = view(&mut db, user, s).await?;
                db.commit().await?;
                tracing::info!(user = %crate::trace::user(user), "write executed");
                Ok(approval)
            }
            Err(e) => {
                db.rollback().await?;
                let code = match &e {
                    WriteError::Changed => "changed",
                    WriteError::Conflict(_) => "conflict",
                    // Not the data's fault: it stays approved and runs again on restart.
                    _ => return Err(e),
                };
                tracing::warn!(user = %crate::trace::user(user), error = %e, "approved write refused");
                let mut db = self.store.tenant(user).await?;
                sqlx::query(
                    "UPDATE approvals SET state = 'failed', reason = $1 WHERE user_id = $2 AND id = $3 AND state = 'approved'",
                )
                .bind(code)
                .bind(user.0)
                .bind(id)
                .execute(&mut *db)
                .await?;
                db.commit().await?;
                Err(e)
            }
        }
    }

    /// The write itself, inside the caller's transaction.
    async fn write(&self, db: &mut AnyConnection, user: UserId, s: &Stored) -> Result<(), WriteError> {
        if !s.intact(user)? {
            return Err(WriteError::Changed);
        }
        let rows: Vec<RowChange> = serde_json::from_str(&s.rows).map_err(corrupt)?;
        apply(db, user, &rows, Way::Forward).await?;
        let change = crate::reports::new_id();
        sqlx::query(
            "INSERT INTO changes (id, user_id, approval_id, tool, summary, rows, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(&change)
        .bind(user.0)
        .bind(&s.id)
        .bind(s.plan()?.call.name())
        .bind(&s.title)
        .bind(&s.rows)
        .bind(timestamp(chrono::Utc::now()))
        .execute(&mut *db)
        .await?;
        let done = sqlx::query(
            "UPDATE approvals SET state = 'executed', change_id = $1 WHERE user_id = $2 AND id = $3 AND state = 'approved'",
        )
        .bind(&change)
        .bind(user.0)
        .bind(&s.id)
        .execute(&mut *db)
        .await?
        .rows_affected();
        if done != 1 {
            return Err(WriteError::Decided(ApprovalState::Executed));
        }
        Ok(())
    }

    /// Runs, once, every write approved before the server stopped and not run yet.
    pub async fn resume_approved(&self) -> Result<usize, BackendError> {
        let pending: Vec<(String, i64)> = sqlx::query_as(Owner::ApprovedWrites.sql(self.store.dialect()))
            .fetch_all(self.store.pool())
            .await?;
        let mut ran = 0;
        for (id, user) in pending {
            match self.execute(UserId(user), &id).await {
                Ok(_) => ran += 1,
                Err(e) => tracing::warn!(error = %e, "an approved write did not run at start"),
            }
        }
        if ran > 0 {
            tracing::info!(writes = ran, "approved writes run at start");
        }
        Ok(ran)
    }

    /// Undoes an executed write: its rows back as they were, if each is still as the
    /// write left it; otherwise nothing changes.
    pub async fn undo(&self, user: UserId, id: &str) -> Result<Change, WriteError> {
        if !crate::reports::well_formed(id) {
            return Err(BackendError::NotFound.into());
        }
        let mut db = self.writer(user).await?;
        let row: Option<(String, Option<String>)> =
            sqlx::query_as("SELECT rows, undone_at FROM changes WHERE user_id = $1 AND id = $2")
                .bind(user.0)
                .bind(id)
                .fetch_optional(&mut *db)
                .await?;
        let (rows, undone) = row.ok_or(BackendError::NotFound)?;
        if undone.is_some() {
            return Err(WriteError::Undone);
        }
        let rows: Vec<RowChange> = serde_json::from_str(&rows).map_err(corrupt)?;
        if let Err(e) = apply(&mut db, user, &rows, Way::Back).await {
            db.rollback().await?;
            return Err(e.into());
        }
        let marked = sqlx::query(
            "UPDATE changes SET undone_at = $1 WHERE user_id = $2 AND id = $3 AND undone_at IS NULL",
        )
        .bind(timestamp(chrono::Utc::now()))
        .bind(user.0)
        .bind(id)
        .execute(&mut *db)
        .await?
        .rows_affected();
        if marked != 1 {
            db.rollback().await?;
            return Err(WriteError::Undone);
        }
        let change = change_of(&mut db, user, id).await?.ok_or(BackendError::NotFound)?;
        db.commit().await?;
        tracing::info!(user = %crate::trace::user(user), "change undone");
        Ok(change)
    }

    /// The user's changes, newest first (at most 200).
    pub async fn changes(&self, user: UserId) -> Result<Vec<Change>, BackendError> {
        let mut db = self.store.tenant_read(user).await?;
        let rows: Vec<ChangeRow> = sqlx::query_as(&format!(
            "SELECT {CHANGE_COLUMNS} FROM changes WHERE user_id = $1 ORDER BY created_at DESC, id LIMIT 200"
        ))
        .bind(user.0)
        .fetch_all(&mut *db)
        .await?;
        db.commit().await?;
        Ok(rows.into_iter().map(Change::from).collect())
    }

    /// A write the user asked for in a form (the budgets page, a rule applied to the
    /// past): the form is the approval of exactly what it says (or showed), so it runs
    /// at once — as a change, undoable. Returns it and how many transactions it changed.
    pub async fn write_now(
        &self,
        user: UserId,
        call: &ToolCall,
        locale: Locale,
    ) -> Result<(Change, u32), WriteError> {
        let parser = self.parser(user).await?;
        let vocab = parser.vocabulary();
        let mut db = self.writer(user).await?;
        let run = writes::dry_run(&mut db, user, call, locale).await?;
        writes::check_size(&run)?;
        if run.effect.empty {
            return Err(WriteError::Nothing);
        }
        apply(&mut db, user, &run.rows, Way::Forward).await?;
        let id = crate::reports::new_id();
        sqlx::query(
            "INSERT INTO changes (id, user_id, tool, summary, rows, created_at) VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(&id)
        .bind(user.0)
        .bind(call.name())
        .bind(agent::tool::describe(vocab, call, locale))
        .bind(to_json(&run.rows)?)
        .bind(timestamp(chrono::Utc::now()))
        .execute(&mut *db)
        .await?;
        let change = change_of(&mut db, user, &id).await?.ok_or(BackendError::NotFound)?;
        db.commit().await?;
        Ok((change, run.effect.transactions))
    }

    /// Stored answers show their approvals as they are now, not as they were asked.
    pub(crate) async fn refresh_approvals(
        &self,
        user: UserId,
        events: &mut [ChatEvent],
    ) -> Result<(), BackendError> {
        if !events.iter().any(|e| matches!(e, ChatEvent::ApprovalRequired { .. })) {
            return Ok(());
        }
        let mut db = self.store.tenant_read(user).await?;
        for event in events.iter_mut() {
            if let ChatEvent::ApprovalRequired { approval } = event {
                if let Ok(s) = stored(&mut db, user, &approval.id).await {
                    **approval = view(&mut db, user, s).await?;
                }
            }
        }
        db.commit().await?;
        Ok(())
    }
}

/// A tool loop waiting for a person's decision on a write it proposed: its turns so
/// far, the last holding each call's result but the write's, which the decision gives.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Paused {
    /// The model that asked (its name) and whether it was the complex tier.
    pub model: String,
    pub complex: bool,
    /// The read tools it was offered; the writes too when `writes`.
    pub tools: Vec<String>,
    pub writes: bool,
    pub locale: agent::Locale,
    pub messages: Vec<crate::llm::LlmMessage>,
    /// The write's call, whose result the decision gives.
    pub call: String,
    /// The round it was proposed in.
    pub round: usize,
}

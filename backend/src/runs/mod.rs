//! Runs: every answer is a run, recorded as it goes — its steps (with their timings,
//! tokens, cost, arguments and sources), every event it streamed (numbered, so a client
//! that reconnects gets exactly what it missed, from any Sou server on the same
//! database) and every model call (usage). A [`Recorder`] hands what happens to a
//! writer task that stores it in batches, so an answer's first event never waits for
//! the database.

mod attach;
mod batch;
pub(crate) mod emitter;
mod notify;
pub mod plans;
pub(crate) mod record;
pub(crate) mod steps;
pub(crate) mod stored;
pub mod usage;

use std::collections::HashMap;
use std::time::Instant;

use agent::protocol::ChatEvent;
use agent::runs::{RunStatus, RunTrace, Sources, Step, StepKind, StepStatus};

use crate::error::BackendError;
use crate::ids::UserId;
use crate::store::owner::{Owner, Sweep};

pub(crate) use batch::{Opening, Start};
use emitter::ChatStream;
use plans::{Gate, RunAction, RunError};
use record::Recorder;
pub use record::{RunConfig, Runs, UsageLimits};
pub(crate) use stored::Stored;

/// Runs with what proposes a plan's writes for approval: how the surfaces reach them
/// (`Sou::runs`). What needs no write is [`Runs`]'s own.
pub struct RunsOf<'a> {
    runs: &'a Runs,
    gate: &'a dyn Gate,
}

impl<'a> RunsOf<'a> {
    pub(crate) fn new(runs: &'a Runs, gate: &'a dyn Gate) -> RunsOf<'a> {
        RunsOf { runs, gate }
    }

    /// `POST /api/v1/runs/{id}/{action}`: accepting or resuming a plan starts its steps
    /// in a task of their own; the client follows them on the run's events.
    pub async fn act(&self, user: UserId, run: &str, action: RunAction) -> Result<RunTrace, RunError> {
        self.runs.act(self.gate, user, run, action).await
    }

    /// The events of `user`'s run `run` after number `after`, then the rest until its
    /// end (a plan a stopped server left is taken over). Another user's run, or an
    /// unknown one, is not found.
    pub async fn attach(&self, user: UserId, run: &str, after: u64) -> Result<ChatStream, BackendError> {
        self.runs.attach(self.gate.owned(), user, run, after).await
    }

    /// Closes the runs a stopped server left running (an accepted plan is taken over
    /// instead): at start and by the hourly sweep. How many.
    pub async fn close_stale(&self) -> Result<usize, BackendError> {
        self.runs.close_stale(self.gate).await
    }
}

impl std::ops::Deref for RunsOf<'_> {
    type Target = Runs;

    fn deref(&self) -> &Runs {
        self.runs
    }
}

/// What a stop left: answers and plans that ended within the grace period, and those
/// that were cut short (answers, ended as interrupted) or left for the next server (plans).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Drained {
    pub finished: usize,
    pub interrupted: usize,
}

impl Runs {
    /// The server is stopping: no new plan step starts; answers and plans in flight get
    /// `grace` to end, then answers still being written end as interrupted (with their
    /// terminal events and an answer in the conversation saying to ask again) and plans
    /// stop after their current step, left for the next server to take over. Returns once
    /// every answer has written its end (a few seconds at most after `grace`).
    pub async fn drain(&self, grace: std::time::Duration) -> Drained {
        let hub = &self.hub;
        let before = hub.in_flight();
        let deadline = Instant::now() + grace;
        let wait = |until: Instant| async move {
            while hub.in_flight() > 0 && Instant::now() < until {
                tokio::time::sleep(std::time::Duration::from_millis(50)).await;
            }
        };
        // Answers get the grace period to finish as usual; then they are stopped.
        wait(deadline).await;
        let left = hub.in_flight();
        hub.drain();
        hub.stop_all();
        wait(Instant::now() + std::time::Duration::from_secs(5)).await;
        Drained { finished: before.saturating_sub(left), interrupted: left }
    }

    /// Whether this server is stopping.
    pub(crate) fn draining(&self) -> bool {
        self.hub.draining()
    }

    /// The recorder of a chat run that `start`s (its question and row are stored by its
    /// first batch), and what says when they are.
    pub(crate) fn start_run(
        &self,
        user: UserId,
        id: String,
        started: Instant,
        start: Start,
    ) -> (Recorder, Stored) {
        Recorder::start(self, (user, id), started, start)
    }

    /// `GET /api/v1/runs/{id}`: a run of `user`'s, with its steps and the first
    /// transactions each step rests on.
    pub async fn trace(
        &self,
        user: UserId,
        id: &str,
        locale: agent::Locale,
    ) -> Result<RunTrace, BackendError> {
        let mut traces = self.traces(user, TraceOf::Run(id)).await?;
        let mut trace = traces.pop().ok_or(BackendError::NotFound)?;
        trace.source_rows = crate::tools::source_rows(&self.store, user, &trace, locale).await?;
        Ok(trace)
    }

    /// The transactions step `step` of run `run` rests on, page `page` (from 1) of
    /// `per_page`, in the step's order; with the step, the run's conversation and how
    /// many there are in all.
    pub async fn sources(
        &self,
        user: UserId,
        run: &str,
        step: u32,
        (page, per_page): (u32, u32),
        locale: agent::Locale,
    ) -> Result<RunSources, BackendError> {
        let mut traces = self.traces(user, TraceOf::Run(run)).await?;
        let trace = traces.pop().ok_or(BackendError::NotFound)?;
        let found = trace.steps.into_iter().find(|s| s.seq == step).ok_or(BackendError::NotFound)?;
        let ids = &found.sources.transactions;
        let total = found.sources.transaction_count();
        let per_page = per_page.clamp(1, 500) as usize;
        let from = (page.max(1) as usize - 1).saturating_mul(per_page);
        let rows = if from + per_page <= ids.len() || total == ids.len() as u64 {
            // The page is among the ids the step kept.
            let shown: Vec<i64> = ids.iter().skip(from).take(per_page).copied().collect();
            crate::tools::rows_by_id(&self.store, user, &shown, locale).await?
        } else {
            // Past them: the step's call is read again for that page, as the data is now.
            let call = found.tool.as_deref().zip(found.arguments.as_ref()).and_then(|(tool, args)| {
                crate::registry::Registry::get()
                    .validate(&serde_json::json!({ "tool": tool, "args": args }))
                    .ok()
            });
            match call {
                Some(call) => {
                    crate::tools::source_page(&self.store, user, &call, locale, (per_page, from)).await?
                }
                None => Vec::new(),
            }
        };
        Ok(RunSources { conversation_id: trace.conversation_id, total, rows, step: found })
    }

    /// A run's status and its plan, if it has one: what a decision needs, without the
    /// trace's steps and sources.
    pub async fn state(
        &self,
        user: UserId,
        run: &str,
    ) -> Result<(RunStatus, Option<agent::runs::RunPlan>, agent::Locale), BackendError> {
        let mut db = self.store.tenant_read(user).await?;
        let (status, plan, locale): (String, Option<String>, String) =
            sqlx::query_as("SELECT status, plan, locale FROM runs WHERE id = $1 AND user_id = $2")
                .bind(run)
                .bind(user.0)
                .fetch_optional(&mut *db)
                .await?
                .ok_or(BackendError::NotFound)?;
        db.commit().await?;
        let status = RunStatus::parse(&status)
            .ok_or_else(|| BackendError::Corrupt(format!("run status {status:?}")))?;
        let plan = plan
            .map(|p| serde_json::from_str(&p))
            .transpose()
            .map_err(|e| BackendError::Corrupt(format!("run plan: {e}")))?;
        Ok((status, plan, agent::Locale::from_tag(&locale).unwrap_or_default()))
    }

    /// The runs of a conversation, oldest first (the chat page's trace panels).
    pub async fn conversation_traces(
        &self,
        user: UserId,
        conversation: &str,
        locale: agent::Locale,
    ) -> Result<Vec<RunTrace>, BackendError> {
        let mut traces = self.traces(user, TraceOf::Conversation(conversation)).await?;
        for t in &mut traces {
            t.source_rows = crate::tools::source_rows(&self.store, user, t, locale).await?;
        }
        Ok(traces)
    }

    async fn traces(&self, user: UserId, of: TraceOf<'_>) -> Result<Vec<RunTrace>, BackendError> {
        let (filter, key) = match of {
            TraceOf::Run(id) => ("r.id = $2", id),
            TraceOf::Conversation(c) => ("r.conversation_id = $2", c),
        };
        let mut db = self.store.tenant_read(user).await?;
        let runs: Vec<RunRow> = sqlx::query_as(&format!(
            "SELECT r.id, r.conversation_id, r.status, r.started_at, r.finished_at, r.total_ms,
                    r.answer_confidence, r.plan, r.next_step
             FROM runs r WHERE r.user_id = $1 AND {filter} ORDER BY r.started_at, r.id"
        ))
        .bind(user.0)
        .bind(key)
        .fetch_all(&mut *db)
        .await?;
        let steps: Vec<StepRow> = sqlx::query_as(&format!(
            "SELECT s.run_id, s.seq, s.kind, s.status, s.title, s.tool, s.arguments, s.sql, s.started_ms,
                    s.duration_us, s.provider, s.model, s.input_tokens, s.output_tokens, s.cost_eur_micros,
                    s.sources, s.checks, s.error
             FROM run_steps s JOIN runs r ON r.id = s.run_id AND r.user_id = s.user_id
             WHERE s.user_id = $1 AND {filter} ORDER BY s.run_id, s.seq"
        ))
        .bind(user.0)
        .bind(key)
        .fetch_all(&mut *db)
        .await?;
        db.commit().await?;
        let mut by_run: HashMap<String, Vec<Step>> = HashMap::new();
        for r in steps {
            by_run.entry(r.run_id.clone()).or_default().push(r.step()?);
        }
        runs.into_iter()
            .map(|r| {
                Ok(RunTrace {
                    steps: by_run.remove(&r.id).unwrap_or_default(),
                    status: RunStatus::parse(&r.status)
                        .ok_or_else(|| BackendError::Corrupt(format!("run status {:?}", r.status)))?,
                    total_ms: r.total_ms.map(|v| v.max(0) as u64),
                    answer_confidence: r.answer_confidence.map(|v| v as f32),
                    plan: r
                        .plan
                        .map(|p| serde_json::from_str(&p))
                        .transpose()
                        .map_err(|e| BackendError::Corrupt(format!("run plan: {e}")))?,
                    next_step: u32::try_from(r.next_step).unwrap_or(0),
                    id: r.id,
                    conversation_id: r.conversation_id,
                    started_at: r.started_at,
                    finished_at: r.finished_at,
                    source_rows: Vec::new(),
                })
            })
            .collect()
    }

    /// Closes the runs a stopped server left running: each gets an `interrupted` error
    /// and its final status (so a client waiting on it ends), and the conversation an
    /// answer that says so. Run at start and by the hourly sweep.
    pub(crate) async fn close_stale(&self, gate: &dyn Gate) -> Result<usize, BackendError> {
        let cutoff = crate::store::timestamp(
            chrono::Utc::now() - chrono::TimeDelta::from_std(self.config.stale_after).unwrap_or_default(),
        );
        let stale: Vec<(String, i64)> = sqlx::query_as(Owner::StaleRuns.sql(self.store.dialect()))
            .bind(cutoff)
            .fetch_all(self.store.pool())
            .await?;
        let mut closed = 0;
        for (id, user) in stale {
            match self.settle_stale(gate, UserId(user), &id).await {
                Ok(true) => closed += 1,
                Ok(false) => {}
                Err(e) => tracing::warn!(error = %e, "closing a stopped run failed"),
            }
        }
        if closed > 0 {
            tracing::info!(runs = closed, "runs left by a stopped server closed");
        }
        Ok(closed)
    }

    /// A stale run taken over: an accepted plan goes on from its last finished step,
    /// anything else is closed. `true` if this server did either.
    pub(crate) async fn settle_stale(
        &self,
        gate: &dyn Gate,
        user: UserId,
        id: &str,
    ) -> Result<bool, BackendError> {
        if self.take_over_plan(gate, user, id).await? {
            return Ok(true);
        }
        self.close_stale_run(user, id).await
    }

    /// One stale run closed, if it still is running and stale (another server may have
    /// taken it meanwhile).
    async fn close_stale_run(&self, user: UserId, id: &str) -> Result<bool, BackendError> {
        let now = chrono::Utc::now();
        let cutoff = crate::store::timestamp(
            now - chrono::TimeDelta::from_std(self.config.stale_after).unwrap_or_default(),
        );
        let now = crate::store::timestamp(now);
        let mut tx = self.store.tenant(user).await?;
        let taken = sqlx::query(
            "UPDATE runs SET status = 'interrupted', finished_at = $1, heartbeat_at = $1, owner = NULL
             WHERE id = $2 AND user_id = $3 AND status = 'running' AND heartbeat_at < $4",
        )
        .bind(&now)
        .bind(id)
        .bind(user.0)
        .bind(&cutoff)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if taken != 1 {
            return Ok(false);
        }
        let (conversation, locale, last): (String, String, Option<i64>) = sqlx::query_as(
            "SELECT conversation_id, locale, (SELECT MAX(seq) FROM run_events WHERE run_id = $1 AND user_id = $2)
             FROM runs WHERE id = $1 AND user_id = $2",
        )
        .bind(id)
        .bind(user.0)
        .fetch_one(&mut *tx)
        .await?;
        let locale = agent::Locale::from_tag(&locale).unwrap_or_default();
        let ending = [
            ChatEvent::Error {
                code: "interrupted".into(),
                message: locale
                    .pick(
                        "Sou s'est arrêté pendant cette réponse ; reposez la question.",
                        "Sou stopped during this answer; ask again.",
                    )
                    .into(),
            },
            record::final_status(&conversation, id, None, 0.0, Vec::new()),
        ];
        let mut seq = last.unwrap_or(0);
        for e in &ending {
            seq += 1;
            sqlx::query("INSERT INTO run_events (run_id, user_id, seq, event) VALUES ($1, $2, $3, $4)")
                .bind(id)
                .bind(user.0)
                .bind(seq)
                .bind(e.to_json())
                .execute(&mut *tx)
                .await?;
        }
        notify::send(&self.store, &mut tx, id, false).await?;
        tx.commit().await?;
        let events = self.events(user, id).await?;
        let text = ChatEvent::words(&events);
        if !crate::messages::answer_exists(&self.store, user, id).await? {
            crate::messages::insert_answer(&self.store, user, (&conversation, id), &text, None, &events)
                .await?;
        }
        self.hub.wake(id);
        Ok(true)
    }

    /// Every event a run stored, in order (for tests).
    #[cfg(feature = "test-support")]
    pub async fn events_for_test(&self, user: UserId, run: &str) -> Vec<ChatEvent> {
        self.events(user, run).await.unwrap_or_default()
    }

    /// Every event a run stored, in order.
    pub(crate) async fn events(&self, user: UserId, run: &str) -> Result<Vec<ChatEvent>, BackendError> {
        let mut db = self.store.tenant_read(user).await?;
        let rows: Vec<String> = sqlx::query_scalar(
            "SELECT event FROM run_events WHERE run_id = $1 AND user_id = $2 ORDER BY seq",
        )
        .bind(run)
        .bind(user.0)
        .fetch_all(&mut *db)
        .await?;
        db.commit().await?;
        rows.iter()
            .map(|e| serde_json::from_str(e).map_err(|e| BackendError::Corrupt(format!("run event: {e}"))))
            .collect()
    }

    /// Events of runs finished more than a day ago are dropped (the trace stays).
    pub async fn purge_events(&self) -> Result<u64, BackendError> {
        let cutoff = crate::store::timestamp(chrono::Utc::now() - chrono::TimeDelta::days(1));
        Ok(self.store.sweep(Sweep::RunEvents, &cutoff).await?)
    }
}

/// A page of a step's source transactions.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RunSources {
    pub conversation_id: String,
    pub step: Step,
    pub total: u64,
    pub rows: Vec<agent::TransactionRow>,
}

enum TraceOf<'a> {
    Run(&'a str),
    Conversation(&'a str),
}

/// A run as `traces` reads it.
#[derive(sqlx::FromRow)]
struct RunRow {
    id: String,
    conversation_id: String,
    status: String,
    started_at: String,
    finished_at: Option<String>,
    total_ms: Option<i64>,
    answer_confidence: Option<f64>,
    plan: Option<String>,
    next_step: i64,
}

/// A run's step as `traces` reads it.
#[derive(sqlx::FromRow)]
struct StepRow {
    run_id: String,
    seq: i64,
    kind: String,
    status: String,
    title: String,
    tool: Option<String>,
    arguments: Option<String>,
    sql: Option<String>,
    started_ms: i64,
    duration_us: i64,
    provider: Option<String>,
    model: Option<String>,
    input_tokens: i64,
    output_tokens: i64,
    cost_eur_micros: i64,
    sources: Option<String>,
    checks: Option<String>,
    error: Option<String>,
}

impl StepRow {
    fn step(self) -> Result<Step, BackendError> {
        let corrupt = |what: &str| BackendError::Corrupt(format!("run step {what}"));
        let json = |s: Option<String>| -> Result<Option<serde_json::Value>, BackendError> {
            s.map(|s| serde_json::from_str(&s).map_err(|_| corrupt("json"))).transpose()
        };
        let sources: Sources = match json(self.sources)? {
            Some(v) => serde_json::from_value(v).map_err(|_| corrupt("sources"))?,
            None => Sources::default(),
        };
        let checks = match json(self.checks)? {
            Some(v) => serde_json::from_value(v).map_err(|_| corrupt("checks"))?,
            None => Vec::new(),
        };
        let n = |v: i64| v.max(0) as u64;
        Ok(Step {
            seq: u32::try_from(self.seq).map_err(|_| corrupt("seq"))?,
            kind: StepKind::parse(&self.kind).ok_or_else(|| corrupt("kind"))?,
            status: StepStatus::parse(&self.status).ok_or_else(|| corrupt("status"))?,
            title: self.title,
            tool: self.tool,
            arguments: json(self.arguments)?,
            sql: self.sql,
            started_ms: n(self.started_ms),
            duration_us: n(self.duration_us),
            provider: self.provider,
            model: self.model,
            input_tokens: n(self.input_tokens),
            output_tokens: n(self.output_tokens),
            cost_eur_micros: n(self.cost_eur_micros),
            unpriced: false,
            sources,
            checks,
            error: self.error,
        })
    }
}

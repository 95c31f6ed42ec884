//! Plans of several steps. A plan is shown before it runs (`plan_proposed`); the user
//! accepts, rejects or edits it (each step re-validated by the registry). Accepted, it
//! runs step by step in a task of its own, whatever happens to the client, streaming
//! `step_started`, `step_result` or `step_failed` into the run's events; the user can
//! pause it between two steps, resume it, cancel it. Each finished step is stored with
//! the plan's progress in one transaction, so a server that stops between two steps
//! leaves a run another (or the same, restarted) takes over from the next step, never
//! running a finished one again.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::{Duration, Instant};

use agent::protocol::ChatEvent;
use agent::runs::{
    answer_confidence, plan_base, Check, CheckCode, CheckOutcome, PlanStep, RunPlan, RunStatus,
};
use agent::{Locale, ToolCallPlan};
use serde_json::Value;
use thiserror::Error;
use tokio::sync::mpsc;

use super::record::{final_status, Recorder, Runs};
use crate::error::{BackendError, ErrorKind, UserError};
use crate::ids::UserId;
use crate::registry::Registry;
use crate::runs::emitter::Emitter;

/// What the user does with a plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunAction {
    Accept,
    Reject,
    Pause,
    Resume,
    Cancel,
}

impl RunAction {
    pub fn parse(s: &str) -> Option<RunAction> {
        Some(match s {
            "accept" => RunAction::Accept,
            "reject" => RunAction::Reject,
            "pause" => RunAction::Pause,
            "resume" => RunAction::Resume,
            "cancel" => RunAction::Cancel,
            _ => return None,
        })
    }

    /// The states it applies to, and the one it leads to.
    fn moves(self) -> (&'static [&'static str], RunStatus) {
        match self {
            RunAction::Accept => (&["proposed"], RunStatus::Running),
            RunAction::Reject => (&["proposed"], RunStatus::Rejected),
            RunAction::Pause => (&["running"], RunStatus::Paused),
            RunAction::Resume => (&["paused"], RunStatus::Running),
            RunAction::Cancel => (&["proposed", "running", "paused"], RunStatus::Cancelled),
        }
    }
}

#[derive(Debug, Error)]
pub enum RunError {
    #[error(transparent)]
    Backend(#[from] BackendError),
    /// The run is not in a state the action applies to.
    #[error("the run is {0:?}")]
    State(RunStatus),
    /// An answer of one step: there is no plan to act on.
    #[error("the run has no plan")]
    NotAPlan,
    /// An answer of one step that is no longer being written: it cannot be stopped.
    /// Said in its conversation's language.
    #[error("the answer is {0:?}")]
    Answered(RunStatus, Locale),
    /// An edited plan the registry refused.
    #[error("invalid plan: {0}")]
    Invalid(String),
}

impl UserError for RunError {
    fn code(&self) -> &'static str {
        match self {
            RunError::Backend(e) => e.code(),
            RunError::State(_) | RunError::Answered(..) => "run_state",
            RunError::NotAPlan => "not_a_plan",
            RunError::Invalid(_) => "invalid_plan",
        }
    }

    fn message(&self, locale: Locale) -> String {
        match self {
            RunError::Backend(e) => e.message(locale),
            RunError::State(s) => locale.pick(
                format!("Ce plan est {} : cette action ne s'y applique pas.", status_fr(*s)),
                format!("This plan is {}: that action does not apply.", s.as_str()),
            ),
            RunError::NotAPlan => {
                locale.pick("Cette réponse n'a pas de plan.", "This answer has no plan.").to_string()
            }
            RunError::Answered(_, said_in) => said_in
                .pick(
                    "Cette réponse est déjà terminée : il n'y a plus rien à arrêter.",
                    "This answer has already ended: there is nothing left to stop.",
                )
                .to_string(),
            RunError::Invalid(why) => {
                locale.pick(format!("Plan refusé : {why}"), format!("Plan refused: {why}"))
            }
        }
    }

    fn kind(&self) -> ErrorKind {
        match self {
            RunError::Backend(e) => e.kind(),
            RunError::State(_) | RunError::NotAPlan | RunError::Answered(..) => ErrorKind::Conflict,
            RunError::Invalid(_) => ErrorKind::InvalidPlan,
        }
    }
}

fn status_fr(s: RunStatus) -> &'static str {
    match s {
        RunStatus::Running => "en cours",
        RunStatus::Proposed => "proposé",
        RunStatus::Paused => "en pause",
        RunStatus::Done => "terminé",
        RunStatus::Failed => "en échec",
        RunStatus::Cancelled => "annulé",
        RunStatus::Rejected => "refusé",
        RunStatus::Interrupted => "interrompu",
    }
}

/// What a plan's steps need from the chat: a write proposed for the user's approval,
/// as the chat proposes any write (its dry run shown, nothing changed until approved).
pub(crate) trait Gate: Send + Sync {
    /// Proposes `plan`'s write in `conversation`, its dry run sent to `out`.
    fn propose<'a>(
        &'a self,
        user: UserId,
        conversation: &'a str,
        plan: ToolCallPlan,
        out: &'a mut Emitter,
    ) -> Pin<Box<dyn Future<Output = Result<(), BackendError>> + Send + 'a>>;

    /// The same gate, for a task of its own.
    fn owned(&self) -> Arc<dyn Gate>;
}

/// A run's row as [`Stored`] reads it, with its last event's and last step's numbers.
#[derive(sqlx::FromRow)]
struct StoredRow {
    conversation_id: String,
    status: String,
    plan: Option<String>,
    next_step: i64,
    started_at: String,
    events: Option<i64>,
    steps: Option<i64>,
    owner: Option<String>,
}

/// A plan's run as stored.
struct Stored {
    conversation: String,
    status: RunStatus,
    /// The server whose task holds the run (the chat's answer still being stored, or a
    /// plan's steps running).
    owner: Option<String>,
    plan: RunPlan,
    next_step: u32,
    started_at: String,
    events: u64,
    steps: u32,
}

impl Runs {
    /// Stores `plan` as run `run`'s, waiting for the user.
    pub(crate) async fn store_plan(
        &self,
        user: UserId,
        run: &str,
        plan: &RunPlan,
    ) -> Result<(), BackendError> {
        let json = serde_json::to_string(plan).map_err(|e| BackendError::Corrupt(e.to_string()))?;
        let mut tx = self.store.tenant(user).await?;
        let n = sqlx::query(
            "UPDATE runs SET plan = $1, status = 'proposed', next_step = 0
             WHERE id = $2 AND user_id = $3 AND status = 'running'",
        )
        .bind(json)
        .bind(run)
        .bind(user.0)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        tx.commit().await?;
        // Stopped while it was being planned: nothing to propose.
        if n != 1 {
            return Err(BackendError::BadRequest("the answer was stopped".into()));
        }
        Ok(())
    }

    async fn stored(&self, user: UserId, run: &str) -> Result<Stored, RunError> {
        let mut db = self.store.tenant_read(user).await.map_err(BackendError::from)?;
        let row: StoredRow = sqlx::query_as(
            "SELECT r.conversation_id, r.status, r.plan, r.next_step, r.started_at,
                    (SELECT MAX(seq) FROM run_events e WHERE e.run_id = r.id AND e.user_id = r.user_id) AS events,
                    (SELECT MAX(seq) FROM run_steps s WHERE s.run_id = r.id AND s.user_id = r.user_id) AS steps,
                    r.owner
             FROM runs r WHERE r.id = $1 AND r.user_id = $2",
        )
        .bind(run)
        .bind(user.0)
        .fetch_optional(&mut *db)
        .await
        .map_err(BackendError::from)?
        .ok_or(BackendError::NotFound)?;
        db.commit().await.map_err(BackendError::from)?;
        let status = RunStatus::parse(&row.status)
            .ok_or_else(|| BackendError::Corrupt(format!("run status {:?}", row.status)))?;
        let plan: RunPlan = serde_json::from_str(&row.plan.ok_or(RunError::NotAPlan)?)
            .map_err(|e| BackendError::Corrupt(format!("run plan: {e}")))?;
        Ok(Stored {
            conversation: row.conversation_id,
            status,
            owner: row.owner,
            plan,
            next_step: u32::try_from(row.next_step).unwrap_or(0),
            started_at: row.started_at,
            events: row.events.unwrap_or(0).max(0) as u64,
            steps: u32::try_from(row.steps.unwrap_or(0)).unwrap_or(0),
        })
    }

    /// Moves the run from one of `from` to `to`; `false` if it was in none of them.
    async fn move_run(
        &self,
        user: UserId,
        run: &str,
        from: &[&str],
        to: RunStatus,
    ) -> Result<bool, BackendError> {
        let now = crate::store::timestamp(chrono::Utc::now());
        let list: Vec<String> = from.iter().map(|s| format!("'{s}'")).collect();
        let mut tx = self.store.tenant(user).await?;
        let n = sqlx::query(&format!(
            "UPDATE runs SET status = $1, heartbeat_at = $2,
                 finished_at = CASE WHEN $3 = 1 THEN $2 ELSE NULL END
             WHERE id = $4 AND user_id = $5 AND status IN ({})",
            list.join(", ")
        ))
        .bind(to.as_str())
        .bind(&now)
        .bind(i32::from(to.is_final()))
        .bind(run)
        .bind(user.0)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if n == 1 {
            // Whichever server writes a cancelled answer stops it at once; followers wake.
            super::notify::send(&self.store, &mut tx, run, to == RunStatus::Cancelled).await?;
        }
        tx.commit().await?;
        Ok(n == 1)
    }

    /// `POST /api/v1/runs/{id}/{action}`. Accepting or resuming starts the steps in a
    /// task of their own; the client follows them on the run's events.
    pub(crate) async fn act(
        &self,
        gate: &dyn Gate,
        user: UserId,
        run: &str,
        action: RunAction,
    ) -> Result<agent::runs::RunTrace, RunError> {
        let mut stored = match self.stored(user, run).await {
            // An answer of one step can only be stopped.
            Err(RunError::NotAPlan) if action == RunAction::Cancel => {
                return self.stop_answer(user, run).await
            }
            other => other?,
        };
        // A proposal is decided on once it is stored whole (its answer, its last event):
        // a client that read `plan_proposed` may be quicker than that, by milliseconds.
        for _ in 0..50 {
            if stored.status != RunStatus::Proposed || stored.owner.is_none() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
            stored = self.stored(user, run).await?;
        }
        let (from, to) = action.moves();
        if !self.move_run(user, run, from, to).await? {
            // Read again: it may have moved meanwhile.
            let now = self.stored(user, run).await.map(|s| s.status).unwrap_or(stored.status);
            return Err(RunError::State(now));
        }
        match action {
            RunAction::Accept | RunAction::Resume => {
                let (runs, gate) = (self.clone(), gate.owned());
                let id = run.to_string();
                tokio::spawn(async move { runs.run_plan_steps(&*gate, user, &id).await });
            }
            // A plan no task runs ends here, for the clients that follow it; a running
            // one (or a paused one whose step is still running) ends in its task.
            RunAction::Cancel if stored.status != RunStatus::Running && stored.owner.is_none() => {
                let mut rec = self.recorder_for(user, run, &stored);
                let last = [
                    ChatEvent::Error {
                        code: "cancelled".into(),
                        message: cancelled_text(stored.plan.locale),
                    },
                    final_status(&stored.conversation, run, Some(stored.plan.confidence), 0.0, Vec::new()),
                ];
                self.end_plan(user, run, &mut rec, (stored.next_step, &last), (RunStatus::Cancelled, None))
                    .await;
            }
            _ => {}
        }
        Ok(self.trace(user, run, stored.plan.locale).await?)
    }

    /// Stops an answer being written (a model's, say): its server sees it and stops.
    async fn stop_answer(&self, user: UserId, run: &str) -> Result<agent::runs::RunTrace, RunError> {
        let (_, _, locale) = self.state(user, run).await?;
        if !self.move_run(user, run, &["running"], RunStatus::Cancelled).await? {
            return Err(RunError::Answered(self.state(user, run).await?.0, locale));
        }
        self.hub.stop(run);
        Ok(self.trace(user, run, locale).await?)
    }

    /// `PATCH /api/v1/runs/{id}`: the plan's steps as the user edited them (removed,
    /// reordered, arguments changed), each validated as any plan; only while proposed.
    pub async fn edit_plan(&self, user: UserId, run: &str, steps: &[Value]) -> Result<RunPlan, RunError> {
        let stored = self.stored(user, run).await?;
        if stored.status != RunStatus::Proposed {
            return Err(RunError::State(stored.status));
        }
        if steps.is_empty() || steps.len() > agent::runs::MAX_PLAN_STEPS {
            return Err(RunError::Invalid(format!(
                "a plan has 1 to {} steps, not {}",
                agent::runs::MAX_PLAN_STEPS,
                steps.len()
            )));
        }
        let parser = self.parsers.get(&self.store, user, None).await?;
        let locale = stored.plan.locale;
        let mut out = Vec::with_capacity(steps.len());
        for (i, s) in steps.iter().enumerate() {
            let mut call = Registry::get()
                .validate(&serde_json::json!({"tool": s.get("tool"), "args": s.get("args")}))
                .map_err(|e| RunError::Invalid(format!("step {}: {e}", i + 1)))?;
            // Its periods named from their dates; a step kept as it was keeps its own.
            agent::period::renamed(&mut call, locale);
            let why = s.get("why").and_then(Value::as_str).map(|w| w.chars().take(200).collect::<String>());
            let kept = stored.plan.steps.iter().find(|p| {
                let mut own = p.call.clone();
                agent::period::renamed(&mut own, locale);
                own == call
            });
            if let Some(k) = kept {
                call = k.call.clone();
            }
            out.push(PlanStep {
                title: parser.describe(&call, locale),
                why: why
                    .or_else(|| kept.map(|k| k.why.clone()))
                    .unwrap_or_else(|| locale.pick("Ajouté par vous", "Added by you").to_string()),
                expect: agent::parser::steps::expected(&call, locale),
                call,
            });
        }
        // The steps are now the user's own choice.
        let plan = RunPlan { steps: out, confidence: agent::Confidence::High, ..stored.plan };
        let json = serde_json::to_string(&plan).map_err(|e| BackendError::Corrupt(e.to_string()))?;
        let mut tx = self.store.tenant(user).await.map_err(BackendError::from)?;
        let n =
            sqlx::query("UPDATE runs SET plan = $1 WHERE id = $2 AND user_id = $3 AND status = 'proposed'")
                .bind(json)
                .bind(run)
                .bind(user.0)
                .execute(&mut *tx)
                .await
                .map_err(BackendError::from)?
                .rows_affected();
        tx.commit().await.map_err(BackendError::from)?;
        if n != 1 {
            return Err(RunError::State(self.stored(user, run).await?.status));
        }
        Ok(plan)
    }

    /// A stale running plan (its server stopped): this server takes it over and runs
    /// it on from its next step. `false` if it is not a plan, or another server took it.
    pub(crate) async fn take_over_plan(
        &self,
        gate: &dyn Gate,
        user: UserId,
        run: &str,
    ) -> Result<bool, BackendError> {
        let now = chrono::Utc::now();
        let cutoff = crate::store::timestamp(
            now - chrono::TimeDelta::from_std(self.config.stale_after).unwrap_or_default(),
        );
        let mut tx = self.store.tenant(user).await?;
        let n = sqlx::query(
            "UPDATE runs SET heartbeat_at = $1, owner = $5
             WHERE id = $2 AND user_id = $3 AND status = 'running' AND plan IS NOT NULL AND heartbeat_at < $4",
        )
        .bind(crate::store::timestamp(now))
        .bind(run)
        .bind(user.0)
        .bind(cutoff)
        .bind(&self.hub.instance)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        tx.commit().await?;
        if n != 1 {
            return Ok(false);
        }
        tracing::info!(run = %crate::trace::id("run", run), "a plan left by a stopped server goes on");
        let (runs, gate) = (self.clone(), gate.owned());
        let id = run.to_string();
        tokio::spawn(async move { runs.run_plan_steps(&*gate, user, &id).await });
        Ok(true)
    }

    fn recorder_for(&self, user: UserId, run: &str, s: &Stored) -> Recorder {
        let started = chrono::DateTime::parse_from_rfc3339(&s.started_at)
            .ok()
            .and_then(|t| (chrono::Utc::now() - t.with_timezone(&chrono::Utc)).to_std().ok())
            .and_then(|ago| Instant::now().checked_sub(ago))
            .unwrap_or_else(Instant::now);
        Recorder::resume(self, user, run.to_string(), (started, s.events, s.steps))
    }

    /// Runs the plan's steps from the next one, until the end, a pause or a cancel —
    /// unless a task already runs them, here or on another server.
    async fn run_plan_steps(&self, gate: &dyn Gate, user: UserId, run: &str) {
        if !self.hub.start_running(run) {
            return;
        }
        match self.claim(user, run, true).await {
            Ok(true) => {
                loop {
                    if let Err(e) = self.execute_steps(gate, user, run).await {
                        tracing::error!(error = %e, "running a plan failed");
                    }
                    if self.hub.draining() {
                        // The server is stopping: the plan is left, still running, for
                        // the next server (it takes it over once its heartbeat is stale).
                        if let Err(e) = self.claim(user, run, false).await {
                            tracing::warn!(error = %e, "leaving a plan failed");
                        }
                        break;
                    }
                    // Let it go unless it was resumed meanwhile: then this task goes on
                    // (a resume that found it held started none).
                    match self.release(user, run).await {
                        Ok(true) => break,
                        Ok(false) => continue,
                        Err(e) => {
                            tracing::warn!(error = %e, "releasing a plan failed");
                            break;
                        }
                    }
                }
            }
            Ok(false) => {}
            Err(e) => tracing::error!(error = %e, "claiming a plan failed"),
        }
        self.hub.stop_running(run);
    }

    /// Lets the plan go, unless it is running with steps left (resumed while this
    /// task was stopping): `false` then, and this task runs on.
    async fn release(&self, user: UserId, run: &str) -> Result<bool, BackendError> {
        let mut tx = self.store.tenant(user).await?;
        let n = sqlx::query(
            "UPDATE runs SET owner = NULL WHERE id = $1 AND user_id = $2 AND owner = $3
               AND NOT (status = 'running' AND plan IS NOT NULL AND finished_at IS NULL)",
        )
        .bind(run)
        .bind(user.0)
        .bind(&self.hub.instance)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        tx.commit().await?;
        if n == 1 {
            return Ok(true);
        }
        // Not released: still this server's and running, or no longer this server's.
        let s = self.stored(user, run).await.map_err(|e| BackendError::BadRequest(e.to_string()))?;
        Ok(!(s.status == RunStatus::Running
            && s.owner.as_deref() == Some(self.hub.instance.as_str())
            && (s.next_step as usize) < s.plan.steps.len()))
    }

    /// Takes the plan for this server (`take`: unless another live server has it), or
    /// lets it go.
    async fn claim(&self, user: UserId, run: &str, take: bool) -> Result<bool, BackendError> {
        let now = chrono::Utc::now();
        let cutoff = crate::store::timestamp(
            now - chrono::TimeDelta::from_std(self.config.stale_after).unwrap_or_default(),
        );
        let me = &self.hub.instance;
        let mut tx = self.store.tenant(user).await?;
        let n = if take {
            sqlx::query(
                "UPDATE runs SET owner = $1, heartbeat_at = $2
                 WHERE id = $3 AND user_id = $4 AND (owner IS NULL OR owner = $1 OR heartbeat_at < $5)",
            )
            .bind(me)
            .bind(crate::store::timestamp(now))
            .bind(run)
            .bind(user.0)
            .bind(cutoff)
            .execute(&mut *tx)
            .await?
            .rows_affected()
        } else {
            sqlx::query("UPDATE runs SET owner = NULL WHERE id = $1 AND user_id = $2 AND owner = $3")
                .bind(run)
                .bind(user.0)
                .bind(me)
                .execute(&mut *tx)
                .await?
                .rows_affected()
        };
        tx.commit().await?;
        Ok(n == 1)
    }

    async fn execute_steps(&self, gate: &dyn Gate, user: UserId, run: &str) -> Result<(), RunError> {
        let stored = self.stored(user, run).await?;
        let plan = stored.plan.clone();
        let locale = plan.locale;
        let rec = self.recorder_for(user, run, &stored);
        // Nobody listens here: clients follow the run's stored events.
        let (tx, _) = mpsc::channel(1);
        let mut out = Emitter::new(tx, Instant::now(), rec);
        let mut checks: Vec<Check> = Vec::new();
        let mut warnings: Vec<String> = Vec::new();
        let total = plan.steps.len() as u32;
        let mut next = stored.next_step;
        while next < total {
            let now = match self.stored(user, run).await {
                Ok(s) => s,
                Err(e) => {
                    // The database failed: the plan ends, failed, and says so.
                    tracing::error!(error = %e, "reading a running plan failed");
                    out.emit(ChatEvent::Error { code: "internal".into(), message: failed_text(locale) })
                        .await;
                    let status =
                        final_status(&stored.conversation, run, Some(plan.confidence), 0.0, warnings);
                    out.run.end_with(&status);
                    out.run.finish(RunStatus::Failed, Some(0.0)).await;
                    return Ok(());
                }
            };
            // The server is stopping: what is done is stored, the rest waits for the next.
            if self.hub.draining() {
                out.run.checkpoint(next).await;
                return Ok(());
            }
            // Another server took it over (this one went silent): it is theirs now.
            if now.owner.as_deref() != Some(self.hub.instance.as_str()) {
                return Ok(());
            }
            match now.status {
                RunStatus::Running => {}
                RunStatus::Paused => {
                    // Stops here; `resume` starts a task again from this step.
                    out.run.checkpoint(next).await;
                    return Ok(());
                }
                RunStatus::Cancelled => {
                    out.emit(ChatEvent::Error { code: "cancelled".into(), message: cancelled_text(locale) })
                        .await;
                    break;
                }
                _ => return Ok(()),
            }
            let step = &plan.steps[next as usize];
            let number = next + 1;
            out.emit(ChatEvent::StepStarted {
                step: number,
                tool: step.call.name().into(),
                title: step.title.clone(),
            })
            .await;
            let single = ToolCallPlan {
                call: step.call.clone(),
                meta: agent::PlanMeta {
                    confidence: plan.confidence,
                    confidence_reasons: Vec::new(),
                    locale,
                    today: plan.today,
                },
            };
            if step.call.is_write() {
                // A write in a plan is still only proposed: its own approval follows.
                if let Err(e) = gate.propose(user, &stored.conversation, single, &mut out).await {
                    tracing::warn!(error = %e, step = number, "proposing a plan's write failed");
                    let (code, message) = crate::error::user_safe(&e, Some(locale));
                    warnings.push(message.clone());
                    checks.push(Check::failed(CheckCode::Counts, message.clone()));
                    out.emit(ChatEvent::StepFailed { step: number, code, message }).await;
                }
            } else {
                match crate::runs::steps::run_checked(
                    &mut crate::runs::steps::ToolCx::new(&self.store, self.calendar, user),
                    &mut out,
                    &step.call,
                    locale,
                    plan.today,
                )
                .await
                {
                    Ok((output, found)) => {
                        warnings.extend(
                            found
                                .iter()
                                .filter(|c| c.outcome == CheckOutcome::Failed)
                                .map(|c| c.text.clone()),
                        );
                        checks.extend(found);
                        out.emit(ChatEvent::StepResult { step: number, result: Box::new(output.clone()) })
                            .await;
                        out.emit(agent::protocol::ChatEvent::answer(&output, locale)).await;
                    }
                    Err(e) => {
                        tracing::warn!(error = %e, step = number, "a plan's step failed");
                        let (code, message) = crate::error::user_safe(&e, Some(locale));
                        warnings.push(message.clone());
                        // A failed step counts as a failed check of its counts.
                        checks.push(Check::failed(CheckCode::Counts, message.clone()));
                        out.emit(ChatEvent::StepFailed { step: number, code, message }).await;
                    }
                }
            }
            next += 1;
            out.run.checkpoint(next).await;
            let pause = self.config.pause_between_steps;
            if pause > Duration::ZERO && next < total {
                // A cancel (from any server) or the server's stop ends the wait at once.
                tokio::select! {
                    () = tokio::time::sleep(pause) => {}
                    () = out.run.stopped() => {}
                }
            }
        }
        let cancelled = next < total;
        let confidence = answer_confidence(plan_base(plan.confidence, 0.0), &checks);
        let status = final_status(&stored.conversation, run, Some(plan.confidence), confidence, warnings);
        let ended = if cancelled { RunStatus::Cancelled } else { RunStatus::Done };
        self.end_plan(user, run, &mut out.run, (next, &[status]), (ended, Some(confidence))).await;
        Ok(())
    }

    /// Ends a plan stopped before `next_step` with `last`, its closing events. Its answer in the conversation is
    /// stored again first, whole (the plan, its steps, `last`), and only then are `last`
    /// recorded and the run finished: a client that saw the end reads the whole answer.
    async fn end_plan(
        &self,
        user: UserId,
        run: &str,
        rec: &mut Recorder,
        (next_step, last): (u32, &[ChatEvent]),
        (status, confidence): (RunStatus, Option<f32>),
    ) {
        rec.checkpoint(next_step).await;
        match self.events(user, run).await {
            Ok(mut events) => {
                events.extend_from_slice(last);
                let text = ChatEvent::words(&events);
                if let Err(e) = crate::messages::rewrite_answer(&self.store, user, run, &text, &events).await
                {
                    tracing::warn!(error = %e, "storing a plan's answer failed");
                }
            }
            Err(e) => tracing::warn!(error = %e, "reading a plan's events failed"),
        }
        if let Some((end, before)) = last.split_last() {
            for e in before {
                rec.event(e);
            }
            rec.end_with(end);
        }
        rec.finish(status, confidence).await;
    }
}

fn failed_text(locale: Locale) -> String {
    locale
        .pick(
            "Le plan s'est arrêté : la base de données n'a pas répondu.",
            "The plan stopped: the database did not answer.",
        )
        .to_string()
}

fn cancelled_text(locale: Locale) -> String {
    locale.pick("Plan annulé.", "Plan cancelled.").to_string()
}

//! A client attaching to a run (`GET /api/v1/runs/{id}/events` with `Last-Event-ID`, or
//! the chat page reloaded during an answer): the events it missed, read from the
//! database, then the rest as they are stored — by this server (which wakes it) or by
//! another one on the same database (whose notification wakes it on PostgreSQL; it also
//! polls). The stream ends with the run's
//! terminal event, as every stream does.

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Duration;

use agent::protocol::ChatEvent;
use agent::runs::RunStatus;
use tokio::sync::Notify;

use super::record::final_status;
use crate::error::BackendError;
use crate::ids::UserId;
use crate::runs::emitter::ChatStream;
use crate::runs::plans::Gate;
use crate::runs::record::Runs;

/// How often a client waiting on a run looks for events another server stored: while
/// PostgreSQL's notifications wake it, and when they do not (SQLite, a listener
/// reconnecting).
const POLL_NOTIFIED: Duration = Duration::from_secs(2);
const POLL: Duration = Duration::from_millis(200);

struct Following {
    runs: Runs,
    /// What takes over a plan a stopped server left.
    gate: Arc<dyn Gate>,
    user: UserId,
    run: String,
    conversation: String,
    /// The next event's number.
    next: u64,
    pending: VecDeque<ChatEvent>,
    /// The last event given was a `status`: the stream ends there unless the run goes
    /// on (a plan accepted after its proposal's status).
    at_status: bool,
    ended: bool,
    wake: Arc<Notify>,
}

impl Runs {
    /// The events of `user`'s run `run` after number `after`, then the rest until its
    /// end. Another user's run, or an unknown one, is not found.
    pub(crate) async fn attach(
        &self,
        gate: Arc<dyn Gate>,
        user: UserId,
        run: &str,
        after: u64,
    ) -> Result<ChatStream, BackendError> {
        let mut db = self.store.tenant_read(user).await?;
        let conversation: String =
            sqlx::query_scalar("SELECT conversation_id FROM runs WHERE id = $1 AND user_id = $2")
                .bind(run)
                .bind(user.0)
                .fetch_optional(&mut *db)
                .await?
                .ok_or(BackendError::NotFound)?;
        db.commit().await?;
        let state = Following {
            runs: self.clone(),
            gate,
            user,
            run: run.to_string(),
            conversation: conversation.clone(),
            next: after + 1,
            pending: VecDeque::new(),
            at_status: false,
            ended: false,
            wake: self.hub.waiter(run),
        };
        let events = futures::stream::unfold(state, |mut s| async move {
            let e = s.next_event().await?;
            Some((e, s))
        });
        Ok(ChatStream {
            conversation_id: conversation,
            run_id: run.to_string(),
            first_seq: after + 1,
            events: Box::pin(events),
        })
    }
}

impl Following {
    /// Ends the stream with a terminal event of its own.
    fn close(&mut self) {
        self.pending.push_back(final_status(&self.conversation, &self.run, None, 0.0, Vec::new()));
    }

    async fn next_event(&mut self) -> Option<ChatEvent> {
        loop {
            if let Some(e) = self.pending.pop_front() {
                self.at_status = e.is_terminal();
                return Some(e);
            }
            if self.ended {
                return None;
            }
            let woken = self.wake.clone();
            let notified = woken.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            match self.read().await {
                Ok(true) => continue,
                Ok(false) => {}
                Err(e) => {
                    tracing::warn!(error = %e, "reading a run's events failed");
                }
            }
            match self.status().await {
                // A plan's task still holds it: its last events are coming.
                Ok(Some((status, true, _))) if status.is_final() => {}
                // Ended, or a plan waiting for the user: after its status, the stream ends.
                Ok(Some((status, false, _))) if status.is_final() || status == RunStatus::Proposed => {
                    // Its last events may have been stored since the read.
                    if matches!(self.read().await, Ok(true)) {
                        continue;
                    }
                    if self.at_status {
                        self.ended = true;
                        return None;
                    }
                    // It ended without a terminal event: end the stream with one.
                    self.close();
                    continue;
                }
                Ok(None) => {
                    // Deleted meanwhile (the conversation was).
                    self.close();
                    continue;
                }
                Ok(Some((RunStatus::Running, _, true))) => {
                    // A server that stopped left it running: take it over or close it.
                    if let Err(e) = self.runs.settle_stale(&*self.gate, self.user, &self.run).await {
                        tracing::warn!(error = %e, "closing a stopped run failed");
                    }
                }
                Ok(Some(_)) => {}
                Err(e) => tracing::warn!(error = %e, "reading a run failed"),
            }
            tokio::select! {
                () = &mut notified => {}
                () = tokio::time::sleep(self.runs.hub.poll_every(POLL_NOTIFIED, POLL)) => {}
            }
        }
    }

    /// Reads the events stored since the last read; `true` if there were some.
    async fn read(&mut self) -> Result<bool, BackendError> {
        let mut db = self.runs.store.tenant_read(self.user).await?;
        let rows: Vec<(i64, String)> = sqlx::query_as(
            "SELECT seq, event FROM run_events WHERE run_id = $1 AND user_id = $2 AND seq >= $3
             ORDER BY seq LIMIT 512",
        )
        .bind(&self.run)
        .bind(self.user.0)
        .bind(self.next as i64)
        .fetch_all(&mut *db)
        .await?;
        db.commit().await?;
        let mut any = false;
        for (seq, json) in rows {
            // Events are stored in order, numbered from 1 without a gap; a gap means the
            // rest is not stored yet.
            if seq as u64 != self.next {
                break;
            }
            let event = serde_json::from_str(&json)
                .map_err(|e| BackendError::Corrupt(format!("run event {seq}: {e}")))?;
            self.pending.push_back(event);
            self.next += 1;
            any = true;
        }
        Ok(any)
    }

    /// The run's status, whether a live server's task holds it, and whether its
    /// server has been silent for too long.
    async fn status(&self) -> Result<Option<(RunStatus, bool, bool)>, BackendError> {
        let mut db = self.runs.store.tenant_read(self.user).await?;
        let row: Option<(String, Option<String>, String)> =
            sqlx::query_as("SELECT status, owner, heartbeat_at FROM runs WHERE id = $1 AND user_id = $2")
                .bind(&self.run)
                .bind(self.user.0)
                .fetch_optional(&mut *db)
                .await?;
        db.commit().await?;
        let cutoff = crate::store::timestamp(
            chrono::Utc::now()
                - chrono::TimeDelta::from_std(self.runs.config.stale_after).unwrap_or_default(),
        );
        Ok(row.and_then(|(status, owner, heartbeat)| {
            let fresh = heartbeat >= cutoff;
            Some((RunStatus::parse(&status)?, owner.is_some() && fresh, !fresh))
        }))
    }
}

impl Drop for Following {
    fn drop(&mut self) {
        self.runs.hub.release(&self.run);
    }
}

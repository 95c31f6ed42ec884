//! How a batch of a run's records is written: one transaction, and in it one statement
//! (`crate::statements`): the events, the steps and the model calls they made, the
//! chat answer with its conversation's move, the run's row, and on PostgreSQL the
//! notification that wakes the run's followers on other servers.

use agent::runs::{RunStatus, Step, StepKind};
use tokio::sync::oneshot;

use crate::ids::UserId;
use crate::messages::NewMessage;
use crate::statements::Statements;
use crate::store::Store;

/// What a run's recorder (`record.rs`) hands its writer, in order.
pub(super) enum Record {
    Event {
        seq: u64,
        json: String,
    },
    Step(Box<Step>),
    Finish {
        status: RunStatus,
        confidence: Option<f32>,
        total_ms: u64,
        /// The chat answer, stored with the run's end.
        answer: Option<Box<NewMessage>>,
        /// The run's last event (`Recorder::end_with`), stored with its end.
        last: Option<(u64, String)>,
        done: Option<oneshot::Sender<()>>,
    },
    /// A plan's steps before `next_step` are done: stored with their events, at once.
    Checkpoint {
        next_step: u32,
        done: Option<oneshot::Sender<()>>,
    },
}

/// Stores `batch` in one transaction, and moves the run's heartbeat if `beat`. A batch
/// holds at most one record the run waits on (a checkpoint or the end), its last.
pub(super) async fn write_batch(
    store: &Store,
    user: UserId,
    run: &str,
    batch: &[Record],
    beat: bool,
) -> Result<(), sqlx::Error> {
    let now = crate::store::timestamp(chrono::Utc::now());
    // A batch that stores the answer commits as the question did (on PostgreSQL, waiting
    // for the disk); the others are a log that can be lost with PostgreSQL itself.
    let answers = batch.iter().any(|r| matches!(r, Record::Finish { answer: Some(_), .. }));
    let mut tx = if answers { store.tenant(user).await? } else { store.tenant_log(user).await? };
    let mut st = Statements::new(store.dialect());
    let events: Vec<(u64, &str)> = batch
        .iter()
        .filter_map(|r| match r {
            Record::Event { seq, json } | Record::Finish { last: Some((seq, json)), .. } => {
                Some((*seq, json.as_str()))
            }
            _ => None,
        })
        .collect();
    insert_events(&mut st, user, run, &events);
    let steps: Vec<&Step> = batch
        .iter()
        .filter_map(|r| match r {
            Record::Step(s) => Some(&**s),
            _ => None,
        })
        .collect();
    insert_steps(&mut st, user, run, &steps, &now);
    // The run's row, in one `UPDATE` (on PostgreSQL, two parts of one statement must not
    // change the same row).
    let mut sets = Vec::new();
    for r in batch {
        match r {
            Record::Event { .. } | Record::Step(_) => {}
            Record::Checkpoint { next_step, .. } => {
                sets.push(format!("next_step = {}", st.bind(i64::from(*next_step))));
            }
            Record::Finish { status, confidence, total_ms, answer, .. } => {
                if let Some(answer) = answer {
                    answer.push(&mut st, user, &now);
                }
                // What the user decided meanwhile (cancelled, rejected) stays; a run ends
                // (`finished_at`, after which its events may be purged) only once final.
                let (status, at) = (st.bind(status.as_str()), st.bind(now.as_str()));
                let status = format!(
                    "CASE WHEN status IN ('running', 'proposed', 'paused') THEN {status} ELSE status END"
                );
                sets.push(format!(
                    "finished_at = CASE WHEN ({status}) IN ('done', 'failed', 'cancelled', 'rejected', 'interrupted')
                                   THEN {at} ELSE finished_at END"
                ));
                sets.push(format!("status = {status}"));
                sets.push(format!("answer_confidence = {}", st.bind(confidence.map(f64::from))));
                sets.push(format!("total_ms = {}", st.bind(*total_ms as i64)));
                sets.push("owner = NULL".into());
            }
        }
    }
    if beat {
        sets.push(format!("heartbeat_at = {}", st.bind(now.as_str())));
    }
    if !sets.is_empty() {
        let (id, user) = (st.bind(run), st.bind(user.0));
        st.push(format!("UPDATE runs SET {} WHERE id = {id} AND user_id = {user}", sets.join(", ")));
    }
    // Clients following the run on another server are woken at the commit.
    if batch.iter().any(|r| !matches!(r, Record::Step(_))) {
        let (channel, payload) = super::notify::notice(run, false);
        let (channel, payload) = (st.bind(channel), st.bind(payload));
        st.select_on_postgres(format!("SELECT pg_notify({channel}, {payload})"));
    }
    // Few shapes are kept prepared: a long answer's batches of every size would push
    // the connection's other statements out of its cache.
    st.execute(&mut tx, events.len() <= 8 && steps.len() <= 4).await?;
    tx.commit().await
}

/// One row of a multi-row `INSERT`, from its placeholders.
fn row(values: Vec<String>) -> String {
    format!("({})", values.join(", "))
}

/// A batch's events.
fn insert_events<'q>(st: &mut Statements<'q>, user: UserId, run: &'q str, events: &[(u64, &'q str)]) {
    if events.is_empty() {
        return;
    }
    let rows: Vec<String> = events
        .iter()
        .map(|(seq, json)| {
            let values = vec![st.bind(run), st.bind(user.0), st.bind(*seq as i64), st.bind(*json)];
            row(values)
        })
        .collect();
    st.push(format!("INSERT INTO run_events (run_id, user_id, seq, event) VALUES {}", rows.join(", ")));
}

/// A batch's steps; a model's call is also what the user spent.
fn insert_steps<'q>(st: &mut Statements<'q>, user: UserId, run: &'q str, steps: &[&'q Step], now: &'q str) {
    if steps.is_empty() {
        return;
    }
    let json = |v: &serde_json::Value| v.to_string();
    let mut rows = Vec::with_capacity(steps.len());
    for s in steps {
        let sources = (!s.sources.is_empty()).then(|| serde_json::to_string(&s.sources).unwrap_or_default());
        let checks = (!s.checks.is_empty()).then(|| serde_json::to_string(&s.checks).unwrap_or_default());
        let values = vec![
            st.bind(run),
            st.bind(user.0),
            st.bind(i64::from(s.seq)),
            st.bind(s.kind.as_str()),
            st.bind(s.status.as_str()),
            st.bind(s.title.as_str()),
            st.bind(s.tool.as_deref()),
            st.bind(s.arguments.as_ref().map(json)),
            st.bind(s.sql.as_deref()),
            st.bind(s.started_ms as i64),
            st.bind(s.duration_us as i64),
            st.bind(s.provider.as_deref()),
            st.bind(s.model.as_deref()),
            st.bind(s.input_tokens as i64),
            st.bind(s.output_tokens as i64),
            st.bind(s.cost_eur_micros as i64),
            st.bind(sources),
            st.bind(checks),
            st.bind(s.error.as_deref()),
        ];
        rows.push(row(values));
    }
    st.push(format!(
        "INSERT INTO run_steps (run_id, user_id, seq, kind, status, title, tool, arguments, sql, started_ms,
             duration_us, provider, model, input_tokens, output_tokens, cost_eur_micros, sources, checks, error)
         VALUES {}",
        rows.join(", ")
    ));
    for s in steps {
        let (Some(provider), Some(model)) = (&s.provider, &s.model) else { continue };
        let route = match s.kind {
            StepKind::Guardian => "guardian",
            StepKind::Route => "router",
            StepKind::Planner => "planner",
            _ => "assistant",
        };
        let values = vec![
            st.bind(user.0),
            st.bind(run),
            st.bind(provider.as_str()),
            st.bind(model.as_str()),
            st.bind(route),
            st.bind(s.input_tokens as i64),
            st.bind(s.output_tokens as i64),
            st.bind(s.cost_eur_micros as i64),
            st.bind(i32::from(s.unpriced)),
            st.bind((s.duration_us / 1000) as i64),
            st.bind(now),
        ];
        st.push(format!(
            "INSERT INTO model_calls (user_id, run_id, provider, model, route, input_tokens, output_tokens,
                 cost_eur_micros, unpriced, latency_ms, created_at)
             VALUES {}",
            row(values)
        ));
    }
}

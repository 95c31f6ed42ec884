//! How a batch of a run's records is written: one transaction, and in it one statement
//! (`crate::statements`): in a run's first batch the question it answers (with its
//! conversation, when new) and the run's row; the events, the steps and the model calls
//! they made, the chat answer with its conversation's move, the run's row, and on
//! PostgreSQL the notification that wakes the run's followers on other servers.

use agent::runs::{RunStatus, Step, StepKind};
use tokio::sync::oneshot;

use crate::ids::{Dialect, UserId};
use crate::messages::NewMessage;
use crate::statements::Statements;
use crate::store::Store;

/// What a chat run's first batch stores before anything of the run: the question it
/// answers, its conversation when the question opens it, and the run's row.
pub(crate) struct Start {
    pub(crate) question: NewMessage,
    /// The new conversation's title and, asked on a widget, its site and visitor.
    pub(crate) opens: Option<Opening>,
    pub(crate) locale: agent::Locale,
    /// When the question came (the run's start and the question's time).
    pub(crate) at: String,
    /// This server, as the run's `owner` while it runs.
    pub(crate) owner: String,
}

/// A conversation a question opens.
pub(crate) struct Opening {
    pub(crate) title: String,
    pub(crate) site: Option<String>,
    pub(crate) visitor: Option<String>,
}

/// What a run's recorder (`record.rs`) hands its writer, in order.
pub(super) enum Record {
    /// A chat run's question and row: its first record (`Start`).
    Start(Box<Start>),
    /// Store what came so far now, not after the writer's linger: the question, which
    /// a model's call or a write waits for.
    Flush,
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
    let start = batch.iter().find_map(|r| match r {
        Record::Start(s) => Some(&**s),
        _ => None,
    });
    let end = batch.iter().find_map(|r| match r {
        Record::Finish { status, confidence, total_ms, answer, .. } => {
            Some((*status, *confidence, *total_ms, answer.as_deref()))
        }
        _ => None,
    });
    let next_step = batch.iter().rev().find_map(|r| match r {
        Record::Checkpoint { next_step, .. } => Some(*next_step),
        _ => None,
    });
    let answer = end.and_then(|(.., answer)| answer);
    let mut st = Statements::new(store.dialect());
    // First what the rest refers to (SQLite checks each reference as it is written).
    match start {
        Some(start) => insert_start(&mut st, user, run, start, (end, next_step), &now),
        None => {
            if let Some(answer) = answer {
                answer.push(&mut st, user, &now);
            }
        }
    }
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
    // change the same row, nor can one change a row another inserts).
    if start.is_none() {
        update_run(&mut st, user, run, (end, next_step), beat.then_some(now.as_str()), &now);
    }
    // Clients following the run on another server are woken at the commit.
    if batch.iter().any(|r| !matches!(r, Record::Step(_))) {
        let (channel, payload) = super::notify::notice(run, false);
        let (channel, payload) = (st.bind(channel), st.bind(payload));
        st.select_on_postgres(format!("SELECT pg_notify({channel}, {payload})"));
    }
    // Few shapes are kept prepared: a long answer's batches of every size would push
    // the connection's other statements out of its cache.
    let keep = events.len() <= 8 && steps.len() <= 4;
    if store.dialect() == Dialect::Sqlite {
        return st.commit_alone(store.pool(), keep).await;
    }
    // A batch that stores the question or the answer commits as any user's message does
    // (on PostgreSQL, waiting for the disk); the others are a log that can be lost with
    // PostgreSQL itself.
    let mut tx = match start.is_some() || answer.is_some() {
        true => store.tenant(user).await?,
        false => store.tenant_log(user).await?,
    };
    st.execute(&mut tx, keep).await?;
    tx.commit().await
}

/// How a batch ends its run, if it does: status, answer confidence, duration, answer.
type End<'a> = Option<(RunStatus, Option<f32>, u64, Option<&'a NewMessage>)>;

/// A run's first batch: the question (`insert_question`, with the answer when the batch
/// holds it), and the run's row as the batch leaves it.
fn insert_start<'q>(
    st: &mut Statements<'q>,
    user: UserId,
    run: &'q str,
    start: &'q Start,
    (end, next_step): (End<'q>, Option<u32>),
    now: &'q str,
) {
    insert_question(st, user, start, end.and_then(|(.., answer)| answer), now);
    let conversation = start.question.conversation();
    let (status, confidence, total_ms) = match end {
        Some((status, confidence, total_ms, _)) => (status, confidence, Some(total_ms as i64)),
        None => (RunStatus::Running, None, None),
    };
    let ended = end.is_some();
    let values = [
        st.bind(run),
        st.bind(user.0),
        st.bind(conversation),
        st.bind(start.locale.as_str()),
        st.bind(status.as_str()),
        st.bind(start.at.as_str()),
        st.bind(now),
        st.bind((!ended).then_some(start.owner.as_str())),
        st.bind(i64::from(next_step.unwrap_or(0))),
        st.bind(confidence.map(f64::from)),
        st.bind(total_ms),
        st.bind(status.is_final().then_some(now)),
    ];
    st.push(format!(
        "INSERT INTO runs (id, user_id, conversation_id, locale, status, started_at, heartbeat_at, owner,
             next_step, answer_confidence, total_ms, finished_at)
         VALUES ({})",
        values.join(", ")
    ));
}

/// A question with its conversation when it opens it, and `answer` after it (one
/// `INSERT`, in that order); the conversation moved once.
fn insert_question<'q>(
    st: &mut Statements<'q>,
    user: UserId,
    start: &'q Start,
    answer: Option<&'q NewMessage>,
    now: &'q str,
) {
    if let Some(o) = &start.opens {
        let values = [
            st.bind(start.question.conversation()),
            st.bind(user.0),
            st.bind(o.title.as_str()),
            st.bind(start.at.as_str()),
            st.bind(now),
            st.bind(o.site.as_deref()),
            st.bind(o.visitor.as_deref()),
        ];
        st.push(format!(
            "INSERT INTO conversations (id, user_id, title, created_at, updated_at, site_id, visitor)
             VALUES ({})",
            values.join(", ")
        ));
    }
    let mut messages = vec![(&start.question, start.at.as_str())];
    messages.extend(answer.map(|a| (a, now)));
    NewMessage::push_all(st, user, &messages, start.opens.is_none().then_some(now));
}

/// A question stored on its own, in one transaction: runs are not recorded.
pub(super) async fn store_question(store: &Store, user: UserId, start: &Start) -> Result<(), sqlx::Error> {
    let now = crate::store::timestamp(chrono::Utc::now());
    let mut tx = store.tenant(user).await?;
    let mut st = Statements::new(store.dialect());
    insert_question(&mut st, user, start, None, &now);
    st.execute(&mut tx, true).await?;
    tx.commit().await
}

/// The run's row after a batch that is not its first: its progress, its end, its
/// heartbeat (`beat`: now).
fn update_run<'q>(
    st: &mut Statements<'q>,
    user: UserId,
    run: &'q str,
    (end, next_step): (End<'q>, Option<u32>),
    beat: Option<&'q str>,
    now: &'q str,
) {
    let mut sets = Vec::new();
    if let Some(next_step) = next_step {
        sets.push(format!("next_step = {}", st.bind(i64::from(next_step))));
    }
    if let Some((status, confidence, total_ms, _)) = end {
        // What the user decided meanwhile (cancelled, rejected) stays; a run ends
        // (`finished_at`, after which its events may be purged) only once final.
        let (status, at) = (st.bind(status.as_str()), st.bind(now));
        let status =
            format!("CASE WHEN status IN ('running', 'proposed', 'paused') THEN {status} ELSE status END");
        sets.push(format!(
            "finished_at = CASE WHEN ({status}) IN ('done', 'failed', 'cancelled', 'rejected', 'interrupted')
                           THEN {at} ELSE finished_at END"
        ));
        sets.push(format!("status = {status}"));
        sets.push(format!("answer_confidence = {}", st.bind(confidence.map(f64::from))));
        sets.push(format!("total_ms = {}", st.bind(total_ms as i64)));
        sets.push("owner = NULL".into());
    }
    if let Some(beat) = beat {
        sets.push(format!("heartbeat_at = {}", st.bind(beat)));
    }
    if !sets.is_empty() {
        let (id, user) = (st.bind(run), st.bind(user.0));
        st.push(format!("UPDATE runs SET {} WHERE id = {id} AND user_id = {user}", sets.join(", ")));
    }
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

//! The steps an answer records in its run (see `crate::runs`): what each step of the
//! pipeline did, in the words the trace panel shows. A tool step runs here too, with its
//! checks, because every result is checked before it is shown.

use agent::protocol::ChatEvent;
use agent::runs::{Check, CheckOutcome, Sources, Step, StepKind, StepStatus};
use agent::{Date, Locale, ParseOutcome, Parser, ToolCall, ToolOutput};

use super::emitter::Emitter;
use crate::calendar::Calendar;
use crate::error::BackendError;
use crate::ids::UserId;
use crate::llm::model::{Model, Spent};
use crate::llm::retry::Meter;
use crate::runs::record::Clock;
use crate::store::Store;
use crate::tools;

/// What an answer's tool steps read with: Sou's store and calendar, whose data, the vocabulary the
/// tools take labels and the currency from (what the answer read of the user with their
/// question, which its tools need not read again), and a read already begun.
pub(crate) struct ToolCx<'a> {
    pub(crate) store: &'a Store,
    pub(crate) calendar: Calendar,
    pub(crate) user: UserId,
    pub(crate) known: tools::Known,
    /// The read of the plan about to run, made while the parser was checked
    /// (`parsing.rs`): its tool step takes it instead of reading again.
    pub(crate) prefetched: Option<Prefetched>,
}

impl<'a> ToolCx<'a> {
    /// Reading `user`'s data, with nothing read yet.
    pub(crate) fn new(store: &'a Store, calendar: Calendar, user: UserId) -> ToolCx<'a> {
        ToolCx { store, calendar, user, known: Default::default(), prefetched: None }
    }
}

/// A tool's read begun before its step, from `clock` on, maybe still under way: `call`
/// in `locale` as of `today`.
pub(crate) struct Prefetched {
    pub(crate) call: agent::ToolCall,
    pub(crate) locale: agent::Locale,
    pub(crate) today: agent::Date,
    pub(crate) clock: Clock,
    pub(crate) read: PendingRead,
}

/// What `tools::read` returns, to come.
pub(crate) type PendingRead = std::pin::Pin<
    Box<
        dyn std::future::Future<
                Output = Result<(agent::ToolOutput, Option<crate::tools::ForChecks>), BackendError>,
            > + Send,
    >,
>;

/// What the parser made of the message.
pub(crate) fn parse(outcome: &ParseOutcome, parser: &Parser) -> Step {
    match outcome {
        ParseOutcome::Plan(p) => {
            let mut s = Step::new(StepKind::Parse, parser.describe(&p.call, p.meta.locale));
            s.tool = Some(p.call.name().to_string());
            s.arguments = arguments(&p.call);
            s
        }
        ParseOutcome::Clarification(c) => Step::new(StepKind::Parse, c.question.clone()),
    }
}

/// A model's call: who answered, with what tokens and cost.
pub(crate) fn model(kind: StepKind, title: impl Into<String>, model: &Model, spent: &Spent) -> Step {
    let mut s = Step::new(kind, title);
    s.provider = Some(model.provider.as_str().to_string());
    s.model = Some(model.name.clone());
    s.input_tokens = spent.input_tokens;
    s.output_tokens = spent.output_tokens;
    s.cost_eur_micros = spent.cost_eur_micros;
    s.unpriced = spent.unpriced;
    s
}

/// The same, failed with a reason safe to show.
pub(crate) fn failed(mut s: Step, error: impl Into<String>) -> Step {
    s.status = StepStatus::Failed;
    s.error = Some(error.into());
    s
}

/// A call's arguments as the registry validated them.
pub(crate) fn arguments(call: &ToolCall) -> Option<serde_json::Value> {
    serde_json::to_value(call).ok().and_then(|mut v| v.get_mut("args").map(serde_json::Value::take))
}

/// A model's tool call the registry refused: not run, `why` said. The name and arguments
/// are the model's, kept as text (never a link or markup where shown).
pub(crate) fn refused(name: &str, arguments: &serde_json::Value, why: &str, locale: Locale) -> Step {
    let mut s = Step::new(
        StepKind::Tool,
        locale.pick(format!("Appel refusé : {name}"), format!("Call refused: {name}")),
    );
    s.status = StepStatus::Refused;
    s.tool = Some(name.chars().take(64).collect());
    s.arguments = Some(arguments.clone());
    s.error = Some(why.chars().take(500).collect());
    s
}

/// A tool step before it ran: its name and arguments.
pub(crate) fn tool(call: &ToolCall, title: impl Into<String>) -> Step {
    let mut s = Step::new(StepKind::Tool, title);
    s.tool = Some(call.name().to_string());
    s.arguments = arguments(call);
    s
}

/// Runs a read tool and checks its result, recording both steps; a ledger tool's checks
/// read in the tool's own transaction. A transient store error (a busy database, a
/// dropped connection) is tried again with backoff before the step fails. Returns the
/// result and its checks.
pub(crate) async fn run_checked(
    tcx: &mut ToolCx<'_>,
    out: &mut Emitter,
    call: &ToolCall,
    locale: Locale,
    today: Date,
) -> Result<(ToolOutput, Vec<Check>), BackendError> {
    let (store, user) = (tcx.store, tcx.user);
    // A read made while the parser was checked is this step's first attempt.
    let mut first =
        tcx.prefetched.take().filter(|p| p.call == *call && p.locale == locale && p.today == today);
    let clock = first.as_ref().map_or_else(Clock::now, |p| p.clock);
    let mut pause = std::time::Duration::from_millis(50);
    let mut attempt = 1;
    let output = loop {
        let read = match first.take() {
            Some(p) => p.read.await,
            None => tools::read(store, user, &tcx.known, call, locale, today).await,
        };
        match read {
            Err(BackendError::Db(e)) if attempt < 3 && transient(&e) => {
                tracing::warn!(error = %e, attempt, "a tool met a transient store error; trying again");
                tokio::time::sleep(pause).await;
                pause *= 4;
                attempt += 1;
            }
            other => break other,
        }
    };
    let mut step = tool(call, call.name());
    let (output, open) = match output {
        Ok(o) => o,
        Err(e) => {
            let (_, message) = crate::error::user_safe(&e, Some(locale));
            out.step(clock, failed(step, message));
            return Err(e);
        }
    };
    step.sources = sources(&output);
    if let ToolOutput::QueryDataset(r) | ToolOutput::RunSql(r) = &output {
        step.sql = Some(r.result.sql.clone());
    }
    out.step(clock, step);
    let clock = Clock::now();
    // Checked against today, not the plan's day: a plan may run days after it was made.
    let checks = match open {
        None => Ok(tools::verify::dataset_checks(&output, locale)),
        Some(tools::ForChecks { tx: _, months: Err(e) }) => Err(e),
        Some(tools::ForChecks { mut tx, months: Ok(months) }) => {
            let checks = tools::verify::verify_in(
                &mut tx,
                user,
                (call, &output),
                months,
                locale,
                tcx.calendar.today(),
            )
            .await;
            // Only read: its end cannot lose anything.
            let _ = tx.commit().await;
            checks
        }
    };
    let checks = match checks {
        Ok(c) => c,
        Err(e) => {
            tracing::warn!(error = %e, "checking a tool's result failed");
            let s = Step::new(StepKind::Verify, locale.pick("Vérification", "Verification"));
            out.step(
                clock,
                failed(s, locale.pick("La vérification n'a pas pu se faire.", "The checks could not run.")),
            );
            return Ok((output, Vec::new()));
        }
    };
    let failed_n = checks.iter().filter(|c| c.outcome == CheckOutcome::Failed).count();
    let title = match failed_n {
        0 => locale
            .pick(format!("{} contrôles passés", checks.len()), format!("{} checks passed", checks.len())),
        n => locale.pick(
            format!("{n} contrôle(s) sur {} en échec", checks.len()),
            format!("{n} of {} checks failed", checks.len()),
        ),
    };
    let mut s = Step::new(StepKind::Verify, title);
    s.checks = checks.clone();
    out.step(clock, s);
    Ok((output, checks))
}

fn sources(output: &ToolOutput) -> Sources {
    match output {
        ToolOutput::QueryDataset(r) | ToolOutput::RunSql(r) => Sources {
            transactions: Vec::new(),
            count: None,
            dataset_rows: Some(r.result.rows.len() as u64),
            dataset: r.dataset.clone(),
        },
        o => {
            let (transactions, count) = tools::sources(o);
            let count = (count != transactions.len() as u64).then_some(count);
            Sources { transactions, count, dataset_rows: None, dataset: None }
        }
    }
}

/// An error worth one more try: the database busy or locked, a connection lost or
/// none free, a serialisation failure.
fn transient(e: &sqlx::Error) -> bool {
    match e {
        sqlx::Error::PoolTimedOut | sqlx::Error::Io(_) => true,
        sqlx::Error::Database(d) => {
            let code = d.code().unwrap_or_default();
            // SQLite: 5 busy, 6 locked; PostgreSQL: serialization failure, deadlock,
            // the server shutting down or restarting.
            matches!(code.as_ref(), "5" | "6" | "517" | "40001" | "40P01" | "57P01" | "57P03")
        }
        _ => false,
    }
}

/// The user stopped the answer while `model` was asked (`kind`): its step marked
/// stopped with what `meter` counted by then, the stream told so.
pub(crate) async fn stopped_while(
    out: &mut Emitter,
    clock: Clock,
    kind: StepKind,
    model: &Model,
    meter: &Meter,
    locale: Locale,
) {
    let text = super::emitter::stopped_text(locale);
    let mut step = self::model(kind, text, model, &Spent::metered(model, meter));
    step.status = StepStatus::Stopped;
    out.step(clock, step);
    out.emit(ChatEvent::Error { code: "stopped".into(), message: text.into() }).await;
}

#[cfg(test)]
mod tests {
    use super::transient;

    #[test]
    fn a_store_error_that_may_pass_is_tried_again_and_no_other() {
        assert!(transient(&sqlx::Error::PoolTimedOut));
        assert!(transient(&sqlx::Error::Io(std::io::Error::from(std::io::ErrorKind::ConnectionReset))));
        assert!(!transient(&sqlx::Error::RowNotFound));
        assert!(!transient(&sqlx::Error::ColumnNotFound("x".into())));
    }
}

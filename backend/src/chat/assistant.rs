//! The free-form route: a question no plan covers goes to a model with the
//! tool catalogue (the registry's read tools and their JSON Schemas). Each tool call is
//! validated by the registry and run against the user's data; its result streams as
//! `tool_result`, the model's text as `token`. At most [`MAX_TOOL_ITERATIONS`] rounds of
//! tool calls per message, then one last call without tools for the answer.

use std::time::Instant;

use agent::protocol::ChatEvent;
use agent::{Date, Locale};
use futures::StreamExt;
use serde_json::json;

use super::router::{Complexity, Route};
use crate::approvals::Paused;
use crate::ids::UserId;
use crate::llm::model::{elapsed_ms, Model, Spent};
use crate::llm::retry::Meter;
use crate::llm::{LlmError, LlmMessage, LlmRequest, Part, Role, StreamEvent, ToolSpec};
use crate::providers::Providers;
use crate::registry::{Registry, ToolClass};
use crate::runs::emitter::Emitter;
use crate::runs::record::Clock;
use crate::runs::steps::{self, ToolCx};
use agent::runs::{Check, StepKind};

/// Rounds of tool calls per message (never more than 5).
pub const MAX_TOOL_ITERATIONS: usize = 5;

/// Reply length for each tier.
fn max_tokens(c: Complexity) -> u32 {
    match c {
        Complexity::Simple => 1_024,
        Complexity::Complex => 4_096,
    }
}

/// How the loop ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// The model answered.
    Answered,
    /// The client went away (stop button, closed tab): the upstream call was dropped.
    Stopped,
    /// Five rounds of tools and the model still wanted more.
    ToolLimit,
    /// The model proposed a write: the loop waits for the person's decision
    /// ([`Paused`], kept with the approval) and goes on after it ([`resume`]).
    Awaiting,
}

/// What the model reads for a write while the person has not decided.
const UNDECIDED: &str = "(waiting for the user's decision)";

#[derive(Debug)]
pub struct Outcome {
    pub ending: Ending,
    pub first_token_ms: Option<u64>,
    /// Tool calls that ran (valid ones).
    pub tools_run: usize,
    /// Whether any text reached the user (an error after that cannot be retried).
    pub answered_text: String,
    /// The checks of every tool result the model was given.
    pub checks: Vec<Check>,
}

impl Outcome {
    fn new() -> Outcome {
        Outcome {
            ending: Ending::Answered,
            first_token_ms: None,
            tools_run: 0,
            answered_text: String::new(),
            checks: Vec::new(),
        }
    }
}

/// A failure, with what the loop did before it.
#[derive(Debug)]
pub struct Failed {
    pub error: LlmError,
    pub outcome: Outcome,
}

/// The system prompt; `datasets` is `dataset_info`'s text when the user has datasets.
fn system(locale: Locale, today: Date, datasets: Option<&str>) -> String {
    let language = match locale {
        Locale::Fr => "French",
        Locale::En => "English",
    };
    let datasets = datasets
        .map(|d| {
            format!(
                "\n\nThe user also uploaded datasets (CSV files). For questions about them, call query_dataset \
or write one SELECT for run_sql; never invent a table or a column.\n{d}"
            )
        })
        .unwrap_or_default();
    format!(
        "You are Sou, a self-hosted personal finance assistant. Answer in {language}, briefly, in Markdown \
(no HTML, no images). Today is {today}. Use the tools to read the user's own accounts; never invent an \
amount, a date or a transaction. In tool results, money is {{\"minor\": integer, \"currency\": ISO code}}: \
minor units (cents), so 12345 EUR is 123.45 €. When a question needs advice, give general, balanced \
considerations grounded in the user's figures and say it is not professional financial advice.{datasets}"
    )
}

/// The write tools as the model is offered them.
fn write_catalogue() -> Vec<ToolSpec> {
    offered().iter().filter(|(class, _)| *class == ToolClass::Write).map(|(_, t)| t.clone()).collect()
}

/// Every tool as models are offered it, compacted once: each request then shares these
/// schemas instead of building its own.
fn offered() -> &'static [(ToolClass, ToolSpec)] {
    static OFFERED: std::sync::OnceLock<Vec<(ToolClass, ToolSpec)>> = std::sync::OnceLock::new();
    OFFERED.get_or_init(|| {
        Registry::get()
            .tools()
            .iter()
            .map(|t| {
                let spec = ToolSpec {
                    name: t.name.to_string(),
                    description: t.description.to_string(),
                    parameters: std::sync::Arc::new(compact(&t.schema)),
                };
                (t.class, spec)
            })
            .collect()
    })
}

/// A write the model called: never run, only proposed to the user (the same approval
/// as the parser's writes). What the model reads back says so.
async fn propose(
    sou: &crate::sou::Sou,
    q: &Question<'_>,
    model: &Model,
    call: agent::ToolCall,
    out: &mut Emitter,
) -> (String, Option<String>) {
    use crate::error::UserError;
    let plan = agent::ToolCallPlan {
        call,
        meta: agent::PlanMeta {
            confidence: agent::Confidence::Medium,
            confidence_reasons: vec![agent::Reason::new(
                agent::ReasonCode::ModelProposed,
                q.locale,
                &model.name,
            )],
            locale: q.locale,
            today: q.today,
        },
    };
    if let Some(asked) = unknown_category(sou, q, &plan).await {
        out.emit(ChatEvent::Clarify { clarification: asked.0 }).await;
        return (asked.1, None);
    }
    match sou.approvals.propose(q.user, Some(q.conversation), &plan).await {
        Ok(approval) => {
            let effect = approval.effect.lines.join("; ");
            let id = approval.id.clone();
            out.emit(ChatEvent::Plan { plan }).await;
            out.emit(ChatEvent::ApprovalRequired { approval: Box::new(approval) }).await;
            (format!("Not done yet: the user is shown this change ({effect})."), Some(id))
        }
        Err(e) => {
            tracing::info!(error = %e, "a write the model proposed was refused");
            (format!("error: {}", e.message(agent::Locale::En)), None)
        }
    }
}

/// A write of the model's into a category the user does not have ("budgets that would
/// help me save" → `savings_goals`): the question to the user, with the same write into
/// each of the nearest categories as one click (or, when none is near, the user's
/// categories named), and what the model is told.
async fn unknown_category(
    sou: &crate::sou::Sou,
    q: &Question<'_>,
    plan: &agent::ToolCallPlan,
) -> Option<(agent::Clarification, String)> {
    let mut call = plan.call.clone();
    let said = call.written_category_mut()?.clone();
    let parser = match sou.parser(q.user).await {
        Ok(p) => p,
        Err(e) => {
            tracing::warn!(error = %e, "reading the vocabulary for a model's write failed");
            return None;
        }
    };
    let vocab = parser.vocabulary();
    if vocab.categories.iter().any(|t| t.key == said) {
        return None;
    }
    let mut suggestions = Vec::new();
    for t in vocab.nearest_categories(&said, 3) {
        if let Some(c) = call.written_category_mut() {
            *c = t.key.clone();
        }
        let label = agent::tool::describe(vocab, &call, q.locale);
        suggestions.push(agent::Suggestion {
            label,
            plan: agent::ToolCallPlan { call: call.clone(), ..plan.clone() },
        });
    }
    let shown: String = said.chars().take(60).collect();
    let mut question = q.locale.pick(
        format!("Vous n'avez pas de catégorie « {shown} ». Laquelle voulez-vous ?"),
        format!("You have no category “{shown}”. Which one do you mean?"),
    );
    if suggestions.is_empty() {
        let names: Vec<&str> = vocab.categories.iter().map(|t| t.label(q.locale)).collect();
        question.push_str(&q.locale.pick(
            format!(" Vos catégories : {}.", names.join(", ")),
            format!(" Your categories: {}.", names.join(", ")),
        ));
    }
    let options: Vec<&str> = suggestions.iter().map(|s| s.label.as_str()).collect();
    let told = format!(
        "error: the user has no category {said:?}. They were asked which one they mean{}.          Do not propose this change again: say you asked them.",
        if options.is_empty() { String::new() } else { format!(" ({})", options.join("; ")) }
    );
    let reasons = vec![agent::Reason::new(agent::ReasonCode::UnknownName, q.locale, &shown)];
    Some((agent::Clarification { question, reasons, suggestions, locale: q.locale }, told))
}

/// The catalogue offered to the model: the routed read tools with their schemas, in
/// the fewest tokens that say the same (see [`compact`]).
pub fn catalogue(names: &[&str]) -> Vec<ToolSpec> {
    offered()
        .iter()
        .filter(|(class, t)| *class == ToolClass::Read && names.contains(&t.name.as_str()))
        .map(|(_, t)| t.clone())
        .collect()
}

/// A schema as a model needs it: no `$schema` URL, and an optional field as its type
/// alone — `{"anyOf": [X, {"type": "null"}]}` becomes `X`, `["string", "null"]`
/// becomes `"string"` — since leaving it out says "none" and the registry still checks
/// every call against the full schema. About a fifth of the catalogue's tokens.
fn compact(schema: &serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
    let is_null = |v: &Value| v.get("type").and_then(Value::as_str) == Some("null");
    match schema {
        Value::Object(map) => {
            let mut out = serde_json::Map::new();
            for (k, v) in map {
                if k == "$schema" {
                    continue;
                }
                match (k.as_str(), v) {
                    ("anyOf", Value::Array(options)) if options.len() == 2 && options.iter().any(is_null) => {
                        if let Some(Value::Object(inner)) = options.iter().find(|o| !is_null(o)).map(compact)
                        {
                            out.extend(inner);
                        }
                    }
                    ("type", Value::Array(types))
                        if types.len() == 2 && types.iter().any(|t| t == "null") =>
                    {
                        if let Some(t) = types.iter().find(|t| *t != "null") {
                            out.insert(k.clone(), t.clone());
                        }
                    }
                    _ => {
                        out.insert(k.clone(), compact(v));
                    }
                }
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(items.iter().map(compact).collect()),
        other => other.clone(),
    }
}

/// What the model needs from a previous turn: its text.
pub fn history_message(role: Role, text: &str) -> Option<LlmMessage> {
    (!text.trim().is_empty()).then(|| LlmMessage { role, content: vec![Part::Text(text.to_string())] })
}

/// Who answers: Sou's tools, the providers and the model asked.
#[derive(Clone, Copy)]
pub(crate) struct Answerer<'a> {
    pub(crate) sou: &'a crate::sou::Sou,
    pub(crate) providers: &'a Providers,
    pub(crate) model: &'a Model,
}

pub struct Question<'a> {
    pub user: UserId,
    /// Where a write the model proposes is asked about.
    pub conversation: &'a str,
    pub message: &'a str,
    pub history: Vec<LlmMessage>,
    pub locale: Locale,
    pub today: Date,
    pub started: Instant,
}

/// Runs the tool loop for `q` with `model`, streaming into `out`.
pub(crate) async fn answer(
    by: Answerer<'_>,
    tcx: &mut ToolCx<'_>,
    route: &Route,
    mut q: Question<'_>,
    out: &mut Emitter,
) -> Result<Outcome, Failed> {
    let model = by.model;
    let mut outcome = Outcome::new();
    let mut messages = std::mem::take(&mut q.history);
    messages.push(LlmMessage { role: Role::User, content: vec![Part::Text(q.message.to_string())] });
    // The writes are offered when the message asks for a change (a write verb): the
    // model may then propose one, which the user approves or not, as any other.
    let writes = agent::text::tokenize(q.message).iter().any(|t| agent::is_write_word(&t.norm));
    let paused = Paused {
        model: model.name.clone(),
        complex: route.complexity == Complexity::Complex,
        tools: route.tools.iter().map(|t| t.to_string()).collect(),
        writes,
        locale: q.locale,
        messages,
        call: String::new(),
        round: 0,
    };
    match tool_loop(by, tcx, paused, &q, out, &mut outcome).await {
        Ok(()) => Ok(outcome),
        Err(error) => Err(Failed { error, outcome }),
    }
}

/// Goes on with a tool loop `paused` for a write the person decided on: `result`, what
/// became of the write, is its call's result; the loop runs from the next round.
pub(crate) async fn resume(
    by: Answerer<'_>,
    tcx: &mut ToolCx<'_>,
    mut paused: Paused,
    result: &str,
    q: Question<'_>,
    out: &mut Emitter,
) -> Result<Outcome, Failed> {
    let mut outcome = Outcome::new();
    for m in paused.messages.iter_mut() {
        for part in m.content.iter_mut() {
            if let Part::ToolResult { id, content } = part {
                if *id == paused.call {
                    *content = result.to_string();
                }
            }
        }
    }
    paused.round += 1;
    // The decided write is a result about the user's data the model reads: the answer
    // rests on it.
    outcome.tools_run += 1;
    match tool_loop(by, tcx, paused, &q, out, &mut outcome).await {
        Ok(()) => Ok(outcome),
        Err(error) => Err(Failed { error, outcome }),
    }
}

/// The rounds of a tool loop from `state.round` on, with its turns so far; a failure is
/// the provider's error (what the loop did is in `outcome`).
async fn tool_loop(
    by: Answerer<'_>,
    tcx: &mut ToolCx<'_>,
    mut state: Paused,
    q: &Question<'_>,
    out: &mut Emitter,
    outcome: &mut Outcome,
) -> Result<(), LlmError> {
    let Answerer { sou, model, .. } = by;
    let store = sou.store();
    let read: Vec<&str> = state.tools.iter().map(String::as_str).collect();
    let mut tools = catalogue(&read);
    if state.writes {
        tools.extend(write_catalogue());
    }
    let complexity = if state.complex { Complexity::Complex } else { Complexity::Simple };
    // What the model must know to write SQL: the datasets' tables and columns.
    let datasets = match crate::datasets::list(store, q.user).await {
        Ok(list) if !list.is_empty() => Some(crate::datasets::describe(&list, store.dialect())),
        Ok(_) => None,
        Err(e) => {
            tracing::warn!(error = %e, "listing the datasets for the model failed");
            None
        }
    };
    let system = system(q.locale, q.today, datasets.as_deref());
    let mut messages = std::mem::take(&mut state.messages);
    for iteration in state.round..=MAX_TOOL_ITERATIONS {
        // The last call offers no tools: the model must answer with what it has.
        let offered = if iteration < MAX_TOOL_ITERATIONS { tools.clone() } else { Vec::new() };
        let request = LlmRequest {
            model: model.name.clone(),
            system: system.clone(),
            messages: messages.clone(),
            tools: offered,
            max_tokens: max_tokens(complexity),
            temperature: None,
        };
        let Some((text, calls)) = hear(by, request, q, out, outcome).await? else {
            return Ok(());
        };
        if calls.is_empty() {
            return Ok(());
        }
        if iteration == MAX_TOOL_ITERATIONS {
            outcome.ending = Ending::ToolLimit;
            return Ok(());
        }
        let mut said: Vec<Part> = Vec::new();
        if !text.is_empty() {
            said.push(Part::Text(text));
        }
        let mut results = Vec::new();
        // A write proposed in this round: its approval, and its call.
        let mut waiting: Option<(String, String)> = None;
        for call in calls {
            let (content, ran) = call_result(by, tcx, q, &call, &mut waiting, out).await;
            if let Some(checks) = ran {
                outcome.tools_run += 1;
                outcome.checks.extend(checks);
            }
            let (id, name, arguments) = call;
            said.push(Part::ToolCall { id: id.clone(), name, arguments });
            results.push(Part::ToolResult { id, content });
        }
        messages.push(LlmMessage { role: Role::Assistant, content: said });
        messages.push(LlmMessage { role: Role::Tool, content: results });
        // A write waits for the person: the loop stops here, kept with the approval,
        // and goes on once they decide.
        if let Some((approval, call)) = waiting {
            let paused = Paused { messages, call, round: iteration, ..state };
            if let Err(e) = sou.approvals.pause_for_approval(q.user, &approval, &paused).await {
                tracing::error!(error = %e, "keeping the tool loop with its approval failed");
            }
            let said = q.locale.pick(
                "Cette modification attend votre accord : je continuerai une fois votre décision prise.",
                "This change waits for your approval: I will go on once you decide.",
            );
            outcome.answered_text.push_str(said);
            out.emit(ChatEvent::markdown(said.to_string())).await;
            outcome.ending = Ending::Awaiting;
            return Ok(());
        }
    }
    outcome.ending = Ending::ToolLimit;
    Ok(())
}

/// A tool call of the model's: its id, the tool's name, the arguments.
type Call = (String, String, serde_json::Value);

/// One round of the model, streamed: its text and the tools it called, its step
/// recorded; `None` when the person stopped it (dropping the call closes the upstream
/// connection).
async fn hear(
    by: Answerer<'_>,
    request: LlmRequest,
    q: &Question<'_>,
    out: &mut Emitter,
    outcome: &mut Outcome,
) -> Result<Option<(String, Vec<Call>)>, LlmError> {
    let Answerer { providers, model, .. } = by;
    let clock = Clock::now();
    // Every token the provider reports for this round, whatever becomes of it.
    let meter = Meter::default();
    let round = || Spent::metered(model, &meter);
    let stopped = |out: &mut Emitter, outcome: &mut Outcome| {
        outcome.ending = Ending::Stopped;
        let mut step = steps::model(StepKind::Model, model_title(q.locale, &[]), model, &round());
        step.status = agent::runs::StepStatus::Stopped;
        out.step(clock, step);
    };
    let failed = |out: &mut Emitter, error: &LlmError| {
        let step = steps::model(StepKind::Model, model_title(q.locale, &[]), model, &round());
        out.step(clock, steps::failed(step, crate::error::llm_message(model.provider, error, q.locale).1));
    };
    // Stopped before the first token (the request sent, no answer yet, or a retry
    // waiting).
    let (result, info) = tokio::select! {
        r = providers.caller().stream(model, request, &meter) => r,
        () = out.closed() => {
            stopped(out, outcome);
            return Ok(None);
        }
    };
    if info.dropped > 0 {
        tracing::info!(dropped = info.dropped, "older turns left out to fit the context budget");
    }
    let mut events = match result {
        Ok(e) => e,
        Err(error) => {
            failed(out, &error);
            return Err(error);
        }
    };
    let mut text = String::new();
    let mut calls = Vec::new();
    loop {
        let next = tokio::select! {
            next = events.next() => next,
            () = out.closed() => {
                stopped(out, outcome);
                return Ok(None);
            }
        };
        match next {
            None => break,
            Some(Err(error)) => {
                failed(out, &error);
                return Err(error);
            }
            Some(Ok(StreamEvent::TextDelta(t))) => {
                outcome.first_token_ms.get_or_insert_with(|| elapsed_ms(q.started));
                text.push_str(&t);
                outcome.answered_text.push_str(&t);
                out.emit(ChatEvent::markdown(t)).await;
            }
            Some(Ok(StreamEvent::ToolCall { id, name, arguments })) => {
                outcome.first_token_ms.get_or_insert_with(|| elapsed_ms(q.started));
                calls.push((id, name, arguments));
            }
            // Counted in `meter`.
            Some(Ok(StreamEvent::Usage { .. } | StreamEvent::Done { .. })) => {}
        }
    }
    let names: Vec<&str> = calls.iter().map(|(_, n, _): &Call| n.as_str()).collect();
    out.step(clock, steps::model(StepKind::Model, model_title(q.locale, &names), model, &round()));
    Ok(Some((text, calls)))
}

/// What the model reads back for one of its tool calls: a read's result (with its
/// checks), a write proposed (its approval and call then in `waiting`), or why the call
/// was refused.
async fn call_result(
    by: Answerer<'_>,
    tcx: &mut ToolCx<'_>,
    q: &Question<'_>,
    (id, name, arguments): &Call,
    waiting: &mut Option<(String, String)>,
    out: &mut Emitter,
) -> (String, Option<Vec<agent::runs::Check>>) {
    let Answerer { sou, model, .. } = by;
    // A valid call's periods are named in the conversation's language, not the
    // model's ("janvier 2026" in a French answer, whatever label it wrote).
    let validated = Registry::get().validate(&json!({"tool": name, "args": arguments})).map(|mut c| {
        agent::period::renamed(&mut c, q.locale);
        c
    });
    match validated {
        // One change at a time: a second write waits for the first's decision.
        Ok(call) if call.is_write() && waiting.is_some() => (
            "error: one change at a time; propose this one once the user decided on the first.".to_string(),
            None,
        ),
        Ok(call) if call.is_write() => match propose(sou, q, model, call, out).await {
            (_, Some(approval)) => {
                *waiting = Some((approval, id.clone()));
                (UNDECIDED.to_string(), None)
            }
            (told, None) => (told, None),
        },
        Ok(call) => match steps::run_checked(tcx, out, &call, q.locale, q.today).await {
            Ok((output, checks)) => {
                let summary = output.answer(q.locale);
                let data = serde_json::to_string(&output).unwrap_or_default();
                out.emit(ChatEvent::ToolResult(output)).await;
                (format!("{summary}\n{data}"), Some(checks))
            }
            // The model's own mistake (SQL the sandbox refused, an unknown column), or
            // too many dataset queries at once: it reads why and may try again.
            Err(
                crate::error::BackendError::BadRequest(why) | crate::error::BackendError::QueriesBusy(why),
            ) => {
                tracing::info!(tool = %name, "the model's tool call was refused");
                (format!("error: {why}"), None)
            }
            Err(e) => {
                tracing::error!(error = %e, tool = %name, "a tool the model called failed");
                ("error: the tool failed on the server".to_string(), None)
            }
        },
        Err(e) => {
            tracing::info!(tool = %name, "the model's tool call was refused by the registry");
            out.step(Clock::now(), steps::refused(name, arguments, &e.to_string(), q.locale));
            (format!("error: {e}. Call a listed tool with arguments valid for its schema."), None)
        }
    }
}

/// A model step's title: it answered, or called these tools.
fn model_title(locale: Locale, tools: &[&str]) -> String {
    if tools.is_empty() {
        locale.pick("Réponse du modèle", "The model's answer").to_string()
    } else {
        locale.pick(
            format!("Appel d'outils : {}", tools.join(", ")),
            format!("Tool calls: {}", tools.join(", ")),
        )
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    /// The catalogue is Sou's own words, sent with every request: with every read tool it
    /// must leave at least half of the default budget to the question, the calls and their
    /// results (at 8,000 tokens, the catalogue grew past it and results were cut unread).
    #[test]
    fn the_whole_catalogue_leaves_half_the_default_budget_to_the_conversation() {
        use crate::llm::context::{estimate, DEFAULT_BUDGET};
        let names: Vec<&str> = Registry::get().read_tools().map(|t| t.name).collect();
        let tools = catalogue(&names);
        assert_eq!(tools.len(), names.len());
        let tokens: u32 = tools
            .iter()
            .map(|t| estimate(&t.name) + estimate(&t.description) + estimate(&t.parameters.to_string()))
            .sum();
        assert!(tokens * 2 <= DEFAULT_BUDGET, "the catalogue is {tokens} tokens of {DEFAULT_BUDGET}");
    }

    #[test]
    fn an_optional_field_is_offered_as_its_type_alone() {
        let schema = json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "properties": {
                "account": {"description": "An account key.", "type": ["string", "null"]},
                "average": {"anyOf": [{"$ref": "#/$defs/AveragePer"}, {"type": "null"}], "description": "Per what."},
                "period": {"$ref": "#/$defs/Period"}
            }
        });
        let c = compact(&schema);
        assert!(c.get("$schema").is_none());
        assert_eq!(c["properties"]["account"], json!({"description": "An account key.", "type": "string"}));
        assert_eq!(
            c["properties"]["average"],
            json!({"$ref": "#/$defs/AveragePer", "description": "Per what."})
        );
        assert_eq!(c["properties"]["period"], schema["properties"]["period"]);
    }

    #[test]
    fn the_catalogue_says_the_same_in_fewer_tokens() {
        let names: Vec<&str> = Registry::get().read_tools().map(|t| t.name).collect();
        let offered = catalogue(&names);
        assert_eq!(offered.len(), names.len());
        let full: u32 =
            Registry::get().read_tools().map(|t| crate::llm::context::estimate(&t.schema.to_string())).sum();
        let compacted: u32 =
            offered.iter().map(|t| crate::llm::context::estimate(&t.parameters.to_string())).sum();
        assert!(compacted < full, "{compacted} ≥ {full}");
        // Every property a tool takes is still offered.
        for (t, o) in Registry::get().read_tools().zip(&offered) {
            let keys = |v: &serde_json::Value| {
                v["properties"].as_object().map(|m| m.keys().cloned().collect::<Vec<_>>()).unwrap_or_default()
            };
            assert_eq!(keys(&t.schema), keys(&o.parameters), "{}", t.name);
        }
    }
}

//! The chat pipeline with a model: the guardian (approve, repair, invalid repair,
//! clarify), the free-form tool loop and its 5-round cap, context overflow answered by
//! truncation, stop (the client going away drops the upstream call), and a canary key
//! that must appear in no event, stored answer or log line.
//!
//! The model is a mock provider on 127.0.0.1 speaking OpenAI's Chat Completions
//! streaming format, answering from a script and recording every request.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use agent::protocol::ChatEvent;
use agent::{Context, Locale, ParseOutcome, ReasonCode};
use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use backend::llm::catalog::ProviderId;
use backend::LlmConfig;
use backend::{ChatRequest, Sou, UserId};
use futures::StreamExt;
use secrecy::SecretString;
use serde_json::{json, Value};

use crate::support::{self, lock, logs, Waits};

pub(crate) const CANARY: &str = "sk-canary-7f3a9c1e5b2d4f60";

// ---------------------------------------------------------------------------------
// The mock provider.

#[derive(Clone)]
pub(crate) enum Reply {
    Sse(String),
    Status(u16, String),
    /// A token every 50 ms, forever; `dropped` is set when the client hangs up.
    Endless,
    /// Headers, then nothing, forever (a model that has not started to answer);
    /// `dropped` is set when the client hangs up.
    Mute,
}

#[derive(Default)]
pub(crate) struct Mock {
    pub(crate) script: VecDeque<Reply>,
    pub(crate) bodies: Vec<Value>,
    headers: Vec<String>,
    dropped_at: Option<Instant>,
}

pub(crate) type Shared = Arc<Mutex<Mock>>;

/// Sets `dropped_at` when the response body is dropped (the connection closed).
struct DropFlag(Shared, Arc<AtomicBool>);

impl Drop for DropFlag {
    fn drop(&mut self) {
        self.1.store(true, Ordering::SeqCst);
        lock(&self.0).dropped_at = Some(Instant::now());
    }
}

async fn handle(State(mock): State<Shared>, req: Request) -> Response {
    let auth = req.headers().get("authorization").and_then(|v| v.to_str().ok()).unwrap_or("").to_string();
    let bytes = axum::body::to_bytes(req.into_body(), 1 << 22).await.unwrap_or_default();
    let next = {
        let mut m = lock(&mock);
        m.bodies.push(serde_json::from_slice(&bytes).unwrap_or(Value::Null));
        m.headers.push(auth);
        m.script.pop_front()
    };
    match next {
        None => (StatusCode::IM_A_TEAPOT, "script exhausted").into_response(),
        Some(Reply::Status(code, body)) => (StatusCode::from_u16(code).unwrap(), body).into_response(),
        Some(Reply::Sse(body)) => {
            Response::builder().header("content-type", "text/event-stream").body(Body::from(body)).unwrap()
        }
        Some(Reply::Mute) => {
            let flag = DropFlag(mock.clone(), Arc::new(AtomicBool::new(false)));
            let stream = futures::stream::unfold(flag, |flag| async move {
                std::future::pending::<()>().await;
                Some((Ok::<_, std::io::Error>(Bytes::new()), flag))
            });
            Response::builder()
                .header("content-type", "text/event-stream")
                .body(Body::from_stream(stream))
                .unwrap()
        }
        Some(Reply::Endless) => {
            let flag = DropFlag(mock.clone(), Arc::new(AtomicBool::new(false)));
            let stream = futures::stream::unfold((0u32, flag), |(i, flag)| async move {
                tokio::time::sleep(Duration::from_millis(50)).await;
                let chunk = chunk(json!({"content": format!("mot{i} ")}), None);
                Some((Ok::<_, std::io::Error>(Bytes::from(chunk)), (i + 1, flag)))
            });
            Response::builder()
                .header("content-type", "text/event-stream")
                .body(Body::from_stream(stream))
                .unwrap()
        }
    }
}

pub(crate) async fn serve(script: Vec<Reply>) -> (String, Shared) {
    let mock: Shared = Arc::new(Mutex::new(Mock { script: script.into(), ..Mock::default() }));
    let app = axum::Router::new().fallback(handle).with_state(mock.clone());
    let addr = support::serve(app).await;
    (format!("http://{addr}/v1"), mock)
}

pub(crate) fn chunk(delta: Value, finish: Option<&str>) -> String {
    let c = json!({"id": "c", "object": "chat.completion.chunk", "model": "gpt-4.1",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]});
    format!("data: {c}\n\n")
}

pub(crate) fn end(input: u64, output: u64) -> String {
    let u = json!({"id": "c", "object": "chat.completion.chunk", "choices": [],
        "usage": {"prompt_tokens": input, "completion_tokens": output, "total_tokens": input + output}});
    format!("data: {u}\n\ndata: [DONE]\n\n")
}

/// A reply with text pieces.
pub(crate) fn text(pieces: &[&str]) -> Reply {
    let mut s = chunk(json!({"role": "assistant", "content": ""}), None);
    for p in pieces {
        s.push_str(&chunk(json!({"content": p}), None));
    }
    s.push_str(&chunk(json!({}), Some("stop")));
    s.push_str(&end(1_000, 50));
    Reply::Sse(s)
}

/// A reply calling tools, arguments split in two pieces as providers do.
pub(crate) fn calls(list: &[(&str, Value)]) -> Reply {
    let mut s = String::new();
    for (i, (name, args)) in list.iter().enumerate() {
        let a = args.to_string();
        let (x, y) = a.split_at(a.len() / 2);
        s.push_str(&chunk(
            json!({"tool_calls": [{"index": i, "id": format!("call_{i}"), "type": "function",
                "function": {"name": name, "arguments": x}}]}),
            None,
        ));
        s.push_str(&chunk(json!({"tool_calls": [{"index": i, "function": {"arguments": y}}]}), None));
    }
    s.push_str(&chunk(json!({}), Some("tool_calls")));
    s.push_str(&end(800, 30));
    Reply::Sse(s)
}

fn verdict(v: Value) -> Reply {
    calls(&[("verdict", v)])
}

// ---------------------------------------------------------------------------------
// Sou with the mock as its OpenAI provider.

struct Setup {
    sou: Sou,
    user: UserId,
    mock: Shared,
    _dir: tempfile::TempDir,
}

async fn setup(script: Vec<Reply>) -> Setup {
    logs();
    let dir = tempfile::tempdir().unwrap();
    let (store, user) = support::demo_store(&dir.path().join("data")).await;
    let (base, mock) = serve(script).await;
    let mut config = LlmConfig { default_provider: Some(ProviderId::Openai), ..LlmConfig::default() };
    if let Some(p) = config.providers.get_mut(&ProviderId::Openai) {
        p.base_url = base;
        p.env_key = Some(SecretString::from(CANARY));
    }
    let timeouts = (Duration::from_secs(5), Duration::from_secs(5));
    let sou = support::sou_with_providers(store, config, timeouts, Arc::new(Waits::default()), [9; 32])
        .with_today(agent::Date::new(2026, 11, 20).unwrap());
    Setup { sou, user, mock, _dir: dir }
}

async fn ask(s: &Setup, message: &str, conversation: Option<String>) -> (String, Vec<ChatEvent>) {
    let req = ChatRequest {
        message: message.into(),
        conversation_id: conversation,
        plan: None,
        locale: Some("fr".into()),
    };
    let stream = s.sou.chat(s.user, req).await.unwrap();
    let id = stream.conversation_id.clone();
    let events: Vec<ChatEvent> = stream.events.collect().await;
    assert!(events.last().is_some_and(ChatEvent::is_terminal), "a stream ends with status: {events:?}");
    let frames: String = events.iter().map(ChatEvent::to_json).collect();
    assert!(!frames.contains(CANARY), "the key is in an SSE frame");
    (id, events)
}

fn plans(events: &[ChatEvent]) -> Vec<&agent::ToolCallPlan> {
    events.iter().filter_map(|e| if let ChatEvent::Plan { plan } = e { Some(plan) } else { None }).collect()
}

fn has_result(events: &[ChatEvent]) -> bool {
    events.iter().any(|e| matches!(e, ChatEvent::ToolResult(_)))
}

fn status(events: &[ChatEvent]) -> (&agent::protocol::Usage, &agent::protocol::Uncertainty) {
    match events.last() {
        Some(ChatEvent::Status { usage, uncertainty, .. }) => (usage, uncertainty),
        other => panic!("no status: {other:?}"),
    }
}

fn errors(events: &[ChatEvent]) -> Vec<(&str, &str)> {
    events
        .iter()
        .filter_map(|e| {
            if let ChatEvent::Error { code, message } = e {
                Some((code.as_str(), message.as_str()))
            } else {
                None
            }
        })
        .collect()
}

fn bodies(m: &Shared) -> Vec<Value> {
    lock(m).bodies.clone()
}

/// A message the parser does not run alone (a misspelt merchant: low).
const MEDIUM: &str = "combien j'ai dépensé chez carefour en janvier 2026";
/// A message the parser plans at medium confidence (a misspelt intent word).
const RUNS_AT_MEDIUM: &str = "budjet des restos";

/// The args a parsed message gives (a valid call, whatever the registry's schema is).
async fn call_of(s: &Setup, message: &str) -> Value {
    let parser = s.sou.parser(s.user).await.unwrap();
    let cx = Context { today: s.sou.today(), locale: Some(Locale::Fr), previous: None };
    match parser.parse(message, &cx) {
        ParseOutcome::Plan(p) => serde_json::to_value(&p.call).unwrap(),
        other => panic!("{message}: {other:?}"),
    }
}

// ---------------------------------------------------------------------------------
// Logs are captured for the canary check by `support::logs`.

#[tokio::test]
async fn guardian_approves_and_the_plan_runs() {
    let s = setup(vec![verdict(json!({"decision": "approve"}))]).await;
    let (_, events) = ask(&s, MEDIUM, None).await;
    let p = plans(&events);
    assert_eq!(p.len(), 1);
    assert!(has_result(&events));
    let (usage, uncertainty) = status(&events);
    assert_eq!((usage.route.as_str(), usage.model.as_deref()), ("guardian", Some("gpt-4.1-mini")));
    assert_eq!(support::usage_adds_up(&s.sou, s.user, &events, [0; 4]).await, (800, 30));
    assert!(usage.cost_eur_micros > 0);
    assert!(uncertainty.answer_confidence >= 0.8);
    // One structured call: the verdict tool offered, the plan and its reasons sent.
    let b = bodies(&s.mock);
    assert_eq!(b.len(), 1);
    assert_eq!(b[0]["tools"][0]["function"]["name"], "verdict");
    let sent = b[0]["messages"][1]["content"].as_str().unwrap_or_default();
    assert!(sent.contains("carefour") && sent.contains("fuzzy_merchant"), "{sent}");
    assert_eq!(lock(&s.mock).headers[0], format!("Bearer {CANARY}"));
}

/// A verdict that cannot be read is no verdict, but the provider billed it: its tokens
/// are in the answer's usage, its trace and Settings → Usage.
#[tokio::test]
async fn an_unreadable_verdict_still_counts_its_tokens() {
    let s = setup(vec![text(&["Ça me semble correct."])]).await;
    let before = support::settings_total(&s.sou, s.user).await;
    let (_, events) = ask(&s, RUNS_AT_MEDIUM, None).await;
    assert!(has_result(&events), "medium without a verdict runs, with the reason shown");
    assert_eq!(support::usage_adds_up(&s.sou, s.user, &events, before).await, (1_000, 50));
}

#[tokio::test]
async fn guardian_repair_is_validated_then_runs() {
    let s = setup(vec![]).await;
    let repaired = call_of(&s, "combien en courses en février 2026").await;
    // The model labels the period in its own words: the plan says it in the
    // conversation's language.
    let mut said = repaired.clone();
    said["args"]["period"]["label"] = json!("February 2026");
    lock(&s.mock).script.push_back(verdict(json!({"decision": "repair", "plan": said})));
    let (_, events) = ask(&s, MEDIUM, None).await;
    let p = plans(&events);
    assert_eq!(p.len(), 2, "the parser's plan, then the repaired one");
    assert_eq!(p[1].call.period().map(|p| p.label.as_str()), Some("février 2026"));
    // The rest as the model said it (the period's words are Sou's own).
    let (mut got, mut want) = (serde_json::to_value(&p[1].call).unwrap(), repaired);
    for v in [&mut got, &mut want] {
        v["args"]["period"].as_object_mut().unwrap().remove("words");
    }
    assert_eq!(got, want);
    assert!(p[1].meta.confidence_reasons.iter().any(|r| r.code == ReasonCode::GuardianRepaired));
    assert!(has_result(&events));
}

#[tokio::test]
async fn an_invalid_repair_becomes_a_question() {
    for bad in [
        json!({"tool": "drop_table", "args": {}}),
        json!({"tool": "spending_summary", "args": {"period": "last month"}}),
        json!("spending_summary"),
    ] {
        let s = setup(vec![verdict(json!({"decision": "repair", "plan": bad}))]).await;
        let (_, events) = ask(&s, MEDIUM, None).await;
        assert!(!has_result(&events), "{bad}: nothing runs");
        assert!(events.iter().any(|e| matches!(e, ChatEvent::Clarify { .. })), "{bad}");
    }
}

#[tokio::test]
async fn guardian_clarifies_with_its_question() {
    let s = setup(vec![verdict(json!({"decision": "clarify", "question": "Carrefour ou Carrefour City ?"}))])
        .await;
    let (_, events) = ask(&s, MEDIUM, None).await;
    assert!(!has_result(&events));
    let q = events.iter().find_map(|e| match e {
        ChatEvent::Clarify { clarification } => Some(clarification),
        _ => None,
    });
    let q = q.unwrap();
    assert_eq!(q.question, "Carrefour ou Carrefour City ?");
    assert!(!q.suggestions.is_empty(), "one-click plans still offered");
}

#[tokio::test]
async fn a_failing_guardian_falls_back_to_the_rules_and_says_so() {
    let s = setup(vec![Reply::Status(401, format!("{{\"error\": {{\"message\": \"bad key {CANARY}\"}}}}"))])
        .await;
    let (_, events) = ask(&s, RUNS_AT_MEDIUM, None).await;
    // Medium without a verdict: run, with the reason shown.
    assert!(has_result(&events));
    let (_, uncertainty) = status(&events);
    assert!(
        uncertainty.warnings.iter().any(|w| w.contains("OpenAI") && w.contains("clé")),
        "{uncertainty:?}"
    );
}

#[tokio::test]
async fn free_form_streams_tool_results_tokens_entities_and_usage() {
    let s = setup(vec![]).await;
    let recurring = call_of(&s, "mes abonnements").await;
    lock(&s.mock).script.extend([
        calls(&[(recurring["tool"].as_str().unwrap_or_default(), recurring["args"].clone())]),
        text(&[
            "Vous payez ",
            "**Netflix** ",
            "et Spotify chaque mois. ",
            "Ce n'est pas un conseil financier.",
        ]),
    ]);
    let (_, events) = ask(&s, "Devrais-je résilier Netflix ?", None).await;
    assert!(has_result(&events));
    let tokens: String = events
        .iter()
        .filter_map(|e| if let ChatEvent::Token { content, .. } = e { Some(content.as_str()) } else { None })
        .collect();
    assert!(tokens.starts_with("Vous payez **Netflix**"), "{tokens}");
    let entities = events.iter().find_map(|e| match e {
        ChatEvent::EntitiesDetected { entities } => Some(entities),
        _ => None,
    });
    let keys: Vec<&str> = entities.map(|e| e.iter().map(|x| x.key.as_str()).collect()).unwrap_or_default();
    assert!(keys.contains(&"netflix") && keys.contains(&"spotify"), "{keys:?}");
    let (usage, uncertainty) = status(&events);
    // "devrais-je" forces the complex model; no router call.
    assert_eq!((usage.route.as_str(), usage.model.as_deref()), ("llm", Some("gpt-4.1")));
    assert_eq!((usage.input_tokens, usage.output_tokens), (1_800, 80));
    assert!(usage.cost_eur_micros > 0 && usage.first_token_ms.is_some());
    assert!(uncertainty.answer_confidence >= 0.8);
    let b = bodies(&s.mock);
    assert_eq!(b.len(), 2);
    let offered: Vec<&str> =
        b[0]["tools"].as_array().unwrap().iter().filter_map(|t| t["function"]["name"].as_str()).collect();
    assert_eq!(
        offered.len(),
        agent::ToolCall::READ_NAMES.len(),
        "the catalogue is the registry's read tools"
    );
    // The tool's result went back to the model, tied to its call.
    let tool_msg =
        b[1]["messages"].as_array().unwrap().iter().find(|m| m["role"] == "tool").cloned().unwrap();
    assert_eq!(tool_msg["tool_call_id"], "call_0");
    assert!(tool_msg["content"].as_str().unwrap_or_default().contains("netflix"));
}

#[tokio::test]
async fn the_router_classifies_when_no_keyword_decides() {
    let s = setup(vec![
        text(&[r#"{"tools": ["balances"], "complexity": "simple"}"#]),
        text(&["Votre solde est affiché ci-dessus."]),
    ])
    .await;
    let (_, events) = ask(&s, "raconte-moi une histoire sur mon argent", None).await;
    let (usage, _) = status(&events);
    assert_eq!(usage.model.as_deref(), Some("gpt-4.1-mini"), "simple model for a simple route");
    let b = bodies(&s.mock);
    assert_eq!(b.len(), 2);
    assert!(b[0].get("tools").is_none(), "the router call offers no tools");
    let offered: Vec<&str> =
        b[1]["tools"].as_array().unwrap().iter().filter_map(|t| t["function"]["name"].as_str()).collect();
    assert_eq!(offered, vec!["balances"]);
}

#[tokio::test]
async fn a_failed_router_means_the_complex_model_with_every_tool() {
    let s = setup(vec![text(&["je ne sais pas"]), text(&["Réponse."])]).await;
    let (_, events) = ask(&s, "raconte-moi une histoire sur mon argent", None).await;
    let (usage, _) = status(&events);
    assert_eq!(usage.model.as_deref(), Some("gpt-4.1"));
    let b = bodies(&s.mock);
    assert_eq!(b[1]["tools"].as_array().map(Vec::len), Some(agent::ToolCall::READ_NAMES.len()));
}

/// A write the model proposes into a category the user does not have: no card, a
/// question whose one-click answers are the same write into the nearest categories, and
/// the model told it was asked.
#[tokio::test]
async fn a_models_write_into_an_unknown_category_offers_the_nearest() {
    let budget = json!({"category": "savings_goals", "amount": {"minor": 20000, "currency": "EUR"},
        "from": "2026-12-01"});
    let s = setup(vec![calls(&[("set_budget", budget)]), text(&["Je vous ai demandé laquelle."])]).await;
    let (_, events) = ask(&s, "what budgets should I set to save more?", None).await;
    assert!(!events.iter().any(|e| matches!(e, ChatEvent::ApprovalRequired { .. })), "{events:?}");
    let asked = events
        .iter()
        .find_map(|e| if let ChatEvent::Clarify { clarification } = e { Some(clarification) } else { None })
        .expect("a question");
    assert!(asked.question.contains("savings_goals"), "{}", asked.question);
    let first = asked.suggestions.first().expect("the nearest categories offered");
    let agent::ToolCall::SetBudget(a) = &first.plan.call else { panic!("{:?}", first.plan.call) };
    assert_eq!((a.category.as_str(), a.amount.map(|m| m.minor)), ("savings", Some(20000)));
    // The model is told, and answers.
    let b = bodies(&s.mock);
    let told = b[1]["messages"].as_array().unwrap().iter().find(|m| m["role"] == "tool").unwrap();
    assert!(told["content"].as_str().unwrap().contains("no category"), "{told}");
}

#[tokio::test]
async fn the_tool_loop_stops_after_five_rounds() {
    let s = setup(vec![]).await;
    let recurring = call_of(&s, "mes abonnements").await;
    for _ in 0..7 {
        lock(&s.mock)
            .script
            .push_back(calls(&[(recurring["tool"].as_str().unwrap_or_default(), recurring["args"].clone())]));
    }
    let (_, events) = ask(&s, "Should I cancel my subscriptions?", None).await;
    let b = bodies(&s.mock);
    assert_eq!(b.len(), 6, "five rounds of tools, then one call for the answer");
    assert!(b[..5].iter().all(|r| r["tools"].as_array().is_some_and(|t| !t.is_empty())));
    assert!(b[5].get("tools").is_none(), "the last call offers no tools");
    let results = events.iter().filter(|e| matches!(e, ChatEvent::ToolResult(_))).count();
    assert_eq!(results, 5);
    assert!(errors(&events).iter().any(|(c, _)| *c == "tool_limit"));
}

#[tokio::test]
async fn invalid_tool_calls_are_refused_and_the_model_told() {
    let s = setup(vec![
        calls(&[("drop_table", json!({})), ("balances", json!({"period": "yesterday"}))]),
        text(&["Je n'ai pas pu lire vos comptes."]),
    ])
    .await;
    let (_, events) = ask(&s, "Should I worry about my accounts?", None).await;
    assert!(!has_result(&events), "nothing outside the registry's schemas runs");
    // Each refused call is a step of the trace, marked refused, with the reason.
    let Some(ChatEvent::Status { message_id: Some(run), .. }) = events.last() else { panic!("no run") };
    let trace = s.sou.runs().trace(s.user, run, Locale::Fr).await.unwrap();
    let refused: Vec<_> =
        trace.steps.iter().filter(|s| s.status == agent::runs::StepStatus::Refused).collect();
    let tools: Vec<_> = refused.iter().map(|s| s.tool.as_deref().unwrap_or_default()).collect();
    assert_eq!(tools, ["drop_table", "balances"], "{:?}", trace.steps);
    assert!(refused.iter().all(|s| s.kind == agent::runs::StepKind::Tool
        && s.title.starts_with("Call refused")
        && s.error.as_ref().is_some_and(|e| !e.is_empty())));
    let b = bodies(&s.mock);
    let results: Vec<String> = b[1]["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["role"] == "tool")
        .map(|m| m["content"].as_str().unwrap_or_default().to_string())
        .collect();
    assert_eq!(results.len(), 2);
    assert!(results.iter().all(|r| r.starts_with("error:")), "{results:?}");
    let (_, uncertainty) = status(&events);
    assert!(uncertainty.answer_confidence < 0.8, "an answer without data is flagged");
}

#[tokio::test]
async fn a_context_overflow_is_truncated_and_retried() {
    let s = setup(vec![]).await;
    // Two earlier turns in the conversation (parser answers, no model).
    let (id, _) = ask(&s, "combien j'ai dépensé en courses en janvier 2026", None).await;
    ask(&s, "combien j'ai dépensé en courses en février 2026", Some(id.clone())).await;
    assert!(bodies(&s.mock).is_empty(), "the parser answered both alone");
    lock(&s.mock).script.extend([
        Reply::Status(
            400,
            r#"{"error": {"code": "context_length_exceeded", "message": "maximum context length"}}"#.into(),
        ),
        text(&["D'accord."]),
    ]);
    let (_, events) = ask(&s, "Should I spend less?", Some(id)).await;
    assert!(errors(&events).is_empty(), "{events:?}");
    let b = bodies(&s.mock);
    assert_eq!(b.len(), 2);
    let n = |v: &Value| v["messages"].as_array().map(Vec::len).unwrap_or(0);
    println!("request sizes: {} bytes, {} messages", b[0].to_string().len(), n(&b[0]));
    assert!(n(&b[1]) < n(&b[0]), "fewer messages after the overflow: {} then {}", n(&b[0]), n(&b[1]));
    assert_eq!(
        b[1]["messages"].as_array().and_then(|m| m.last()).map(|m| m["content"].clone()),
        Some(json!("Should I spend less?"))
    );
}

#[tokio::test]
async fn provider_faults_end_the_stream_with_a_clear_error() {
    let cases: Vec<(Reply, &str)> = vec![
        (Reply::Status(401, "{}".into()), "key_rejected"),
        (Reply::Status(500, format!("oops {CANARY}")), "provider_unavailable"),
        (Reply::Sse(chunk(json!({"content": "début"}), None)), "provider_unavailable"),
        (Reply::Sse("data: {not json\n\n".into()), "provider_unavailable"),
        (
            Reply::Sse(format!("data: {}\n\n", json!({"error": {"message": format!("in band {CANARY}")}}))),
            "provider_unavailable",
        ),
    ];
    for (reply, code) in cases {
        let s = setup(vec![reply]).await;
        let (_, events) = ask(&s, "Should I cancel Netflix?", None).await;
        let errs = errors(&events);
        assert_eq!(errs.first().map(|e| e.0), Some(code), "{events:?}");
        assert!(errs.iter().all(|(_, m)| !m.contains(CANARY)));
    }
}

#[tokio::test]
async fn stopping_drops_the_upstream_call_within_a_second_and_going_away_does_not() {
    let s = setup(vec![Reply::Endless]).await;
    let req = ChatRequest {
        message: "Should I cancel Netflix?".into(),
        conversation_id: None,
        plan: None,
        locale: Some("en".into()),
    };
    let mut stream = s.sou.chat(s.user, req).await.unwrap();
    let id = stream.conversation_id.clone();
    let run = stream.run_id.clone();
    let mut tokens = 0;
    while let Some(e) = stream.events.next().await {
        if matches!(e, ChatEvent::Token { .. }) {
            tokens += 1;
            if tokens == 3 {
                break;
            }
        }
    }
    // The client goes away: the answer goes on (a client may come back to it).
    drop(stream);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(lock(&s.mock).dropped_at.is_none(), "the model still answers");
    let back = s.sou.runs().attach(s.user, &run, 0).await.unwrap();
    let mut back = back.events;
    let mut seen = 0;
    while seen < 6 {
        if matches!(back.next().await, Some(ChatEvent::Token { .. })) {
            seen += 1;
        }
    }
    // Stopped by the user: the upstream call is dropped at once.
    let stopped = Instant::now();
    s.sou.runs().act(s.user, &run, backend::RunAction::Cancel).await.unwrap();
    let mut waited = Duration::ZERO;
    while lock(&s.mock).dropped_at.is_none() && waited < Duration::from_secs(5) {
        tokio::time::sleep(Duration::from_millis(10)).await;
        waited += Duration::from_millis(10);
    }
    let at = lock(&s.mock).dropped_at;
    let after = at.map(|t| t.saturating_duration_since(stopped));
    println!("upstream closed {after:?} after the client went away");
    assert!(after.is_some_and(|d| d < Duration::from_secs(1)), "{after:?}");
    // The partial answer is stored, marked stopped, and its stream ended.
    let mut stored = None;
    for _ in 0..100 {
        let c = s.sou.conversations().get(s.user, &id, agent::Locale::En).await.unwrap();
        if c.messages.len() == 2 {
            stored = Some(c);
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let answer = stored.unwrap().messages[1].clone();
    assert!(answer.content.starts_with("mot0 mot1 mot2 mot3 mot4 mot5"), "{}", answer.content);
    assert!(answer.events.iter().any(|e| matches!(e, ChatEvent::Error { code, .. } if code == "stopped")));
    assert!(answer.events.last().is_some_and(ChatEvent::is_terminal));
}

/// Stopped before the model's first token (the request sent, nothing back yet), in the
/// tool loop and while the guardian checks a plan: the upstream call is dropped and the
/// stream ends, `stopped`, within a second — not after the read timeouts.
#[tokio::test]
async fn stopping_before_the_first_token_ends_the_call_and_the_stream_within_a_second() {
    for message in ["Should I cancel Netflix?", MEDIUM] {
        stop_before_the_first_token(message).await;
    }
}

/// Long enough for the mock to have sent its headers (so that it sees the hang-up).
const ANSWERING: Duration = Duration::from_millis(200);

async fn stop_before_the_first_token(message: &str) {
    let s = setup(vec![Reply::Mute]).await;
    let (events, stopped, ended) =
        support::ask_then_stop(&s.sou, s.user, message, || lock(&s.mock).bodies.len(), ANSWERING).await;
    // The mock sees the hang-up a moment after it happened.
    while lock(&s.mock).dropped_at.is_none() && stopped.elapsed() < Duration::from_secs(2) {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let dropped = lock(&s.mock).dropped_at.map(|t| t.saturating_duration_since(stopped));
    println!("{message}: stream ended {ended:?}, upstream closed {dropped:?} after the stop");
    assert!(ended < Duration::from_secs(1), "{ended:?}");
    assert!(dropped.is_some_and(|d| d < Duration::from_secs(1)), "{dropped:?}");
    assert!(
        events.iter().any(|e| matches!(e, ChatEvent::Error { code, .. } if code == "stopped")),
        "{events:?}"
    );
    assert!(events.last().is_some_and(ChatEvent::is_terminal), "{events:?}");
    assert_eq!(lock(&s.mock).bodies.len(), 1, "no retry once stopped");
    // Stopped again: the answer has ended, said in its conversation's language (English
    // here), whatever the request's — and it is no plan.
    let Some(ChatEvent::Status { message_id: Some(run), .. }) = events.last() else { panic!("no run") };
    let again = s.sou.runs().act(s.user, run, backend::RunAction::Cancel).await.unwrap_err();
    use backend::UserError as _;
    assert_eq!(again.code(), "run_state");
    assert_eq!(again.message(Locale::Fr), "This answer has already ended: there is nothing left to stop.");
}

#[tokio::test]
async fn the_canary_key_is_in_no_log_line() {
    let s = setup(vec![
        Reply::Status(500, format!("{{\"error\": {{\"message\": \"upstream saw {CANARY}\"}}}}")),
        verdict(json!({"decision": "approve"})),
    ])
    .await;
    ask(&s, "Should I cancel Netflix?", None).await;
    ask(&s, MEDIUM, None).await;
    let text = String::from_utf8_lossy(&logs().0.lock().unwrap_or_else(|p| p.into_inner())).to_string();
    assert!(!text.is_empty(), "logs were captured");
    assert!(!text.contains(CANARY), "the key leaked into the logs");
    assert!(!text.contains(&CANARY[CANARY.len() - 8..]), "part of the key leaked into the logs");
}

#[tokio::test]
async fn a_failing_guardian_on_a_typo_offers_the_correction_and_runs_nothing() {
    let s = setup(vec![Reply::Status(401, format!("{{\"error\": {{\"message\": \"bad key {CANARY}\"}}}}"))])
        .await;
    let (_, events) = ask(&s, MEDIUM, None).await;
    assert!(!has_result(&events), "a corrected name is not run on a guess");
    let q = events.iter().find_map(|e| match e {
        ChatEvent::Clarify { clarification } => Some(clarification),
        _ => None,
    });
    let first = &q.unwrap().suggestions[0];
    assert_eq!(first.plan.call.merchant(), Some("carrefour"), "the correction, one click away");
}

/// A write the model proposes waits for the person; once they decide, the model's loop
/// goes on in the same conversation, with what became of the write as its call's result.
#[tokio::test]
async fn the_tool_loop_goes_on_after_the_person_decides() {
    let budget = |minor: i64| json!({"category": "restaurants", "amount": {"minor": minor, "currency": "EUR"}, "from": "2026-12-01"});
    let s = setup(vec![
        calls(&[("set_budget", budget(25_000))]),
        text(&["C'est fait : 250 € par mois pour les restaurants."]),
        calls(&[("set_budget", budget(30_000))]),
        text(&["D'accord, je n'ai rien changé."]),
    ])
    .await;
    let decided = |events: &[ChatEvent]| {
        events.iter().find_map(|e| match e {
            ChatEvent::ApprovalRequired { approval } => Some(approval.id.clone()),
            _ => None,
        })
    };
    let tool_result = |body: &Value| -> String {
        let messages = body["messages"].as_array().unwrap();
        let tool = messages.iter().rev().find(|m| m["role"] == "tool").unwrap();
        tool["content"].as_str().unwrap_or_default().to_string()
    };

    // Proposed: the loop stops there, one request, the answer says it waits.
    let (conversation, events) = ask(&s, "what budgets should I set to save more?", None).await;
    let id = decided(&events).expect("a card");
    assert_eq!(bodies(&s.mock).len(), 1, "no model call while the person decides");
    let (usage, _) = status(&events);
    assert_eq!(usage.route, "llm");
    // Approved: the write runs, then the loop goes on with its result.
    let approved =
        s.sou.approvals().decide(s.user, &id, backend::Decision::Approve { digest: None }).await.unwrap();
    let run = approved.continued_in.clone().expect("the loop goes on");
    let events = follow(&s, &run).await;
    let said: String = events
        .iter()
        .filter_map(|e| if let ChatEvent::Token { content, .. } = e { Some(content.as_str()) } else { None })
        .collect();
    assert_eq!(said, "C'est fait : 250 € par mois pour les restaurants.");
    let (_, uncertainty) = status(&events);
    assert!(uncertainty.warnings.is_empty(), "the answer rests on the write's result: {uncertainty:?}");
    let b = bodies(&s.mock);
    assert_eq!(b.len(), 2);
    assert!(tool_result(&b[1]).starts_with("Done, the user approved it"), "{}", tool_result(&b[1]));
    // The same tools, the same question: the loop goes on as it was.
    assert_eq!(b[1]["tools"], b[0]["tools"]);
    assert_eq!(b[1]["messages"][1], b[0]["messages"][1], "{}", b[1]["messages"]);
    let view = s.sou.conversations().get(s.user, &conversation, Locale::En).await.unwrap();
    assert!(
        view.messages.iter().any(|m| m.content.starts_with("✓ Approved")),
        "the decision is the question"
    );

    // Rejected: nothing changes, and the model reads so.
    let (_, events) = ask(&s, "which other budget should I set to save more?", Some(conversation)).await;
    let id = decided(&events).expect("a card");
    let rejected = s.sou.approvals().decide(s.user, &id, backend::Decision::Reject).await.unwrap();
    follow(&s, &rejected.continued_in.expect("the loop goes on")).await;
    let b = bodies(&s.mock);
    assert_eq!(tool_result(&b[3]), "The user rejected this change: nothing changed.");
}

/// The events of run `run`, from its first to its end.
async fn follow(s: &Setup, run: &str) -> Vec<ChatEvent> {
    let events: Vec<ChatEvent> = s.sou.runs().attach(s.user, run, 0).await.unwrap().events.collect().await;
    assert!(events.last().is_some_and(ChatEvent::is_terminal), "{events:?}");
    events
}

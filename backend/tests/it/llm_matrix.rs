//! Every provider through the whole chat pipeline, in its own wire format: a free-form
//! question answered with a tool call then text (and the tool result sent back in the
//! provider's shape), then the fault matrix of seed 001 — 429 with `retry-after`,
//! 429 three times, 401, 500, context overflow, a reset mid-stream, a stall, a
//! malformed chunk, a missing end marker, an in-band error, an empty reply — each
//! ending the chat stream with the documented error code (or recovering) after the
//! documented number of upstream requests, with the canary key in no frame.
//!
//! The mock provider on 127.0.0.1 answers from a script and records every request.
//! `cargo test -p backend --test it llm_matrix -- --nocapture` prints the matrix.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use agent::protocol::ChatEvent;
use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use backend::llm::catalog::ProviderId;
use backend::llm::Wire as Format;
use backend::LlmConfig;
use backend::{ChatRequest, Sou, UserId};
use futures::StreamExt;
use secrecy::SecretString;
use serde_json::{json, Value};

use crate::support::{self, lock, Waits};

const CANARY: &str = "sk-canary-matrix-5e1d7a3c9b";
const QUESTION: &str = "Should I cancel Netflix?";

// ---------------------------------------------------------------------------------
// Each provider's wire format, written from its documented streaming examples.

/// The wire format a provider speaks, as the catalogue says.
fn format_of(p: ProviderId) -> Format {
    p.wire()
}

fn sse(event: Option<&str>, data: &Value) -> String {
    match event {
        Some(e) => format!("event: {e}\ndata: {data}\n\n"),
        None => format!("data: {data}\n\n"),
    }
}

fn oa_chunk(delta: Value, finish: Option<&str>) -> String {
    sse(
        None,
        &json!({"id": "c1", "object": "chat.completion.chunk", "created": 0, "model": "m",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}),
    )
}

fn oa_end() -> String {
    let usage = json!({"id": "c1", "object": "chat.completion.chunk", "created": 0, "model": "m", "choices": [],
        "usage": {"prompt_tokens": 1000, "completion_tokens": 20, "total_tokens": 1020}});
    format!("{}data: [DONE]\n\n", sse(None, &usage))
}

fn an_start() -> String {
    sse(
        Some("message_start"),
        &json!({"type": "message_start", "message": {"id": "msg_1", "type": "message", "role": "assistant",
            "content": [], "model": "m", "stop_reason": null, "usage": {"input_tokens": 1000, "output_tokens": 1}}}),
    )
}

fn an_stop(reason: &str) -> String {
    sse(
        Some("message_delta"),
        &json!({"type": "message_delta", "delta": {"stop_reason": reason, "stop_sequence": null},
            "usage": {"output_tokens": 20}}),
    ) + &sse(Some("message_stop"), &json!({"type": "message_stop"}))
}

fn an_text(pieces: &[&str]) -> String {
    let mut s = an_start();
    s += &sse(
        Some("content_block_start"),
        &json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
    );
    s += &sse(Some("ping"), &json!({"type": "ping"}));
    for p in pieces {
        s += &sse(
            Some("content_block_delta"),
            &json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": p}}),
        );
    }
    s + &sse(Some("content_block_stop"), &json!({"type": "content_block_stop", "index": 0}))
}

fn gm(parts: Value, finish: Option<&str>) -> String {
    let mut candidate = json!({"content": {"parts": parts, "role": "model"}, "index": 0});
    let mut chunk = json!({"modelVersion": "m"});
    if let Some(f) = finish {
        candidate["finishReason"] = json!(f);
        chunk["usageMetadata"] =
            json!({"promptTokenCount": 1000, "candidatesTokenCount": 20, "totalTokenCount": 1020});
    }
    chunk["candidates"] = json!([candidate]);
    sse(None, &chunk)
}

fn ol(message: Value) -> String {
    format!(
        "{}\n",
        json!({"model": "m", "created_at": "2026-11-01T10:00:00Z", "message": message, "done": false})
    )
}

fn ol_done() -> String {
    format!(
        "{}\n",
        json!({"model": "m", "created_at": "2026-11-01T10:00:01Z", "message": {"role": "assistant", "content": ""},
            "done": true, "done_reason": "stop", "prompt_eval_count": 1000, "eval_count": 20})
    )
}

/// A complete text answer.
fn text(f: Format, pieces: &[&str]) -> String {
    match f {
        Format::OpenAi => text_start(f, pieces) + &oa_chunk(json!({}), Some("stop")) + &oa_end(),
        Format::Anthropic => text_start(f, pieces) + &an_stop("end_turn"),
        Format::Gemini => {
            let (last, rest) = pieces.split_last().unwrap();
            let s: String = rest.iter().map(|p| gm(json!([{"text": p}]), None)).collect();
            s + &gm(json!([{"text": last}]), Some("STOP"))
        }
        Format::Ollama => text_start(f, pieces) + &ol_done(),
    }
}

/// The first pieces of a text answer, without its end (what a cut stream delivers).
fn text_start(f: Format, pieces: &[&str]) -> String {
    match f {
        Format::OpenAi => {
            let mut s = oa_chunk(json!({"role": "assistant", "content": ""}), None);
            for p in pieces {
                s += &oa_chunk(json!({"content": p}), None);
            }
            s
        }
        Format::Anthropic => an_text(pieces),
        Format::Gemini => pieces.iter().map(|p| gm(json!([{"text": p}]), None)).collect(),
        Format::Ollama => pieces.iter().map(|p| ol(json!({"role": "assistant", "content": p}))).collect(),
    }
}

/// One tool call, arguments streamed in pieces where the format does so.
fn tool_call(f: Format, name: &str, args: &Value) -> String {
    let a = args.to_string();
    let (x, y) = a.split_at(a.len() / 2);
    match f {
        Format::OpenAi => {
            oa_chunk(
                json!({"role": "assistant", "content": null, "tool_calls": [{"index": 0, "id": "call_1",
                    "type": "function", "function": {"name": name, "arguments": x}}]}),
                None,
            ) + &oa_chunk(json!({"tool_calls": [{"index": 0, "function": {"arguments": y}}]}), None)
                + &oa_chunk(json!({}), Some("tool_calls"))
                + &oa_end()
        }
        Format::Anthropic => {
            let mut s = an_start();
            s += &sse(
                Some("content_block_start"),
                &json!({"type": "content_block_start", "index": 0,
                    "content_block": {"type": "tool_use", "id": "toolu_1", "name": name, "input": {}}}),
            );
            for piece in [x, y] {
                s += &sse(
                    Some("content_block_delta"),
                    &json!({"type": "content_block_delta", "index": 0,
                        "delta": {"type": "input_json_delta", "partial_json": piece}}),
                );
            }
            s += &sse(Some("content_block_stop"), &json!({"type": "content_block_stop", "index": 0}));
            s + &an_stop("tool_use")
        }
        Format::Gemini => gm(json!([{"functionCall": {"name": name, "args": args}}]), Some("STOP")),
        Format::Ollama => {
            ol(json!({"role": "assistant", "content": "",
                "tool_calls": [{"function": {"name": name, "arguments": args}}]}))
                + &ol_done()
        }
    }
}

/// An error reported inside a 200 stream, after some text.
fn in_band(f: Format) -> String {
    let start = text_start(f, &["Votre"]);
    start
        + &match f {
            Format::OpenAi => {
                sse(None, &json!({"error": {"message": "server_error", "type": "server_error"}}))
            }
            Format::Anthropic => sse(
                Some("error"),
                &json!({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}),
            ),
            Format::Gemini => {
                sse(None, &json!({"error": {"code": 503, "message": "overloaded", "status": "UNAVAILABLE"}}))
            }
            Format::Ollama => format!("{}\n", json!({"error": "unexpected EOF"})),
        }
}

/// A chunk that is not valid JSON, first thing in the stream.
fn malformed(f: Format) -> String {
    match f {
        Format::Ollama => "{\"message\": {not json\n".into(),
        _ => "data: {\"choices\": [{not json\n\n".into(),
    }
}

/// A stream that ends properly but says nothing.
fn empty(f: Format) -> String {
    match f {
        Format::OpenAi => {
            oa_chunk(json!({"role": "assistant", "content": ""}), None)
                + &oa_chunk(json!({}), Some("stop"))
                + &oa_end()
        }
        Format::Anthropic => an_start() + &an_stop("end_turn"),
        Format::Gemini => gm(json!([]), Some("STOP")),
        Format::Ollama => ol_done(),
    }
}

fn overflow_body(f: Format) -> String {
    match f {
        Format::OpenAi => json!({"error": {"code": "context_length_exceeded",
            "message": "This model's maximum context length is 128000 tokens."}}),
        Format::Anthropic => json!({"type": "error", "error": {"type": "invalid_request_error",
            "message": "prompt is too long: 210000 tokens > 200000 maximum"}}),
        Format::Gemini => json!({"error": {"code": 400, "status": "INVALID_ARGUMENT",
            "message": "The input token count exceeds the maximum number of tokens allowed."}}),
        Format::Ollama => json!({"error": "context window exceeded: too many tokens"}),
    }
    .to_string()
}

fn content_type(f: Format) -> &'static str {
    match f {
        Format::Ollama => "application/x-ndjson",
        _ => "text/event-stream",
    }
}

// ---------------------------------------------------------------------------------
// The mock provider.

#[derive(Clone)]
enum Reply {
    Ok(String),
    Status(u16, Vec<(&'static str, &'static str)>, String),
    /// Sends the bytes, then fails the body: the connection is reset mid-stream.
    Reset(String),
    /// Sends the bytes, then nothing, forever.
    Stall(String),
}

/// Path with query, headers, JSON body.
type Recorded = (String, Vec<(String, String)>, Value);

#[derive(Default)]
struct Mock {
    format: Option<Format>,
    script: VecDeque<Reply>,
    requests: Vec<Recorded>,
}

type Shared = Arc<Mutex<Mock>>;

async fn handle(State(mock): State<Shared>, req: Request) -> Response {
    let path = req.uri().path_and_query().map(ToString::to_string).unwrap_or_default();
    let headers =
        req.headers().iter().map(|(k, v)| (k.to_string(), v.to_str().unwrap_or("").to_string())).collect();
    let bytes = axum::body::to_bytes(req.into_body(), 1 << 22).await.unwrap_or_default();
    let (next, format) = {
        let mut m = lock(&mock);
        m.requests.push((path, headers, serde_json::from_slice(&bytes).unwrap_or(Value::Null)));
        (m.script.pop_front(), m.format.unwrap())
    };
    let streamed = |s: futures::stream::BoxStream<'static, Result<Bytes, std::io::Error>>| {
        Response::builder().header("content-type", content_type(format)).body(Body::from_stream(s)).unwrap()
    };
    match next {
        None => (StatusCode::IM_A_TEAPOT, "script exhausted").into_response(),
        Some(Reply::Ok(body)) => {
            Response::builder().header("content-type", content_type(format)).body(Body::from(body)).unwrap()
        }
        Some(Reply::Status(code, headers, body)) => {
            let mut r = Response::builder().status(code).header("content-type", "application/json");
            for (k, v) in headers {
                r = r.header(k, v);
            }
            r.body(Body::from(body)).unwrap()
        }
        Some(Reply::Reset(body)) => {
            // The bytes are read before the reset (a reset can discard unread data).
            let reset = futures::stream::once(async {
                tokio::time::sleep(Duration::from_millis(100)).await;
                Err(std::io::Error::other("connection reset"))
            });
            streamed(futures::stream::iter([Ok(Bytes::from(body))]).chain(reset).boxed())
        }
        Some(Reply::Stall(body)) => {
            streamed(futures::stream::iter([Ok(Bytes::from(body))]).chain(futures::stream::pending()).boxed())
        }
    }
}

async fn serve(format: Format) -> (String, Shared) {
    let mock: Shared = Arc::new(Mutex::new(Mock { format: Some(format), ..Mock::default() }));
    let app = axum::Router::new().fallback(handle).with_state(mock.clone());
    let addr = support::serve(app).await;
    (format!("http://{addr}"), mock)
}

// ---------------------------------------------------------------------------------
// Sou with the mock as one provider.

struct Setup {
    sou: Sou,
    user: UserId,
    mock: Shared,
    waits: Arc<Waits>,
    _dir: tempfile::TempDir,
}

async fn setup(provider: ProviderId, script: Vec<Reply>) -> Setup {
    let dir = tempfile::tempdir().unwrap();
    let (store, user) = support::demo_store(&dir.path().join("data")).await;
    let (root, mock) = serve(format_of(provider)).await;
    lock(&mock).script = script.into();
    let mut config = LlmConfig { default_provider: Some(provider), ..LlmConfig::default() };
    let p = config.providers.get_mut(&provider).unwrap();
    // The OpenAI-format providers' base URLs carry the version; the others' paths do.
    p.base_url = if format_of(provider) == Format::OpenAi { format!("{root}/v1") } else { root };
    p.enabled = true;
    if provider != ProviderId::Ollama {
        p.env_key = Some(SecretString::from(CANARY));
    }
    let waits = Arc::new(Waits::default());
    // A 400 ms read timeout makes the stall case quick.
    let timeouts = (Duration::from_secs(2), Duration::from_millis(400));
    let sou = support::sou_with_providers(store, config, timeouts, waits.clone(), [3; 32]);
    Setup { sou, user, mock, waits, _dir: dir }
}

async fn ask(s: &Setup) -> Vec<ChatEvent> {
    let req = ChatRequest {
        message: QUESTION.into(),
        conversation_id: None,
        plan: None,
        locale: Some("en".into()),
    };
    let events: Vec<ChatEvent> = s.sou.chat(s.user, req).await.unwrap().events.collect().await;
    assert!(events.last().is_some_and(ChatEvent::is_terminal), "a stream ends with status: {events:?}");
    let frames: String = events.iter().map(ChatEvent::to_json).collect();
    assert!(!frames.contains(CANARY), "the key is in an SSE frame");
    events
}

fn error_code(events: &[ChatEvent]) -> Option<String> {
    events.iter().find_map(|e| if let ChatEvent::Error { code, .. } = e { Some(code.clone()) } else { None })
}

fn answer(events: &[ChatEvent]) -> String {
    events
        .iter()
        .filter_map(|e| if let ChatEvent::Token { content, .. } = e { Some(content.as_str()) } else { None })
        .collect()
}

fn netflix_args() -> Value {
    json!({"period": {"start": "2025-11-01", "end": "2026-11-01", "label": "last 12 months"}, "merchant": "netflix"})
}

const PROVIDERS: [ProviderId; ProviderId::ALL.len()] = ProviderId::ALL;

// ---------------------------------------------------------------------------------

#[tokio::test]
async fn each_provider_answers_with_a_tool_then_text_in_its_own_format() {
    for provider in PROVIDERS {
        let f = format_of(provider);
        let s = setup(
            provider,
            vec![
                Reply::Ok(tool_call(f, "recurring_payments", &netflix_args())),
                Reply::Ok(text(f, &["Netflix costs ", "you **13,49 €** ", "a month ✓"])),
            ],
        )
        .await;
        let events = ask(&s).await;
        assert_eq!(error_code(&events), None, "{provider:?}: {events:?}");
        assert!(events.iter().any(|e| matches!(e, ChatEvent::ToolResult(_))), "{provider:?}: no tool result");
        assert_eq!(answer(&events), "Netflix costs you **13,49 €** a month ✓", "{provider:?}");
        let Some(ChatEvent::Status { usage, .. }) = events.last() else { panic!("no status") };
        assert_eq!((usage.input_tokens, usage.output_tokens), (2000, 40), "{provider:?}: usage summed");
        assert_eq!(usage.route, "llm");
        assert_eq!(
            usage.model.as_deref(),
            Some(provider.default_models().1),
            "{provider:?}: the complex model"
        );

        let requests = lock(&s.mock).requests.clone();
        assert_eq!(requests.len(), 2, "{provider:?}");
        let (path, headers, body) = &requests[1];
        let header = |name: &str| headers.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone());
        let model = provider.default_models().1;
        // Path, authentication and the tool result's place, per format.
        match f {
            Format::OpenAi => {
                assert_eq!(path, "/v1/chat/completions");
                assert_eq!(header("authorization"), Some(format!("Bearer {CANARY}")));
                let tool = body["messages"].as_array().unwrap().iter().find(|m| m["role"] == "tool").unwrap();
                assert_eq!(tool["tool_call_id"], "call_1");
                assert!(tool["content"].as_str().unwrap().contains("\"monthly_total\""));
                assert_eq!(body["stream"], true);
                assert!(body["tools"].as_array().is_some_and(|t| !t.is_empty()));
            }
            Format::Anthropic => {
                assert_eq!(path, "/v1/messages");
                assert_eq!(header("x-api-key").as_deref(), Some(CANARY));
                assert_eq!(header("anthropic-version").as_deref(), Some("2023-06-01"));
                let last = body["messages"].as_array().unwrap().last().unwrap();
                assert_eq!(last["role"], "user");
                assert_eq!(last["content"][0]["type"], "tool_result");
                assert_eq!(last["content"][0]["tool_use_id"], "toolu_1");
                assert!(body["tools"][0]["input_schema"].is_object());
            }
            Format::Gemini => {
                assert_eq!(path, &format!("/v1beta/models/{model}:streamGenerateContent?alt=sse"));
                assert_eq!(header("x-goog-api-key").as_deref(), Some(CANARY));
                assert!(!path.contains(CANARY), "the key is never in the URL");
                let last = body["contents"].as_array().unwrap().last().unwrap();
                assert_eq!(last["parts"][0]["functionResponse"]["name"], "recurring_payments");
                assert!(body["tools"][0]["functionDeclarations"].is_array());
            }
            Format::Ollama => {
                assert_eq!(path, "/api/chat");
                assert_eq!(header("authorization"), None, "a local Ollama gets no key");
                let last = body["messages"].as_array().unwrap().last().unwrap();
                assert_eq!(last["role"], "tool");
                assert!(last["content"].as_str().unwrap().contains("\"monthly_total\""));
            }
        }
        if f != Format::Gemini {
            assert_eq!(body["model"], model, "{provider:?}");
        }
        println!("{provider:?}: tool call → result sent back → {} tokens streamed", answer(&events).len());
    }
}

/// One fault: what the provider does, the code the chat stream ends with (`None`:
/// the answer arrives), how many requests the provider sees, and the tokens it reported
/// (each reply that ends properly reports 1,000 in and 20 out; Anthropic reports the
/// 1,000 in first, before any text).
struct Fault {
    name: &'static str,
    script: fn(Format) -> Vec<Reply>,
    code: Option<&'static str>,
    requests: usize,
    billed: fn(Format) -> (u64, u64),
}

const NONE: fn(Format) -> (u64, u64) = |_| (0, 0);
const ONE: fn(Format) -> (u64, u64) = |_| (1_000, 20);
const TWO: fn(Format) -> (u64, u64) = |_| (2_000, 40);
/// Only Anthropic said the input tokens before the stream broke.
const STARTED: fn(Format) -> (u64, u64) = |f| if f == Format::Anthropic { (1_000, 0) } else { (0, 0) };

fn ok(f: Format) -> Reply {
    Reply::Ok(text(f, &["D'accord."]))
}

fn limited() -> Reply {
    Reply::Status(429, vec![("retry-after", "3")], r#"{"error": {"message": "rate limited"}}"#.into())
}

fn faults() -> Vec<Fault> {
    vec![
        Fault {
            name: "429 retry-after 3, then ok",
            script: |f| vec![limited(), ok(f)],
            code: None,
            requests: 2,
            billed: ONE,
        },
        Fault {
            name: "429 three times",
            script: |_| vec![limited(), limited(), limited()],
            code: Some("rate_limited"),
            requests: 3,
            billed: NONE,
        },
        Fault {
            name: "401",
            script: |_| vec![Reply::Status(401, vec![], r#"{"error": {"message": "invalid key"}}"#.into())],
            code: Some("key_rejected"),
            requests: 1,
            billed: NONE,
        },
        Fault {
            name: "500 echoing the key",
            script: |_| {
                vec![Reply::Status(500, vec![], format!(r#"{{"error": {{"message": "bad {CANARY}"}}}}"#))]
            },
            code: Some("provider_unavailable"),
            requests: 1,
            billed: NONE,
        },
        Fault {
            // The tool result grew the conversation: it is truncated and sent again.
            name: "overflow after a tool, then ok",
            script: |f| {
                vec![
                    Reply::Ok(tool_call(f, "recurring_payments", &netflix_args())),
                    Reply::Status(400, vec![], overflow_body(f)),
                    ok(f),
                ]
            },
            code: None,
            requests: 3,
            billed: TWO,
        },
        Fault {
            name: "reset before any token, then ok",
            script: |f| vec![Reply::Reset(String::new()), ok(f)],
            code: None,
            requests: 2,
            billed: ONE,
        },
        Fault {
            name: "reset after a token",
            script: |f| vec![Reply::Reset(text_start(f, &["Votre solde"]))],
            code: Some("provider_unavailable"),
            requests: 1,
            billed: STARTED,
        },
        Fault {
            name: "stall twice",
            script: |_| vec![Reply::Stall(String::new()), Reply::Stall(String::new())],
            code: Some("timeout"),
            requests: 2,
            billed: NONE,
        },
        Fault {
            name: "stall, then ok",
            script: |f| vec![Reply::Stall(String::new()), ok(f)],
            code: None,
            requests: 2,
            billed: ONE,
        },
        Fault {
            name: "malformed chunk",
            script: |f| vec![Reply::Ok(malformed(f))],
            code: Some("provider_unavailable"),
            requests: 1,
            billed: NONE,
        },
        Fault {
            name: "missing end marker",
            script: |f| vec![Reply::Ok(text_start(f, &["Votre", " solde"]))],
            code: Some("provider_unavailable"),
            requests: 1,
            billed: STARTED,
        },
        Fault {
            name: "in-band error",
            script: |f| vec![Reply::Ok(in_band(f))],
            code: Some("provider_unavailable"),
            requests: 1,
            billed: STARTED,
        },
        Fault {
            name: "empty reply twice",
            script: |f| vec![Reply::Ok(empty(f)), Reply::Ok(empty(f))],
            code: Some("empty_reply"),
            requests: 2,
            billed: TWO,
        },
        Fault {
            name: "empty reply, then ok",
            script: |f| vec![Reply::Ok(empty(f)), ok(f)],
            code: None,
            requests: 2,
            billed: TWO,
        },
    ]
}

#[tokio::test]
async fn the_fault_matrix_holds_for_every_provider() {
    let faults = faults();
    let mut table =
        vec![format!("{:<34}{}", "fault", PROVIDERS.map(|p| format!("{:<25}", format!("{p:?}"))).join(""))];
    for fault in &faults {
        let mut row = format!("{:<34}", fault.name);
        for provider in PROVIDERS {
            let f = format_of(provider);
            let s = setup(provider, (fault.script)(f)).await;
            let before = support::settings_total(&s.sou, s.user).await;
            let events = ask(&s).await;
            let code = error_code(&events);
            let requests = lock(&s.mock).requests.len();
            let what = format!("{provider:?} / {}: {events:?}", fault.name);
            assert_eq!(code.as_deref(), fault.code, "{what}");
            assert_eq!(requests, fault.requests, "{what}");
            if fault.code.is_none() {
                assert_eq!(answer(&events), "D'accord.", "{what}");
            }
            let waits = s.waits.0.lock().unwrap().clone();
            if fault.name.starts_with("429 retry-after") {
                assert_eq!(waits, vec![Duration::from_secs(3)], "retry-after honoured: {what}");
            }
            if fault.name.starts_with("overflow") {
                let r = lock(&s.mock).requests.clone();
                // The question and the call stay; the tool's result is cut.
                let turns = |b: &Value| {
                    b.get("messages").or(b.get("contents")).and_then(Value::as_array).map(Vec::len)
                };
                assert_eq!(turns(&r[2].2), turns(&r[1].2), "the exchange stays whole: {what}");
                let size = |b: &Value| b.to_string().len();
                assert!(size(&r[2].2) < size(&r[1].2), "truncated before the retry: {what}");
            }
            if fault.name == "reset after a token" {
                assert_eq!(answer(&events), "Votre solde", "what arrived stays: {what}");
            }
            if fault.name == "429 three times" {
                assert_eq!(waits.len(), 2, "two retries: {what}");
            }
            // Every token the provider reported is counted, and the answer, its trace and
            // Settings → Usage agree.
            let tokens = support::usage_adds_up(&s.sou, s.user, &events, before).await;
            assert_eq!(tokens, (fault.billed)(f), "the tokens billed: {what}");
            if fault.name.starts_with("empty reply") {
                let r = lock(&s.mock).requests.clone();
                let temperature = |b: &Value| {
                    b.get("temperature")
                        .or(b.pointer("/generationConfig/temperature"))
                        .or(b.pointer("/options/temperature"))
                        .and_then(Value::as_f64)
                        .map(|t| (t * 10.0).round() / 10.0)
                };
                assert_eq!(temperature(&r[0].2), None, "the provider's default first: {what}");
                assert_eq!(temperature(&r[1].2), Some(0.7), "the retry with another temperature: {what}");
            }
            for e in &events {
                if let ChatEvent::Error { message, .. } = e {
                    assert!(!message.contains(CANARY), "{what}");
                }
            }
            row += &format!("{:<25}", format!("{} ×{requests}", code.as_deref().unwrap_or("answered")));
        }
        table.push(row);
    }
    println!("{}", table.join("\n"));
}

/// Stopped before the first token, in each provider's format (its opening sent, no
/// content yet): the stream ends `stopped` within a second, after one request — the
/// read timeout's retry is not waited for.
#[tokio::test]
async fn each_provider_stops_before_its_first_token_within_a_second() {
    for provider in PROVIDERS {
        let opening = match format_of(provider) {
            Format::Anthropic => an_start(),
            Format::OpenAi => oa_chunk(json!({"role": "assistant"}), None),
            Format::Gemini | Format::Ollama => String::new(),
        };
        let s = setup(provider, vec![Reply::Stall(opening)]).await;
        let before = support::settings_total(&s.sou, s.user).await;
        let (events, _, ended) =
            support::ask_then_stop(&s.sou, s.user, QUESTION, || lock(&s.mock).requests.len(), Duration::ZERO)
                .await;
        let what = format!("{provider:?}: {events:?}");
        assert!(ended < Duration::from_secs(1), "{ended:?} {what}");
        assert_eq!(error_code(&events).as_deref(), Some("stopped"), "{what}");
        assert!(events.last().is_some_and(ChatEvent::is_terminal), "{what}");
        assert_eq!(lock(&s.mock).requests.len(), 1, "no retry once stopped: {what}");
        // What the provider reported before the stop is counted (Anthropic's opening
        // says the input tokens).
        let tokens = support::usage_adds_up(&s.sou, s.user, &events, before).await;
        assert_eq!(tokens, STARTED(format_of(provider)), "{what}");
    }
}

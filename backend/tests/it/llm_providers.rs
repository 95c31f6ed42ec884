//! The LLM adapters against each provider's streaming format.
//!
//! Recordings in `tests/recordings/<provider>/` were written by hand from each
//! provider's documented stream examples. Every one is decoded cut at random byte
//! boundaries (deterministic seeds) and, through a mock provider server on 127.0.0.1,
//! served in such chunks over HTTP. The server also checks each adapter's request (path,
//! key header, JSON body) and injects faults: 429 with `retry-after`, 401/403, context
//! overflow, 500, a stalled stream. A canary key must appear in no error text.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use backend::llm::{
    self, anthropic, gemini, ollama, openai, Endpoint, LlmError, LlmMessage, LlmRequest, Part, Role,
    StreamEvent, ToolSpec, Wire,
};
use futures::{Stream, StreamExt};
use secrecy::SecretString;
use serde_json::{json, Value};

use crate::support;

const CANARY: &str = "sk-canary-7f3a9c1e5b2d4f6a8c0e";

type Outcome = Vec<Result<StreamEvent, LlmError>>;

// ---------------------------------------------------------------------------------
// Deterministic cutting.

struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
}

/// `bytes` cut at random byte boundaries (inside UTF-8 characters too); seed 0 is one
/// chunk.
fn cut(bytes: &[u8], seed: u64) -> Vec<Bytes> {
    if seed == 0 {
        return vec![Bytes::copy_from_slice(bytes)];
    }
    let mut rng = XorShift(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let max = 1 + (rng.next() % 40) as usize;
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let n = (1 + (rng.next() as usize % max)).min(bytes.len() - i);
        out.push(Bytes::copy_from_slice(&bytes[i..i + n]));
        i += n;
    }
    out
}

fn recording(provider: &str, case: &str) -> Vec<u8> {
    let path = format!("{}/tests/recordings/{provider}/{case}.txt", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn decode(wire: Wire, chunks: Vec<Bytes>) -> impl Stream<Item = Result<StreamEvent, LlmError>> {
    let bytes = futures::stream::iter(chunks.into_iter().map(Ok::<_, LlmError>));
    let s: std::pin::Pin<Box<dyn Stream<Item = Result<StreamEvent, LlmError>> + Send>> = match wire {
        Wire::OpenAi => Box::pin(openai::decode(bytes)),
        Wire::Anthropic => Box::pin(anthropic::decode(bytes)),
        Wire::Gemini => Box::pin(gemini::decode(bytes)),
        Wire::Ollama => Box::pin(ollama::decode(bytes)),
    };
    s
}

// ---------------------------------------------------------------------------------
// Expected events.

fn text(s: &str) -> Result<StreamEvent, LlmError> {
    Ok(StreamEvent::TextDelta(s.into()))
}
fn call(id: &str, name: &str, arguments: Value) -> Result<StreamEvent, LlmError> {
    Ok(StreamEvent::ToolCall { id: id.into(), name: name.into(), arguments })
}
fn usage(input_tokens: u64, output_tokens: u64) -> Result<StreamEvent, LlmError> {
    Ok(StreamEvent::Usage { input_tokens, output_tokens })
}
fn done(stop_reason: &str) -> Result<StreamEvent, LlmError> {
    Ok(StreamEvent::Done { stop_reason: stop_reason.into() })
}
fn courses() -> Value {
    json!({"category": "Courses", "period": "2026-10"})
}

struct Case {
    wire: Wire,
    provider: &'static str,
    name: &'static str,
    expected: Outcome,
}

fn cases() -> Vec<Case> {
    use LlmError::{InBand, Truncated};
    let c = |wire, provider, name, expected| Case { wire, provider, name, expected };
    let openai = |name, expected| c(Wire::OpenAi, "openai", name, expected);
    let anthropic = |name, expected| c(Wire::Anthropic, "anthropic", name, expected);
    let ollama = |name, expected| c(Wire::Ollama, "ollama", name, expected);
    let gemini = |name, expected| c(Wire::Gemini, "gemini", name, expected);
    vec![
        // OpenAI Chat Completions (also Mistral, xAI).
        openai(
            "text",
            vec![
                text("Vous avez dépensé"),
                text(" 412,30 €"),
                text(" en courses ✓"),
                usage(52, 9),
                done("stop"),
            ],
        ),
        openai(
            "tool_call",
            vec![
                call("call_Ab12", "spending_total", courses()),
                call("call_Cd34", "account_balances", json!({})),
                usage(180, 41),
                done("tool_calls"),
            ],
        ),
        openai(
            "error",
            vec![
                text("Votre solde"),
                Err(InBand(
                    "server_error: The server had an error while processing your request. Sorry about that!"
                        .into(),
                )),
            ],
        ),
        openai("truncated", vec![text("Votre solde"), text(" est de"), Err(Truncated)]),
        // Anthropic Messages: the input tokens as soon as `message_start` says them.
        anthropic(
            "text",
            vec![
                usage(47, 0),
                text("Vous avez dépensé"),
                text(" 412,30 € en courses ✓"),
                usage(0, 12),
                done("end_turn"),
            ],
        ),
        anthropic(
            "tool_call",
            vec![
                usage(390, 0),
                text("Je regarde vos dépenses."),
                call("toolu_01Sou", "spending_total", courses()),
                usage(0, 64),
                done("tool_use"),
            ],
        ),
        anthropic(
            "error",
            vec![usage(47, 0), text("Votre solde"), Err(InBand("overloaded_error: Overloaded".into()))],
        ),
        anthropic("truncated", vec![usage(47, 0), text("Votre solde"), usage(0, 3), Err(Truncated)]),
        // Ollama /api/chat (NDJSON).
        ollama(
            "text",
            vec![text("Vous avez dépensé"), text(" 412,30 € en courses ✓"), usage(26, 11), done("stop")],
        ),
        ollama("tool_call", vec![call("call_1", "spending_total", courses()), usage(212, 25), done("stop")]),
        ollama(
            "error",
            vec![
                text("Votre solde"),
                Err(InBand("an error was encountered while running the model: unexpected EOF".into())),
            ],
        ),
        ollama("truncated", vec![text("Votre solde"), text(" est de"), Err(Truncated)]),
        // Gemini streamGenerateContent?alt=sse: each chunk's tokens so far, as increments.
        gemini(
            "text",
            vec![
                text("Vous avez dépensé"),
                usage(31, 0),
                text(" 412,30 € en courses ✓"),
                usage(0, 10),
                done("STOP"),
            ],
        ),
        gemini("tool_call", vec![call("call_1", "spending_total", courses()), usage(140, 18), done("STOP")]),
        gemini(
            "error",
            vec![
                text("Votre solde"),
                Err(InBand("UNAVAILABLE: The model is overloaded. Please try again later.".into())),
            ],
        ),
        gemini("truncated", vec![text("Votre solde"), text(" est de"), Err(Truncated)]),
    ]
}

#[tokio::test]
async fn recordings_decode_exactly_at_any_byte_boundary() {
    for case in cases() {
        let bytes = recording(case.provider, case.name);
        for seed in 0..40 {
            let got: Outcome = decode(case.wire, cut(&bytes, seed)).collect().await;
            assert_eq!(got, case.expected, "{}/{} cut with seed {seed}", case.provider, case.name);
        }
    }
}

// ---------------------------------------------------------------------------------
// The mock provider server.

#[derive(Default)]
struct Mock {
    status: u16,
    headers: Vec<(&'static str, String)>,
    body: Vec<u8>,
    seed: u64,
    /// Stop sending after the body and keep the connection open.
    stall: bool,
    requests: Vec<Recorded>,
}

struct Recorded {
    path: String,
    headers: HeaderMap,
    body: Value,
}

type Shared = Arc<Mutex<Mock>>;

async fn handle(State(mock): State<Shared>, req: Request) -> Response {
    let path = req.uri().path_and_query().map(|p| p.to_string()).unwrap_or_default();
    let headers = req.headers().clone();
    let raw = axum::body::to_bytes(req.into_body(), usize::MAX).await.unwrap_or_default();
    let body = serde_json::from_slice(&raw).unwrap_or(Value::Null);
    let (status, extra, chunks, stall) = {
        let mut m = mock.lock().unwrap_or_else(|p| p.into_inner());
        m.requests.push(Recorded { path, headers, body });
        (m.status, m.headers.clone(), cut(&m.body, m.seed), m.stall)
    };
    let chunks = futures::stream::iter(chunks).then(|c| async move {
        tokio::task::yield_now().await;
        Ok::<_, std::io::Error>(c)
    });
    let body = if stall {
        Body::from_stream(chunks.chain(futures::stream::pending()))
    } else {
        Body::from_stream(chunks)
    };
    let mut response =
        (StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR), body).into_response();
    for (name, value) in extra {
        if let Ok(v) = value.parse() {
            response.headers_mut().insert(name, v);
        }
    }
    response
}

async fn serve() -> (String, Shared) {
    let mock: Shared = Arc::default();
    let app = axum::Router::new().fallback(handle).with_state(mock.clone());
    let addr = support::serve(app).await;
    (format!("http://{addr}"), mock)
}

fn set(mock: &Shared, status: u16, headers: Vec<(&'static str, String)>, body: &[u8], seed: u64) {
    let mut m = mock.lock().unwrap_or_else(|p| p.into_inner());
    m.status = status;
    m.headers = headers;
    m.body = body.to_vec();
    m.seed = seed;
    m.stall = false;
}

fn last_request(mock: &Shared) -> Recorded {
    let mut m = mock.lock().unwrap_or_else(|p| p.into_inner());
    m.requests.pop().expect("a request reached the mock")
}

fn client() -> reqwest::Client {
    llm::http_client(Duration::from_secs(5), Duration::from_secs(5)).expect("client")
}

fn endpoint(base: &str, wire: Wire) -> Endpoint {
    let base = match wire {
        Wire::OpenAi => format!("{base}/v1"),
        _ => base.to_string(),
    };
    Endpoint::new(base, Some(SecretString::from(CANARY.to_string())))
}

fn model(wire: Wire) -> &'static str {
    match wire {
        Wire::OpenAi => "gpt-4o",
        Wire::Anthropic => "claude-sonnet-4-20250514",
        Wire::Gemini => "gemini-2.0-flash",
        Wire::Ollama => "mistral:7b",
    }
}

fn sample_request(wire: Wire) -> LlmRequest {
    LlmRequest {
        model: model(wire).into(),
        system: "Tu es Sou.".into(),
        messages: vec![
            LlmMessage {
                role: Role::User,
                content: vec![Part::Text("Combien en courses en octobre ?".into())],
            },
            LlmMessage {
                role: Role::Assistant,
                content: vec![
                    Part::Text("Je regarde.".into()),
                    Part::ToolCall {
                        id: "call_1".into(),
                        name: "spending_total".into(),
                        arguments: json!({"category": "Courses"}),
                    },
                ],
            },
            LlmMessage {
                role: Role::Tool,
                content: vec![Part::ToolResult { id: "call_1".into(), content: "412,30 EUR".into() }],
            },
        ],
        tools: vec![ToolSpec {
            name: "spending_total".into(),
            description: "Total spent".into(),
            parameters: std::sync::Arc::new(schema()),
        }],
        max_tokens: 512,
        temperature: None,
    }
}

fn schema() -> Value {
    json!({"type": "object", "properties": {"category": {"type": "string"}}, "required": ["category"]})
}

/// Each provider's documented request shape for `sample_request`.
fn expected_wire(wire: Wire) -> (&'static str, &'static str, String, Value) {
    let bearer = format!("Bearer {CANARY}");
    match wire {
        Wire::OpenAi => (
            "/v1/chat/completions",
            "authorization",
            bearer,
            json!({
                "model": "gpt-4o",
                "max_tokens": 512,
                "stream": true,
                "stream_options": {"include_usage": true},
                "messages": [
                    {"role": "system", "content": "Tu es Sou."},
                    {"role": "user", "content": "Combien en courses en octobre ?"},
                    {"role": "assistant", "content": "Je regarde.", "tool_calls": [
                        {"id": "call_1", "type": "function", "function": {
                            "name": "spending_total", "arguments": "{\"category\":\"Courses\"}"}}
                    ]},
                    {"role": "tool", "tool_call_id": "call_1", "content": "412,30 EUR"}
                ],
                "tools": [{"type": "function", "function": {
                    "name": "spending_total", "description": "Total spent", "parameters": schema()}}]
            }),
        ),
        Wire::Anthropic => (
            "/v1/messages",
            "x-api-key",
            CANARY.to_string(),
            json!({
                "model": "claude-sonnet-4-20250514",
                "max_tokens": 512,
                "stream": true,
                "system": "Tu es Sou.",
                "messages": [
                    {"role": "user", "content": [{"type": "text", "text": "Combien en courses en octobre ?"}]},
                    {"role": "assistant", "content": [
                        {"type": "text", "text": "Je regarde."},
                        {"type": "tool_use", "id": "call_1", "name": "spending_total", "input": {"category": "Courses"}}
                    ]},
                    {"role": "user", "content": [
                        {"type": "tool_result", "tool_use_id": "call_1", "content": "412,30 EUR"}
                    ]}
                ],
                "tools": [{"name": "spending_total", "description": "Total spent", "input_schema": schema()}]
            }),
        ),
        Wire::Gemini => (
            "/v1beta/models/gemini-2.0-flash:streamGenerateContent?alt=sse",
            "x-goog-api-key",
            CANARY.to_string(),
            json!({
                "systemInstruction": {"parts": [{"text": "Tu es Sou."}]},
                "contents": [
                    {"role": "user", "parts": [{"text": "Combien en courses en octobre ?"}]},
                    {"role": "model", "parts": [
                        {"text": "Je regarde."},
                        {"functionCall": {"name": "spending_total", "args": {"category": "Courses"}}}
                    ]},
                    {"role": "user", "parts": [
                        {"functionResponse": {"name": "spending_total", "response": {"content": "412,30 EUR"}}}
                    ]}
                ],
                "tools": [{"functionDeclarations": [
                    {"name": "spending_total", "description": "Total spent", "parameters": schema()}
                ]}],
                "generationConfig": {"maxOutputTokens": 512}
            }),
        ),
        Wire::Ollama => (
            "/api/chat",
            "authorization",
            bearer,
            json!({
                "model": "mistral:7b",
                "stream": true,
                "options": {"num_predict": 512},
                "messages": [
                    {"role": "system", "content": "Tu es Sou."},
                    {"role": "user", "content": "Combien en courses en octobre ?"},
                    {"role": "assistant", "content": "Je regarde.", "tool_calls": [
                        {"function": {"name": "spending_total", "arguments": {"category": "Courses"}}}
                    ]},
                    {"role": "tool", "content": "412,30 EUR"}
                ],
                "tools": [{"type": "function", "function": {
                    "name": "spending_total", "description": "Total spent", "parameters": schema()}}]
            }),
        ),
    }
}

/// Sends the sample request; an HTTP-level error is the outcome's only item.
async fn run(client: &reqwest::Client, endpoint: &Endpoint, wire: Wire) -> Outcome {
    match llm::stream(wire, client, endpoint, &sample_request(wire)).await {
        Ok(events) => events.collect().await,
        Err(e) => vec![Err(e)],
    }
}

fn assert_no_canary(outcome: &Outcome) {
    for item in outcome {
        if let Err(e) = item {
            for text in [e.to_string(), format!("{e:?}")] {
                assert!(!text.contains(CANARY), "key leaked: {text}");
                assert!(!text.contains("canary"), "key leaked: {text}");
            }
        }
    }
}

const WIRES: [Wire; 4] = [Wire::OpenAi, Wire::Anthropic, Wire::Ollama, Wire::Gemini];

#[tokio::test]
async fn recordings_over_http_with_each_providers_request_format() {
    let (base, mock) = serve().await;
    let client = client();
    for case in cases() {
        let endpoint = endpoint(&base, case.wire);
        let bytes = recording(case.provider, case.name);
        for seed in [0, 7, 23] {
            set(&mock, 200, vec![], &bytes, seed);
            let got = run(&client, &endpoint, case.wire).await;
            assert_eq!(got, case.expected, "{}/{} over HTTP, seed {seed}", case.provider, case.name);
            assert_no_canary(&got);

            let req = last_request(&mock);
            let (path, key_header, key_value, body) = expected_wire(case.wire);
            assert_eq!(req.path, path, "{}", case.provider);
            assert_eq!(
                req.headers.get(key_header).and_then(|v| v.to_str().ok()),
                Some(key_value.as_str()),
                "{}",
                case.provider
            );
            if case.wire == Wire::Anthropic {
                assert_eq!(
                    req.headers.get("anthropic-version").and_then(|v| v.to_str().ok()),
                    Some(anthropic::API_VERSION)
                );
            }
            assert_eq!(req.body, body, "{} request body", case.provider);
        }
    }
}

#[tokio::test]
async fn http_errors_are_classified_and_never_show_the_key() {
    let (base, mock) = serve().await;
    let client = client();
    let echo = format!(
        "{{\"error\":{{\"message\":\"Incorrect API key provided: {CANARY}\",\"type\":\"invalid_request_error\"}}}}"
    );
    for wire in WIRES {
        let endpoint = endpoint(&base, wire);
        assert!(!format!("{endpoint:?}").contains(CANARY));

        set(&mock, 429, vec![("retry-after", "2".into())], b"{}", 0);
        let got = run(&client, &endpoint, wire).await;
        assert_eq!(
            got,
            vec![Err(LlmError::RateLimited { retry_after: Some(Duration::from_secs(2)) })],
            "{wire:?}"
        );

        for status in [401, 403] {
            set(&mock, status, vec![], echo.as_bytes(), 0);
            let got = run(&client, &endpoint, wire).await;
            assert_eq!(got, vec![Err(LlmError::KeyRejected)], "{wire:?} {status}");
            assert_no_canary(&got);
        }

        let overflow = br#"{"error":{"message":"This model's maximum context length is 128000 tokens. However, your messages resulted in 130512 tokens.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}"#;
        set(&mock, 400, vec![], overflow, 0);
        let got = run(&client, &endpoint, wire).await;
        assert_eq!(got, vec![Err(LlmError::ContextOverflow)], "{wire:?}");

        set(&mock, 500, vec![], echo.as_bytes(), 3);
        let got = run(&client, &endpoint, wire).await;
        assert_eq!(
            got,
            vec![Err(LlmError::Status(
                500,
                "invalid_request_error: Incorrect API key provided: [redacted]".into()
            ))],
            "{wire:?}"
        );
        assert_no_canary(&got);
    }
}

#[tokio::test]
async fn an_in_band_error_echoing_the_key_is_redacted() {
    let (base, mock) = serve().await;
    let client = client();
    let streams = [
        (
            Wire::OpenAi,
            format!("data: {{\"error\":{{\"message\":\"bad key {CANARY}\",\"type\":\"auth\"}}}}\n\n"),
        ),
        (
            Wire::Anthropic,
            format!("event: error\ndata: {{\"type\":\"error\",\"error\":{{\"type\":\"auth\",\"message\":\"bad key {CANARY}\"}}}}\n\n"),
        ),
        (Wire::Ollama, format!("{{\"error\":\"bad key {CANARY}\"}}\n")),
        (
            Wire::Gemini,
            format!("data: {{\"error\":{{\"code\":400,\"message\":\"bad key {CANARY}\",\"status\":\"auth\"}}}}\n\n"),
        ),
    ];
    for (wire, body) in streams {
        set(&mock, 200, vec![], body.as_bytes(), 5);
        let got = run(&client, &endpoint(&base, wire), wire).await;
        let expected = match wire {
            Wire::Ollama => "bad key [redacted]",
            _ => "auth: bad key [redacted]",
        };
        assert_eq!(got, vec![Err(LlmError::InBand(expected.into()))], "{wire:?}");
        assert_no_canary(&got);
    }
}

#[tokio::test]
async fn a_stalled_stream_times_out() {
    let (base, mock) = serve().await;
    let client = llm::http_client(Duration::from_secs(5), Duration::from_millis(300)).expect("client");
    let bytes = recording("openai", "truncated");
    set(&mock, 200, vec![], &bytes, 0);
    mock.lock().unwrap_or_else(|p| p.into_inner()).stall = true;
    let got = run(&client, &endpoint(&base, Wire::OpenAi), Wire::OpenAi).await;
    assert_eq!(got, vec![text("Votre solde"), text(" est de"), Err(LlmError::Timeout)]);
}

#[tokio::test]
async fn an_empty_reply_is_an_error() {
    let body = b"data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"finish_reason\":null}]}\n\ndata: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n";
    let got: Outcome = decode(Wire::OpenAi, cut(body, 3)).collect().await;
    assert_eq!(got, vec![Err(LlmError::EmptyReply)]);
}

#[tokio::test]
async fn a_missing_key_is_a_configuration_error_not_a_request() {
    let endpoint = Endpoint::new("http://127.0.0.1:9", None);
    let got = run(&client(), &endpoint, Wire::Anthropic).await;
    assert!(matches!(got.as_slice(), [Err(LlmError::Config(_))]));
}

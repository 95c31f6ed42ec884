//! The retry policy of seed 001 (`llm::retry`) against a mock provider on 127.0.0.1
//! whose answers are scripted per attempt. Time is injected: the recorded sleeps are
//! checked, nothing sleeps for real (the stall cases wait out a 300 ms read timeout).

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use backend::llm::retry::{self, Meter, RetryPolicy};
use backend::llm::{self, Endpoint, LlmError, LlmMessage, LlmRequest, Part, Role, StreamEvent, Wire};
use futures::StreamExt;
use secrecy::SecretString;

use crate::support::{self, Waits};

type Outcome = Vec<Result<StreamEvent, LlmError>>;

// ---------------------------------------------------------------------------------
// A mock provider answering from a script, one reply per request.

#[derive(Clone)]
struct Reply {
    status: u16,
    headers: Vec<(&'static str, &'static str)>,
    body: Vec<u8>,
    /// Keep the connection open after the body.
    stall: bool,
}

fn reply(status: u16, body: &[u8]) -> Reply {
    Reply { status, headers: vec![], body: body.to_vec(), stall: false }
}

#[derive(Default)]
struct Mock {
    script: VecDeque<Reply>,
    requests: u32,
    /// Each request's JSON body.
    bodies: Vec<serde_json::Value>,
}

type Shared = Arc<Mutex<Mock>>;

async fn handle(State(mock): State<Shared>, req: Request) -> Response {
    let bytes = axum::body::to_bytes(req.into_body(), 1 << 20).await.unwrap_or_default();
    let next = {
        let mut m = mock.lock().unwrap_or_else(|p| p.into_inner());
        m.requests += 1;
        m.bodies.push(serde_json::from_slice(&bytes).unwrap_or_default());
        m.script.pop_front()
    };
    let Some(r) = next else {
        return (StatusCode::IM_A_TEAPOT, "script exhausted").into_response();
    };
    let chunk = futures::stream::iter([Ok::<_, std::io::Error>(Bytes::from(r.body))]);
    let body = if r.stall {
        Body::from_stream(chunk.chain(futures::stream::pending()))
    } else {
        Body::from_stream(chunk)
    };
    let mut response = (StatusCode::from_u16(r.status).unwrap(), body).into_response();
    for (name, value) in r.headers {
        response.headers_mut().insert(name, value.parse().unwrap());
    }
    response
}

async fn serve(script: Vec<Reply>) -> (Endpoint, Shared) {
    let mock: Shared = Arc::new(Mutex::new(Mock { script: script.into(), ..Mock::default() }));
    let app = axum::Router::new().fallback(handle).with_state(mock.clone());
    let addr = support::serve(app).await;
    let endpoint =
        Endpoint::new(format!("http://{addr}/v1"), Some(SecretString::from("sk-test-key".to_string())));
    (endpoint, mock)
}

fn requests(mock: &Shared) -> u32 {
    mock.lock().unwrap_or_else(|p| p.into_inner()).requests
}

// ---------------------------------------------------------------------------------
// Injected time: sleeps are recorded, jitter is zero (`support::Waits`).

const POLICY: RetryPolicy =
    RetryPolicy { max_retries: 2, base_delay: Duration::from_millis(200), max_delay: Duration::from_secs(5) };

fn recording(case: &str) -> Vec<u8> {
    let path = format!("{}/tests/recordings/openai/{case}.txt", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn ok_text() -> Reply {
    reply(200, &recording("text"))
}

fn text_events() -> Outcome {
    vec![
        Ok(StreamEvent::TextDelta("Vous avez dépensé".into())),
        Ok(StreamEvent::TextDelta(" 412,30 €".into())),
        Ok(StreamEvent::TextDelta(" en courses ✓".into())),
        Ok(StreamEvent::Usage { input_tokens: 52, output_tokens: 9 }),
        Ok(StreamEvent::Done { stop_reason: "stop".into() }),
    ]
}

fn rate_limited() -> Reply {
    Reply { headers: vec![("retry-after", "1")], ..reply(429, b"{}") }
}

/// The role chunk, then nothing: no content before the read timeout.
fn stall() -> Reply {
    Reply {
        stall: true,
        ..reply(
            200,
            b"data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"finish_reason\":null}]}\n\n",
        )
    }
}

const EMPTY: &[u8] = b"data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"finish_reason\":null}]}\n\ndata: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n";

fn request() -> LlmRequest {
    LlmRequest {
        model: "gpt-4o".into(),
        system: "Tu es Sou.".into(),
        messages: vec![LlmMessage { role: Role::User, content: vec![Part::Text("Mon solde ?".into())] }],
        tools: vec![],
        max_tokens: 256,
        temperature: None,
    }
}

/// Runs the retrying call; returns the attempts it reports, the outcome (an outer
/// error as the only item) and the recorded sleeps.
async fn run(endpoint: &Endpoint, read_timeout: Duration) -> (u32, Outcome, Vec<Duration>) {
    let (attempts, outcome, sleeps, _) = run_metered(endpoint, read_timeout).await;
    (attempts, outcome, sleeps)
}

/// The same, with the tokens the call's meter counted.
async fn run_metered(
    endpoint: &Endpoint,
    read_timeout: Duration,
) -> (u32, Outcome, Vec<Duration>, (u64, u64)) {
    let client = llm::http_client(Duration::from_secs(5), read_timeout).expect("client");
    let pause = Waits::default();
    let meter = Meter::default();
    let attempted = retry::stream(
        &POLICY,
        &pause,
        retry::Target { wire: Wire::OpenAi, client: &client, endpoint },
        &request(),
        &meter,
    )
    .await;
    let outcome = match attempted.result {
        Ok(events) => events.collect().await,
        Err(e) => vec![Err(e)],
    };
    (attempted.attempts, outcome, pause.sleeps(), meter.tokens())
}

const READ: Duration = Duration::from_secs(5);

// ---------------------------------------------------------------------------------

#[tokio::test]
async fn rate_limited_then_ok_waits_retry_after_and_succeeds_on_the_second_attempt() {
    let (endpoint, mock) = serve(vec![rate_limited(), ok_text()]).await;
    let (attempts, got, sleeps) = run(&endpoint, READ).await;
    assert_eq!(got, text_events());
    assert_eq!(attempts, 2);
    assert_eq!(requests(&mock), 2);
    assert_eq!(sleeps, vec![Duration::from_secs(1)]);
}

#[tokio::test]
async fn rate_limited_three_times_gives_up_after_two_retries() {
    let (endpoint, mock) = serve(vec![rate_limited(), rate_limited(), rate_limited(), ok_text()]).await;
    let (attempts, got, sleeps) = run(&endpoint, READ).await;
    assert_eq!(got, vec![Err(LlmError::RateLimited { retry_after: Some(Duration::from_secs(1)) })]);
    assert_eq!(attempts, 3);
    assert_eq!(requests(&mock), 3);
    assert_eq!(sleeps, vec![Duration::from_secs(1); 2]);
}

#[tokio::test]
async fn rate_limited_without_retry_after_backs_off_exponentially() {
    let plain = reply(429, b"{}");
    let (endpoint, _mock) = serve(vec![plain.clone(), plain, ok_text()]).await;
    let (attempts, got, sleeps) = run(&endpoint, READ).await;
    assert_eq!(got, text_events());
    assert_eq!(attempts, 3);
    // Zero jitter: half of 200 ms, then half of 400 ms.
    assert_eq!(sleeps, vec![Duration::from_millis(100), Duration::from_millis(200)]);
}

#[tokio::test]
async fn a_rejected_key_is_not_retried() {
    let (endpoint, mock) = serve(vec![reply(401, br#"{"error":{"message":"bad key"}}"#), ok_text()]).await;
    let (attempts, got, sleeps) = run(&endpoint, READ).await;
    assert_eq!(got, vec![Err(LlmError::KeyRejected)]);
    assert_eq!((attempts, requests(&mock)), (1, 1));
    assert!(sleeps.is_empty());
}

#[tokio::test]
async fn context_overflow_is_returned_to_the_caller() {
    let overflow =
        br#"{"error":{"message":"maximum context length exceeded","code":"context_length_exceeded"}}"#;
    let (endpoint, mock) = serve(vec![reply(400, overflow), ok_text()]).await;
    let (attempts, got, _) = run(&endpoint, READ).await;
    assert_eq!(got, vec![Err(LlmError::ContextOverflow)]);
    assert_eq!((attempts, requests(&mock)), (1, 1));
}

#[tokio::test]
async fn an_error_after_text_is_returned_once_without_retry() {
    let (endpoint, mock) = serve(vec![reply(200, &recording("error")), ok_text()]).await;
    let (attempts, got, sleeps) = run(&endpoint, READ).await;
    assert_eq!(
        got,
        vec![
            Ok(StreamEvent::TextDelta("Votre solde".into())),
            Err(LlmError::InBand(
                "server_error: The server had an error while processing your request. Sorry about that!"
                    .into()
            )),
        ]
    );
    assert_eq!((attempts, requests(&mock)), (1, 1));
    assert!(sleeps.is_empty());
}

#[tokio::test]
async fn a_stall_after_text_is_not_retried() {
    let partial = Reply { stall: true, ..reply(200, &recording("truncated")) };
    let (endpoint, mock) = serve(vec![partial, ok_text()]).await;
    let (attempts, got, _) = run(&endpoint, Duration::from_millis(300)).await;
    assert_eq!(
        got,
        vec![
            Ok(StreamEvent::TextDelta("Votre solde".into())),
            Ok(StreamEvent::TextDelta(" est de".into())),
            Err(LlmError::Timeout),
        ]
    );
    assert_eq!((attempts, requests(&mock)), (1, 1));
}

#[tokio::test]
async fn a_stall_then_ok_succeeds_on_the_second_attempt() {
    let (endpoint, mock) = serve(vec![stall(), ok_text()]).await;
    let (attempts, got, _) = run(&endpoint, Duration::from_millis(300)).await;
    assert_eq!(got, text_events());
    assert_eq!((attempts, requests(&mock)), (2, 2));
}

#[tokio::test]
async fn two_stalls_give_a_timeout_after_one_retry() {
    let (endpoint, mock) = serve(vec![stall(), stall(), ok_text()]).await;
    let (attempts, got, _) = run(&endpoint, Duration::from_millis(300)).await;
    assert_eq!(got, vec![Err(LlmError::Timeout)]);
    assert_eq!((attempts, requests(&mock)), (2, 2));
}

#[tokio::test]
async fn an_empty_reply_is_retried_once_with_another_temperature() {
    let (endpoint, mock) = serve(vec![reply(200, EMPTY), ok_text()]).await;
    let (attempts, got, _) = run(&endpoint, READ).await;
    assert_eq!(got, text_events());
    assert_eq!((attempts, requests(&mock)), (2, 2));
    let bodies = mock.lock().unwrap().bodies.clone();
    assert_eq!(bodies[0].get("temperature"), None, "the first call leaves the provider's default");
    assert_eq!(bodies[1]["temperature"].as_f64().map(|t| (t * 10.0).round()), Some(7.0), "{}", bodies[1]);
    let (mut first, mut second) = (bodies[0].clone(), bodies[1].clone());
    first.as_object_mut().unwrap().remove("temperature");
    second.as_object_mut().unwrap().remove("temperature");
    assert_eq!(first, second, "nothing else changes");

    let (endpoint, mock) = serve(vec![reply(200, EMPTY), reply(200, EMPTY), ok_text()]).await;
    let (attempts, got, _) = run(&endpoint, READ).await;
    assert_eq!(got, vec![Err(LlmError::EmptyReply)]);
    assert_eq!((attempts, requests(&mock)), (2, 2));
}

/// Every attempt the provider reported tokens for is counted: an empty reply's (billed,
/// then retried), and the answer's.
#[tokio::test]
async fn the_meter_counts_every_attempt_that_reported_tokens() {
    let billed_empty = String::from_utf8(EMPTY.to_vec()).unwrap().replace(
        "data: [DONE]",
        "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":40,\"completion_tokens\":0}}\n\ndata: [DONE]",
    );
    let (endpoint, _mock) = serve(vec![reply(200, billed_empty.as_bytes()), ok_text()]).await;
    let (attempts, got, _, tokens) = run_metered(&endpoint, READ).await;
    assert_eq!(got, text_events());
    assert_eq!(attempts, 2);
    assert_eq!(tokens, (40 + 52, 9));
}

#[tokio::test]
async fn a_network_error_before_any_token_is_retried_once() {
    // A port nobody listens on: connection refused on both attempts.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("addr");
    drop(listener);
    let endpoint =
        Endpoint::new(format!("http://{addr}/v1"), Some(SecretString::from("sk-test-key".to_string())));
    let (attempts, got, sleeps) = run(&endpoint, READ).await;
    assert!(matches!(got.as_slice(), [Err(LlmError::Network(_))]), "{got:?}");
    assert_eq!(attempts, 2);
    assert_eq!(sleeps.len(), 1);
}

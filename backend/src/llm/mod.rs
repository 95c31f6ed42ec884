//! The LLM layer's groundwork: one request type and one stream-event type for every
//! provider, errors classified the way the retry policy needs them, and one adapter per
//! wire format.
//!
//! Each adapter (`openai`, `anthropic`, `gemini`, `ollama`) has two halves: `request`
//! builds the HTTP request (URL from a configurable base URL, its authentication
//! headers, JSON body in the provider's format) and `decode` turns the response's bytes
//! into [`StreamEvent`]s, with the framing and the decoder driver of `decode.rs`.
//! [`stream`] sends a request and decodes it; HTTP failures are classified by
//! [`classify_status`].
//!
//! [`retry`] adds the retry policy (backoff honouring `retry-after`, retries only before
//! the first forwarded token); [`model`] is how the rest of Sou calls a model, with the
//! context budget of [`context`] and that retry policy; [`catalog`] names the providers
//! and their default models and prices.
//!
//! Secrets: keys are [`SecretString`]s, exposed only to set a header; every text that
//! goes into an [`LlmError`] passes through [`redact`] first.

pub mod anthropic;
pub mod catalog;
pub mod context;
mod decode;
pub mod gemini;
pub mod model;
pub mod ollama;
pub mod openai;
pub mod retry;

use std::time::Duration;

use futures::{Stream, StreamExt};
use secrecy::{ExposeSecret, SecretString};
use serde_json::Value;

/// One call to a model: the system prompt, the conversation and the tools it may call.
#[derive(Debug, Clone, PartialEq)]
pub struct LlmRequest {
    pub model: String,
    pub system: String,
    pub messages: Vec<LlmMessage>,
    pub tools: Vec<ToolSpec>,
    pub max_tokens: u32,
    /// The sampling temperature; `None` leaves the provider's default. Set on the
    /// retry of an empty reply ([`retry`]).
    pub temperature: Option<f32>,
}

/// A turn of the conversation sent to a model; serialisable, as a tool loop waiting for
/// an approval keeps its turns (`chat::assistant::Paused`).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct LlmMessage {
    pub role: Role,
    pub content: Vec<Part>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Role {
    User,
    Assistant,
    /// Results of the assistant's tool calls.
    Tool,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Part {
    Text(String),
    ToolCall { id: String, name: String, arguments: Value },
    ToolResult { id: String, content: String },
}

/// A tool the model may call: `parameters` is its JSON Schema, shared: every request
/// offers the same few schemas, made once (`chat::assistant::catalogue`), and a
/// thousand answers at once would otherwise each hold copies of them.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolSpec {
    pub name: String,
    pub description: String,
    pub parameters: std::sync::Arc<Value>,
}

/// What a provider's stream says, in every provider's order: text deltas, then complete
/// tool calls, then `Done`; `Usage` whenever the provider reports tokens (Anthropic's
/// input tokens first, OpenAI's at the end), each the increase since the last, so their
/// sum is what the call cost so far. `Done` is emitted only when the provider's own end
/// marker was seen.
#[derive(Debug, Clone, PartialEq)]
pub enum StreamEvent {
    TextDelta(String),
    ToolCall { id: String, name: String, arguments: Value },
    Usage { input_tokens: u64, output_tokens: u64 },
    Done { stop_reason: String },
}

/// Why a call failed, classified the way the retry policy needs it. No variant ever
/// carries a key: texts are redacted before they get here.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LlmError {
    #[error("the provider is rate limiting requests")]
    RateLimited { retry_after: Option<Duration> },
    #[error("the provider rejected the API key")]
    KeyRejected,
    #[error("the provider did not answer in time")]
    Timeout,
    #[error("the conversation is too long for the model's context window")]
    ContextOverflow,
    #[error("the model returned an empty reply")]
    EmptyReply,
    #[error("the provider reported an error in its stream: {0}")]
    InBand(String),
    #[error("the stream ended before the provider's end marker")]
    Truncated,
    #[error("the provider sent something unreadable: {0}")]
    Malformed(String),
    #[error("the provider answered HTTP {0}: {1}")]
    Status(u16, String),
    #[error("could not reach the provider: {0}")]
    Network(String),
    #[error("invalid provider configuration: {0}")]
    Config(String),
}

/// Where a provider is and the key to use. `Debug` shows no key.
#[derive(Clone)]
pub struct Endpoint {
    /// E.g. `https://api.openai.com/v1`, `https://api.anthropic.com`,
    /// `http://127.0.0.1:11434`; a trailing slash is ignored.
    pub base_url: String,
    pub api_key: Option<SecretString>,
}

impl std::fmt::Debug for Endpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Endpoint")
            .field("base_url", &self.base_url)
            .field("api_key", &self.api_key.as_ref().map(|_| "[redacted]"))
            .finish()
    }
}

impl Endpoint {
    pub fn new(base_url: impl Into<String>, api_key: Option<SecretString>) -> Self {
        Endpoint { base_url: base_url.into(), api_key }
    }

    fn url(&self, path: &str) -> String {
        format!("{}{}", self.base_url.trim_end_matches('/'), path)
    }

    fn key(&self) -> Option<&str> {
        self.api_key.as_ref().map(|k| k.expose_secret())
    }
}

/// The wire formats this layer speaks. Mistral and xAI speak OpenAI's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wire {
    OpenAi,
    Anthropic,
    Gemini,
    Ollama,
}

/// An HTTP client for providers: rustls on ring, a connect timeout, and a read timeout
/// so a stalled stream becomes [`LlmError::Timeout`].
pub fn http_client(connect: Duration, read: Duration) -> Result<reqwest::Client, LlmError> {
    // Another part of the process may have installed a provider already; either way
    // there is one afterwards.
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::Client::builder()
        .connect_timeout(connect)
        .read_timeout(read)
        // After many answers at once, a few connections per provider stay open for the
        // next ones and the rest close: each idle one holds its buffers.
        .pool_max_idle_per_host(16)
        .pool_idle_timeout(Duration::from_secs(30))
        .build()
        .map_err(|e| LlmError::Config(e.without_url().to_string()))
}

/// Builds the request for `wire`.
pub fn build_request(
    wire: Wire,
    client: &reqwest::Client,
    endpoint: &Endpoint,
    request: &LlmRequest,
) -> Result<reqwest::RequestBuilder, LlmError> {
    match wire {
        Wire::OpenAi => openai::request(client, endpoint, request, &openai::Options::default()),
        Wire::Anthropic => anthropic::request(client, endpoint, request),
        Wire::Gemini => gemini::request(client, endpoint, request),
        Wire::Ollama => ollama::request(client, endpoint, request),
    }
}

/// Sends `request` and returns its events. HTTP errors come back as the `Err` of the
/// outer result; failures inside the stream as an `Err` item, after which the stream
/// ends.
pub async fn stream(
    wire: Wire,
    client: &reqwest::Client,
    endpoint: &Endpoint,
    request: &LlmRequest,
) -> Result<impl Stream<Item = Result<StreamEvent, LlmError>> + Send + use<>, LlmError> {
    let response = send(build_request(wire, client, endpoint, request)?, endpoint).await?;
    let key = endpoint.api_key.clone();
    let bytes = response.bytes_stream().map(move |r| r.map_err(|e| transport_error_key(e, key.as_ref())));
    let events: std::pin::Pin<Box<dyn Stream<Item = Result<StreamEvent, LlmError>> + Send>> = match wire {
        Wire::OpenAi => Box::pin(openai::decode(bytes)),
        Wire::Anthropic => Box::pin(anthropic::decode(bytes)),
        Wire::Gemini => Box::pin(gemini::decode(bytes)),
        Wire::Ollama => Box::pin(ollama::decode(bytes)),
    };
    let key = endpoint.api_key.clone();
    Ok(events.map(move |item| item.map_err(|e| redact_error(e, key.as_ref()))))
}

/// A cheap authenticated call — listing the provider's models — to check a key before
/// it is saved. `Ok` on any 2xx; 401/403 give [`LlmError::KeyRejected`].
pub async fn check_key(wire: Wire, client: &reqwest::Client, endpoint: &Endpoint) -> Result<(), LlmError> {
    let models = |path: &str| client.get(endpoint.url(path));
    let builder = match wire {
        Wire::OpenAi => openai::authorize(models("/models"), endpoint)?,
        Wire::Anthropic => anthropic::authorize(models("/v1/models"), endpoint)?,
        Wire::Gemini => gemini::authorize(models("/v1beta/models"), endpoint)?,
        Wire::Ollama => ollama::authorize(models("/api/tags"), endpoint)?,
    };
    send(builder, endpoint).await?;
    Ok(())
}

/// Sends a request; a non-2xx answer comes back classified by [`classify_status`].
async fn send(builder: reqwest::RequestBuilder, endpoint: &Endpoint) -> Result<reqwest::Response, LlmError> {
    let response = builder.send().await.map_err(|e| transport_error(e, endpoint))?;
    let status = response.status();
    if status.is_success() {
        return Ok(response);
    }
    let headers = response.headers().clone();
    let body = response.text().await.unwrap_or_default();
    Err(classify_status(status.as_u16(), &headers, &body, endpoint.key()))
}

fn transport_error(e: reqwest::Error, endpoint: &Endpoint) -> LlmError {
    transport_error_key(e, endpoint.api_key.as_ref())
}

fn transport_error_key(e: reqwest::Error, key: Option<&SecretString>) -> LlmError {
    if e.is_timeout() {
        return LlmError::Timeout;
    }
    let text = error_chain(&e.without_url());
    LlmError::Network(redact(&text, key.map(|k| k.expose_secret())))
}

fn error_chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        text.push_str(": ");
        text.push_str(&s.to_string());
        source = s.source();
    }
    text
}

/// Classifies a non-2xx answer. `key` is scrubbed from any text kept.
pub fn classify_status(
    status: u16,
    headers: &reqwest::header::HeaderMap,
    body: &str,
    key: Option<&str>,
) -> LlmError {
    match status {
        429 => LlmError::RateLimited { retry_after: retry_after(headers) },
        401 | 403 => LlmError::KeyRejected,
        408 | 504 => LlmError::Timeout,
        400 | 413 if is_context_overflow(body) => LlmError::ContextOverflow,
        _ => LlmError::Status(status, redact(&error_message(body), key)),
    }
}

/// `retry-after` in seconds (the HTTP-date form is not used by these providers), or
/// `retry-after-ms`.
fn retry_after(headers: &reqwest::header::HeaderMap) -> Option<Duration> {
    let get = |name: &str| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<f64>().ok())
            .filter(|v| v.is_finite() && *v >= 0.0)
    };
    if let Some(ms) = get("retry-after-ms") {
        return Some(Duration::from_secs_f64(ms / 1000.0));
    }
    get("retry-after").map(Duration::from_secs_f64)
}

fn is_context_overflow(body: &str) -> bool {
    let lower = body.to_lowercase();
    [
        "context_length_exceeded",
        "prompt is too long",
        "maximum context length",
        "request_too_large",
        "exceeds the maximum number of tokens",
        "too many tokens",
        "context window",
    ]
    .iter()
    .any(|m| lower.contains(m))
}

/// The human part of an error body: `error.message`, `error` as a string, `message`,
/// or the body itself, cut to 300 characters.
fn error_message(body: &str) -> String {
    let text = match serde_json::from_str::<Value>(body) {
        Ok(v) => in_band_message(&v).unwrap_or_else(|| body.trim().to_string()),
        Err(_) => body.trim().to_string(),
    };
    cut(&text, 300)
}

/// An error a provider reported inside its stream.
fn in_band(v: &Value) -> LlmError {
    LlmError::InBand(in_band_message(v).unwrap_or_else(|| "unknown error".into()))
}

/// The message of an error object as providers send them: `{"error": {"type", "message"}}`,
/// `{"error": "text"}`, or `{"message": ...}`.
fn in_band_message(v: &Value) -> Option<String> {
    match v.get("error") {
        Some(Value::String(s)) => Some(s.clone()),
        Some(obj @ Value::Object(_)) => {
            let message = obj.get("message").and_then(Value::as_str).unwrap_or("");
            let kind = obj
                .get("type")
                .or_else(|| obj.get("status"))
                .or_else(|| obj.get("code"))
                .and_then(Value::as_str);
            Some(match kind {
                Some(k) if !message.is_empty() => format!("{k}: {message}"),
                Some(k) => k.to_string(),
                None => message.to_string(),
            })
        }
        _ => v.get("message").and_then(Value::as_str).map(str::to_string),
    }
}

fn cut(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_string(),
    }
}

/// `text` with every occurrence of `key` replaced.
pub fn redact(text: &str, key: Option<&str>) -> String {
    match key {
        Some(k) if k.len() >= 4 => text.replace(k, "[redacted]"),
        _ => text.to_string(),
    }
}

fn redact_error(e: LlmError, key: Option<&SecretString>) -> LlmError {
    let key = key.map(|k| k.expose_secret());
    match e {
        LlmError::InBand(s) => LlmError::InBand(redact(&s, key)),
        LlmError::Malformed(s) => LlmError::Malformed(redact(&s, key)),
        LlmError::Status(c, s) => LlmError::Status(c, redact(&s, key)),
        LlmError::Network(s) => LlmError::Network(redact(&s, key)),
        LlmError::Config(s) => LlmError::Config(redact(&s, key)),
        other => other,
    }
}

fn malformed(what: &str, e: impl std::fmt::Display) -> LlmError {
    LlmError::Malformed(cut(&format!("{what}: {e}"), 300))
}

/// The text parts of a message, joined.
fn text_of(parts: &[Part]) -> String {
    parts
        .iter()
        .filter_map(|p| match p {
            Part::Text(t) => Some(t.as_str()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("")
}

/// The tool calls among a message's parts: `(id, name, arguments)`.
fn tool_calls(parts: &[Part]) -> impl Iterator<Item = (&str, &str, &Value)> {
    parts.iter().filter_map(|p| match p {
        Part::ToolCall { id, name, arguments } => Some((id.as_str(), name.as_str(), arguments)),
        _ => None,
    })
}

/// The tool results among a message's parts: `(id, content)`.
fn tool_results(parts: &[Part]) -> impl Iterator<Item = (&str, &str)> {
    parts.iter().filter_map(|p| match p {
        Part::ToolResult { id, content } => Some((id.as_str(), content.as_str())),
        _ => None,
    })
}

/// The conversation as `(role, parts)` turns, for the formats that put tool results in
/// a `user` turn (Anthropic, Gemini): `assistant` is the format's name for the model's
/// role, and `part` renders one part.
fn turns(
    messages: &[LlmMessage],
    assistant: &'static str,
    part: impl Fn(&Part) -> Value,
) -> Vec<(&'static str, Vec<Value>)> {
    messages
        .iter()
        .map(|m| {
            let role = if m.role == Role::Assistant { assistant } else { "user" };
            (role, m.content.iter().map(&part).collect())
        })
        .collect()
}

/// Tool results need the name of the call they answer in some formats (Gemini).
fn tool_name_for(messages: &[LlmMessage], id: &str) -> Option<String> {
    messages.iter().flat_map(|m| &m.content).find_map(|p| match p {
        Part::ToolCall { id: i, name, .. } if i == id => Some(name.clone()),
        _ => None,
    })
}

/// Asks for an SSE stream, with `body` as the JSON request body.
fn sse_request(builder: reqwest::RequestBuilder, body: &Value) -> Result<reqwest::RequestBuilder, LlmError> {
    json_body(builder.header(reqwest::header::ACCEPT, "text/event-stream"), body)
}

fn json_body(builder: reqwest::RequestBuilder, body: &Value) -> Result<reqwest::RequestBuilder, LlmError> {
    let bytes = serde_json::to_vec(body).map_err(|e| LlmError::Config(e.to_string()))?;
    Ok(builder.header(reqwest::header::CONTENT_TYPE, "application/json").body(bytes))
}

fn header_value(value: &str) -> Result<reqwest::header::HeaderValue, LlmError> {
    let mut v = reqwest::header::HeaderValue::from_str(value)
        .map_err(|_| LlmError::Config("the API key is not a valid header value".into()))?;
    v.set_sensitive(true);
    Ok(v)
}

/// `Authorization: Bearer {key}`, as OpenAI's API and proxies in front of Ollama take it.
fn bearer(builder: reqwest::RequestBuilder, key: &str) -> Result<reqwest::RequestBuilder, LlmError> {
    Ok(builder.header(reqwest::header::AUTHORIZATION, header_value(&format!("Bearer {key}"))?))
}

fn required_key(endpoint: &Endpoint) -> Result<&str, LlmError> {
    endpoint.key().ok_or_else(|| LlmError::Config("no API key configured".into()))
}

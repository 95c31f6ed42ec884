//! OpenAI Chat Completions, streaming — also Mistral (`https://api.mistral.ai/v1`) and
//! xAI (`https://api.x.ai/v1`), whose APIs are compatible: only the base URL changes.
//!
//! `POST {base}/chat/completions`, `Authorization: Bearer`, `stream: true`. The stream is
//! SSE `data:` chunks of `chat.completion.chunk`; tool calls arrive as deltas keyed by
//! `index` (id and name first, then `arguments` as string pieces); with
//! `stream_options.include_usage` a last chunk with empty `choices` carries `usage`; the
//! end marker is `data: [DONE]`. An in-band error is a chunk with an `error` object.

use std::collections::BTreeMap;

use bytes::Bytes;
use eventsource_stream::Event;
use futures::Stream;
use reqwest::RequestBuilder;
use serde_json::{json, Value};

use super::decode::{arguments, drive, json_frame, sse, Decoder, Out};
use super::{
    bearer, in_band, required_key, sse_request, text_of, tool_calls, tool_results, Endpoint, LlmError,
    LlmMessage, LlmRequest, Role, StreamEvent, ToolSpec,
};

/// Differences between compatible APIs.
#[derive(Debug, Clone)]
pub struct Options {
    /// Send `stream_options: {include_usage: true}` (OpenAI, xAI). Mistral sends usage
    /// in its last chunk without it.
    pub include_usage: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options { include_usage: true }
    }
}

pub fn request(
    client: &reqwest::Client,
    endpoint: &Endpoint,
    request: &LlmRequest,
    options: &Options,
) -> Result<RequestBuilder, LlmError> {
    let builder = authorize(client.post(endpoint.url("/chat/completions")), endpoint)?;
    sse_request(builder, &body(request, options))
}

/// `Authorization: Bearer` with the key, which is required.
pub(super) fn authorize(builder: RequestBuilder, endpoint: &Endpoint) -> Result<RequestBuilder, LlmError> {
    bearer(builder, required_key(endpoint)?)
}

/// The JSON body, separate so tests can compare it.
pub fn body(request: &LlmRequest, options: &Options) -> Value {
    let mut body = json!({
        "model": request.model,
        "messages": chat_messages(request, message),
        "max_tokens": request.max_tokens,
        "stream": true,
    });
    if let Some(t) = request.temperature {
        body["temperature"] = json!(t);
    }
    if options.include_usage {
        body["stream_options"] = json!({"include_usage": true});
    }
    if !request.tools.is_empty() {
        body["tools"] = function_tools(&request.tools);
    }
    body
}

/// The `messages` of the chat format, which Ollama shares: the system prompt as a
/// `system` message, then every message as `message` renders it (a tool turn may give
/// several).
pub(super) fn chat_messages(request: &LlmRequest, message: fn(&LlmMessage) -> Vec<Value>) -> Vec<Value> {
    let system = (!request.system.is_empty()).then(|| json!({"role": "system", "content": request.system}));
    system.into_iter().chain(request.messages.iter().flat_map(message)).collect()
}

/// An assistant message of the chat format, with its `tool_calls` when it made any.
pub(super) fn assistant_message(content: Value, calls: Vec<Value>) -> Value {
    let mut msg = json!({"role": "assistant", "content": content});
    if !calls.is_empty() {
        msg["tool_calls"] = Value::Array(calls);
    }
    msg
}

/// Tools in the `{"type": "function", "function": {...}}` form, which Ollama shares.
pub(super) fn function_tools(tools: &[ToolSpec]) -> Value {
    tools
        .iter()
        .map(|t| {
            json!({"type": "function", "function": {
                "name": t.name, "description": t.description, "parameters": &*t.parameters,
            }})
        })
        .collect()
}

fn message(m: &LlmMessage) -> Vec<Value> {
    match m.role {
        Role::User => vec![json!({"role": "user", "content": text_of(&m.content)})],
        Role::Assistant => {
            let text = text_of(&m.content);
            let calls: Vec<Value> = tool_calls(&m.content)
                .map(|(id, name, arguments)| {
                    json!({"id": id, "type": "function", "function": {
                        "name": name, "arguments": arguments.to_string(),
                    }})
                })
                .collect();
            // Only tool calls: `content` is null rather than empty.
            let content =
                if text.is_empty() && !calls.is_empty() { Value::Null } else { Value::String(text) };
            vec![assistant_message(content, calls)]
        }
        Role::Tool => tool_results(&m.content)
            .map(|(id, content)| json!({"role": "tool", "tool_call_id": id, "content": content}))
            .collect(),
    }
}

/// Decodes a Chat Completions SSE stream.
pub fn decode<S>(bytes: S) -> impl Stream<Item = Result<StreamEvent, LlmError>> + Send
where
    S: Stream<Item = Result<Bytes, LlmError>> + Send + 'static,
{
    drive(sse(bytes), State::default())
}

#[derive(Default)]
struct PendingCall {
    id: String,
    name: String,
    arguments: String,
}

#[derive(Default)]
struct State {
    calls: BTreeMap<u64, PendingCall>,
    stop_reason: Option<String>,
}

impl State {
    fn flush_calls(&mut self, out: &mut Out) -> Result<(), LlmError> {
        for (_, call) in std::mem::take(&mut self.calls) {
            let arguments = arguments(&call.arguments, "tool call arguments are not JSON")?;
            out.tool_call(call.id, call.name, arguments);
        }
        Ok(())
    }
}

impl Decoder for State {
    type Item = Event;

    fn feed(&mut self, event: Event, out: &mut Out) -> Result<(), LlmError> {
        let data = event.data.trim();
        if data == "[DONE]" {
            self.flush_calls(out)?;
            return out.done(self.stop_reason.take().unwrap_or_else(|| "stop".into()));
        }
        let Some(chunk) = json_frame(data, "chunk")? else {
            return Ok(());
        };
        if event.event == "error" || chunk.get("error").is_some() {
            return Err(in_band(&chunk));
        }
        for choice in chunk.get("choices").and_then(Value::as_array).into_iter().flatten() {
            let delta = choice.get("delta").unwrap_or(&Value::Null);
            if let Some(text) = delta.get("content").and_then(Value::as_str) {
                out.text(text);
            }
            for tc in delta.get("tool_calls").and_then(Value::as_array).into_iter().flatten() {
                let index = tc.get("index").and_then(Value::as_u64).unwrap_or(0);
                let call = self.calls.entry(index).or_default();
                if let Some(id) = tc.get("id").and_then(Value::as_str) {
                    call.id = id.to_string();
                }
                let f = tc.get("function").unwrap_or(&Value::Null);
                if let Some(name) = f.get("name").and_then(Value::as_str) {
                    call.name.push_str(name);
                }
                if let Some(args) = f.get("arguments").and_then(Value::as_str) {
                    call.arguments.push_str(args);
                }
            }
            if let Some(reason) = choice.get("finish_reason").and_then(Value::as_str) {
                self.stop_reason = Some(reason.to_string());
                self.flush_calls(out)?;
            }
        }
        if let Some(usage) = chunk.get("usage").filter(|u| u.is_object()) {
            let n = |k: &str| usage.get(k).and_then(Value::as_u64).unwrap_or(0);
            out.usage(n("prompt_tokens"), n("completion_tokens"));
        }
        Ok(())
    }
}

//! OpenAI Chat Completions, streaming — also Mistral (`https://api.mistral.ai/v1`) and
//! xAI (`https://api.x.ai/v1`), whose APIs are compatible: only the base URL changes.
//!
//! `POST {base}/chat/completions`, `Authorization: Bearer`, `stream: true`. The stream is
//! SSE `data:` chunks of `chat.completion.chunk`; tool calls arrive as deltas keyed by
//! `index` (id and name first, then `arguments` as string pieces); with
//! `stream_options.include_usage` a last chunk with empty `choices` carries `usage`; the
//! end marker is `data: [DONE]`. An in-band error is a chunk with an `error` object.

use std::collections::{BTreeMap, VecDeque};

use bytes::Bytes;
use futures::Stream;
use serde_json::{json, Value};

use super::{
    drive, header_value, in_band_message, json_body, malformed, required_key, sse, Decoder, Endpoint,
    LlmError, LlmMessage, LlmRequest, Part, Role, StreamEvent, ToolSpec,
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
) -> Result<reqwest::RequestBuilder, LlmError> {
    let key = required_key(endpoint)?;
    let builder = client
        .post(endpoint.url("/chat/completions"))
        .header(reqwest::header::AUTHORIZATION, header_value(&format!("Bearer {key}"))?)
        .header(reqwest::header::ACCEPT, "text/event-stream");
    json_body(builder, &body(request, options))
}

/// The JSON body, separate so tests can compare it.
pub fn body(request: &LlmRequest, options: &Options) -> Value {
    let mut messages = Vec::new();
    if !request.system.is_empty() {
        messages.push(json!({"role": "system", "content": request.system}));
    }
    for m in &request.messages {
        messages.extend(message(m));
    }
    let mut body = json!({
        "model": request.model,
        "messages": messages,
        "max_tokens": request.max_tokens,
        "stream": true,
    });
    if options.include_usage {
        body["stream_options"] = json!({"include_usage": true});
    }
    if !request.tools.is_empty() {
        body["tools"] = function_tools(&request.tools);
    }
    body
}

/// Tools in the `{"type": "function", "function": {...}}` form, which Ollama shares.
pub(super) fn function_tools(tools: &[ToolSpec]) -> Value {
    tools
        .iter()
        .map(|t| {
            json!({"type": "function", "function": {
                "name": t.name, "description": t.description, "parameters": t.parameters,
            }})
        })
        .collect()
}

/// The text parts of a message, joined.
pub(super) fn text_of(parts: &[Part]) -> String {
    parts
        .iter()
        .filter_map(|p| match p {
            Part::Text(t) => Some(t.as_str()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("")
}

fn message(m: &LlmMessage) -> Vec<Value> {
    match m.role {
        Role::User => vec![json!({"role": "user", "content": text_of(&m.content)})],
        Role::Assistant => {
            let text = text_of(&m.content);
            let calls: Vec<Value> = m
                .content
                .iter()
                .filter_map(|p| match p {
                    Part::ToolCall { id, name, arguments } => {
                        Some(json!({"id": id, "type": "function", "function": {
                            "name": name, "arguments": arguments.to_string(),
                        }}))
                    }
                    _ => None,
                })
                .collect();
            let mut msg = json!({
                "role": "assistant",
                "content": if text.is_empty() && !calls.is_empty() { Value::Null } else { Value::String(text) },
            });
            if !calls.is_empty() {
                msg["tool_calls"] = Value::Array(calls);
            }
            vec![msg]
        }
        Role::Tool => m
            .content
            .iter()
            .filter_map(|p| match p {
                Part::ToolResult { id, content } => {
                    Some(json!({"role": "tool", "tool_call_id": id, "content": content}))
                }
                _ => None,
            })
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
    produced: bool,
    done: bool,
}

impl State {
    fn flush_calls(&mut self, out: &mut VecDeque<StreamEvent>) -> Result<(), LlmError> {
        for (_, call) in std::mem::take(&mut self.calls) {
            let arguments = if call.arguments.trim().is_empty() {
                json!({})
            } else {
                serde_json::from_str(&call.arguments)
                    .map_err(|e| malformed("tool call arguments are not JSON", e))?
            };
            self.produced = true;
            out.push_back(StreamEvent::ToolCall { id: call.id, name: call.name, arguments });
        }
        Ok(())
    }
}

impl Decoder for State {
    type Item = eventsource_stream::Event;

    fn feed(
        &mut self,
        event: eventsource_stream::Event,
        out: &mut VecDeque<StreamEvent>,
    ) -> Result<(), LlmError> {
        let data = event.data.trim();
        if data == "[DONE]" {
            self.flush_calls(out)?;
            self.done = true;
            if !self.produced {
                return Err(LlmError::EmptyReply);
            }
            out.push_back(StreamEvent::Done {
                stop_reason: self.stop_reason.take().unwrap_or_else(|| "stop".into()),
            });
            return Ok(());
        }
        if data.is_empty() {
            return Ok(());
        }
        let chunk: Value = serde_json::from_str(data).map_err(|e| malformed("chunk", e))?;
        if event.event == "error" || chunk.get("error").is_some() {
            return Err(LlmError::InBand(in_band_message(&chunk).unwrap_or_else(|| "unknown error".into())));
        }
        for choice in chunk.get("choices").and_then(Value::as_array).into_iter().flatten() {
            let delta = choice.get("delta").unwrap_or(&Value::Null);
            if let Some(text) = delta.get("content").and_then(Value::as_str) {
                if !text.is_empty() {
                    self.produced = true;
                    out.push_back(StreamEvent::TextDelta(text.to_string()));
                }
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
            out.push_back(StreamEvent::Usage {
                input_tokens: n("prompt_tokens"),
                output_tokens: n("completion_tokens"),
            });
        }
        Ok(())
    }

    fn ended(&self) -> bool {
        self.done
    }

    fn finish(&mut self, _out: &mut VecDeque<StreamEvent>) -> Result<(), LlmError> {
        Err(LlmError::Truncated)
    }
}

//! Anthropic Messages, streaming.
//!
//! `POST {base}/v1/messages`, `x-api-key`, `anthropic-version: 2023-06-01`,
//! `stream: true`. The stream is SSE: `message_start` (input usage), per content block
//! `content_block_start` / `content_block_delta` (`text_delta`, or `input_json_delta`
//! pieces of a `tool_use` block's input) / `content_block_stop`, `message_delta` (stop
//! reason, output usage), and the end marker `message_stop`; `ping` is ignored and
//! `event: error` is an in-band error.

use std::collections::BTreeMap;

use bytes::Bytes;
use eventsource_stream::Event;
use futures::Stream;
use reqwest::RequestBuilder;
use serde_json::{json, Value};

use super::decode::{arguments, drive, json_frame, sse, Decoder, Out};
use super::{
    header_value, in_band, required_key, sse_request, turns, Endpoint, LlmError, LlmRequest, Part,
    StreamEvent,
};

pub const API_VERSION: &str = "2023-06-01";

pub fn request(
    client: &reqwest::Client,
    endpoint: &Endpoint,
    request: &LlmRequest,
) -> Result<RequestBuilder, LlmError> {
    let builder = authorize(client.post(endpoint.url("/v1/messages")), endpoint)?;
    sse_request(builder, &body(request))
}

/// `x-api-key` with the key, which is required, and the API version.
pub(super) fn authorize(builder: RequestBuilder, endpoint: &Endpoint) -> Result<RequestBuilder, LlmError> {
    let key = header_value(required_key(endpoint)?)?;
    Ok(builder.header("x-api-key", key).header("anthropic-version", API_VERSION))
}

/// The JSON body. Tool results go in a `user` turn; consecutive turns of the same role
/// are merged, as the API expects alternating roles.
pub fn body(request: &LlmRequest) -> Value {
    let mut messages: Vec<Value> = Vec::new();
    for (role, blocks) in turns(&request.messages, "assistant", block) {
        match messages.last_mut() {
            Some(last) if last["role"] == role => {
                if let Some(content) = last["content"].as_array_mut() {
                    content.extend(blocks);
                }
            }
            _ => messages.push(json!({"role": role, "content": blocks})),
        }
    }
    let mut body = json!({
        "model": request.model,
        "max_tokens": request.max_tokens,
        "messages": messages,
        "stream": true,
    });
    if let Some(t) = request.temperature {
        body["temperature"] = json!(t);
    }
    if !request.system.is_empty() {
        body["system"] = json!(request.system);
    }
    if !request.tools.is_empty() {
        body["tools"] = request
            .tools
            .iter()
            .map(|t| json!({"name": t.name, "description": t.description, "input_schema": &*t.parameters}))
            .collect();
    }
    body
}

fn block(part: &Part) -> Value {
    match part {
        Part::Text(t) => json!({"type": "text", "text": t}),
        Part::ToolCall { id, name, arguments } => {
            json!({"type": "tool_use", "id": id, "name": name, "input": arguments})
        }
        Part::ToolResult { id, content } => {
            json!({"type": "tool_result", "tool_use_id": id, "content": content})
        }
    }
}

/// Decodes a Messages SSE stream.
pub fn decode<S>(bytes: S) -> impl Stream<Item = Result<StreamEvent, LlmError>> + Send
where
    S: Stream<Item = Result<Bytes, LlmError>> + Send + 'static,
{
    drive(sse(bytes), State::default())
}

struct ToolBlock {
    id: String,
    name: String,
    json: String,
}

#[derive(Default)]
struct State {
    tools: BTreeMap<u64, ToolBlock>,
    input_tokens: u64,
    stop_reason: Option<String>,
}

impl Decoder for State {
    type Item = Event;

    fn feed(&mut self, event: Event, out: &mut Out) -> Result<(), LlmError> {
        let Some(data) = json_frame(&event.data, "event data")? else {
            return Ok(());
        };
        let kind = data.get("type").and_then(Value::as_str).unwrap_or("");
        let kind =
            if event.event.is_empty() || event.event == "message" { kind } else { event.event.as_str() };
        let index = data.get("index").and_then(Value::as_u64).unwrap_or(0);
        match kind {
            "error" => return Err(in_band(&data)),
            "message_start" => {
                self.input_tokens =
                    data.pointer("/message/usage/input_tokens").and_then(Value::as_u64).unwrap_or(0);
                // Billed from here on, even if the answer is stopped or fails.
                out.usage(self.input_tokens, 0);
            }
            "content_block_start" => {
                let block = data.get("content_block").unwrap_or(&Value::Null);
                match block.get("type").and_then(Value::as_str) {
                    Some("tool_use") => {
                        let s = |k: &str| block.get(k).and_then(Value::as_str).unwrap_or("").to_string();
                        self.tools
                            .insert(index, ToolBlock { id: s("id"), name: s("name"), json: String::new() });
                    }
                    Some("text") => {
                        if let Some(t) = block.get("text").and_then(Value::as_str) {
                            out.text(t);
                        }
                    }
                    _ => {}
                }
            }
            "content_block_delta" => {
                let delta = data.get("delta").unwrap_or(&Value::Null);
                match delta.get("type").and_then(Value::as_str) {
                    Some("text_delta") => {
                        if let Some(t) = delta.get("text").and_then(Value::as_str) {
                            out.text(t);
                        }
                    }
                    Some("input_json_delta") => {
                        let piece = delta.get("partial_json").and_then(Value::as_str).unwrap_or("");
                        match self.tools.get_mut(&index) {
                            Some(tool) => tool.json.push_str(piece),
                            None => {
                                return Err(LlmError::Malformed(
                                    "input_json_delta outside a tool_use block".into(),
                                ))
                            }
                        }
                    }
                    // thinking_delta, signature_delta, citations: not used here.
                    _ => {}
                }
            }
            "content_block_stop" => {
                if let Some(tool) = self.tools.remove(&index) {
                    let arguments = arguments(&tool.json, "tool input is not JSON")?;
                    out.tool_call(tool.id, tool.name, arguments);
                }
            }
            "message_delta" => {
                if let Some(r) = data.pointer("/delta/stop_reason").and_then(Value::as_str) {
                    self.stop_reason = Some(r.to_string());
                }
                if let Some(usage) = data.get("usage").filter(|u| u.is_object()) {
                    let input =
                        usage.get("input_tokens").and_then(Value::as_u64).unwrap_or(self.input_tokens);
                    out.usage(input, usage.get("output_tokens").and_then(Value::as_u64).unwrap_or(0));
                }
            }
            "message_stop" => {
                out.done(self.stop_reason.take().unwrap_or_else(|| "end_turn".into()))?;
            }
            // ping and event types added later.
            _ => {}
        }
        Ok(())
    }
}

//! Anthropic Messages, streaming.
//!
//! `POST {base}/v1/messages`, `x-api-key`, `anthropic-version: 2023-06-01`,
//! `stream: true`. The stream is SSE: `message_start` (input usage), per content block
//! `content_block_start` / `content_block_delta` (`text_delta`, or `input_json_delta`
//! pieces of a `tool_use` block's input) / `content_block_stop`, `message_delta` (stop
//! reason, output usage), and the end marker `message_stop`; `ping` is ignored and
//! `event: error` is an in-band error.

use std::collections::{BTreeMap, VecDeque};

use bytes::Bytes;
use futures::Stream;
use serde_json::{json, Value};

use super::{
    drive, header_value, in_band_message, json_body, malformed, required_key, sse, Decoder, Endpoint,
    LlmError, LlmRequest, Part, Role, StreamEvent,
};

pub const API_VERSION: &str = "2023-06-01";

pub fn request(
    client: &reqwest::Client,
    endpoint: &Endpoint,
    request: &LlmRequest,
) -> Result<reqwest::RequestBuilder, LlmError> {
    let key = required_key(endpoint)?;
    let builder = client
        .post(endpoint.url("/v1/messages"))
        .header("x-api-key", header_value(key)?)
        .header("anthropic-version", API_VERSION)
        .header(reqwest::header::ACCEPT, "text/event-stream");
    json_body(builder, &body(request))
}

/// The JSON body. Tool results go in a `user` turn; consecutive turns of the same role
/// are merged, as the API expects alternating roles.
pub fn body(request: &LlmRequest) -> Value {
    let mut messages: Vec<Value> = Vec::new();
    for m in &request.messages {
        let role = match m.role {
            Role::Assistant => "assistant",
            Role::User | Role::Tool => "user",
        };
        let blocks: Vec<Value> = m
            .content
            .iter()
            .map(|p| match p {
                Part::Text(t) => json!({"type": "text", "text": t}),
                Part::ToolCall { id, name, arguments } => {
                    json!({"type": "tool_use", "id": id, "name": name, "input": arguments})
                }
                Part::ToolResult { id, content } => {
                    json!({"type": "tool_result", "tool_use_id": id, "content": content})
                }
            })
            .collect();
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
    if !request.system.is_empty() {
        body["system"] = json!(request.system);
    }
    if !request.tools.is_empty() {
        body["tools"] = request
            .tools
            .iter()
            .map(|t| json!({"name": t.name, "description": t.description, "input_schema": t.parameters}))
            .collect();
    }
    body
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
    produced: bool,
    done: bool,
}

impl Decoder for State {
    type Item = eventsource_stream::Event;

    fn feed(
        &mut self,
        event: eventsource_stream::Event,
        out: &mut VecDeque<StreamEvent>,
    ) -> Result<(), LlmError> {
        if event.data.trim().is_empty() {
            return Ok(());
        }
        let data: Value = serde_json::from_str(&event.data).map_err(|e| malformed("event data", e))?;
        let kind = data.get("type").and_then(Value::as_str).unwrap_or("");
        let kind =
            if event.event.is_empty() || event.event == "message" { kind } else { event.event.as_str() };
        let index = data.get("index").and_then(Value::as_u64).unwrap_or(0);
        match kind {
            "error" => {
                return Err(LlmError::InBand(
                    in_band_message(&data).unwrap_or_else(|| "unknown error".into()),
                ))
            }
            "message_start" => {
                self.input_tokens =
                    data.pointer("/message/usage/input_tokens").and_then(Value::as_u64).unwrap_or(0);
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
                            if !t.is_empty() {
                                self.produced = true;
                                out.push_back(StreamEvent::TextDelta(t.to_string()));
                            }
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
                            if !t.is_empty() {
                                self.produced = true;
                                out.push_back(StreamEvent::TextDelta(t.to_string()));
                            }
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
                    let arguments = if tool.json.trim().is_empty() {
                        json!({})
                    } else {
                        serde_json::from_str(&tool.json)
                            .map_err(|e| malformed("tool input is not JSON", e))?
                    };
                    self.produced = true;
                    out.push_back(StreamEvent::ToolCall { id: tool.id, name: tool.name, arguments });
                }
            }
            "message_delta" => {
                if let Some(r) = data.pointer("/delta/stop_reason").and_then(Value::as_str) {
                    self.stop_reason = Some(r.to_string());
                }
                if let Some(usage) = data.get("usage").filter(|u| u.is_object()) {
                    let input =
                        usage.get("input_tokens").and_then(Value::as_u64).unwrap_or(self.input_tokens);
                    out.push_back(StreamEvent::Usage {
                        input_tokens: input,
                        output_tokens: usage.get("output_tokens").and_then(Value::as_u64).unwrap_or(0),
                    });
                }
            }
            "message_stop" => {
                self.done = true;
                if !self.produced {
                    return Err(LlmError::EmptyReply);
                }
                out.push_back(StreamEvent::Done {
                    stop_reason: self.stop_reason.take().unwrap_or_else(|| "end_turn".into()),
                });
            }
            // ping and event types added later.
            _ => {}
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

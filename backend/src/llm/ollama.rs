//! Ollama's native chat API, streaming.
//!
//! `POST {base}/api/chat`, no key (an optional bearer key is sent for proxies),
//! `stream: true`. The answer is NDJSON: one object per line with `message.content`
//! pieces and, when the model calls tools, `message.tool_calls` with complete
//! `function.arguments` objects; the last line has `done: true`, `done_reason`,
//! `prompt_eval_count` and `eval_count`. An `{"error": ...}` line is an in-band error.

use std::collections::VecDeque;

use bytes::Bytes;
use futures::{Stream, StreamExt};
use serde_json::{json, Value};

use super::{
    drive, header_value, in_band_message, json_body, malformed, Decoder, Endpoint, LlmError, LlmMessage,
    LlmRequest, Part, Role, StreamEvent,
};

pub fn request(
    client: &reqwest::Client,
    endpoint: &Endpoint,
    request: &LlmRequest,
) -> Result<reqwest::RequestBuilder, LlmError> {
    let mut builder = client.post(endpoint.url("/api/chat"));
    if let Some(key) = endpoint.key() {
        builder = builder.header(reqwest::header::AUTHORIZATION, header_value(&format!("Bearer {key}"))?);
    }
    json_body(builder, &body(request))
}

pub fn body(request: &LlmRequest) -> Value {
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
        "stream": true,
        "options": {"num_predict": request.max_tokens},
    });
    if !request.tools.is_empty() {
        body["tools"] = super::openai::function_tools(&request.tools);
    }
    body
}

fn message(m: &LlmMessage) -> Vec<Value> {
    let text = super::openai::text_of(&m.content);
    match m.role {
        Role::User => vec![json!({"role": "user", "content": text})],
        Role::Assistant => {
            let calls: Vec<Value> = m
                .content
                .iter()
                .filter_map(|p| match p {
                    Part::ToolCall { name, arguments, .. } => {
                        Some(json!({"function": {"name": name, "arguments": arguments}}))
                    }
                    _ => None,
                })
                .collect();
            let mut msg = json!({"role": "assistant", "content": text});
            if !calls.is_empty() {
                msg["tool_calls"] = Value::Array(calls);
            }
            vec![msg]
        }
        Role::Tool => m
            .content
            .iter()
            .filter_map(|p| match p {
                Part::ToolResult { content, .. } => Some(json!({"role": "tool", "content": content})),
                _ => None,
            })
            .collect(),
    }
}

/// Decodes an NDJSON chat stream.
pub fn decode<S>(bytes: S) -> impl Stream<Item = Result<StreamEvent, LlmError>> + Send
where
    S: Stream<Item = Result<Bytes, LlmError>> + Send + 'static,
{
    drive(Box::pin(lines(bytes)), State::default())
}

/// Splits bytes into complete lines (without the newline); a last line without a
/// newline is still returned when the bytes end.
fn lines<S>(bytes: S) -> impl Stream<Item = Result<Vec<u8>, LlmError>> + Send
where
    S: Stream<Item = Result<Bytes, LlmError>> + Send + 'static,
{
    let state = (Box::pin(bytes), Vec::<u8>::new(), VecDeque::<Vec<u8>>::new(), false);
    futures::stream::unfold(state, |(mut bytes, mut buf, mut ready, mut ended)| async move {
        loop {
            if let Some(line) = ready.pop_front() {
                return Some((Ok(line), (bytes, buf, ready, ended)));
            }
            if ended {
                return None;
            }
            match bytes.next().await {
                Some(Ok(chunk)) => {
                    buf.extend_from_slice(&chunk);
                    while let Some(pos) = buf.iter().position(|b| *b == b'\n') {
                        let mut line: Vec<u8> = buf.drain(..=pos).collect();
                        line.pop();
                        ready.push_back(line);
                    }
                }
                Some(Err(e)) => {
                    ended = true;
                    return Some((Err(e), (bytes, buf, ready, ended)));
                }
                None => {
                    ended = true;
                    if !buf.is_empty() {
                        ready.push_back(std::mem::take(&mut buf));
                    }
                }
            }
        }
    })
}

#[derive(Default)]
struct State {
    calls: usize,
    produced: bool,
    done: bool,
}

impl Decoder for State {
    type Item = Vec<u8>;

    fn feed(&mut self, line: Vec<u8>, out: &mut VecDeque<StreamEvent>) -> Result<(), LlmError> {
        let text = std::str::from_utf8(&line).map_err(|e| malformed("invalid UTF-8", e))?;
        let text = text.trim();
        if text.is_empty() {
            return Ok(());
        }
        let v: Value = serde_json::from_str(text).map_err(|e| malformed("line", e))?;
        if v.get("error").is_some() {
            return Err(LlmError::InBand(in_band_message(&v).unwrap_or_else(|| "unknown error".into())));
        }
        let msg = v.get("message").unwrap_or(&Value::Null);
        if let Some(t) = msg.get("content").and_then(Value::as_str) {
            if !t.is_empty() {
                self.produced = true;
                out.push_back(StreamEvent::TextDelta(t.to_string()));
            }
        }
        for call in msg.get("tool_calls").and_then(Value::as_array).into_iter().flatten() {
            let f = call.get("function").unwrap_or(&Value::Null);
            let name = f.get("name").and_then(Value::as_str).unwrap_or("");
            let arguments = match f.get("arguments") {
                Some(Value::String(s)) => {
                    serde_json::from_str(s).map_err(|e| malformed("tool arguments", e))?
                }
                Some(a) => a.clone(),
                None => json!({}),
            };
            self.calls += 1;
            let id = call
                .get("id")
                .and_then(Value::as_str)
                .map(str::to_string)
                .unwrap_or_else(|| format!("call_{}", self.calls));
            self.produced = true;
            out.push_back(StreamEvent::ToolCall { id, name: name.to_string(), arguments });
        }
        if v.get("done").and_then(Value::as_bool) == Some(true) {
            self.done = true;
            if !self.produced {
                return Err(LlmError::EmptyReply);
            }
            let n = |k: &str| v.get(k).and_then(Value::as_u64).unwrap_or(0);
            out.push_back(StreamEvent::Usage {
                input_tokens: n("prompt_eval_count"),
                output_tokens: n("eval_count"),
            });
            out.push_back(StreamEvent::Done {
                stop_reason: v.get("done_reason").and_then(Value::as_str).unwrap_or("stop").to_string(),
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

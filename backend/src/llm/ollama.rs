//! Ollama's native chat API, streaming.
//!
//! `POST {base}/api/chat`, no key (an optional bearer key is sent for proxies),
//! `stream: true`. The answer is NDJSON: one object per line with `message.content`
//! pieces and, when the model calls tools, `message.tool_calls` with complete
//! `function.arguments` objects; the last line has `done: true`, `done_reason`,
//! `prompt_eval_count` and `eval_count`. An `{"error": ...}` line is an in-band error.

use bytes::Bytes;
use futures::Stream;
use reqwest::RequestBuilder;
use serde_json::{json, Value};

use super::decode::{call_id, drive, json_frame, lines, Decoder, Out};
use super::openai::{assistant_message, chat_messages, function_tools};
use super::{
    bearer, in_band, json_body, malformed, text_of, tool_calls, tool_results, Endpoint, LlmError, LlmMessage,
    LlmRequest, Role, StreamEvent,
};

pub fn request(
    client: &reqwest::Client,
    endpoint: &Endpoint,
    request: &LlmRequest,
) -> Result<RequestBuilder, LlmError> {
    let builder = authorize(client.post(endpoint.url("/api/chat")), endpoint)?;
    json_body(builder, &body(request))
}

/// No key is needed; one that is configured (for a proxy) goes as a bearer token.
pub(super) fn authorize(builder: RequestBuilder, endpoint: &Endpoint) -> Result<RequestBuilder, LlmError> {
    match endpoint.key() {
        Some(key) => bearer(builder, key),
        None => Ok(builder),
    }
}

pub fn body(request: &LlmRequest) -> Value {
    let mut body = json!({
        "model": request.model,
        "messages": chat_messages(request, message),
        "stream": true,
        "options": {"num_predict": request.max_tokens},
    });
    if let Some(t) = request.temperature {
        body["options"]["temperature"] = json!(t);
    }
    if !request.tools.is_empty() {
        body["tools"] = function_tools(&request.tools);
    }
    body
}

fn message(m: &LlmMessage) -> Vec<Value> {
    let text = text_of(&m.content);
    match m.role {
        Role::User => vec![json!({"role": "user", "content": text})],
        Role::Assistant => {
            let calls = tool_calls(&m.content)
                .map(|(_, name, arguments)| json!({"function": {"name": name, "arguments": arguments}}))
                .collect();
            vec![assistant_message(Value::String(text), calls)]
        }
        Role::Tool => {
            tool_results(&m.content).map(|(_, content)| json!({"role": "tool", "content": content})).collect()
        }
    }
}

/// Decodes an NDJSON chat stream.
pub fn decode<S>(bytes: S) -> impl Stream<Item = Result<StreamEvent, LlmError>> + Send
where
    S: Stream<Item = Result<Bytes, LlmError>> + Send + 'static,
{
    drive(lines(bytes), State::default())
}

#[derive(Default)]
struct State {
    calls: usize,
}

impl Decoder for State {
    type Item = Vec<u8>;

    fn feed(&mut self, line: Vec<u8>, out: &mut Out) -> Result<(), LlmError> {
        let text = std::str::from_utf8(&line).map_err(|e| malformed("invalid UTF-8", e))?;
        let Some(v) = json_frame(text.trim(), "line")? else {
            return Ok(());
        };
        if v.get("error").is_some() {
            return Err(in_band(&v));
        }
        let msg = v.get("message").unwrap_or(&Value::Null);
        if let Some(t) = msg.get("content").and_then(Value::as_str) {
            out.text(t);
        }
        for call in msg.get("tool_calls").and_then(Value::as_array).into_iter().flatten() {
            let f = call.get("function").unwrap_or(&Value::Null);
            let name = f.get("name").and_then(Value::as_str).unwrap_or("");
            // An object, or the same as JSON text.
            let arguments = match f.get("arguments") {
                Some(Value::String(s)) => {
                    serde_json::from_str(s).map_err(|e| malformed("tool arguments", e))?
                }
                Some(a) => a.clone(),
                None => json!({}),
            };
            self.calls += 1;
            out.tool_call(call_id(call, self.calls), name.to_string(), arguments);
        }
        if v.get("done").and_then(Value::as_bool) == Some(true) {
            let n = |k: &str| v.get(k).and_then(Value::as_u64).unwrap_or(0);
            out.usage(n("prompt_eval_count"), n("eval_count"));
            out.done(v.get("done_reason").and_then(Value::as_str).unwrap_or("stop").to_string())?;
        }
        Ok(())
    }
}

//! Google Gemini `streamGenerateContent`, as SSE.
//!
//! `POST {base}/v1beta/models/{model}:streamGenerateContent?alt=sse`, key in the
//! `x-goog-api-key` header (never in the URL, which error texts may show). Each SSE
//! `data:` is a `GenerateContentResponse`: `candidates[0].content.parts` (`text` or
//! `functionCall {name, args}`), `finishReason` on the last candidate chunk, and
//! `usageMetadata` (the tokens so far). Gemini has no end-marker event: the stream
//! closes after the chunk with `finishReason`, so a close before it is a truncation. An
//! `error` object in a chunk is an in-band error; `finishReason` `SAFETY`,
//! `RECITATION`… is passed on as the stop reason.

use bytes::Bytes;
use eventsource_stream::Event;
use futures::Stream;
use reqwest::RequestBuilder;
use serde_json::{json, Value};

use super::decode::{call_id, drive, json_frame, sse, Decoder, Out};
use super::{
    header_value, in_band, required_key, sse_request, tool_name_for, turns, Endpoint, LlmError, LlmRequest,
    Part, StreamEvent,
};

pub fn request(
    client: &reqwest::Client,
    endpoint: &Endpoint,
    request: &LlmRequest,
) -> Result<RequestBuilder, LlmError> {
    let url = endpoint.url(&format!("/v1beta/models/{}:streamGenerateContent?alt=sse", request.model));
    let builder = authorize(client.post(url), endpoint)?;
    sse_request(builder, &body(request))
}

/// `x-goog-api-key` with the key, which is required.
pub(super) fn authorize(builder: RequestBuilder, endpoint: &Endpoint) -> Result<RequestBuilder, LlmError> {
    Ok(builder.header("x-goog-api-key", header_value(required_key(endpoint)?)?))
}

pub fn body(request: &LlmRequest) -> Value {
    let part = |p: &Part| match p {
        Part::Text(t) => json!({"text": t}),
        Part::ToolCall { name, arguments, .. } => json!({"functionCall": {"name": name, "args": arguments}}),
        Part::ToolResult { id, content } => {
            let name = tool_name_for(&request.messages, id).unwrap_or_default();
            json!({"functionResponse": {"name": name, "response": {"content": content}}})
        }
    };
    let contents: Vec<Value> = turns(&request.messages, "model", part)
        .into_iter()
        .map(|(role, parts)| json!({"role": role, "parts": parts}))
        .collect();
    let mut body = json!({
        "contents": contents,
        "generationConfig": {"maxOutputTokens": request.max_tokens},
    });
    if let Some(t) = request.temperature {
        body["generationConfig"]["temperature"] = json!(t);
    }
    if !request.system.is_empty() {
        body["systemInstruction"] = json!({"parts": [{"text": request.system}]});
    }
    if !request.tools.is_empty() {
        let decls: Vec<Value> = request
            .tools
            .iter()
            .map(|t| json!({"name": t.name, "description": t.description, "parameters": &*t.parameters}))
            .collect();
        body["tools"] = json!([{"functionDeclarations": decls}]);
    }
    body
}

pub fn decode<S>(bytes: S) -> impl Stream<Item = Result<StreamEvent, LlmError>> + Send
where
    S: Stream<Item = Result<Bytes, LlmError>> + Send + 'static,
{
    drive(sse(bytes), State::default())
}

#[derive(Default)]
struct State {
    calls: usize,
    stop_reason: Option<String>,
}

impl Decoder for State {
    type Item = Event;

    fn feed(&mut self, event: Event, out: &mut Out) -> Result<(), LlmError> {
        let Some(v) = json_frame(&event.data, "chunk")? else {
            return Ok(());
        };
        if v.get("error").is_some() {
            return Err(in_band(&v));
        }
        if let Some(candidate) = v.pointer("/candidates/0") {
            for part in candidate.pointer("/content/parts").and_then(Value::as_array).into_iter().flatten() {
                if let Some(t) = part.get("text").and_then(Value::as_str) {
                    // Thought summaries are not the answer.
                    if part.get("thought").and_then(Value::as_bool) != Some(true) {
                        out.text(t);
                    }
                }
                if let Some(call) = part.get("functionCall") {
                    self.calls += 1;
                    let name = call.get("name").and_then(Value::as_str).unwrap_or("");
                    let arguments = call.get("args").cloned().unwrap_or_else(|| json!({}));
                    out.tool_call(call_id(call, self.calls), name.to_string(), arguments);
                }
            }
            if let Some(r) = candidate.get("finishReason").and_then(Value::as_str) {
                self.stop_reason = Some(r.to_string());
            }
        }
        if let Some(u) = v.get("usageMetadata") {
            let n = |k: &str| u.get(k).and_then(Value::as_u64).unwrap_or(0);
            out.usage(n("promptTokenCount"), n("candidatesTokenCount"));
        }
        Ok(())
    }

    /// The stream closes after the chunk with `finishReason`: that is the end marker.
    fn finish(&mut self, out: &mut Out) -> Result<(), LlmError> {
        let Some(stop_reason) = self.stop_reason.take() else {
            return Err(LlmError::Truncated);
        };
        out.done(stop_reason)
    }
}

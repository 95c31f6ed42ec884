//! Google Gemini `streamGenerateContent`, as SSE.
//!
//! `POST {base}/v1beta/models/{model}:streamGenerateContent?alt=sse`, key in the
//! `x-goog-api-key` header (never in the URL, which error texts may show). Each SSE
//! `data:` is a `GenerateContentResponse`: `candidates[0].content.parts` (`text` or
//! `functionCall {name, args}`), `finishReason` on the last candidate chunk, and
//! `usageMetadata`. Gemini has no end-marker event: the stream closes after the chunk
//! with `finishReason`, so a close before it is a truncation. An `error` object in a
//! chunk is an in-band error; `finishReason` `SAFETY`, `RECITATION`… is passed on as
//! the stop reason.

use std::collections::VecDeque;

use bytes::Bytes;
use futures::Stream;
use serde_json::{json, Value};

use super::{
    drive, header_value, in_band_message, json_body, required_key, sse, tool_name_for, Decoder, Endpoint,
    LlmError, LlmRequest, Part, Role, StreamEvent,
};

pub fn request(
    client: &reqwest::Client,
    endpoint: &Endpoint,
    request: &LlmRequest,
) -> Result<reqwest::RequestBuilder, LlmError> {
    let key = required_key(endpoint)?;
    let url = endpoint.url(&format!("/v1beta/models/{}:streamGenerateContent?alt=sse", request.model));
    let builder = client
        .post(url)
        .header("x-goog-api-key", header_value(key)?)
        .header(reqwest::header::ACCEPT, "text/event-stream");
    json_body(builder, &body(request))
}

pub fn body(request: &LlmRequest) -> Value {
    let mut contents: Vec<Value> = Vec::new();
    for m in &request.messages {
        let role = match m.role {
            Role::Assistant => "model",
            Role::User | Role::Tool => "user",
        };
        let parts: Vec<Value> = m
            .content
            .iter()
            .map(|p| match p {
                Part::Text(t) => json!({"text": t}),
                Part::ToolCall { name, arguments, .. } => {
                    json!({"functionCall": {"name": name, "args": arguments}})
                }
                Part::ToolResult { id, content } => {
                    let name = tool_name_for(&request.messages, id).unwrap_or_default();
                    json!({"functionResponse": {"name": name, "response": {"content": content}}})
                }
            })
            .collect();
        contents.push(json!({"role": role, "parts": parts}));
    }
    let mut body = json!({
        "contents": contents,
        "generationConfig": {"maxOutputTokens": request.max_tokens},
    });
    if !request.system.is_empty() {
        body["systemInstruction"] = json!({"parts": [{"text": request.system}]});
    }
    if !request.tools.is_empty() {
        let decls: Vec<Value> = request
            .tools
            .iter()
            .map(|t| json!({"name": t.name, "description": t.description, "parameters": t.parameters}))
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
    usage: Option<(u64, u64)>,
    stop_reason: Option<String>,
    produced: bool,
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
        let v: Value = serde_json::from_str(&event.data).map_err(|e| super::malformed("chunk", e))?;
        if v.get("error").is_some() {
            return Err(LlmError::InBand(in_band_message(&v).unwrap_or_else(|| "unknown error".into())));
        }
        if let Some(candidate) = v.pointer("/candidates/0") {
            for part in candidate.pointer("/content/parts").and_then(Value::as_array).into_iter().flatten() {
                if let Some(t) = part.get("text").and_then(Value::as_str) {
                    // Thought summaries are not the answer.
                    if !t.is_empty() && part.get("thought").and_then(Value::as_bool) != Some(true) {
                        self.produced = true;
                        out.push_back(StreamEvent::TextDelta(t.to_string()));
                    }
                }
                if let Some(call) = part.get("functionCall") {
                    self.calls += 1;
                    let name = call.get("name").and_then(Value::as_str).unwrap_or("");
                    let id = call
                        .get("id")
                        .and_then(Value::as_str)
                        .map(str::to_string)
                        .unwrap_or_else(|| format!("call_{}", self.calls));
                    self.produced = true;
                    out.push_back(StreamEvent::ToolCall {
                        id,
                        name: name.to_string(),
                        arguments: call.get("args").cloned().unwrap_or_else(|| json!({})),
                    });
                }
            }
            if let Some(r) = candidate.get("finishReason").and_then(Value::as_str) {
                self.stop_reason = Some(r.to_string());
            }
        }
        if let Some(u) = v.get("usageMetadata") {
            let n = |k: &str| u.get(k).and_then(Value::as_u64).unwrap_or(0);
            self.usage = Some((n("promptTokenCount"), n("candidatesTokenCount")));
        }
        Ok(())
    }

    fn ended(&self) -> bool {
        false
    }

    fn finish(&mut self, out: &mut VecDeque<StreamEvent>) -> Result<(), LlmError> {
        let Some(stop_reason) = self.stop_reason.take() else {
            return Err(LlmError::Truncated);
        };
        if !self.produced {
            return Err(LlmError::EmptyReply);
        }
        if let Some((input_tokens, output_tokens)) = self.usage {
            out.push_back(StreamEvent::Usage { input_tokens, output_tokens });
        }
        out.push_back(StreamEvent::Done { stop_reason });
        Ok(())
    }
}

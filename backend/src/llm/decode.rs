//! The stream plumbing every adapter shares: the response's bytes framed as SSE events
//! or NDJSON lines, a provider's [`Decoder`] run over the frames by [`drive`], and
//! [`Out`], where a decoder puts the events it completes. What an event or a line
//! means stays in the provider's own file.

use std::collections::VecDeque;

use bytes::Bytes;
use eventsource_stream::Event;
use futures::{Stream, StreamExt};
use serde_json::{json, Value};

use super::{malformed, LlmError, StreamEvent};

/// A provider's stream state machine: fed one framed item at a time (an SSE event or an
/// NDJSON line), it puts the events it completes into [`Out`]. The provider's end marker
/// is [`Out::done`]: after it nothing more is read.
pub(super) trait Decoder {
    type Item;
    fn feed(&mut self, item: Self::Item, out: &mut Out) -> Result<(), LlmError>;
    /// The bytes ran out before [`Out::done`]: a truncation, unless the format ends by
    /// closing, whose decoder ends the answer here.
    fn finish(&mut self, _out: &mut Out) -> Result<(), LlmError> {
        Err(LlmError::Truncated)
    }
}

/// The events a decoder completed and not yet handed on, and what the stream has shown
/// so far. When a call to the decoder fails, what it put here is dropped, its tokens
/// excepted.
#[derive(Default)]
pub(super) struct Out {
    pending: VecDeque<StreamEvent>,
    /// A text delta or a tool call was seen.
    produced: bool,
    /// [`Out::done`] was called.
    ended: bool,
    /// The tokens already reported by [`Out::usage`].
    reported: (u64, u64),
}

impl Out {
    /// A piece of the answer's text; an empty one is no event.
    pub(super) fn text(&mut self, text: &str) {
        if !text.is_empty() {
            self.produced = true;
            self.pending.push_back(StreamEvent::TextDelta(text.to_string()));
        }
    }

    pub(super) fn tool_call(&mut self, id: String, name: String, arguments: Value) {
        self.produced = true;
        self.pending.push_back(StreamEvent::ToolCall { id, name, arguments });
    }

    /// The call's tokens so far, as the provider counts them: reported as soon as known
    /// (a call stopped or failed later still counts them), as the increase over what was
    /// reported before, if any.
    pub(super) fn usage(&mut self, input_tokens: u64, output_tokens: u64) {
        let input = input_tokens.saturating_sub(self.reported.0);
        let output = output_tokens.saturating_sub(self.reported.1);
        self.reported = (self.reported.0.max(input_tokens), self.reported.1.max(output_tokens));
        if input > 0 || output > 0 {
            self.pending.push_back(StreamEvent::Usage { input_tokens: input, output_tokens: output });
        }
    }

    /// The provider's end marker: `Done`, or [`LlmError::EmptyReply`] when the answer
    /// had neither text nor a tool call. Either way the stream is read no further.
    pub(super) fn done(&mut self, stop_reason: String) -> Result<(), LlmError> {
        self.ended = true;
        if !self.produced {
            return Err(LlmError::EmptyReply);
        }
        self.pending.push_back(StreamEvent::Done { stop_reason });
        Ok(())
    }
}

/// The JSON of one frame (an SSE event's data, an NDJSON line); `None` for an empty one.
pub(super) fn json_frame(text: &str, what: &str) -> Result<Option<Value>, LlmError> {
    if text.trim().is_empty() {
        return Ok(None);
    }
    serde_json::from_str(text).map(Some).map_err(|e| malformed(what, e))
}

/// Tool-call arguments that arrive as JSON text: none at all is `{}`.
pub(super) fn arguments(text: &str, what: &str) -> Result<Value, LlmError> {
    if text.trim().is_empty() {
        return Ok(json!({}));
    }
    serde_json::from_str(text).map_err(|e| malformed(what, e))
}

/// The `id` of a tool call object, or `call_{n}` where the provider gives none.
pub(super) fn call_id(call: &Value, n: usize) -> String {
    call.get("id").and_then(Value::as_str).map(str::to_string).unwrap_or_else(|| format!("call_{n}"))
}

struct Drive<S, D> {
    inner: S,
    decoder: D,
    out: Out,
    finished: bool,
    /// The error that ended the stream, sent after the tokens reported with it.
    failed: Option<LlmError>,
}

/// Runs a decoder over a stream of framed items. After the first error, or once the end
/// marker is seen, nothing more is read. What a failing call to the decoder completed is
/// dropped, except the tokens it reported (they were billed): those come before the
/// error.
pub(super) fn drive<S, D>(inner: S, decoder: D) -> impl Stream<Item = Result<StreamEvent, LlmError>> + Send
where
    S: Stream<Item = Result<D::Item, LlmError>> + Unpin + Send,
    D: Decoder + Send,
{
    let state = Drive { inner, decoder, out: Out::default(), finished: false, failed: None };
    futures::stream::unfold(state, |mut st| async move {
        loop {
            if let Some(ev) = st.out.pending.pop_front() {
                return Some((Ok(ev), st));
            }
            if let Some(e) = st.failed.take() {
                return Some((Err(e), st));
            }
            if st.finished {
                return None;
            }
            let result = match st.inner.next().await {
                None => {
                    st.finished = true;
                    st.decoder.finish(&mut st.out)
                }
                Some(Err(e)) => Err(e),
                Some(Ok(item)) => {
                    let r = st.decoder.feed(item, &mut st.out);
                    if st.out.ended {
                        st.finished = true;
                    }
                    r
                }
            };
            if let Err(e) = result {
                st.finished = true;
                st.out.pending.retain(|ev| matches!(ev, StreamEvent::Usage { .. }));
                st.failed = Some(e);
            }
        }
    })
}

/// SSE framing by `eventsource-stream`, transport errors passed through.
pub(super) fn sse<S>(bytes: S) -> impl Stream<Item = Result<Event, LlmError>> + Unpin + Send
where
    S: Stream<Item = Result<Bytes, LlmError>> + Send + 'static,
{
    use eventsource_stream::{EventStreamError, Eventsource};
    Box::pin(bytes.eventsource().map(|r| {
        r.map_err(|e| match e {
            EventStreamError::Transport(e) => e,
            EventStreamError::Utf8(e) => malformed("invalid UTF-8 in the stream", e),
            EventStreamError::Parser(e) => malformed("invalid SSE framing", e),
        })
    }))
}

/// NDJSON framing: complete lines (without the newline); a last line without a newline
/// is still returned when the bytes end.
pub(super) fn lines<S>(bytes: S) -> impl Stream<Item = Result<Vec<u8>, LlmError>> + Unpin + Send
where
    S: Stream<Item = Result<Bytes, LlmError>> + Send + 'static,
{
    let state = (Box::pin(bytes), Vec::<u8>::new(), VecDeque::<Vec<u8>>::new(), false);
    Box::pin(futures::stream::unfold(state, |(mut bytes, mut buf, mut ready, mut ended)| async move {
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
    }))
}

//! The browser's requests, with `gloo-net`: `POST /api/v1/chat`, its body read as it
//! arrives and decoded as server-sent events (chunk boundaries are not frame
//! boundaries; `SseDecoder` handles it), and an answer as the server draws it.

use std::cell::RefCell;

use agent::json::{string, Fields, Json};
use agent::protocol::SseDecoder;
use gloo_net::http::Request;
use js_sys::{Reflect, Uint8Array};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{AbortController, ReadableStreamDefaultReader};

use crate::live::{LiveEvent, VisitorPass};

thread_local! {
    /// Aborts the answer being streamed (one at a time: the composer is busy meanwhile).
    static CURRENT: RefCell<Option<AbortController>> = const { RefCell::new(None) };
    /// The run of the answer being streamed: what the stop button stops.
    static RUN: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Why a stream ended early.
pub enum Ended {
    /// The user pressed stop: the request was aborted, and the server, seeing the
    /// client go, drops its call to the model.
    Stopped,
    /// The server could not be reached: nothing was sent, it may be sent again.
    Unreachable,
    Failed(String),
}

/// Stops the answer being streamed, if any: the server is asked to stop it (a client
/// going away does not), and the stream is no longer read.
pub fn stop() {
    if let Some(run) = RUN.with(|r| r.borrow_mut().take()) {
        if let Some(w) = web_sys::window() {
            let _ = w.navigator().send_beacon(&format!("/api/v1/runs/{run}/cancel"));
        }
    }
    CURRENT.with(|c| {
        if let Some(controller) = c.borrow_mut().take() {
            controller.abort();
        }
    });
}

fn stopped() -> bool {
    CURRENT.with(|c| c.borrow().is_none())
}

fn js_error(e: JsValue) -> String {
    e.as_string()
        .or_else(|| Reflect::get(&e, &"message".into()).ok().and_then(|m| m.as_string()))
        .unwrap_or_else(|| "network error".to_string())
}

/// Posts `body` (or, with `follow`, asks for run `follow`'s events from its first: the
/// page was reloaded while it was being written) and calls `on_event` for each event
/// until the stream ends. An HTTP error comes back as `Err` with the server's message;
/// [`stop`] ends it with [`Ended::Stopped`]. A widget's visitor posts to its site's
/// endpoint, with its token.
pub async fn chat(
    visitor: Option<&VisitorPass>,
    body: String,
    follow: Option<&str>,
    on_event: impl FnMut(LiveEvent),
) -> Result<(), Ended> {
    let controller = AbortController::new().map_err(|e| Ended::Failed(js_error(e)))?;
    let signal = controller.signal();
    CURRENT.with(|c| *c.borrow_mut() = Some(controller));
    let request = match (follow, visitor) {
        (Some(run), _) => Request::get(&format!("/api/v1/runs/{run}/events")),
        (None, Some(v)) => {
            Request::post(&format!("/embed/{}/chat", v.site)).header("x-sou-visitor", &v.token)
        }
        (None, None) => Request::post("/api/v1/chat"),
    };
    let request = request
        .header("content-type", "application/json")
        .header("accept", "text/event-stream")
        .abort_signal(Some(&signal));
    let request = if follow.is_some() { request.build() } else { request.body(body) };
    let result = match request {
        // `fetch` rejects only when no response came at all: the network is gone.
        Ok(r) => match r.send().await {
            Ok(response) => {
                RUN.with(|r| *r.borrow_mut() = response.headers().get("x-sou-run"));
                // The conversation's address at once: a reload during the answer finds it.
                if let Some(id) = response.headers().get("x-sou-conversation").filter(|_| visitor.is_none()) {
                    show_conversation_url(&id);
                }
                read_events(response, on_event).await.map_err(Ended::Failed)
            }
            Err(_) => Err(Ended::Unreachable),
        },
        // Building a request of a string fails only if the browser cannot: said plainly.
        Err(_) => Err(Ended::Failed("the request could not be made".into())),
    };
    let was_stopped = stopped();
    CURRENT.with(|c| c.borrow_mut().take());
    RUN.with(|r| r.borrow_mut().take());
    match result {
        Err(_) if was_stopped => Err(Ended::Stopped),
        other => other,
    }
}

async fn read_events(
    response: gloo_net::http::Response,
    mut on_event: impl FnMut(LiveEvent),
) -> Result<(), String> {
    if !response.ok() {
        let text = response.text().await.unwrap_or_default();
        // `{"error": {"message": …}}`, read with the bundle's one JSON reader.
        let message = serde_json::from_str::<Json>(&text)
            .ok()
            .and_then(|body| {
                let error = Fields::of(&body, None).ok()?.get("error")?;
                Fields::of(error, None).ok()?.req("message", string).ok()
            })
            .unwrap_or_else(|| format!("HTTP {}", response.status()));
        return Err(message);
    }
    // gloo-net reads a body whole; an answer is read as it comes, chunk by chunk.
    let body = response.body().ok_or("empty response")?;
    let reader: ReadableStreamDefaultReader =
        body.get_reader().dyn_into().map_err(|o: js_sys::Object| js_error(o.into()))?;
    let mut decoder = SseDecoder::new();
    loop {
        let chunk = JsFuture::from(reader.read()).await.map_err(js_error)?;
        let done = Reflect::get(&chunk, &"done".into()).ok().and_then(|d| d.as_bool()).unwrap_or(true);
        if done {
            return Ok(());
        }
        let value = Reflect::get(&chunk, &"value".into()).map_err(js_error)?;
        let bytes = Uint8Array::new(&value).to_vec();
        for frame in decoder.feed(&bytes) {
            if frame.event == "chunk" {
                match LiveEvent::from_json(&frame.data) {
                    Ok(event) => on_event(event),
                    Err(_) => leptos::logging::warn!("an unreadable event was skipped"),
                }
            }
        }
    }
}

/// The stored answer `message_id` of `conversation_id` as the server draws it
/// (`GET /api/answer`, the server function `answer_parts`); `None` if it cannot come.
pub async fn answer(
    visitor: Option<&VisitorPass>,
    conversation_id: &str,
    message_id: &str,
) -> Option<crate::api::AnswerView> {
    let query = format!(
        "conversation_id={}&message_id={}",
        js_sys::encode_uri_component(conversation_id),
        js_sys::encode_uri_component(message_id)
    );
    let request = match visitor {
        Some(v) => {
            Request::get(&format!("/embed/{}/answer?{query}", v.site)).header("x-sou-visitor", &v.token)
        }
        None => Request::get(&format!("/api/answer?{query}")),
    };
    let response = request.header("accept", "application/json").send().await.ok()?;
    if !response.ok() {
        return None;
    }
    let json: Json = serde_json::from_str(&response.text().await.ok()?).ok()?;
    let f = Fields::of(&json, None).ok()?;
    let (answer, history) = (f.req("answer", string).ok()?, f.req("history", string).ok()?);
    Some(crate::api::AnswerView { answer, history, heading: f.opt("heading", string).ok()? })
}

/// Shows `/c/<id>` in the address bar without reloading.
pub fn show_conversation_url(id: &str) {
    if let Some(history) = web_sys::window().and_then(|w| w.history().ok()) {
        let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&format!("/c/{id}")));
    }
}

//! The chat: `POST /api/v1/chat` (an answer as a stream of events), `POST /api/v1/plan`
//! (the plan the parser makes of a message), `GET /api/v1/tools`, and the chat without
//! JavaScript (`POST /chat`, answered, then a redirect to the conversation).

use std::convert::Infallible;
use std::time::Duration;

use app::post::chat as at;
use app::post::ChatForm;
use axum::extract::rejection::{FormRejection, JsonRejection};
use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::{Form, Json, Router};
use backend::{ChatRequest, PlanRequest};
use futures::StreamExt;
use serde_json::json;

use crate::auth::SignedIn;
use crate::error::ApiError;
use crate::forms::locale;
use crate::state::AppState;

pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/v1/plan", post(api_plan))
        .route("/api/v1/chat", post(api_chat))
        .route("/api/v1/tools", get(api_tools))
        .route(at::SEND.route(), post(chat))
}

pub(crate) async fn api_plan(
    State(state): State<AppState>,
    SignedIn(account): SignedIn,
    body: Result<Json<PlanRequest>, JsonRejection>,
) -> Result<Json<agent::ParseOutcome>, ApiError> {
    let Json(req) = body?;
    Ok(Json(state.sou.plan_for(&account, req).await?))
}

pub(crate) async fn api_tools() -> Json<serde_json::Value> {
    Json(json!({"tools": backend::Registry::get().tools()}))
}

pub(crate) async fn api_chat(
    State(state): State<AppState>,
    SignedIn(account): SignedIn,
    body: Result<Json<ChatRequest>, JsonRejection>,
) -> Result<Response, ApiError> {
    let Json(req) = body?;
    let stream = state.sou.chat(account.user, req).await?;
    Ok(event_stream(stream))
}

/// An answer's events as `text/event-stream`, each a `chunk` (docs/api.md), kept alive
/// and never buffered by a proxy.
/// Each event's `id` is `<run>:<n>`, `n` counting from 1: what `Last-Event-ID` sends
/// back to `GET /api/v1/runs/{run}/events`. The run's id is also in `X-Sou-Run`, its
/// conversation's in `X-Sou-Conversation`.
pub(crate) fn event_stream(stream: backend::ChatStream) -> Response {
    let run = stream.run_id.clone();
    let first = stream.first_seq;
    let events = stream.events.enumerate().map(move |(i, e)| {
        let id = format!("{run}:{}", first + i as u64);
        Ok::<Event, Infallible>(Event::default().event("chunk").id(id).data(e.to_json()))
    });
    let mut response =
        Sse::new(events).keep_alive(KeepAlive::new().interval(Duration::from_secs(15))).into_response();
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response.headers_mut().insert("x-accel-buffering", HeaderValue::from_static("no"));
    if let Ok(v) = HeaderValue::from_str(&stream.run_id) {
        response.headers_mut().insert("x-sou-run", v);
    }
    if let Ok(v) = HeaderValue::from_str(&stream.conversation_id) {
        response.headers_mut().insert("x-sou-conversation", v);
    }
    response
}

/// The chat without JavaScript: a plain form post, answered server-side, then a
/// redirect to the conversation page (post/redirect/get, so reload does not resend).
pub async fn chat(
    State(state): State<AppState>,
    SignedIn(account): SignedIn,
    headers: HeaderMap,
    form: Result<Form<ChatForm>, FormRejection>,
) -> Response {
    // The page's language, as the hydrated chat sends it: answers and errors in it.
    let locale = locale(&headers);
    let Ok(Form(form)) = form else {
        let message = locale.pick("Le formulaire n'a pas pu être lu.", "The form could not be read.");
        return form_error(locale, StatusCode::BAD_REQUEST, message, "", None);
    };
    let conversation_id = form.conversation_id.filter(|c| !c.is_empty());
    let plan = match form.plan.as_deref().filter(|p| !p.is_empty()).map(serde_json::from_str) {
        None => None,
        Some(Ok(v)) => Some(v),
        Some(Err(_)) => {
            return form_error(
                locale,
                StatusCode::BAD_REQUEST,
                locale.pick("Le plan choisi n'est pas du JSON valide.", "The chosen plan is not valid JSON."),
                &form.message,
                conversation_id,
            )
        }
    };
    let req = ChatRequest {
        message: form.message.clone(),
        conversation_id: conversation_id.clone(),
        plan,
        locale: Some(locale.as_str().to_string()),
    };
    match state.sou.chat(account.user, req).await {
        Ok(stream) => {
            let id = stream.conversation_id.clone();
            // Run the answer to its end (it is stored) before showing the page.
            stream.events.for_each(|_| async {}).await;
            Redirect::to(&format!("/c/{id}#latest")).into_response()
        }
        Err(e) => {
            let api = ApiError::from_user_in(e, locale);
            let message: &str = match api.status {
                StatusCode::NOT_FOUND => {
                    locale.pick("Cette conversation n'existe pas.", "This conversation does not exist.")
                }
                StatusCode::INTERNAL_SERVER_ERROR => locale.pick(
                    "Un problème est survenu sur le serveur ; rien n'est perdu, réessayez.",
                    "Something went wrong on the server; nothing was lost, try again.",
                ),
                _ => api.message.as_str(),
            };
            // A conversation that is not the user's is not offered again: resent, the
            // message starts a new one.
            let keep = conversation_id.filter(|_| api.status != StatusCode::NOT_FOUND);
            form_error(locale, api.status, message, &form.message, keep)
        }
    }
}

/// A small page that says what went wrong and gives the message back to resend.
fn form_error(
    locale: agent::Locale,
    status: StatusCode,
    message: &str,
    draft: &str,
    conversation_id: Option<String>,
) -> Response {
    let esc =
        |s: &str| s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;");
    let conversation = conversation_id.map(|c| esc(&c)).unwrap_or_default();
    let body = format!(
        "<!DOCTYPE html><html lang=\"{lang}\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>{title} · Sou</title>\
         <link rel=\"stylesheet\" href=\"{css}\"></head><body><main class=\"notfound\">\
         <h1>{title}</h1><p class=\"error\" role=\"alert\">{}</p>\
         <form method=\"post\" action=\"{action}\" class=\"composer-inline\">\
         <input type=\"hidden\" name=\"conversation_id\" value=\"{conversation}\">\
         <label for=\"message\">{label}</label>\
         <textarea id=\"message\" name=\"message\" required maxlength=\"{max}\">{}</textarea>\
         <button type=\"submit\">{send}</button></form>\
         <p><a href=\"/\">{back}</a></p></main></body></html>",
        esc(message),
        esc(draft),
        lang = locale.as_str(),
        title = locale.pick("Message non envoyé", "Message not sent"),
        label = locale.pick("Votre message", "Your message"),
        send = locale.pick("Envoyer", "Send"),
        back = locale.pick("Retour au chat", "Back to the chat"),
        max = agent::protocol::MAX_CHAT_MESSAGE_CHARS,
        css = app::site::files().css,
        action = at::SEND.route(),
    );
    (status, Html(body)).into_response()
}

//! The widget over HTTP: `/widget.js`, the script a host page loads (`widget.js` here);
//! the embed page's two requests, as a visitor (`POST /embed/{site}/chat`, `GET
//! /embed/{site}/answer`, with the visitor's token in `X-Sou-Visitor`); and the owner's
//! API (`/api/v1/widgets`) and forms (Settings → Widgets). The embed page itself is a
//! Leptos route (`app::embed`); its `frame-ancestors` is set by `security::headers`.

use agent::protocol::ChatRequest;
use agent::widgets::{NewWidgetSite, WidgetTheme};
use app::post::key;
use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, Query, State};
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE, ETAG, IF_NONE_MATCH};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, patch, post};
use axum::{Form, Json};
use backend::UserError as _;
use backend::{Visitor, WidgetError};
use serde::Deserialize;
use serde_json::json;

use crate::auth::SignedIn;
use crate::error::ApiError;
use crate::state::AppState;

pub(crate) fn routes() -> axum::Router<AppState> {
    use app::post::widgets as at;
    axum::Router::new()
        .route("/api/v1/widgets", post(create).get(list))
        .route("/api/v1/widgets/{id}", patch(change).delete(revoke))
        .route(at::CREATE.route(), post(create_form))
        .route(at::ENABLED.route(), post(toggle_form))
        .route(at::REVOKE.route(), post(revoke_form))
        .route("/widget.js", get(script))
        .route("/embed/{site}/chat", post(chat))
        .route("/embed/{site}/answer", get(answer))
}

/// The header that carries a visitor's token (never a cookie: browsers withhold
/// cookies from frames of another site).
pub const VISITOR_HEADER: &str = "x-sou-visitor";

const SCRIPT: &str = include_str!("widget.js");

/// `GET /widget.js`: checked each time (a new version reaches every host page at
/// once), answered 304 when unchanged.
pub async fn script(headers: HeaderMap) -> Response {
    // Computed once: the script is compiled in.
    static ETAG_OF_SCRIPT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    let etag = ETAG_OF_SCRIPT.get_or_init(|| format!("\"{:016x}\"", fnv(SCRIPT.as_bytes())));
    let mut response = if headers.get(IF_NONE_MATCH).and_then(|v| v.to_str().ok()) == Some(etag.as_str()) {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        SCRIPT.into_response()
    };
    let h = response.headers_mut();
    h.insert(CONTENT_TYPE, HeaderValue::from_static("text/javascript; charset=utf-8"));
    h.insert(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    if let Ok(v) = HeaderValue::from_str(etag) {
        h.insert(ETAG, v);
    }
    response
}

/// FNV-1a: a stable fingerprint of the script for its ETag.
fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3))
}

/// The visitor a request is from. A site that is gone (revoked, turned off, never
/// made) is a 404 that says so in the visitor's language, as the widget shows it.
async fn visitor(state: &AppState, site: &str, headers: &HeaderMap) -> Result<Visitor, ApiError> {
    let token = headers.get(VISITOR_HEADER).and_then(|v| v.to_str().ok()).unwrap_or("");
    let locale = crate::forms::locale(headers);
    state.sou.widgets().visitor(site, token).await.map_err(|e| match e {
        backend::BackendError::NotFound => ApiError::new(
            StatusCode::NOT_FOUND,
            "not_found",
            locale.pick(
                "Cet assistant n'est plus disponible sur ce site.",
                "This assistant is no longer available on this site.",
            ),
        ),
        e => ApiError::from_user_in(e, locale),
    })
}

/// `POST /embed/{site}/chat`: a visitor's message, answered as `/api/v1/chat` answers.
pub async fn chat(
    State(state): State<AppState>,
    Path(site): Path<String>,
    headers: HeaderMap,
    body: Result<Json<ChatRequest>, JsonRejection>,
) -> Result<Response, ApiError> {
    let visitor = visitor(&state, &site, &headers).await?;
    let Json(req) = body?;
    let stream = state
        .sou
        .visitor_chat(visitor, req)
        .await
        .map_err(|e| ApiError::from_user_in(e, crate::forms::locale(&headers)))?;
    // A visitor has no run to stop or come back to: the owner's API is not theirs.
    let mut response = crate::chat::event_stream(stream);
    response.headers_mut().remove("x-sou-run");
    response.headers_mut().remove("x-sou-conversation");
    Ok(response)
}

#[derive(Deserialize)]
pub struct AnswerQuery {
    conversation_id: String,
    message_id: String,
}

/// `GET /embed/{site}/answer`: one of the visitor's answers as the widget draws it.
pub async fn answer(
    State(state): State<AppState>,
    Path(site): Path<String>,
    headers: HeaderMap,
    Query(q): Query<AnswerQuery>,
) -> Result<Json<app::api::AnswerView>, ApiError> {
    let visitor = visitor(&state, &site, &headers).await?;
    let locale = crate::forms::locale(&headers);
    let conversation = state
        .sou
        .conversations()
        .of_visitor(&visitor, &q.conversation_id)
        .await
        .map_err(ApiError::from_user)?;
    let vocabulary = state.sou.widgets().visitor_vocabulary(&visitor).await.map_err(ApiError::from_user)?;
    let parser = agent::Parser::new(vocabulary);
    let answer = app::embed::answer_html(conversation, &q.message_id, &parser, locale)
        .ok_or_else(ApiError::not_found)?;
    Ok(Json(app::api::AnswerView { answer, history: String::new(), heading: None }))
}

/// `GET /api/v1/widgets`: the caller's sites.
pub async fn list(State(state): State<AppState>, SignedIn(account): SignedIn) -> Result<Response, ApiError> {
    let sites = state.sou.widgets().list(account.user).await?;
    Ok(Json(json!({ "sites": sites })).into_response())
}

/// `POST /api/v1/widgets`: a new site (201), or what is wrong with it (400).
pub async fn create(
    State(state): State<AppState>,
    SignedIn(account): SignedIn,
    body: Result<Json<NewWidgetSite>, JsonRejection>,
) -> Result<Response, ApiError> {
    let Json(new) = body?;
    let site = state.sou.widgets().create(account.user, new).await.map_err(ApiError::from_user)?;
    Ok((StatusCode::CREATED, Json(site)).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Change {
    enabled: bool,
}

/// `PATCH /api/v1/widgets/{id}` `{"enabled": false}`: turns a site off (or on).
pub async fn change(
    State(state): State<AppState>,
    SignedIn(account): SignedIn,
    Path(id): Path<String>,
    body: Result<Json<Change>, JsonRejection>,
) -> Result<Response, ApiError> {
    let Json(change) = body?;
    state.sou.widgets().set_enabled(account.user, &id, change.enabled).await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// `DELETE /api/v1/widgets/{id}`: revokes a site at once.
pub async fn revoke(
    State(state): State<AppState>,
    SignedIn(account): SignedIn,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    state.sou.widgets().revoke(account.user, &id).await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

fn back(params: &[(&str, &str)]) -> Response {
    let query: String = form_urlencoded::Serializer::new(String::new()).extend_pairs(params).finish();
    Redirect::to(&format!("/settings/widgets?{query}")).into_response()
}

/// `POST /widgets`: a new site from Settings → Widgets; back to the list, which shows
/// its snippet — or says what was wrong, with every field as it was typed.
pub async fn create_form(
    State(state): State<AppState>,
    SignedIn(account): SignedIn,
    Form(fields): Form<Vec<(String, String)>>,
) -> Response {
    let get = |name: &str| fields.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str()).unwrap_or("");
    let all =
        |name: &str| fields.iter().filter(|(k, _)| k == name).map(|(_, v)| v.clone()).collect::<Vec<_>>();
    let rate = get("rate_per_hour").trim();
    let new = NewWidgetSite {
        name: get("name").to_string(),
        origins: get("origins").lines().map(str::to_string).collect(),
        tools: all("tools"),
        datasets: all("datasets"),
        greeting: get("greeting").to_string(),
        theme: WidgetTheme::parse(get("theme")).unwrap_or_default(),
        rate_per_hour: rate.parse().unwrap_or(0),
    };
    match state.sou.widgets().create(account.user, new).await {
        Ok(site) => back(&[(key::CREATED, &site.id)]),
        Err(WidgetError::Backend(e)) if e.code() != "bad_request" => {
            tracing::error!(error = %e, "creating a widget site failed");
            back(&[(key::ERROR, "internal")])
        }
        Err(e) => {
            // What was typed comes back with the reason, so nothing is lost.
            let mut params: Vec<(&str, &str)> = vec![(key::ERROR, e.code())];
            params.extend(
                fields
                    .iter()
                    .filter(|(k, _)| {
                        matches!(
                            k.as_str(),
                            "name"
                                | "origins"
                                | "tools"
                                | "datasets"
                                | "greeting"
                                | "theme"
                                | "rate_per_hour"
                        )
                    })
                    .map(|(k, v)| (k.as_str(), v.as_str())),
            );
            back(&params)
        }
    }
}

#[derive(Deserialize)]
pub struct Toggle {
    enabled: String,
}

/// `POST /widgets/{id}/enabled` (`enabled=1` or `0`).
pub async fn toggle_form(
    State(state): State<AppState>,
    SignedIn(account): SignedIn,
    Path(id): Path<String>,
    Form(toggle): Form<Toggle>,
) -> Response {
    match state.sou.widgets().set_enabled(account.user, &id, toggle.enabled == "1").await {
        Ok(()) => back(&[]),
        Err(e) if e.code() == "not_found" => back(&[(key::ERROR, "not_found")]),
        Err(e) => {
            tracing::error!(error = %e, "changing a widget site failed");
            back(&[(key::ERROR, "internal")])
        }
    }
}

/// `POST /widgets/{id}/revoke`.
pub async fn revoke_form(
    State(state): State<AppState>,
    SignedIn(account): SignedIn,
    Path(id): Path<String>,
) -> Response {
    match state.sou.widgets().revoke(account.user, &id).await {
        Ok(()) => back(&[(key::REVOKED, "1")]),
        Err(e) if e.code() == "not_found" => back(&[(key::ERROR, "not_found")]),
        Err(e) => {
            tracing::error!(error = %e, "revoking a widget site failed");
            back(&[(key::ERROR, "internal")])
        }
    }
}

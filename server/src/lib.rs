//! Sou's HTTP server: the public API under `/api/v1`, the no-JavaScript chat form, the
//! Leptos pages and server functions, and static files. Handlers are thin: parse the
//! request, call `backend`, map the error to one user-safe JSON shape.

pub mod auth;
pub mod config;
pub mod imports;
pub mod security;

use std::convert::Infallible;
use std::time::Duration;

use app::{shell, App};
use axum::extract::rejection::{FormRejection, JsonRejection};
use axum::extract::{FromRef, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::{Form, Json, Router};
use backend::{BackendError, ChatRequest, PlanRequest, Sou};
use futures::StreamExt;
use leptos::prelude::*;
use leptos_axum::{generate_route_list, LeptosRoutes};
use serde::Deserialize;
use serde_json::json;

use crate::auth::SignedIn;

/// Everything a request handler needs.
#[derive(Clone)]
pub struct AppState {
    pub leptos_options: LeptosOptions,
    pub sou: Sou,
    /// Take the client's address from `X-Forwarded-For` (behind a reverse proxy).
    pub trust_proxy: bool,
}

impl FromRef<AppState> for LeptosOptions {
    fn from_ref(state: &AppState) -> Self {
        state.leptos_options.clone()
    }
}

/// The app's routes, listed once per process. Listing them runs the app with resource
/// loading suspended for the whole process (leptos_router's `SuppressResourceLoad`): a
/// page whose data started loading meanwhile, on another thread, would never finish.
/// One server lists them once before serving; tests build many routers side by side.
fn route_list() -> Vec<leptos_axum::AxumRouteListing> {
    static ROUTES: std::sync::OnceLock<Vec<leptos_axum::AxumRouteListing>> = std::sync::OnceLock::new();
    ROUTES.get_or_init(|| generate_route_list(App)).clone()
}

pub fn router(state: AppState) -> Router {
    let routes = route_list();
    let sou = state.sou.clone();
    Router::new()
        .route("/auth/login", post(auth::log_in))
        .route("/auth/signup", post(auth::sign_up))
        .route("/auth/demo", post(auth::demo))
        .route("/auth/logout", post(auth::log_out))
        .route("/api/v1/plan", post(api_plan))
        .route("/api/v1/chat", post(api_chat))
        .route("/api/v1/tools", get(api_tools))
        .route("/chat", post(form_chat))
        .route(
            "/import",
            post(imports::upload).layer(axum::extract::DefaultBodyLimit::max(imports::UPLOAD_BODY_LIMIT)),
        )
        .route("/import/{id}/run", post(imports::run))
        .route("/import/{id}/discard", post(imports::discard))
        .route(
            "/datasets",
            post(imports::upload_dataset)
                .layer(axum::extract::DefaultBodyLimit::max(imports::DATASET_BODY_LIMIT)),
        )
        .route("/datasets/{name}/delete", post(imports::delete_dataset))
        .route("/rules", post(imports::create_rule))
        .route("/rules/{id}/apply", post(imports::apply_rule))
        .route("/rules/{id}/delete", post(imports::delete_rule))
        .route("/healthz", get(|| async { "ok" }))
        .leptos_routes_with_context(&state, routes, page_context(sou.clone()), {
            let options = state.leptos_options.clone();
            move || shell(options.clone())
        })
        .fallback(leptos_axum::file_and_error_handler_with_context::<AppState, _>(page_context(sou), shell))
        .layer(axum::middleware::from_fn(security::server_fn_input))
        .layer(axum::middleware::from_fn_with_state(state.clone(), auth::gate))
        .layer(axum::middleware::from_fn_with_state(state.clone(), security::headers))
        .layer(tower_http::compression::CompressionLayer::new())
        .layer(tower_http::trace::TraceLayer::new_for_http().make_span_with(request_span))
        .with_state(state)
}

/// What pages and server functions find in their context: Sou, and the nonce that
/// [`security::headers`] drew for this request and named in its policy (Leptos would
/// otherwise draw another, and the page's scripts would be refused).
fn page_context(sou: Sou) -> impl Fn() + Clone + Send + 'static {
    move || {
        provide_context(sou.clone());
        let nonce = use_context::<http::request::Parts>()
            .and_then(|parts| parts.extensions.get::<leptos::nonce::Nonce>().cloned());
        if let Some(nonce) = nonce {
            provide_context(nonce);
        }
    }
}

/// The span of one HTTP request: method and route pattern (`/c/{id}`), never the
/// path itself, which carries conversation ids, nor the query.
fn request_span(req: &axum::http::Request<axum::body::Body>) -> tracing::Span {
    tracing::info_span!("request", method = %req.method(), route = %route_of(req))
}

/// A request's route pattern, safe to log.
pub(crate) fn route_of<B>(req: &axum::http::Request<B>) -> String {
    req.extensions().get::<axum::extract::MatchedPath>().map(|m| m.as_str().to_string()).unwrap_or_else(
        || {
            if req.uri().path().starts_with("/pkg/") {
                "/pkg/…".into()
            } else {
                "(other)".into()
            }
        },
    )
}

/// The API's one error shape: `{"error": {"code", "message"}}`. Details are logged.
pub struct ApiError {
    status: StatusCode,
    code: &'static str,
    message: String,
}

impl ApiError {
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError { status, code, message: message.into() }
    }

    fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, "bad_request", message)
    }

    pub fn unauthorized() -> ApiError {
        ApiError::new(
            StatusCode::UNAUTHORIZED,
            "unauthorized",
            "sign in first: a session cookie or an Authorization: Bearer API token",
        )
    }

    pub fn internal() -> ApiError {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            "something went wrong on the server; nothing was lost, try again",
        )
    }

    pub fn from_auth(e: backend::auth::AuthError) -> ApiError {
        use backend::auth::AuthError as A;
        let status = match &e {
            A::RateLimited { .. } | A::DemoLimited { .. } | A::DemoFull => StatusCode::TOO_MANY_REQUESTS,
            A::InvalidCredentials => StatusCode::UNAUTHORIZED,
            A::Closed => StatusCode::FORBIDDEN,
            A::NameTaken => StatusCode::CONFLICT,
            A::Hash | A::Seed | A::Db(_) => {
                tracing::error!(error = %e, "an account operation failed");
                return ApiError::internal();
            }
            _ => StatusCode::BAD_REQUEST,
        };
        ApiError::new(status, e.code(), e.to_string())
    }
}

impl From<BackendError> for ApiError {
    fn from(e: BackendError) -> ApiError {
        match e {
            BackendError::BadRequest(m) => ApiError::bad_request(m),
            BackendError::InvalidPlan(p) => ApiError {
                status: StatusCode::UNPROCESSABLE_ENTITY,
                code: "invalid_plan",
                message: p.to_string(),
            },
            BackendError::NotFound => {
                ApiError { status: StatusCode::NOT_FOUND, code: "not_found", message: "not found".into() }
            }
            other => {
                tracing::error!(error = %other, "request failed");
                ApiError::internal()
            }
        }
    }
}

impl From<JsonRejection> for ApiError {
    fn from(r: JsonRejection) -> ApiError {
        let status = r.status();
        ApiError {
            status: if status == StatusCode::UNSUPPORTED_MEDIA_TYPE {
                status
            } else {
                StatusCode::BAD_REQUEST
            },
            code: if status == StatusCode::UNSUPPORTED_MEDIA_TYPE {
                "unsupported_media_type"
            } else {
                "bad_request"
            },
            message: r.body_text(),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(json!({"error": {"code": self.code, "message": self.message}}))).into_response()
    }
}

async fn api_plan(
    State(state): State<AppState>,
    SignedIn(account): SignedIn,
    body: Result<Json<PlanRequest>, JsonRejection>,
) -> Result<Json<agent::ParseOutcome>, ApiError> {
    let Json(req) = body?;
    Ok(Json(state.sou.plan(account.user, req).await?))
}

async fn api_tools() -> Json<serde_json::Value> {
    Json(json!({"tools": backend::registry::Registry::get().tools()}))
}

async fn api_chat(
    State(state): State<AppState>,
    SignedIn(account): SignedIn,
    body: Result<Json<ChatRequest>, JsonRejection>,
) -> Result<Response, ApiError> {
    let Json(req) = body?;
    let stream = state.sou.chat(account.user, req).await?;
    let events =
        stream.events.map(|e| Ok::<Event, Infallible>(Event::default().event("chunk").data(e.to_json())));
    let mut response =
        Sse::new(events).keep_alive(KeepAlive::new().interval(Duration::from_secs(15))).into_response();
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response.headers_mut().insert("x-accel-buffering", HeaderValue::from_static("no"));
    Ok(response)
}

#[derive(Deserialize)]
struct ChatForm {
    message: String,
    #[serde(default)]
    conversation_id: Option<String>,
    #[serde(default)]
    plan: Option<String>,
}

/// The chat without JavaScript: a plain form post, answered server-side, then a
/// redirect to the conversation page (post/redirect/get, so reload does not resend).
async fn form_chat(
    State(state): State<AppState>,
    SignedIn(account): SignedIn,
    form: Result<Form<ChatForm>, FormRejection>,
) -> Response {
    let Ok(Form(form)) = form else {
        return form_error(StatusCode::BAD_REQUEST, "The form could not be read.", "", None);
    };
    let conversation_id = form.conversation_id.filter(|c| !c.is_empty());
    let plan = match form.plan.as_deref().filter(|p| !p.is_empty()).map(serde_json::from_str) {
        None => None,
        Some(Ok(v)) => Some(v),
        Some(Err(_)) => {
            return form_error(
                StatusCode::BAD_REQUEST,
                "The chosen plan is not valid JSON.",
                &form.message,
                conversation_id,
            )
        }
    };
    let req = ChatRequest {
        message: form.message.clone(),
        conversation_id: conversation_id.clone(),
        plan,
        locale: None,
    };
    match state.sou.chat(account.user, req).await {
        Ok(stream) => {
            let id = stream.conversation_id.clone();
            // Run the answer to its end (it is stored) before showing the page.
            stream.events.for_each(|_| async {}).await;
            Redirect::to(&format!("/c/{id}#end")).into_response()
        }
        Err(e) => {
            let api = ApiError::from(e);
            // A conversation that is not the user's is not offered again: resent, the
            // message starts a new one.
            let keep = conversation_id.filter(|_| api.status != StatusCode::NOT_FOUND);
            form_error(api.status, &api.message, &form.message, keep)
        }
    }
}

/// A small page that says what went wrong and gives the message back to resend.
fn form_error(status: StatusCode, message: &str, draft: &str, conversation_id: Option<String>) -> Response {
    let esc =
        |s: &str| s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;");
    let conversation = conversation_id.map(|c| esc(&c)).unwrap_or_default();
    let body = format!(
        "<!DOCTYPE html><html lang=\"fr\"><head><meta charset=\"utf-8\"><title>Sou</title>\
         <link rel=\"stylesheet\" href=\"/pkg/sou.css\"></head><body><main class=\"chat notfound\">\
         <h1>Sou</h1><p class=\"error\" role=\"alert\">{}</p>\
         <form method=\"post\" action=\"/chat\" class=\"composer-inline\">\
         <input type=\"hidden\" name=\"conversation_id\" value=\"{conversation}\">\
         <textarea name=\"message\" required maxlength=\"4000\">{}</textarea>\
         <button type=\"submit\">Envoyer / Send</button></form>\
         <p><a href=\"/\">↩</a></p></main></body></html>",
        esc(message),
        esc(draft)
    );
    (status, Html(body)).into_response()
}

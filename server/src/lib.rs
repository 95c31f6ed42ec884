//! Sou's HTTP server: the router, the public API under `/api/v1`, the Leptos pages and
//! server functions, and static files. Handlers are thin: parse the request, call
//! `backend`, map the error to one user-safe JSON shape (`error.rs`). The plain form
//! posts are in `forms.rs`, the import API in `imports_api.rs`, the sign-in forms and
//! the gate in `auth.rs`.

mod account;
mod approvals;
pub mod auth;
pub mod config;
mod error;
pub mod forms;
mod imports_api;
mod pwa;
pub mod reports;
mod runs;
pub mod security;
mod widgets;

pub use error::ApiError;

use std::convert::Infallible;
use std::time::Duration;

use app::{shell, App};
use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRef, State};
use axum::http::{header, HeaderValue};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use backend::{ChatRequest, PlanRequest, Sou};
use futures::StreamExt;
use leptos::prelude::*;
use leptos_axum::{generate_route_list, LeptosRoutes};
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

/// Serves `state` on `listener` until `shutdown` completes. Every accepted connection
/// sends each write at once (`TCP_NODELAY`): a response written in pieces (a streamed
/// answer, a compressed file) otherwise waited for the client's delayed ACK, about
/// 40 ms per response on a kept-alive connection.
pub async fn serve(
    listener: tokio::net::TcpListener,
    state: AppState,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let app = router(state).into_make_service_with_connect_info::<std::net::SocketAddr>();
    axum::serve(no_delay_listener(listener), app).with_graceful_shutdown(shutdown).await
}

/// `listener`, with Nagle's algorithm off on every connection it accepts.
pub fn no_delay_listener(
    listener: tokio::net::TcpListener,
) -> axum::serve::TapIo<tokio::net::TcpListener, fn(&mut tokio::net::TcpStream)> {
    use axum::serve::ListenerExt;
    listener.tap_io(no_delay as fn(&mut tokio::net::TcpStream))
}

fn no_delay(tcp: &mut tokio::net::TcpStream) {
    if let Err(e) = tcp.set_nodelay(true) {
        tracing::warn!(error = %e, "could not set TCP_NODELAY on a connection");
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
    // Pages link the files of this build: hashed names when it hashed them.
    app::site::init(&state.leptos_options);
    let sou = state.sou.clone();
    Router::new()
        .route("/auth/login", post(auth::log_in))
        .route("/auth/signup", post(auth::sign_up))
        .route("/auth/demo", post(auth::demo))
        .route("/auth/logout", post(auth::log_out))
        .route("/account/password", post(account::change_password))
        .route("/account/sessions/{id}/end", post(account::end_session))
        .route("/account/sessions/end-others", post(account::end_other_sessions))
        .route("/api/v1/plan", post(api_plan))
        .route("/api/v1/chat", post(api_chat))
        .route("/api/v1/tools", get(api_tools))
        .route(
            "/api/v1/imports",
            post(imports_api::create)
                .get(imports_api::list)
                .layer(axum::extract::DefaultBodyLimit::max(forms::UPLOAD_BODY_LIMIT)),
        )
        .route("/api/v1/imports/{id}", get(imports_api::show).delete(imports_api::discard))
        .route("/api/v1/imports/{id}/run", post(imports_api::run))
        .route("/api/v1/reports", post(reports::create).get(reports::list))
        .route("/api/v1/reports/{id}", get(reports::show).patch(reports::change).delete(reports::revoke))
        .route("/r/{id}", get(reports::page))
        .route("/r/{id}/og.png", get(reports::image))
        .route("/reports", post(reports::create_form))
        .route("/reports/{id}/revoke", post(reports::revoke_form))
        .route("/chat", post(forms::chat))
        .route(
            "/import",
            post(forms::upload).layer(axum::extract::DefaultBodyLimit::max(forms::UPLOAD_BODY_LIMIT)),
        )
        .route("/import/{id}/run", post(forms::run))
        .route("/import/{id}/discard", post(forms::discard))
        .route(
            "/datasets",
            post(forms::upload_dataset)
                .layer(axum::extract::DefaultBodyLimit::max(forms::DATASET_BODY_LIMIT)),
        )
        .route("/datasets/{name}/delete", post(forms::delete_dataset))
        .route("/rules", post(forms::create_rule))
        .route("/rules/{id}/apply", post(forms::apply_rule))
        .route("/rules/{id}/delete", post(forms::delete_rule))
        .route("/api/v1/runs/{id}", get(runs::trace).patch(runs::edit))
        .route("/api/v1/runs/{id}/events", get(runs::events))
        .route("/api/v1/runs/{id}/{action}", post(runs::act))
        .route("/runs/{id}/edit", post(runs::edit_form))
        .route("/runs/{id}/{action}", post(runs::act_form))
        .route("/api/v1/usage", get(runs::usage))
        .route("/api/v1/usage/limit", axum::routing::put(runs::set_limit))
        .route("/usage/limit", post(runs::limit_form))
        .route("/api/v1/approvals/{id}", get(approvals::show).post(approvals::decide))
        .route("/api/v1/changes", get(approvals::list))
        .route("/api/v1/changes/{id}/undo", post(approvals::undo))
        .route("/approvals/{id}", post(approvals::decide_form))
        .route("/changes/{id}/undo", post(approvals::undo_form))
        .route("/budgets", post(approvals::budget_form))
        .route("/api/v1/widgets", post(widgets::create).get(widgets::list))
        .route("/api/v1/widgets/{id}", axum::routing::patch(widgets::change).delete(widgets::revoke))
        .route("/widgets", post(widgets::create_form))
        .route("/widgets/{id}/enabled", post(widgets::toggle_form))
        .route("/widgets/{id}/revoke", post(widgets::revoke_form))
        .route("/widget.js", get(widgets::script))
        .route("/embed/{site}/chat", post(widgets::chat))
        .route("/embed/{site}/answer", get(widgets::answer))
        .route("/healthz", get(|| async { "ok" }))
        .route("/manifest.webmanifest", get(pwa::manifest))
        .route("/icons/{name}", get(pwa::icon))
        .route("/sw.js", get(pwa::service_worker))
        .leptos_routes_with_context(&state, routes, page_context(sou.clone()), {
            let options = state.leptos_options.clone();
            move || shell(options.clone())
        })
        .fallback(leptos_axum::file_and_error_handler_with_context::<AppState, _>(page_context(sou), shell))
        .layer(axum::middleware::from_fn(security::server_fn_input))
        .layer(axum::middleware::map_response(static_cache))
        .layer(axum::middleware::from_fn_with_state(state.clone(), auth::gate))
        .layer(axum::middleware::from_fn_with_state(state.clone(), security::headers))
        .layer(tower_http::compression::CompressionLayer::new())
        .layer(tower_http::trace::TraceLayer::new_for_http().make_span_with(request_span))
        .with_state(state)
}

/// How long browsers keep the site's own files: a hashed name (`sou.<hash>.wasm`) never
/// changes, so for good; any other file is checked each time (`Last-Modified`). Either
/// way it depends on `Accept-Encoding`, as the files are served precompressed.
async fn static_cache(uri: axum::http::Uri, mut response: Response) -> Response {
    let Some(name) = uri.path().strip_prefix("/pkg/") else { return response };
    let status = response.status();
    if status.is_success() || status == axum::http::StatusCode::NOT_MODIFIED {
        let headers = response.headers_mut();
        let forever = app::site::files().is_hashed(name);
        let policy = if forever { "public, max-age=31536000, immutable" } else { "no-cache" };
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(policy));
        headers.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    }
    response
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

async fn api_plan(
    State(state): State<AppState>,
    SignedIn(account): SignedIn,
    body: Result<Json<PlanRequest>, JsonRejection>,
) -> Result<Json<agent::ParseOutcome>, ApiError> {
    let Json(req) = body?;
    Ok(Json(state.sou.plan_for(&account, req).await?))
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
    Ok(event_stream(stream))
}

/// An answer's events as `text/event-stream`, each a `chunk` (docs/api.md), kept alive
/// and never buffered by a proxy.
/// Each event's `id` is `<run>:<n>`, `n` counting from 1: what `Last-Event-ID` sends
/// back to `GET /api/v1/runs/{run}/events`. The run's id is also in `X-Sou-Run`, its
/// conversation's in `X-Sou-Conversation`.
pub(crate) fn event_stream(stream: backend::chat::ChatStream) -> Response {
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

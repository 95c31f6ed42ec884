//! Sou's HTTP server: the router, the public API under `/api/v1`, the Leptos pages and
//! server functions, and static files. Handlers are thin: parse the request, call
//! `backend`, map the error to one user-safe JSON shape (`error.rs`). Each feature's
//! module (`chat`, `imports`, `rules`, …) holds its API and its form posts and lists
//! them in its `routes()`, at the addresses the pages post to (`app::post`); the
//! sign-in forms and the gate are in `auth.rs`.

mod account;
mod approvals;
pub mod auth;
mod chat;
pub mod config;
mod datasets;
mod error;
pub mod forms;
mod imports;
mod pwa;
pub mod reports;
mod rules;
mod runs;
pub mod security;
mod state;
mod widgets;

pub use error::ApiError;
use state::route_of;
pub use state::AppState;

use app::{shell, App};
use axum::http::{header, HeaderValue};
use axum::response::Response;
use axum::routing::get;
use axum::Router;
use backend::Sou;
use leptos::prelude::*;
use leptos_axum::{generate_route_list, LeptosRoutes};

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
        .route("/healthz", get(|| async { "ok" }))
        .merge(auth::routes())
        .merge(account::routes())
        .merge(chat::routes())
        .merge(imports::routes())
        .merge(datasets::routes())
        .merge(rules::routes())
        .merge(runs::routes())
        .merge(approvals::routes())
        .merge(reports::routes())
        .merge(widgets::routes())
        .merge(pwa::routes())
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

//! The headers every response carries, set in one layer around everything else.
//!
//! A page's inline scripts (Leptos' hydration and resource scripts) carry a nonce;
//! this layer draws it for each request, hands it to the page renderer (a request
//! extension, read by the router's context) and names it in the `Content-Security-
//! Policy`, so no other script runs, not even one that got into the page. Forwarded
//! headers (`X-Forwarded-*`, `Forwarded`) are removed here unless the configuration
//! says a proxy sets them (`trust_proxy`): nothing after this layer can be told by the
//! client which scheme, host or address it used.

use axum::extract::{Request, State};
use axum::http::header::{
    CACHE_CONTROL, CONTENT_SECURITY_POLICY, LAST_MODIFIED, REFERRER_POLICY, STRICT_TRANSPORT_SECURITY,
    X_CONTENT_TYPE_OPTIONS, X_FRAME_OPTIONS,
};
use axum::http::{HeaderMap, HeaderValue};
use axum::middleware::Next;
use axum::response::Response;
use leptos::nonce::Nonce;

use crate::state::AppState;

/// Headers a client could use to lie about the scheme, host or address it used.
const FORWARDED: [&str; 5] =
    ["forwarded", "x-forwarded-for", "x-forwarded-host", "x-forwarded-proto", "x-real-ip"];

/// HSTS: two years, for this host only (a self-hosted Sou may share its domain).
const HSTS: &str = "max-age=63072000";

/// The page's policy: scripts only from this site or carrying this response's nonce
/// (WebAssembly compiled from them), nothing fetched or posted elsewhere, no plugin,
/// no `<base>`, never in a frame.
pub fn policy(nonce: &str) -> String {
    framed_policy(nonce, "'none'")
}

/// The same policy for a page that other sites may frame: `ancestors` is the widget
/// site's allowlist of origins, each checked by `agent::widgets::origin`.
fn framed_policy(nonce: &str, ancestors: &str) -> String {
    format!(
        "default-src 'self'; script-src 'self' 'nonce-{nonce}' 'wasm-unsafe-eval'; \
         style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; \
         object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors {ancestors}"
    )
}

/// Set by the widget's embed page (`app::embed`) on its response: the origins that may
/// frame it, space-separated. Read and removed here; it never leaves the server.
pub const FRAME_ANCESTORS: &str = app::embed::FRAME_ANCESTORS;

/// The `frame-ancestors` sources of a page that asked to be framed: its origins if each
/// is one, else none at all.
fn ancestors(h: &mut HeaderMap) -> Option<String> {
    let value = h.remove(FRAME_ANCESTORS)?;
    let list: Vec<&str> = value.to_str().ok()?.split(' ').filter(|o| !o.is_empty()).collect();
    let checked = list.iter().all(|o| agent::widgets::origin(o).as_deref() == Some(*o));
    (checked && !list.is_empty()).then(|| list.join(" "))
}

pub async fn headers(State(state): State<AppState>, mut req: Request, next: Next) -> Response {
    if !state.trust_proxy {
        for name in FORWARDED {
            req.headers_mut().remove(name);
        }
    }
    let https = crate::auth::https(req.headers());
    let nonce = Nonce::new();
    req.extensions_mut().insert(nonce.clone());
    let mut response = next.run(req).await;
    set(response.headers_mut(), &nonce, https);
    response
}

fn set(h: &mut HeaderMap, nonce: &str, https: bool) {
    let framed = ancestors(h);
    // A route with a policy of its own (a shared report's) keeps it.
    if !h.contains_key(CONTENT_SECURITY_POLICY) {
        match framed {
            // The widget's page, in the frames of its site's origins only.
            Some(origins) => {
                if let Ok(v) = HeaderValue::from_str(&framed_policy(nonce, &origins)) {
                    h.insert(CONTENT_SECURITY_POLICY, v);
                }
            }
            None => {
                if let Ok(v) = HeaderValue::from_str(&policy(nonce)) {
                    h.insert(CONTENT_SECURITY_POLICY, v);
                }
                h.insert(X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
            }
        }
    }
    h.insert(X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    // A shared report sends no referrer at all; every other page, its origin only.
    if !h.contains_key(REFERRER_POLICY) {
        h.insert(REFERRER_POLICY, HeaderValue::from_static("same-origin"));
    }
    if https {
        h.insert(STRICT_TRANSPORT_SECURITY, HeaderValue::from_static(HSTS));
    }
    // Nothing a browser keeps can show someone's figures after they signed out (Back,
    // online or offline): a response that says nothing of caching is `no-store`, unless
    // it is a file of the site's folder (those carry `Last-Modified`), checked each time.
    if !h.contains_key(CACHE_CONTROL) {
        let policy = if h.contains_key(LAST_MODIFIED) { "no-cache" } else { "no-store" };
        h.insert(CACHE_CONTROL, HeaderValue::from_static(policy));
    }
}

/// The largest body a server function reads; they take a few fields at most.
pub const SERVER_FN_BODY_LIMIT: usize = 1 << 20;

/// Server functions (`/api/…`, not the JSON API under `/api/v1`) get only well-formed
/// input, and say so with a 4xx when it is not: a body over
/// [`SERVER_FN_BODY_LIMIT`] is a 413, a body or query that is not UTF-8 a 400, and
/// arguments that do not parse (a missing field, a word for a number) a 400 rather than
/// the 500 Leptos gives every error it meets before the function runs.
pub async fn server_fn_input(req: Request, next: Next) -> Response {
    use axum::http::StatusCode;
    use axum::response::IntoResponse as _;

    let path = req.uri().path();
    if !path.starts_with("/api/") || path.starts_with("/api/v1/") {
        return next.run(req).await;
    }
    let bad = |status: StatusCode, message: &str| {
        let body = serde_json::to_string(&app::AppError::BadRequest(message.into())).unwrap_or_default();
        (status, [(axum::http::header::CONTENT_TYPE, "application/json")], body).into_response()
    };
    let decodes = |text: &[u8]| percent_encoding::percent_decode(text).decode_utf8().is_ok();
    let query_ok = req.uri().query().is_none_or(|q| decodes(q.as_bytes()));
    let form = req
        .headers()
        .get(axum::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/x-www-form-urlencoded"));
    let (parts, body) = req.into_parts();
    let bytes = match axum::body::to_bytes(body, SERVER_FN_BODY_LIMIT).await {
        Ok(bytes) => bytes,
        Err(_) => return bad(StatusCode::PAYLOAD_TOO_LARGE, "the request is too large"),
    };
    // A form body carries its text %-encoded; any other body must be UTF-8 as it is.
    let body_ok = if form { decodes(&bytes) } else { std::str::from_utf8(&bytes).is_ok() };
    if !query_ok || !body_ok {
        return bad(StatusCode::BAD_REQUEST, "the request is not valid UTF-8 text");
    }
    let mut response = next.run(Request::from_parts(parts, axum::body::Body::from(bytes))).await;
    if response.status() == StatusCode::INTERNAL_SERVER_ERROR
        && response.headers().contains_key("serverfnerror")
    {
        // Only the body tells a malformed argument from a real failure.
        let (mut head, body) = response.into_parts();
        let bytes = axum::body::to_bytes(body, SERVER_FN_BODY_LIMIT).await.unwrap_or_default();
        if matches!(serde_json::from_slice(&bytes), Ok(app::AppError::BadRequest(_))) {
            head.status = StatusCode::BAD_REQUEST;
        }
        response = Response::from_parts(head, axum::body::Body::from(bytes));
    }
    response
}

//! What the server's tests share: a router over a temporary store, accounts signed in
//! through the real sign-up, and a `send` that carries the session cookie.

use std::cell::RefCell;
use std::sync::OnceLock;

use axum::body::Body;
use axum::http::{header, HeaderMap, HeaderValue, Request, StatusCode};
use axum::Router;
use backend::testing::{Captured, FreshDatabase};
use backend::{demo, Sou, UserId};
use http_body_util::BodyExt;
use leptos::prelude::LeptosOptions;
use secrecy::{ExposeSecret, SecretString};
use server::{router, AppState};
use tower::ServiceExt;
use tracing_subscriber::filter::dynamic_filter_fn;
use tracing_subscriber::fmt::writer::OptionalWriter;
use tracing_subscriber::prelude::*;

/// Someone signed in: their id and the `Cookie` header value that says so.
#[derive(Clone, Debug)]
pub struct Signed {
    pub user: UserId,
    pub cookie: String,
}

/// The router Sou serves, with static files from `site` (none are needed).
pub fn app_router(sou: Sou, site: &std::path::Path) -> Router {
    let leptos_options =
        LeptosOptions::builder().output_name("sou").site_root(site.to_string_lossy().to_string()).build();
    router(AppState { leptos_options, sou, trust_proxy: false })
}

/// Creates the account `name` with the demo ledger and signs it in.
pub async fn sign_up(sou: &Sou, name: &str) -> Signed {
    let (account, session) =
        sou.auth().sign_up(name, &SecretString::from("correct horse battery staple")).await.unwrap();
    demo::seed(sou.store(), account.user).await.unwrap();
    Signed { user: account.user, cookie: format!("sou_session={}", session.token.expose_secret()) }
}

/// Where a redirect goes.
pub fn location(headers: &HeaderMap) -> String {
    headers.get(header::LOCATION).and_then(|v| v.to_str().ok()).unwrap_or("").to_string()
}

/// A browser's file upload to `uri`: `multipart/form-data` with the `file` field, from
/// the page itself.
pub fn upload(uri: &str, name: &str, bytes: &[u8]) -> Request<Body> {
    let boundary = "----soutestboundary7MA4YWxkTrZu0gW";
    let mut body = format!(
        "--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{name}\"\r\n\
         Content-Type: application/octet-stream\r\n\r\n"
    )
    .into_bytes();
    body.extend_from_slice(bytes);
    body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
    Request::post(uri)
        .header(header::CONTENT_TYPE, format!("multipart/form-data; boundary={boundary}"))
        .header("sec-fetch-site", "same-origin")
        .body(Body::from(body))
        .unwrap()
}

/// A plain form post from the page itself.
pub fn same_site_form(uri: &str, body: &str) -> Request<Body> {
    Request::post(uri)
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .header("sec-fetch-site", "same-origin")
        .body(Body::from(body.to_string()))
        .unwrap()
}

/// A page as a French browser asks for it.
pub fn french_page(uri: &str) -> Request<Body> {
    Request::get(uri).header(header::ACCEPT_LANGUAGE, "fr-FR,fr;q=0.9").body(Body::empty()).unwrap()
}

pub fn post_json(uri: &str, body: serde_json::Value) -> Request<Body> {
    Request::post(uri)
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body.to_string()))
        .unwrap()
}

/// A JSON request to the API as `who`, from the page itself; the status and the JSON
/// answer (`null` when it is not JSON).
pub async fn api(
    router: &Router,
    who: &Signed,
    method: &str,
    uri: &str,
    body: serde_json::Value,
) -> (StatusCode, serde_json::Value) {
    let req = Request::builder()
        .method(method)
        .uri(uri)
        .header(header::CONTENT_TYPE, "application/json")
        .header("host", "sou.example")
        .header("sec-fetch-site", "same-origin")
        .body(Body::from(body.to_string()))
        .unwrap();
    let (status, _, body) = send(router, Some(who), req).await;
    (status, serde_json::from_str(&body).unwrap_or(serde_json::Value::Null))
}

/// The events of a chat stream's body.
pub fn chat_events(text: &str) -> Vec<serde_json::Value> {
    text.lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .filter_map(|d| serde_json::from_str(d).ok())
        .collect()
}

/// Sends `req` as `who` (no cookie for `None`) and reads the whole answer.
pub async fn send(
    router: &Router,
    who: Option<&Signed>,
    mut req: Request<Body>,
) -> (StatusCode, HeaderMap, String) {
    if let Some(who) = who {
        req.headers_mut().insert(header::COOKIE, HeaderValue::from_str(&who.cookie).unwrap());
    }
    let res = router.clone().oneshot(req).await.unwrap();
    let status = res.status();
    let headers = res.headers().clone();
    let body = res.into_body().collect().await.unwrap().to_bytes();
    (status, headers, String::from_utf8_lossy(&body).into_owned())
}

/// A fresh PostgreSQL database and Sou's store on it, as Sou's role (see
/// [`FreshDatabase`]); [`FreshDatabase::drop`] removes them.
pub async fn postgres() -> (backend::Store, FreshDatabase) {
    let fresh = FreshDatabase::create().await.expect("PostgreSQL at 127.0.0.1:5432");
    let store = fresh.open_store().await.unwrap();
    (store, fresh)
}

thread_local! {
    /// Where the log lines of the test on this thread go, while it captures them.
    static CAPTURE: RefCell<Option<Captured>> = const { RefCell::new(None) };
}

/// Every log line of the calling test at TRACE level, without timestamps, until the
/// guard is dropped. The tests share the process, and so the one global subscriber
/// (installed by the first call): it writes only the lines emitted on a thread that
/// captures, each into that thread's buffer. A `#[tokio::test]` runtime runs all its
/// tasks on the test's thread (the routes, the chat pipeline); the SQLite connections'
/// worker threads are not captured; another test's lines are never in the buffer.
pub fn capture_logs() -> (Captured, CaptureGuard) {
    static INSTALLED: OnceLock<()> = OnceLock::new();
    INSTALLED.get_or_init(|| {
        let capturing = || CAPTURE.with(|c| c.borrow().is_some());
        let layer = tracing_subscriber::fmt::layer()
            .with_writer(|| OptionalWriter::<Captured>::from(CAPTURE.with(|c| c.borrow().clone())))
            .with_ansi(false)
            // No timestamps: their microsecond digits could contain an amount by chance.
            .without_time()
            // Asked at every line (a `filter_fn` would decide once per call site, for all threads).
            .with_filter(dynamic_filter_fn(move |_, _| capturing()));
        tracing_subscriber::registry().with(layer).try_init().unwrap();
    });
    let logs = Captured::default();
    CAPTURE.with(|c| *c.borrow_mut() = Some(logs.clone()));
    (logs, CaptureGuard(()))
}

/// Ends the capture of [`capture_logs`] when dropped.
pub struct CaptureGuard(());

impl Drop for CaptureGuard {
    fn drop(&mut self) {
        CAPTURE.with(|c| c.borrow_mut().take());
    }
}

//! Who is asking, at the edge: every request passes [`gate`], which finds the account
//! (an `Authorization: Bearer sou_pat_…` token, else the `sou_session` cookie), refuses
//! cross-site writes, and sends the anonymous to the sign-in page (pages), a 401
//! (`/api/v1`), or on to server functions, which refuse them themselves. The sign-in
//! forms post to the plain handlers here, which work without JavaScript.

use app::post::key;
use axum::routing::post;
use std::net::SocketAddr;

use axum::extract::{ConnectInfo, FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Redirect, Response};
use axum::{Extension, Form};
use backend::{Account, AuthError, Client, NewSession};
use backend::{ErrorKind, UserError};
use secrecy::{ExposeSecret, SecretString};
use serde::Deserialize;

use app::api::same_site_path as same_site;

use crate::error::ApiError;
use crate::state::AppState;

pub(crate) fn routes() -> axum::Router<AppState> {
    use app::post::auth as at;
    axum::Router::new()
        .route(at::LOG_IN.route(), post(log_in))
        .route(at::SIGN_UP.route(), post(sign_up))
        .route(at::DEMO.route(), post(demo))
        .route(at::LOG_OUT.route(), post(log_out))
}

/// The session cookie's name.
pub const COOKIE: &str = backend::SESSION_COOKIE;

/// The caller's address, for the per-client log-in limit: the TCP peer, or with
/// `trust_proxy` the last address the proxy added to `X-Forwarded-For`.
#[derive(Clone, Debug)]
pub struct ClientAddr(pub String);

/// The signed-in account of a request that must have one. The gate lets no anonymous
/// request reach a handler that takes it; if one did, it would get a 401.
pub struct SignedIn(pub Account);

impl<S: Send + Sync> FromRequestParts<S> for SignedIn {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        parts.extensions.get::<Account>().cloned().map(SignedIn).ok_or_else(ApiError::unauthorized)
    }
}

/// Paths anyone may reach: the sign-in pages and their forms, static files, health.
fn public(path: &str) -> bool {
    matches!(path, "/login" | "/signup" | "/healthz" | "/favicon.svg")
        || path.starts_with("/auth/")
        || path.starts_with("/pkg/")
        // The installable app: its manifest, icons, worker and offline shell (no data).
        || matches!(path, "/manifest.webmanifest" | "/sw.js" | "/offline")
        || path.starts_with("/icons/")
        // Shared reports: whoever has the link.
        || path.starts_with("/r/")
        // The widget: its script, and its page and requests, where a visitor's token
        // (not a session) says who asks.
        || path == "/widget.js"
        || path.starts_with("/embed/")
}

pub async fn gate(State(state): State<AppState>, mut req: Request, next: Next) -> Response {
    let auth = state.sou.auth();
    let client = client_addr(&req, state.trust_proxy);
    req.extensions_mut().insert(client);
    let path = req.uri().path().to_string();

    let mut stale_cookie = false;
    let account = if let Some(value) = req.headers().get(header::AUTHORIZATION) {
        // A token is sent on purpose, never by a browser on its own: no CSRF check.
        let token = value.to_str().ok().and_then(|v| v.strip_prefix("Bearer ")).map(str::trim);
        match auth.bearer(token.unwrap_or("")).await {
            Ok(Some(account)) => Some(account),
            Ok(None) => {
                return ApiError::new(
                    StatusCode::UNAUTHORIZED,
                    "invalid_token",
                    "this API token is unknown or was revoked",
                )
                .into_response()
            }
            Err(e) => return ApiError::from_user(e).into_response(),
        }
    } else {
        if !safe(req.method()) && !same_origin(req.headers()) {
            tracing::warn!(route = %crate::state::route_of(&req), "a cross-site write was refused");
            return ApiError::new(
                StatusCode::FORBIDDEN,
                "cross_origin",
                "this request came from another site and was refused",
            )
            .into_response();
        }
        match session_cookie(req.headers()) {
            Some(token) => match auth.session(token).await {
                Ok(Some(account)) => Some(account),
                Ok(None) => {
                    stale_cookie = true;
                    None
                }
                Err(e) => return ApiError::from_user(e).into_response(),
            },
            None => None,
        }
    };

    let mut response = match account {
        Some(account) => {
            if matches!(path.as_str(), "/login" | "/signup") {
                return Redirect::to("/").into_response();
            }
            req.extensions_mut().insert(account);
            next.run(req).await
        }
        None if public(&path) => next.run(req).await,
        // Server functions answer "sign in" in their own error format.
        None if path.starts_with("/api/") && !path.starts_with("/api/v1/") => next.run(req).await,
        None if path.starts_with("/api/") => ApiError::unauthorized().into_response(),
        None => {
            let back = req.uri().path_and_query().map(|p| p.as_str()).unwrap_or("/");
            let target = if req.method() == Method::GET && back != "/" {
                format!("/login?{}", query(&[(key::NEXT, back)]))
            } else {
                "/login".to_string()
            };
            Redirect::to(&target).into_response()
        }
    };
    if stale_cookie {
        response.headers_mut().append(header::SET_COOKIE, clear_cookie());
    }
    response
}

fn safe(method: &Method) -> bool {
    matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS)
}

/// Whether a write may go on: its `Origin` is this site's — the scheme the browser
/// used (`https` only when a trusted proxy says so) and this host — or, without an
/// `Origin`, `Sec-Fetch-Site` says same-origin. With neither header it is not a
/// browser's request (a browser sends `Origin` with every POST), so no cookie was sent
/// for it by someone else's page. Forwarded headers reach this point only with
/// `trust_proxy` (see `security`).
fn same_origin(headers: &HeaderMap) -> bool {
    let text = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    match text("origin") {
        Some(origin) => {
            let scheme = if https(headers) { "https" } else { "http" };
            let Some(authority) = origin.strip_prefix(scheme).and_then(|rest| rest.strip_prefix("://"))
            else {
                return false;
            };
            !authority.is_empty()
                && [text("host"), text("x-forwarded-host")].into_iter().flatten().any(|h| h == authority)
        }
        None => text("sec-fetch-site").is_none_or(|s| s == "same-origin" || s == "none"),
    }
}

pub(crate) fn session_cookie(headers: &HeaderMap) -> Option<&str> {
    backend::session_in_cookies(headers.get_all(header::COOKIE).iter().filter_map(|v| v.to_str().ok()))
}

fn client_addr(req: &Request, trust_proxy: bool) -> ClientAddr {
    let forwarded = trust_proxy
        .then(|| req.headers().get("x-forwarded-for")?.to_str().ok()?.rsplit(',').next().map(str::trim))
        .flatten()
        .filter(|a| !a.is_empty());
    let peer = req.extensions().get::<ConnectInfo<SocketAddr>>().map(|c| c.0.ip().to_string());
    ClientAddr(forwarded.map(str::to_string).or(peer).unwrap_or_else(|| "unknown".into()))
}

/// Whether the browser reached us over HTTPS (directly or through a proxy that says so).
pub(crate) fn https(headers: &HeaderMap) -> bool {
    let text = |name: &str| headers.get(name).and_then(|v| v.to_str().ok()).unwrap_or("");
    text("x-forwarded-proto").eq_ignore_ascii_case("https")
        || text("forwarded").to_ascii_lowercase().contains("proto=https")
}

fn session_cookie_header(session: &NewSession, secure: bool) -> Option<HeaderValue> {
    let max_age = (session.expires_at - chrono::Utc::now()).num_seconds().max(0);
    let secure = if secure { "; Secure" } else { "" };
    HeaderValue::from_str(&format!(
        "{COOKIE}={}; Path=/; HttpOnly; SameSite=Lax; Max-Age={max_age}{secure}",
        session.token.expose_secret()
    ))
    .ok()
}

pub(crate) fn clear_cookie() -> HeaderValue {
    HeaderValue::from_static("sou_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0")
}

fn query(pairs: &[(&str, &str)]) -> String {
    let mut s = form_urlencoded::Serializer::new(String::new());
    for (k, v) in pairs {
        if !v.is_empty() {
            s.append_pair(k, v);
        }
    }
    s.finish()
}

/// Who is signing in, for the session's entry in their list: the address and the
/// `User-Agent` (of which only the browser's and system's names are kept).
fn client<'a>(addr: &'a ClientAddr, headers: &'a HeaderMap) -> Client<'a> {
    let user_agent = headers.get(header::USER_AGENT).and_then(|v| v.to_str().ok());
    Client { address: &addr.0, user_agent }
}

/// Signed in: the cookie, then on to where the person was going.
fn signed_in(session: NewSession, headers: &HeaderMap, next: &str) -> Response {
    let mut response = Redirect::to(&same_site(next)).into_response();
    match session_cookie_header(&session, https(headers)) {
        Some(cookie) => {
            response.headers_mut().insert(header::SET_COOKIE, cookie);
            response
        }
        None => ApiError::internal().into_response(),
    }
}

/// Back to the form with the reason, and what was typed (never the password).
fn form_failed(page: &str, e: &AuthError, name: &str, next: &str) -> Response {
    if e.kind() == ErrorKind::Internal {
        tracing::error!(error = %e, "signing in failed");
    }
    let retry = e.retry_after_secs();
    let wait = retry.map(|r| r.to_string()).unwrap_or_default();
    let q = query(&[(key::ERROR, e.code()), (key::NAME, name), (key::NEXT, next), (key::RETRY, &wait)]);
    let mut response = Redirect::to(&format!("{page}?{q}")).into_response();
    // The same wait for a client that reads headers, in whole seconds rounded up.
    if let Some(value) = retry.and_then(|r| HeaderValue::from_str(&r.to_string()).ok()) {
        response.headers_mut().insert(header::RETRY_AFTER, value);
    }
    response
}

#[derive(Deserialize)]
pub struct LogInForm {
    #[serde(default)]
    name: String,
    #[serde(default)]
    password: String,
    #[serde(default)]
    next: String,
}

pub async fn log_in(
    State(state): State<AppState>,
    Extension(client): Extension<ClientAddr>,
    headers: HeaderMap,
    Form(form): Form<LogInForm>,
) -> Response {
    let password = SecretString::from(form.password);
    match state.sou.auth().log_in(&form.name, &password, self::client(&client, &headers)).await {
        Ok((_, session)) => signed_in(session, &headers, &form.next),
        Err(e) => {
            let next = same_site(&form.next);
            let next = if next == "/" { "" } else { next.as_str() };
            form_failed("/login", &e, form.name.trim(), next)
        }
    }
}

#[derive(Deserialize)]
pub struct SignUpForm {
    #[serde(default)]
    name: String,
    #[serde(default)]
    password: String,
    #[serde(default)]
    confirm: String,
}

pub async fn sign_up(
    State(state): State<AppState>,
    Extension(client): Extension<ClientAddr>,
    headers: HeaderMap,
    Form(form): Form<SignUpForm>,
) -> Response {
    let name = form.name.trim().to_string();
    if form.password != form.confirm {
        let q = query(&[(key::ERROR, "password_mismatch"), (key::NAME, &name)]);
        return Redirect::to(&format!("/signup?{q}")).into_response();
    }
    let password = SecretString::from(form.password);
    match state.sou.auth().sign_up_from(&name, &password, self::client(&client, &headers)).await {
        Ok((account, session)) => {
            tracing::info!(user = %backend::trace_user(account.user), "an account was created");
            signed_in(session, &headers, "/")
        }
        Err(e) => form_failed("/signup", &e, &name, ""),
    }
}

pub async fn demo(
    State(state): State<AppState>,
    Extension(client): Extension<ClientAddr>,
    headers: HeaderMap,
) -> Response {
    match state.sou.auth().demo(self::client(&client, &headers)).await {
        Ok((account, session)) => {
            tracing::info!(user = %backend::trace_user(account.user), "a demo account was created");
            signed_in(session, &headers, "/")
        }
        Err(e) => form_failed("/login", &e, "", ""),
    }
}

pub async fn log_out(State(state): State<AppState>, headers: HeaderMap) -> Response {
    if let Some(token) = session_cookie(&headers) {
        if let Err(e) = state.sou.auth().log_out(token).await {
            return ApiError::from_user(e).into_response();
        }
    }
    let mut response = Redirect::to("/login").into_response();
    response.headers_mut().insert(header::SET_COOKIE, clear_cookie());
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.append(*k, HeaderValue::from_static(v));
        }
        h
    }

    #[test]
    fn origin_must_name_this_host() {
        assert!(same_origin(&headers(&[("origin", "http://127.0.0.1:3000"), ("host", "127.0.0.1:3000")])));
        assert!(same_origin(&headers(&[
            ("origin", "https://sou.example.org"),
            ("host", "127.0.0.1:3000"),
            ("x-forwarded-host", "sou.example.org"),
            ("x-forwarded-proto", "https")
        ])));
        // The scheme is part of the origin: another scheme on this host is another site.
        assert!(!same_origin(&headers(&[("origin", "https://127.0.0.1:3000"), ("host", "127.0.0.1:3000")])));
        assert!(!same_origin(&headers(&[("origin", "ftp://127.0.0.1:3000"), ("host", "127.0.0.1:3000")])));
        assert!(!same_origin(&headers(&[
            ("origin", "http://sou.example.org"),
            ("x-forwarded-host", "sou.example.org"),
            ("x-forwarded-proto", "https")
        ])));
        assert!(!same_origin(&headers(&[("origin", "https://evil.example"), ("host", "127.0.0.1:3000")])));
        assert!(!same_origin(&headers(&[("origin", "null"), ("host", "127.0.0.1:3000")])));
        assert!(!same_origin(&headers(&[("origin", "http://127.0.0.1:3000")])), "no host to compare");
        assert!(!same_origin(&headers(&[("sec-fetch-site", "cross-site")])));
        assert!(same_origin(&headers(&[("sec-fetch-site", "same-origin")])));
        assert!(same_origin(&headers(&[])), "not a browser");
    }

    #[test]
    fn the_session_cookie_is_found_among_others() {
        let h = headers(&[("cookie", "a=1; sou_session_x=no; sou_session=tok123; b=2")]);
        assert_eq!(session_cookie(&h), Some("tok123"));
        assert_eq!(session_cookie(&headers(&[("cookie", "sou_session=")])), None);
    }

    /// Where a sign-in may send the browser: read as a browser reads the URL, so tabs,
    /// newlines and backslashes cannot turn a path into another site.
    #[test]
    fn only_same_site_paths_survive() {
        for evil in [
            "//evil.example/",
            "/\\evil.example",
            "\\/evil.example",
            "/\t/evil.example",
            "/\n/evil.example",
            "/\r\n/evil.example",
            " //evil.example",
            "https://evil.example/",
            "http://sou.invalid@evil.example/",
            "javascript:alert(1)",
            "/.//evil.example",
            "/..//evil.example",
            "\t//evil.example",
        ] {
            let kept = same_site(evil);
            assert_eq!(kept, "/", "{evil:?} gave {kept:?}");
        }
        assert_eq!(same_site("/c/abc?x=1"), "/c/abc?x=1");
        assert_eq!(same_site("/datasets?sql=SELECT%201"), "/datasets?sql=SELECT%201");
        assert_eq!(same_site("/c/a b"), "/c/a%20b");
        assert_eq!(same_site("/settings#tokens"), "/settings");
        assert_eq!(same_site("/x\r\nSet-Cookie: a=b"), "/xSet-Cookie:%20a=b");
        assert_eq!(same_site(""), "/");
    }
}

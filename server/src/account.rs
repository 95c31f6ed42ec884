//! Settings → Account's forms, plain posts answered with a redirect back to the page
//! (they work without JavaScript; the gate refuses them from another site): change
//! the password, end one of one's sessions, end all the others. The page says what
//! happened from the query: `changed=<n>` (the password, and n other sessions ended),
//! `ended=<n>`, or `error=<code>` (and `retry=<seconds>`, with `Retry-After`).

use app::post::key;
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::post;
use axum::{Extension, Form};
use backend::AuthError;
use backend::{ErrorKind, UserError};
use secrecy::SecretString;
use serde::Deserialize;

use crate::auth::{clear_cookie, session_cookie, ClientAddr, SignedIn};
use crate::error::ApiError;
use crate::state::AppState;

pub(crate) fn routes() -> axum::Router<AppState> {
    use app::post::account as at;
    axum::Router::new()
        .route(at::PASSWORD.route(), post(change_password))
        .route(at::END_SESSION.route(), post(end_session))
        .route(at::END_OTHERS.route(), post(end_other_sessions))
}

/// The page the forms go back to.
const PAGE: &str = "/settings/account";

fn back(pairs: &[(&str, &str)]) -> Response {
    let query: String = form_urlencoded::Serializer::new(String::new()).extend_pairs(pairs).finish();
    Redirect::to(&format!("{PAGE}?{query}")).into_response()
}

/// Back to the page with the reason; the internal ones are a 500 (said nowhere else).
fn refused(e: AuthError) -> Response {
    if e.kind() == ErrorKind::Internal {
        return ApiError::from_user(e).into_response();
    }
    let retry = e.retry_after_secs();
    let wait = retry.map(|r| r.to_string());
    let mut pairs = vec![(key::ERROR, e.code())];
    if let Some(wait) = &wait {
        pairs.push((key::RETRY, wait));
    }
    let mut response = back(&pairs);
    if let Some(value) = retry.and_then(|r| HeaderValue::from_str(&r.to_string()).ok()) {
        response.headers_mut().insert(header::RETRY_AFTER, value);
    }
    response
}

#[derive(Deserialize)]
pub struct PasswordForm {
    #[serde(default)]
    current: String,
    #[serde(default)]
    password: String,
    #[serde(default)]
    confirm: String,
}

/// A new password, given the current one; every other session ends.
pub async fn change_password(
    State(state): State<AppState>,
    SignedIn(account): SignedIn,
    Extension(client): Extension<ClientAddr>,
    headers: HeaderMap,
    Form(form): Form<PasswordForm>,
) -> Response {
    if form.password != form.confirm {
        return back(&[(key::ERROR, "password_mismatch")]);
    }
    let (current, new) = (SecretString::from(form.current), SecretString::from(form.password));
    let keep = session_cookie(&headers);
    match state.sou.auth().change_password(account.user, &current, &new, keep, &client.0).await {
        Ok(ended) => back(&[(key::CHANGED, &ended.to_string())]),
        Err(e) => refused(e),
    }
}

/// Ends one of the user's sessions; ending this one signs this browser out. Another
/// user's session, or one already ended, is 404.
pub async fn end_session(
    State(state): State<AppState>,
    SignedIn(account): SignedIn,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Response {
    if id.len() != 32 || !id.bytes().all(|b| b.is_ascii_hexdigit()) {
        return ApiError::not_found().into_response();
    }
    match state.sou.auth().end_session(account.user, &id, session_cookie(&headers)).await {
        Ok(None) => ApiError::not_found().into_response(),
        Ok(Some(true)) => {
            let mut response = Redirect::to("/login").into_response();
            response.headers_mut().insert(header::SET_COOKIE, clear_cookie());
            response
        }
        Ok(Some(false)) => back(&[(key::ENDED, "1")]),
        Err(e) => ApiError::from_user(e).into_response(),
    }
}

/// Ends every session of the user but this one.
pub async fn end_other_sessions(
    State(state): State<AppState>,
    SignedIn(account): SignedIn,
    headers: HeaderMap,
) -> Response {
    match state.sou.auth().end_other_sessions(account.user, session_cookie(&headers)).await {
        Ok(ended) => back(&[(key::ENDED, &ended.to_string())]),
        Err(e) => ApiError::from_user(e).into_response(),
    }
}

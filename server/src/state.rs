//! What every handler shares: the state a request is served with, and a request's
//! route as it is logged.

use axum::extract::FromRef;
use backend::Sou;
use leptos::prelude::*;

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

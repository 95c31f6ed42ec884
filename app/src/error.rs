use leptos::server_fn::codec::JsonEncoding;
use leptos::server_fn::error::{FromServerFnError, ServerFnErrorErr};
use serde::{Deserialize, Serialize};

/// The one error the browser ever sees: what happened, in words safe to show.
/// Details (SQL, paths) are logged on the server, never sent.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
pub enum AppError {
    #[error("not found")]
    NotFound,
    #[error("sign in again: your session has ended")]
    Unauthorized,
    #[error("{0}")]
    BadRequest(String),
    #[error("something went wrong on the server; nothing was lost, try again")]
    Internal,
    #[error("the server could not be reached: {0}")]
    Transport(String),
}

impl AppError {
    /// The HTTP status this error is answered with.
    #[cfg(feature = "ssr")]
    pub fn status(&self) -> http::StatusCode {
        match self {
            AppError::NotFound => http::StatusCode::NOT_FOUND,
            AppError::Unauthorized => http::StatusCode::UNAUTHORIZED,
            AppError::BadRequest(_) => http::StatusCode::BAD_REQUEST,
            AppError::Internal => http::StatusCode::INTERNAL_SERVER_ERROR,
            AppError::Transport(_) => http::StatusCode::BAD_GATEWAY,
        }
    }
}

impl FromServerFnError for AppError {
    type Encoder = JsonEncoding;

    fn from_server_fn_error(value: ServerFnErrorErr) -> Self {
        match value {
            // On the server: the request itself is malformed (a 400, see `server`).
            ServerFnErrorErr::Args(_) | ServerFnErrorErr::MissingArg(_) => AppError::BadRequest(
                "the request could not be read: an argument is missing or malformed".into(),
            ),
            ServerFnErrorErr::UnsupportedRequestMethod(_) => {
                AppError::BadRequest("this request method is not accepted here".into())
            }
            other => AppError::Transport(other.to_string()),
        }
    }
}

/// The one mapping of a backend error for the browser: "not found" as such, the
/// server's own failures logged and hidden, anything else in the user's words (the
/// request's Accept-Language).
#[cfg(feature = "ssr")]
impl<E: backend::UserError> From<E> for AppError {
    fn from(e: E) -> Self {
        use backend::ErrorKind as K;
        match e.kind() {
            K::NotFound => AppError::NotFound,
            K::Internal => {
                tracing::error!(error = %e, "server function failed");
                AppError::Internal
            }
            kind => {
                if kind == K::Provider {
                    tracing::warn!(error = %e, "provider call from a server function failed");
                }
                AppError::BadRequest(e.message(accept_language()))
            }
        }
    }
}

/// The first supported language of the request's Accept-Language, else French.
#[cfg(feature = "ssr")]
pub fn accept_language() -> agent::Locale {
    use leptos::prelude::use_context;
    use_context::<http::request::Parts>()
        .and_then(|parts| {
            agent::Locale::from_accept_language(
                parts.headers.get(http::header::ACCEPT_LANGUAGE)?.to_str().ok()?,
            )
        })
        .unwrap_or(agent::Locale::Fr)
}

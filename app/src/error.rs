use leptos::server_fn::codec::JsonEncoding;
use leptos::server_fn::error::{FromServerFnError, ServerFnErrorErr};
use serde::{Deserialize, Serialize};

/// The one error the browser ever sees: what happened, in words safe to show.
/// Details (SQL, paths) are logged on the server, never sent.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
pub enum AppError {
    #[error("not found")]
    NotFound,
    #[error("{0}")]
    BadRequest(String),
    #[error("something went wrong on the server; nothing was lost, try again")]
    Internal,
    #[error("the server could not be reached: {0}")]
    Transport(String),
}

impl FromServerFnError for AppError {
    type Encoder = JsonEncoding;

    fn from_server_fn_error(value: ServerFnErrorErr) -> Self {
        AppError::Transport(value.to_string())
    }
}

#[cfg(feature = "ssr")]
impl From<backend::BackendError> for AppError {
    fn from(e: backend::BackendError) -> Self {
        use backend::BackendError as B;
        match e {
            B::NotFound => AppError::NotFound,
            B::BadRequest(m) => AppError::BadRequest(m),
            B::InvalidPlan(p) => AppError::BadRequest(p.to_string()),
            B::Llm { provider, error } => {
                tracing::warn!(%provider, error = %error, "provider call from a server function failed");
                AppError::BadRequest(backend::chat::llm_message(provider, &error, agent::Locale::En).1)
            }
            other => {
                tracing::error!(error = %other, "server function failed");
                AppError::Internal
            }
        }
    }
}

//! The JSON API's one error shape, `{"error": {"code", "message"}}`, and the one place a
//! backend error becomes it ([`ApiError::from_user`]): the status from its kind, its
//! code, its English sentence. What the server hides is logged here, never sent.

use axum::extract::rejection::JsonRejection;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use backend::{BackendError, ErrorKind, UserError};
use serde_json::json;

/// An error as the API answers it. Details are logged.
pub struct ApiError {
    pub(crate) status: StatusCode,
    code: &'static str,
    pub(crate) message: String,
}

impl ApiError {
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError { status, code, message: message.into() }
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

    pub fn not_found() -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, "not_found", "not found")
    }

    /// Any error a user may see, as the API says it (in English). A provider's failure
    /// or the server's own is logged and answered as [`ApiError::internal`].
    pub fn from_user<E: UserError>(e: E) -> ApiError {
        ApiError::from_user_in(e, agent::Locale::En)
    }

    /// As [`ApiError::from_user`], its sentence in `locale` (for a page, not the API).
    pub fn from_user_in<E: UserError>(e: E, locale: agent::Locale) -> ApiError {
        let status = match e.kind() {
            ErrorKind::Invalid => StatusCode::BAD_REQUEST,
            ErrorKind::InvalidPlan => StatusCode::UNPROCESSABLE_ENTITY,
            ErrorKind::NotFound => return ApiError::not_found(),
            ErrorKind::Unauthenticated => StatusCode::UNAUTHORIZED,
            ErrorKind::Forbidden => StatusCode::FORBIDDEN,
            ErrorKind::Conflict => StatusCode::CONFLICT,
            ErrorKind::Limited => StatusCode::TOO_MANY_REQUESTS,
            ErrorKind::Provider | ErrorKind::Internal => {
                tracing::error!(error = %e, "request failed");
                return ApiError::internal();
            }
        };
        ApiError::new(status, e.code(), e.message(locale))
    }
}

impl From<BackendError> for ApiError {
    fn from(e: BackendError) -> ApiError {
        ApiError::from_user(e)
    }
}

impl From<JsonRejection> for ApiError {
    fn from(r: JsonRejection) -> ApiError {
        let status = r.status();
        if status == StatusCode::UNSUPPORTED_MEDIA_TYPE {
            ApiError::new(status, "unsupported_media_type", r.body_text())
        } else {
            ApiError::new(StatusCode::BAD_REQUEST, "bad_request", r.body_text())
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(json!({"error": {"code": self.code, "message": self.message}}))).into_response()
    }
}

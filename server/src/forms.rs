//! What the handlers of plain form posts share. Each feature's module routes its own
//! forms (`routes()`, at the addresses in `app::post`) and answers each with a redirect
//! (303) to the page that shows what happened, the same with and without JavaScript;
//! an error the page cannot show is answered by [`crate::ApiError::from_user`].

use axum::extract::Multipart;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use backend::ImportError;

/// The language a request's `Accept-Language` asks for, if Sou speaks it.
pub(crate) fn accept_language(headers: &HeaderMap) -> Option<agent::Locale> {
    headers
        .get(header::ACCEPT_LANGUAGE)
        .and_then(|v| v.to_str().ok())
        .and_then(agent::Locale::from_accept_language)
}

/// The API's language: the request's, else English.
pub(crate) fn api_locale(headers: &HeaderMap) -> agent::Locale {
    accept_language(headers).unwrap_or(agent::Locale::En)
}

/// A page's language: the request's, else French.
pub(crate) fn locale(headers: &HeaderMap) -> agent::Locale {
    accept_language(headers).unwrap_or(agent::Locale::Fr)
}

pub(crate) fn see_other(to: &str) -> Response {
    Redirect::to(to).into_response()
}

/// The `file` field of the form: its name and bytes.
pub(crate) async fn read_file(mut multipart: Multipart) -> Result<(String, Vec<u8>), ImportError> {
    loop {
        let field = match multipart.next_field().await {
            Ok(Some(field)) => field,
            Ok(None) => return Err(ImportError::Empty),
            // A body over the limit ends here too.
            Err(e) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => return Err(ImportError::TooLarge),
            Err(_) => return Err(ImportError::Empty),
        };
        if field.name() != Some("file") {
            continue;
        }
        let name = field.file_name().unwrap_or_default().to_string();
        return match field.bytes().await {
            Ok(bytes) => Ok((name, bytes.to_vec())),
            Err(e) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => Err(ImportError::TooLarge),
            Err(_) => Err(ImportError::Empty),
        };
    }
}

//! The import and rule forms: plain posts answered with a redirect (303) to the page
//! that shows what happened, the same with and without JavaScript. The pages
//! themselves are Leptos routes (`/import`, `/import/{id}`, `/rules`).

use axum::extract::{Multipart, Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::Form;
use backend::imports::{ImportError, Target, MAX_FILE_BYTES};
use serde::Deserialize;

use crate::auth::SignedIn;
use crate::{ApiError, AppState};

/// The largest request body of an upload: the file and the form around it.
pub const UPLOAD_BODY_LIMIT: usize = MAX_FILE_BYTES + 64 * 1024;
/// The same for a dataset.
pub const DATASET_BODY_LIMIT: usize = backend::datasets::MAX_FILE_BYTES + 64 * 1024;

fn locale(headers: &HeaderMap) -> agent::Locale {
    headers
        .get(header::ACCEPT_LANGUAGE)
        .and_then(|v| v.to_str().ok())
        .and_then(agent::Locale::from_accept_language)
        .unwrap_or(agent::Locale::Fr)
}

fn see_other(to: &str) -> Response {
    Redirect::to(to).into_response()
}

/// `POST /import` (multipart, field `file`): keeps the file and goes to its preview;
/// a file Sou cannot read goes back to `/import`, which says why.
pub async fn upload(
    State(state): State<AppState>,
    SignedIn(account): SignedIn,
    multipart: Multipart,
) -> Response {
    let imports = state.sou.imports();
    let file = read_file(multipart).await;
    let result = match file {
        Ok((name, bytes)) => imports.upload(state.sou.store(), account.user, &name, bytes).await,
        Err(e) => Err(e),
    };
    match result {
        Ok(id) => see_other(&format!("/import/{id}")),
        Err(e) => {
            if !e.is_users() {
                tracing::error!(error = %e, "an upload failed");
            }
            let refused = imports.refused(account.user, &e);
            see_other(&format!("/import?refused={refused}"))
        }
    }
}

/// `POST /datasets` (multipart, field `file`): a CSV file becomes a dataset; back to
/// `/datasets`, which shows it or says why not.
pub async fn upload_dataset(
    State(state): State<AppState>,
    SignedIn(account): SignedIn,
    multipart: Multipart,
) -> Response {
    let result = match read_file(multipart).await {
        Ok((name, bytes)) => backend::datasets::create(state.sou.store(), account.user, &name, &bytes).await,
        Err(ImportError::TooLarge) => Err(backend::datasets::DatasetError::TooLarge),
        Err(_) => Err(backend::datasets::DatasetError::Empty),
    };
    match result {
        Ok(info) => {
            let q = form_urlencoded::Serializer::new(String::new()).append_pair("added", &info.name).finish();
            see_other(&format!("/datasets?{q}"))
        }
        Err(e) => {
            if !e.is_users() {
                tracing::error!(error = %e, "a dataset upload failed");
            }
            let refused = state.sou.imports().refused_with(
                account.user,
                e.message(agent::Locale::Fr),
                e.message(agent::Locale::En),
            );
            see_other(&format!("/datasets?refused={refused}"))
        }
    }
}

/// `POST /datasets/{name}/delete`
pub async fn delete_dataset(
    State(state): State<AppState>,
    SignedIn(account): SignedIn,
    Path(name): Path<String>,
) -> Response {
    match backend::datasets::delete(state.sou.store(), account.user, &name).await {
        Ok(()) => see_other("/datasets"),
        Err(backend::datasets::DatasetError::NotFound(_)) => not_found(),
        Err(e) => {
            tracing::error!(error = %e, "a dataset could not be deleted");
            ApiError::internal().into_response()
        }
    }
}

/// The `file` field of the form: its name and bytes.
async fn read_file(mut multipart: Multipart) -> Result<(String, Vec<u8>), ImportError> {
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

#[derive(Deserialize)]
pub struct RunForm {
    /// The CSV layout the preview showed, as JSON; empty: the detected one.
    #[serde(default)]
    mapping: String,
    /// An account key; empty: a new account named `new_account`.
    #[serde(default)]
    account: String,
    #[serde(default)]
    new_account: String,
}

/// `POST /import/{id}/run`: starts the import and goes to its page (progress, report,
/// or why it could not start).
pub async fn run(
    State(state): State<AppState>,
    SignedIn(account): SignedIn,
    Path(id): Path<String>,
    headers: HeaderMap,
    Form(form): Form<RunForm>,
) -> Response {
    let mapping = match form.mapping.trim() {
        "" => None,
        json => match serde_json::from_str(json) {
            Ok(m) => Some(m),
            Err(_) => {
                let message = match locale(&headers) {
                    agent::Locale::Fr => "La disposition des colonnes envoyée n'est pas lisible.",
                    agent::Locale::En => "The column layout sent could not be read.",
                };
                return ApiError::new(StatusCode::BAD_REQUEST, "bad_request", message).into_response();
            }
        },
    };
    let target = match form.account.trim() {
        "" => Target::New(form.new_account),
        key => Target::Existing(key.to_string()),
    };
    match state.sou.imports().start(state.sou.store(), account.user, &id, mapping, target).await {
        Ok(()) | Err(ImportError::Running) => see_other(&format!("/import/{id}")),
        Err(ImportError::NotFound) => not_found(),
        Err(e) if e.is_users() => see_other(&format!("/import/{id}")),
        Err(e) => {
            tracing::error!(error = %e, "an import could not start");
            ApiError::internal().into_response()
        }
    }
}

/// `POST /import/{id}/discard`: forgets an upload that was not imported.
pub async fn discard(
    State(state): State<AppState>,
    SignedIn(account): SignedIn,
    Path(id): Path<String>,
) -> Response {
    match state.sou.imports().discard(state.sou.store(), account.user, &id).await {
        Ok(()) => see_other("/import"),
        Err(ImportError::NotFound) => not_found(),
        Err(e) => {
            tracing::error!(error = %e, "an upload could not be discarded");
            ApiError::internal().into_response()
        }
    }
}

fn not_found() -> Response {
    ApiError::new(StatusCode::NOT_FOUND, "not_found", "not found").into_response()
}

#[derive(Deserialize)]
pub struct RuleForm {
    pattern: String,
    category: String,
}

/// `POST /rules`: saves a rule and shows what it would change in the past.
pub async fn create_rule(
    State(state): State<AppState>,
    SignedIn(account): SignedIn,
    headers: HeaderMap,
    Form(form): Form<RuleForm>,
) -> Response {
    let locale = locale(&headers);
    match backend::rules::create(state.sou.store(), account.user, &form.pattern, &form.category, locale).await
    {
        Ok(p) => see_other(&format!("/rules?rule={}", p.rule.id)),
        Err(backend::rules::RuleError::Backend(e)) => ApiError::from(e).into_response(),
        Err(e) => {
            let q = form_urlencoded::Serializer::new(String::new())
                .append_pair("pattern", &form.pattern)
                .append_pair("category", &form.category)
                .append_pair("error", e.code())
                .finish();
            see_other(&format!("/rules?{q}"))
        }
    }
}

/// `POST /rules/{id}/apply`: the approval — past transactions get the rule's category.
pub async fn apply_rule(
    State(state): State<AppState>,
    SignedIn(account): SignedIn,
    Path(id): Path<i64>,
) -> Response {
    match backend::rules::apply(state.sou.store(), account.user, id).await {
        Ok(n) => see_other(&format!("/rules?applied={n}")),
        Err(e) => ApiError::from(e).into_response(),
    }
}

/// `POST /rules/{id}/delete`
pub async fn delete_rule(
    State(state): State<AppState>,
    SignedIn(account): SignedIn,
    Path(id): Path<i64>,
) -> Response {
    match backend::rules::delete(state.sou.store(), account.user, id).await {
        Ok(()) => see_other("/rules"),
        Err(e) => ApiError::from(e).into_response(),
    }
}

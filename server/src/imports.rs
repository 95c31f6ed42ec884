//! The import API for scripts (`/api/v1/imports`): upload a bank file as the request
//! body, read its preview (the layout Sou detected, the rows, what is rejected and why,
//! the balances checked), correct the layout if asked, then run it. The same service
//! as the `/import` pages, with the same checks: a layout Sou is unsure of waits for
//! one the caller names, and what is refused says why (`docs/api.md`).
//!
//! And the `/import` pages' forms: a file uploaded (to its preview), an import run,
//! an upload discarded; each answered with a redirect to the page that says what
//! happened.

use app::post::key;
use std::collections::HashMap;
use std::time::Duration;

use agent::imports::{ImportState, LayoutEdit, Mapping};
use app::post::imports as at;
use app::post::RunForm;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, Multipart, Path, Query, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Form, Json, Router};
use backend::{Chosen, ImportError, Layout, Target, MAX_IMPORT_BYTES};
use backend::{ErrorKind, UserError};
use serde::Deserialize;
use serde_json::json;

use crate::auth::SignedIn;
use crate::error::ApiError;
use crate::forms::{api_locale as locale, read_file, see_other};
use crate::state::AppState;

/// How long `"wait": true` waits for an import to end before answering with its progress.
const WAIT: Duration = Duration::from_secs(60);

/// The largest request body of an upload: the file and the form around it.
pub const UPLOAD_BODY_LIMIT: usize = MAX_IMPORT_BYTES + 64 * 1024;

pub(crate) fn routes() -> Router<AppState> {
    let upload_limit = || DefaultBodyLimit::max(UPLOAD_BODY_LIMIT);
    Router::new()
        .route("/api/v1/imports", post(create).get(list).layer(upload_limit()))
        .route("/api/v1/imports/{id}", get(show).delete(discard))
        .route("/api/v1/imports/{id}/run", post(run))
        .route(at::UPLOAD.route(), post(upload_form).layer(upload_limit()))
        .route(at::RUN.route(), post(run_form))
        .route(at::DISCARD.route(), post(discard_form))
}

/// The preview's query: `account` (a key) and the layout fields of the `/import/{id}`
/// page (columns from 1).
fn edit_of(q: &HashMap<String, String>) -> Result<LayoutEdit, ApiError> {
    let bad = |message: String| ApiError::new(StatusCode::BAD_REQUEST, "bad_request", message);
    for (k, v) in q {
        if LayoutEdit::NUMBERS.contains(&k.as_str()) {
            if !v.is_empty() && v.parse::<usize>().is_err() {
                return Err(bad(format!("{k} must be a column number")));
            }
        } else if !LayoutEdit::WORDS.contains(&k.as_str()) && k != key::ACCOUNT && k != "parts" {
            return Err(bad(format!("unknown parameter {k}")));
        }
    }
    Ok(LayoutEdit::from_query(|k| q.get(k).cloned()))
}

/// `POST /api/v1/imports?name=releve.csv`: the file is the body. Answers `201` with the
/// preview (detected layout, into a new account unless `account` names one).
pub async fn create(
    State(state): State<AppState>,
    SignedIn(account): SignedIn,
    Query(q): Query<HashMap<String, String>>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let content_type = headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or("");
    if content_type.starts_with("multipart/") || content_type.starts_with("application/x-www-form-urlencoded")
    {
        return Err(ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported_media_type",
            "send the file itself as the body (application/octet-stream, text/csv…), its name in ?name=",
        ));
    }
    let bytes = match body {
        Ok(bytes) => bytes,
        Err(r) if r.status() == StatusCode::PAYLOAD_TOO_LARGE => {
            let e = ImportError::TooLarge;
            return Err(ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                "too_large",
                e.message(agent::Locale::En),
            ));
        }
        Err(r) => return Err(ApiError::new(StatusCode::BAD_REQUEST, "bad_request", r.body_text())),
    };
    let name = q.get("name").cloned().unwrap_or_default();
    let into = q.get(key::ACCOUNT).filter(|a| !a.is_empty()).cloned();
    let imports = state.sou.imports();
    let id = match imports.upload(account.user, &name, bytes.to_vec()).await {
        Ok(id) => id,
        // Over the limit by less than the form's margin: still too large.
        Err(e @ ImportError::TooLarge) => {
            return Err(ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                "too_large",
                e.message(agent::Locale::En),
            ))
        }
        Err(e) => return Err(ApiError::from_user(e)),
    };
    let view = imports
        .view(
            account.user,
            &id,
            Layout::Detected,
            Chosen { account: into.as_deref(), parts: &[] },
            locale(&headers),
        )
        .await
        .map_err(ApiError::from_user)?;
    let mut response = (StatusCode::CREATED, Json(view)).into_response();
    if let Ok(location) = HeaderValue::from_str(&format!("/api/v1/imports/{id}")) {
        response.headers_mut().insert(header::LOCATION, location);
    }
    Ok(response)
}

/// `GET /api/v1/imports`: the caller's imports, newest first.
pub async fn list(State(state): State<AppState>, SignedIn(account): SignedIn) -> Result<Response, ApiError> {
    let imports = state.sou.imports().list(account.user).await.map_err(ApiError::from_user)?;
    Ok(Json(json!({ "imports": imports })).into_response())
}

/// `GET /api/v1/imports/{id}`: the preview (with the layout fields and `account` of the
/// query), the progress, or the report.
pub async fn show(
    State(state): State<AppState>,
    SignedIn(account): SignedIn,
    Path(id): Path<String>,
    Query(q): Query<HashMap<String, String>>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let edit = edit_of(&q)?;
    let into = q.get(key::ACCOUNT).filter(|a| !a.is_empty()).cloned();
    let parts: Vec<String> =
        q.get("parts").map(|p| p.split(',').map(str::to_string).collect()).unwrap_or_default();
    let view = state
        .sou
        .imports()
        .view(
            account.user,
            &id,
            Layout::Edited(&edit),
            Chosen { account: into.as_deref(), parts: &parts },
            locale(&headers),
        )
        .await
        .map_err(ApiError::from_user)?;
    Ok(Json(view).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunRequest {
    /// The layout to read a CSV file with (as the preview's `mapping`, edited); none:
    /// the detected one.
    #[serde(default)]
    mapping: Option<Mapping>,
    /// An account key; none: a new account named `new_account`.
    #[serde(default)]
    account: Option<String>,
    #[serde(default)]
    new_account: Option<String>,
    /// A new account's currency, for a file that states none; none: the user's.
    #[serde(default)]
    currency: Option<String>,
    /// A file naming several accounts: where each goes, in the preview's `parts` order.
    #[serde(default)]
    parts: Option<Vec<PartTarget>>,
    /// Answer when the import has ended (up to 60 s) rather than at once.
    #[serde(default)]
    wait: bool,
}

/// Where one of a file's accounts goes: an account key, or a new account (named as the
/// file names it unless `new_account` says), in `currency` when the file states none.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PartTarget {
    #[serde(default)]
    account: Option<String>,
    #[serde(default)]
    new_account: Option<String>,
    #[serde(default)]
    currency: Option<String>,
}

/// A key, else a new account named `name`, in `currency` if given.
fn target(account: Option<String>, name: String, currency: Option<String>) -> Target {
    match (account.filter(|a| !a.is_empty()), currency.filter(|c| !c.is_empty())) {
        (Some(key), _) => Target::Existing(key),
        (None, Some(currency)) => Target::NewIn(name, currency),
        (None, None) => Target::New(name),
    }
}

/// `POST /api/v1/imports/{id}/run`: starts the import. `202` with its progress, or with
/// `"wait": true` `200` with its report once done.
pub async fn run(
    State(state): State<AppState>,
    SignedIn(account): SignedIn,
    Path(id): Path<String>,
    body: Result<Json<RunRequest>, axum::extract::rejection::JsonRejection>,
) -> Result<Response, ApiError> {
    let Json(req) = body?;
    let imports = state.sou.imports();
    let target = match req.parts {
        // A new account without a name is named as the file names that account.
        Some(parts) => Target::Split(
            parts
                .into_iter()
                .map(|p| {
                    let currency = p.currency.or_else(|| req.currency.clone());
                    target(p.account, p.new_account.unwrap_or_default(), currency)
                })
                .collect(),
        ),
        None => target(req.account, req.new_account.unwrap_or_default(), req.currency),
    };
    imports.start(account.user, &id, req.mapping, target).await.map_err(ApiError::from_user)?;
    let deadline = tokio::time::Instant::now() + if req.wait { WAIT } else { Duration::ZERO };
    loop {
        let now = imports.state(account.user, &id, agent::Locale::En).await.map_err(ApiError::from_user)?;
        match now {
            ImportState::Running { .. } if tokio::time::Instant::now() < deadline => {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            ImportState::Running { .. } => return Ok((StatusCode::ACCEPTED, Json(now)).into_response()),
            ImportState::Failed { message } => {
                return Err(ApiError::new(StatusCode::CONFLICT, "import_failed", message));
            }
            done => return Ok(Json(done).into_response()),
        }
    }
}

/// `DELETE /api/v1/imports/{id}`: forgets an upload not imported.
pub async fn discard(
    State(state): State<AppState>,
    SignedIn(account): SignedIn,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    state.sou.imports().discard(account.user, &id).await.map_err(ApiError::from_user)?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// `POST /import` (multipart, field `file`): keeps the file and goes to its preview;
/// a file Sou cannot read goes back to `/import`, which says why.
pub async fn upload_form(
    State(state): State<AppState>,
    SignedIn(account): SignedIn,
    multipart: Multipart,
) -> Response {
    let imports = state.sou.imports();
    let file = read_file(multipart).await;
    let result = match file {
        Ok((name, bytes)) => imports.upload(account.user, &name, bytes).await,
        Err(e) => Err(e),
    };
    match result {
        Ok(id) => see_other(&format!("/import/{id}")),
        Err(e) => {
            if e.kind() == ErrorKind::Internal {
                tracing::error!(error = %e, "an upload failed");
            }
            match imports.refused(account.user, &e).await {
                Ok(refused) => see_other(&format!("/import?{}={refused}", key::REFUSED)),
                Err(e) => {
                    tracing::error!(error = %e, "keeping why an upload was refused failed");
                    see_other("/import")
                }
            }
        }
    }
}

/// The targets of a file naming several accounts, from `part<n>` (`None` when the form
/// has no `part1`).
fn split(form: &RunForm) -> Option<Target> {
    let currency = form.currency.trim();
    let targets: Vec<Target> = (1..)
        .map_while(|n| {
            let key = form.parts.get(&format!("part{n}"))?.trim().to_string();
            Some(match (key.is_empty(), currency.is_empty()) {
                (false, _) => Target::Existing(key),
                (true, true) => Target::New(String::new()),
                (true, false) => Target::NewIn(String::new(), currency.to_string()),
            })
        })
        .collect();
    (!targets.is_empty()).then_some(Target::Split(targets))
}

/// `POST /import/{id}/run`: starts the import and goes to its page (progress, report,
/// or why it could not start).
pub async fn run_form(
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
                let message = match crate::forms::locale(&headers) {
                    agent::Locale::Fr => "La disposition des colonnes envoyée n'est pas lisible.",
                    agent::Locale::En => "The column layout sent could not be read.",
                };
                return ApiError::new(StatusCode::BAD_REQUEST, "bad_request", message).into_response();
            }
        },
    };
    let target = match split(&form) {
        Some(split) => split,
        None => match (form.account.trim(), form.currency.trim()) {
            ("", "") => Target::New(form.new_account.clone()),
            ("", currency) => Target::NewIn(form.new_account.clone(), currency.to_string()),
            (key, _) => Target::Existing(key.to_string()),
        },
    };
    match state.sou.imports().start(account.user, &id, mapping, target).await {
        // The upload's page says why an import did not start.
        Ok(()) => see_other(&format!("/import/{id}")),
        Err(e) if !matches!(e.kind(), ErrorKind::NotFound | ErrorKind::Internal) => {
            see_other(&format!("/import/{id}"))
        }
        Err(e) => ApiError::from_user(e).into_response(),
    }
}

/// `POST /import/{id}/discard`: forgets an upload that was not imported.
pub async fn discard_form(
    State(state): State<AppState>,
    SignedIn(account): SignedIn,
    Path(id): Path<String>,
) -> Response {
    match state.sou.imports().discard(account.user, &id).await {
        Ok(()) => see_other("/import"),
        Err(e) => ApiError::from_user(e).into_response(),
    }
}

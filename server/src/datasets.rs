//! Datasets' forms: a CSV file uploaded, a dataset deleted; back to `/datasets`.

use app::post::datasets as at;
use app::post::key;
use axum::extract::{DefaultBodyLimit, Multipart, Path, State};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::Router;
use backend::ImportError;
use backend::{ErrorKind, UserError};

use crate::auth::SignedIn;
use crate::error::ApiError;
use crate::forms::{read_file, see_other};
use crate::state::AppState;

/// The largest request body of a dataset: the file and the form around it.
pub const DATASET_BODY_LIMIT: usize = backend::MAX_DATASET_BYTES + 64 * 1024;

pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route(at::UPLOAD.route(), post(upload_dataset).layer(DefaultBodyLimit::max(DATASET_BODY_LIMIT)))
        .route(at::DELETE.route(), post(delete_dataset))
}

/// `POST /datasets` (multipart, field `file`): a CSV file becomes a dataset; back to
/// `/datasets`, which shows it or says why not.
pub async fn upload_dataset(
    State(state): State<AppState>,
    SignedIn(account): SignedIn,
    multipart: Multipart,
) -> Response {
    let result = match read_file(multipart).await {
        Ok((name, bytes)) => state.sou.datasets().create(account.user, (&name, &bytes)).await,
        Err(ImportError::TooLarge) => Err(backend::DatasetError::TooLarge),
        Err(_) => Err(backend::DatasetError::Empty),
    };
    match result {
        Ok(info) => {
            let q =
                form_urlencoded::Serializer::new(String::new()).append_pair(key::ADDED, &info.name).finish();
            see_other(&format!("/datasets?{q}"))
        }
        Err(e) => {
            if e.kind() == ErrorKind::Internal {
                tracing::error!(error = %e, "a dataset upload failed");
            }
            let (fr, en) = (e.message(agent::Locale::Fr), e.message(agent::Locale::En));
            match state.sou.imports().refused_with(account.user, fr, en).await {
                Ok(refused) => see_other(&format!("/datasets?{}={refused}", key::REFUSED)),
                Err(e) => {
                    tracing::error!(error = %e, "keeping why a dataset upload was refused failed");
                    see_other("/datasets")
                }
            }
        }
    }
}

/// `POST /datasets/{name}/delete`
pub async fn delete_dataset(
    State(state): State<AppState>,
    SignedIn(account): SignedIn,
    Path(name): Path<String>,
) -> Response {
    match state.sou.datasets().delete(account.user, &name).await {
        Ok(()) => see_other("/datasets"),
        Err(e) => ApiError::from_user(e).into_response(),
    }
}

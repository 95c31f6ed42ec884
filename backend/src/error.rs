//! The backend's errors and the one shape of an error a user may see: [`UserError`], a
//! stable code, a sentence in the user's language and the [`ErrorKind`] each edge (the
//! server functions, the JSON API, the forms, the chat stream) turns into its own
//! status. `Display` texts are for logs: they may carry details a user never sees.

use agent::Locale;
use thiserror::Error;

use crate::llm::catalog::ProviderId;
use crate::llm::LlmError;

/// An error a user may be told about. Implemented by every module's error; each edge
/// maps it once, and logs (never sends) what [`ErrorKind::Internal`] hides.
pub trait UserError: std::error::Error {
    /// A stable code (`"not_found"`, `"name_taken"`…): what clients and pages translate,
    /// and what a form carries back in its URL.
    fn code(&self) -> &'static str;
    /// What to tell the user, in their language. Never SQL, paths, keys or a provider's
    /// raw text.
    fn message(&self, locale: Locale) -> String;
    /// What kind of failure it is, for the edge's status.
    fn kind(&self) -> ErrorKind;
}

/// What kind of failure an error is; the edge chooses the status (HTTP, page, event).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// What was sent is wrong, and the user can fix it.
    Invalid,
    /// A plan that does not fit its tool.
    InvalidPlan,
    /// No such thing, or not the user's.
    NotFound,
    /// Wrong name or password.
    Unauthenticated,
    /// Not allowed on this server (sign-up closed).
    Forbidden,
    /// It exists already, or is under way.
    Conflict,
    /// Too many attempts: try again later.
    Limited,
    /// A language model's provider failed; the message says what to do.
    Provider,
    /// The server's fault: logged, and shown as a plain apology.
    Internal,
}

/// Errors of the backend. `Display` texts are for logs; [`UserError`] says what a user
/// sees.
#[derive(Debug, Error)]
pub enum BackendError {
    #[error("database: {0}")]
    Db(#[from] sqlx::Error),
    #[error("the plan is not valid: {0}")]
    InvalidPlan(#[from] PlanError),
    #[error("invalid request: {0}")]
    BadRequest(String),
    #[error("not found")]
    NotFound,
    /// A widget's visitors asked the site's hourly limit.
    #[error("the widget's hourly limit was reached")]
    Busy,
    /// Too many dataset queries at once, the user's or the server's
    /// (`datasets::DatasetError::Busy`): the sentence, in the user's language.
    #[error("dataset queries: {0}")]
    QueriesBusy(String),
    #[error("stored data is corrupt: {0}")]
    Corrupt(String),
    #[error("{provider}: {error}")]
    Llm { provider: ProviderId, error: LlmError },
    #[error("key vault: {0}")]
    Vault(#[from] crate::vault::VaultError),
    /// The question an answer was under way for could not be stored: the request fails
    /// with this; why is logged where it failed (the run's writer).
    #[error("the question was not stored")]
    Unstored,
}

impl UserError for BackendError {
    fn code(&self) -> &'static str {
        match self {
            BackendError::Llm { error, .. } => llm_code(error),
            BackendError::BadRequest(_) => "bad_request",
            BackendError::InvalidPlan(_) => "invalid_plan",
            BackendError::NotFound => "not_found",
            BackendError::Busy => "rate_limited",
            BackendError::QueriesBusy(_) => "busy",
            BackendError::Db(_)
            | BackendError::Corrupt(_)
            | BackendError::Vault(_)
            | BackendError::Unstored => "internal",
        }
    }

    fn message(&self, locale: Locale) -> String {
        let fr = locale == Locale::Fr;
        match self {
            BackendError::Llm { provider, error } => llm_sentence(*provider, error, locale),
            BackendError::BadRequest(m) | BackendError::QueriesBusy(m) => m.clone(),
            BackendError::InvalidPlan(p) => p.to_string(),
            BackendError::NotFound => if fr { "Introuvable." } else { "Not found." }.into(),
            BackendError::Busy => if fr {
                "Cet assistant a reçu beaucoup de questions cette heure-ci : réessayez plus tard."
            } else {
                "This assistant has had many questions this hour: try again later."
            }
            .into(),
            BackendError::Db(_)
            | BackendError::Corrupt(_)
            | BackendError::Vault(_)
            | BackendError::Unstored => if fr {
                "Une erreur interne est survenue ; rien n'a été perdu. Réessayez dans un instant."
            } else {
                "Something went wrong on the server; nothing was lost. Try again in a moment."
            }
            .into(),
        }
    }

    fn kind(&self) -> ErrorKind {
        match self {
            BackendError::Llm { .. } => ErrorKind::Provider,
            BackendError::BadRequest(_) => ErrorKind::Invalid,
            BackendError::InvalidPlan(_) => ErrorKind::InvalidPlan,
            BackendError::NotFound => ErrorKind::NotFound,
            BackendError::Busy | BackendError::QueriesBusy(_) => ErrorKind::Limited,
            BackendError::Db(_)
            | BackendError::Corrupt(_)
            | BackendError::Vault(_)
            | BackendError::Unstored => ErrorKind::Internal,
        }
    }
}

/// What a model's failure means for the user, and what to do next, as `(code,
/// message)`: [`UserError`] of a provider's error outside a [`BackendError`] (the
/// guardian's warning, the tool loop's `error` event).
pub fn llm_message(provider: ProviderId, e: &LlmError, locale: Locale) -> (String, String) {
    (llm_code(e).to_string(), llm_sentence(provider, e, locale))
}

fn llm_code(e: &LlmError) -> &'static str {
    match e {
        LlmError::KeyRejected => "key_rejected",
        LlmError::RateLimited { .. } => "rate_limited",
        LlmError::Timeout => "timeout",
        LlmError::ContextOverflow => "context_overflow",
        LlmError::EmptyReply => "empty_reply",
        LlmError::Config(_) => "provider_config",
        LlmError::InBand(_)
        | LlmError::Truncated
        | LlmError::Malformed(_)
        | LlmError::Status(..)
        | LlmError::Network(_) => "provider_unavailable",
    }
}

/// Never a key, never the provider's raw text.
fn llm_sentence(provider: ProviderId, e: &LlmError, locale: Locale) -> String {
    let name = provider.display_name();
    let fr = locale == Locale::Fr;
    match e {
        LlmError::KeyRejected => {
            if fr {
                format!("{name} a refusé la clé d'API. Vérifiez-la ou remplacez-la dans Réglages.")
            } else {
                format!("{name} rejected the API key. Check or replace it in Settings.")
            }
        }
        LlmError::RateLimited { .. } => {
            if fr {
                format!("{name} limite le nombre de requêtes. Réessayez dans une minute.")
            } else {
                format!("{name} is rate limiting requests. Try again in a minute.")
            }
        }
        LlmError::Timeout => {
            if fr {
                format!("{name} n'a pas répondu à temps (deux essais). Réessayez, ou choisissez un autre fournisseur dans Réglages.")
            } else {
                format!("{name} did not answer in time (tried twice). Try again, or choose another provider in Settings.")
            }
        }
        LlmError::ContextOverflow => {
            if fr {
                "La conversation est trop longue pour le modèle, même raccourcie. Commencez une nouvelle conversation.".to_string()
            } else {
                "The conversation is too long for the model, even shortened. Start a new conversation."
                    .to_string()
            }
        }
        LlmError::EmptyReply => {
            if fr {
                format!("{name} a renvoyé une réponse vide (deux essais). Reformulez ou réessayez.")
            } else {
                format!("{name} returned an empty reply (tried twice). Rephrase or try again.")
            }
        }
        LlmError::Config(_) => {
            if fr {
                format!(
                    "{name} n'est pas configuré correctement. Vérifiez la clé et l'adresse dans Réglages."
                )
            } else {
                format!("{name} is not configured correctly. Check its key and address in Settings.")
            }
        }
        LlmError::InBand(_)
        | LlmError::Truncated
        | LlmError::Malformed(_)
        | LlmError::Status(..)
        | LlmError::Network(_) => {
            if fr {
                format!("{name} est indisponible ou a interrompu sa réponse. Réessayez, ou choisissez un autre fournisseur dans Réglages.")
            } else {
                format!("{name} is unavailable or cut its answer short. Try again, or choose another provider in Settings.")
            }
        }
    }
}

/// Errors opening the store: they stop the server at start.
#[derive(Debug, Error)]
pub enum StoreError {
    #[error("cannot create the data directory {path}: {source}")]
    DataDir { path: String, source: std::io::Error },
    #[error("cannot open the database {url}: {source}")]
    Open { url: String, source: sqlx::Error },
    #[error("database migration failed: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    #[error(
        "database migration failed: {0}. On PostgreSQL Sou connects as a role that owns nothing; run the \
         migrations as the tables' owner by setting SOU_DATABASE_OWNER_URL"
    )]
    MigrateAsApp(#[source] sqlx::migrate::MigrateError),
    #[error("unsupported DATABASE_URL scheme {0:?}: Sou supports sqlite: and postgres: URLs")]
    UnsupportedUrl(String),
    #[error(
        "the PostgreSQL role {role:?} Sou connects as must not be a superuser (it is: {superuser}), bypass \
         row-level security (it does: {bypass}) or own tables (it owns {owned}): give the migrations \
         their own role with SOU_DATABASE_OWNER_URL and connect as a role that owns nothing"
    )]
    UnsafeRole { role: String, superuser: bool, bypass: bool, owned: i64 },
    #[error("seeding the demo ledger failed: {0}")]
    Seed(#[source] sqlx::Error),
    #[error("{0}")]
    Db(#[from] sqlx::Error),
}

/// A [`BackendError`] as the chat stream's `error` event says it: `(code, message)`,
/// in English unless the message asked for another language.
pub fn user_safe(e: &BackendError, locale: Option<Locale>) -> (String, String) {
    (e.code().to_string(), e.message(locale.unwrap_or(Locale::En)))
}

/// Why a plan is refused before it runs (`registry::Registry::validate`).
#[derive(Debug, Error, PartialEq)]
pub enum PlanError {
    #[error("the plan must be a JSON object with \"tool\" and \"args\"")]
    Shape,
    #[error("unknown tool {0:?}")]
    UnknownTool(String),
    #[error("arguments of {tool} do not match its schema: {details}")]
    Schema { tool: &'static str, details: String },
    #[error("arguments of {tool}: {details}")]
    Args { tool: &'static str, details: String },
    #[error("{0}")]
    Semantic(String),
}

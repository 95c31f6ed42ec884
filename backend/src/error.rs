use thiserror::Error;

/// Errors of the backend. `Display` texts are for logs; the edge maps each variant to
/// a user-safe message and status.
#[derive(Debug, Error)]
pub enum BackendError {
    #[error("database: {0}")]
    Db(#[from] sqlx::Error),
    #[error("the plan is not valid: {0}")]
    InvalidPlan(#[from] crate::registry::PlanError),
    #[error("invalid request: {0}")]
    BadRequest(String),
    #[error("not found")]
    NotFound,
    #[error("stored data is corrupt: {0}")]
    Corrupt(String),
    #[error("{provider}: {error}")]
    Llm { provider: crate::llm::catalog::ProviderId, error: crate::llm::LlmError },
    #[error("key vault: {0}")]
    Vault(#[from] crate::vault::VaultError),
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

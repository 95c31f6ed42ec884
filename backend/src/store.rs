//! The SQLite store: opening, migrations, and the few queries shared by tools.

use std::path::Path;
use std::str::FromStr;
use std::time::Duration;

use agent::{Term, Vocabulary};
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous,
};
use sqlx::Row;

use crate::error::{BackendError, StoreError};

/// RFC 3339 in UTC with milliseconds, the form of every stored timestamp: sorts as
/// text, in SQLite and PostgreSQL alike.
pub fn timestamp(t: chrono::DateTime<chrono::Utc>) -> String {
    t.to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

/// A user of this Sou instance. Until sign-up exists, everything belongs to `local`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UserId(pub i64);

#[derive(Clone, Debug)]
pub struct Store {
    pool: SqlitePool,
}

static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

impl Store {
    /// Opens (creating if needed) the database at `url` and applies every pending
    /// migration. Any failure is returned: the caller stops instead of serving.
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        if !url.starts_with("sqlite:") {
            let scheme = url.split(':').next().unwrap_or_default().to_string();
            return Err(StoreError::UnsupportedUrl(scheme));
        }
        let options = SqliteConnectOptions::from_str(url)
            .map_err(|source| StoreError::Open { url: url.to_string(), source })?
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal)
            .foreign_keys(true)
            .busy_timeout(Duration::from_secs(5));
        let pool = SqlitePoolOptions::new()
            .max_connections(8)
            .connect_with(options)
            .await
            .map_err(|source| StoreError::Open { url: url.to_string(), source })?;
        MIGRATOR.run(&pool).await?;
        Ok(Store { pool })
    }

    /// `sqlite://<dir>/sou.db`, creating `dir`.
    pub async fn open_in(data_dir: &Path) -> Result<Store, StoreError> {
        std::fs::create_dir_all(data_dir)
            .map_err(|source| StoreError::DataDir { path: data_dir.display().to_string(), source })?;
        let url = format!("sqlite://{}", data_dir.join("sou.db").display());
        Store::open(&url).await
    }

    pub fn pool(&self) -> &SqlitePool {
        &self.pool
    }

    /// The id of the user named `name`, created on first use.
    pub async fn ensure_user(&self, name: &str) -> Result<UserId, sqlx::Error> {
        sqlx::query("INSERT INTO users (name) VALUES ($1) ON CONFLICT (name) DO NOTHING")
            .bind(name)
            .execute(&self.pool)
            .await?;
        let id: i64 = sqlx::query_scalar("SELECT id FROM users WHERE name = $1")
            .bind(name)
            .fetch_one(&self.pool)
            .await?;
        Ok(UserId(id))
    }

    /// The user's categories, merchants and accounts, for the parser.
    pub async fn vocabulary(&self, user: UserId) -> Result<Vocabulary, BackendError> {
        let categories = sqlx::query(
            "SELECT key, name_fr, name_en, aliases, kind FROM categories WHERE user_id = $1 ORDER BY id",
        )
        .bind(user.0)
        .fetch_all(&self.pool)
        .await?
        .into_iter()
        .map(|r| kind_term(&r))
        .collect::<Result<Vec<_>, _>>()?;
        let merchants =
            sqlx::query("SELECT key, name, name, aliases FROM merchants WHERE user_id = $1 ORDER BY id")
                .bind(user.0)
                .fetch_all(&self.pool)
                .await?
                .into_iter()
                .map(|r| term(r.get(0), r.get(1), r.get(2), r.get(3)))
                .collect::<Result<Vec<_>, _>>()?;
        let accounts = sqlx::query(
            "SELECT key, name, COALESCE(name_en, name), aliases, kind FROM accounts
             WHERE user_id = $1 AND key IS NOT NULL ORDER BY id",
        )
        .bind(user.0)
        .fetch_all(&self.pool)
        .await?
        .into_iter()
        .map(|r| kind_term(&r))
        .collect::<Result<Vec<_>, _>>()?;
        let currency = Some(self.currency(user).await?);
        Ok(Vocabulary { categories, merchants, accounts, currency })
    }

    /// The user's main currency.
    pub async fn currency(&self, user: UserId) -> Result<agent::Currency, BackendError> {
        let code: String = sqlx::query_scalar("SELECT currency FROM users WHERE id = $1")
            .bind(user.0)
            .fetch_optional(&self.pool)
            .await?
            .ok_or(BackendError::NotFound)?;
        agent::Currency::new(&code).ok_or_else(|| BackendError::Corrupt(format!("currency {code:?}")))
    }
}

/// A row `key, name_fr, name_en, aliases, kind` (categories, accounts).
fn kind_term(r: &sqlx::sqlite::SqliteRow) -> Result<Term, BackendError> {
    term(r.get(0), r.get(1), r.get(2), r.get(3)).map(|t| Term { kind: Some(r.get(4)), ..t })
}

fn term(key: String, name_fr: String, name_en: String, aliases: String) -> Result<Term, BackendError> {
    let aliases: Vec<String> = serde_json::from_str(&aliases)
        .map_err(|e| BackendError::Corrupt(format!("aliases of {key:?}: {e}")))?;
    Ok(Term { key, name_fr, name_en, aliases, kind: None })
}

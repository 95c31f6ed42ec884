//! What the backend's and the server's integration tests share, behind the
//! `test-support` feature (enabled only by their dev-dependencies, never in a build of
//! Sou): a fresh PostgreSQL database and role per test, and a writer that keeps log
//! lines in memory.

use std::io;
use std::sync::{Arc, Mutex, PoisonError};

use sqlx::PgPool;

use crate::{Store, StoreError};

/// The PostgreSQL server the tests use, without a database: `SOU_TEST_POSTGRES_URL`, or
/// the local server's `postgres` superuser on 127.0.0.1:5432 (trust authentication).
pub fn postgres_server() -> String {
    std::env::var("SOU_TEST_POSTGRES_URL").unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432".into())
}

/// A database of its own (`sou_test_` and 12 random hex digits) and a role for Sou
/// (`sou_app_` and the same digits) that owns nothing and cannot bypass row-level
/// security, made by the server's admin role. Random names: tests running at once, in one
/// process or several, never share one. [`FreshDatabase::drop`] removes both.
pub struct FreshDatabase {
    admin: PgPool,
    server: String,
    database: String,
    role: String,
    password: Option<String>,
}

impl FreshDatabase {
    /// The database, and a role that logs in with a random password ([`Self::app_url`]).
    pub async fn create() -> Result<FreshDatabase, sqlx::Error> {
        Self::with_role(Some(uuid::Uuid::new_v4().simple().to_string())).await
    }

    /// The database, and a role that cannot log in: the owner takes it with `SET ROLE`.
    pub async fn create_nologin() -> Result<FreshDatabase, sqlx::Error> {
        Self::with_role(None).await
    }

    async fn with_role(password: Option<String>) -> Result<FreshDatabase, sqlx::Error> {
        let server = postgres_server();
        let admin = PgPool::connect(&format!("{server}/postgres")).await?;
        let suffix = uuid::Uuid::new_v4().simple().to_string()[..12].to_string();
        let (database, role) = (format!("sou_test_{suffix}"), format!("sou_app_{suffix}"));
        sqlx::query(&format!("CREATE DATABASE {database}")).execute(&admin).await?;
        let login = match &password {
            Some(password) => format!("LOGIN NOBYPASSRLS PASSWORD '{password}'"),
            None => "NOLOGIN NOBYPASSRLS".to_string(),
        };
        sqlx::query(&format!("CREATE ROLE {role} {login}")).execute(&admin).await?;
        Ok(FreshDatabase { admin, server, database, role, password })
    }

    pub fn database(&self) -> &str {
        &self.database
    }

    pub fn role(&self) -> &str {
        &self.role
    }

    /// The database as the admin role, which owns what the migrations create.
    pub fn owner_url(&self) -> String {
        format!("{}/{}", self.server, self.database)
    }

    /// The database as Sou's role (`None` for a role made by [`Self::create_nologin`]).
    pub fn app_url(&self) -> Option<String> {
        let password = self.password.as_ref()?;
        let authority = self.server.split_once("://").map_or(self.server.as_str(), |(_, rest)| rest);
        let host = authority.rsplit('@').next().unwrap_or(authority);
        Some(format!("postgres://{}:{password}@{host}/{}", self.role, self.database))
    }

    /// Sou's store as the server opens it: connected as Sou's role, migrated by the owner
    /// (for a role made by [`Self::create_nologin`], connected as the owner, which Sou
    /// refuses).
    pub async fn open_store(&self) -> Result<Store, StoreError> {
        let app_url = self.app_url().unwrap_or_else(|| self.owner_url());
        Store::open_postgres(&app_url, Some(&self.owner_url())).await
    }

    /// Drops the database (closing whatever is still connected) and the role.
    ///
    /// # Panics
    /// When PostgreSQL refuses: the test fails rather than leave them behind.
    #[allow(clippy::expect_used, reason = "test support: a database left behind must fail the test")]
    pub async fn drop(self) {
        sqlx::query(&format!("DROP DATABASE {} WITH (FORCE)", self.database))
            .execute(&self.admin)
            .await
            .expect("the test database is dropped");
        sqlx::query(&format!("DROP ROLE {}", self.role))
            .execute(&self.admin)
            .await
            .expect("the test role is dropped");
    }
}

/// Log output kept in memory, for a `tracing` subscriber's writer (`with_writer(move ||
/// captured.clone())`): every clone appends to the same buffer.
#[derive(Clone, Default)]
pub struct Captured(pub Arc<Mutex<Vec<u8>>>);

impl io::Write for Captured {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Two `#[tokio::test]`s running one scenario: `$sqlite` on a SQLite store in a
/// temporary directory, `$postgres` on a [`FreshDatabase`] (dropped afterwards). The
/// scenario is written as a closure over the store and, if it needs one, a temporary
/// directory (the site's files, for the server):
///
/// ```text
/// backend::on_both_databases!(works_on_sqlite, works_on_postgres, |store| works(store));
/// backend::on_both_databases!(serves_on_sqlite, serves_on_postgres, |store, site| serves(store, site));
/// // The same as the line above:
/// backend::on_both_databases!(serves_on_sqlite, serves_on_postgres, serves);
/// ```
///
/// The calling crate needs `tokio` (its `macros`) and `tempfile`.
#[macro_export]
macro_rules! on_both_databases {
    ($sqlite:ident, $postgres:ident, $scenario:ident) => {
        $crate::on_both_databases!($sqlite, $postgres, |store, dir| $scenario(store, dir));
    };
    ($sqlite:ident, $postgres:ident, |$store:ident $(, $dir:ident)?| $scenario:expr) => {
        #[tokio::test]
        async fn $sqlite() {
            let dir = tempfile::tempdir().unwrap();
            let $store = $crate::Store::open_in(dir.path()).await.unwrap();
            $(let $dir = dir.path();)?
            $scenario.await;
        }

        #[tokio::test]
        async fn $postgres() {
            let fresh = $crate::testing::FreshDatabase::create().await.expect("PostgreSQL at 127.0.0.1:5432");
            let $store = fresh.open_store().await.unwrap();
            let _dir = tempfile::tempdir().unwrap();
            $(let $dir = _dir.path();)?
            $scenario.await;
            fresh.drop().await;
        }
    };
}

/// Grows `user`'s ledger to `target` transactions by copying the rows it has (same
/// dates, accounts, merchants and categories; a new dedupe hash per copy), doubling it
/// at each step and taking part of it at the last: the benchmarks' big ledgers. Returns
/// how many transactions the user has after.
pub async fn grow_ledger(store: &Store, user: crate::UserId, target: i64) -> Result<i64, sqlx::Error> {
    let mut round = 0;
    loop {
        let mut tx = store.tenant(user).await?;
        let have: i64 = sqlx::query_scalar("SELECT count(*) FROM transactions WHERE user_id = $1")
            .bind(user.0)
            .fetch_one(&mut *tx)
            .await?;
        if have >= target || have == 0 {
            tx.commit().await?;
            return Ok(have);
        }
        round += 1;
        sqlx::query(
            "INSERT INTO transactions
               (user_id, account_id, date, amount_minor, currency, raw_label, merchant_id, category_id,
                import_batch, dedupe_hash)
             SELECT user_id, account_id, date, amount_minor, currency, raw_label, merchant_id, category_id,
                    import_batch, dedupe_hash || '~' || $2
             FROM transactions WHERE user_id = $1 ORDER BY id LIMIT $3",
        )
        .bind(user.0)
        .bind(round.to_string())
        .bind((target - have).min(have))
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
    }
}

/// Where `user`'s monthly roll-up (`ledger_months`) differs from the sums of the raw
/// transactions: one line per month, account, category, merchant and currency that does.
/// Empty when the roll-up is exact.
pub async fn ledger_months_mismatches(
    store: &Store,
    user: crate::UserId,
) -> Result<Vec<String>, sqlx::Error> {
    type Key = (String, i64, i64, i64, String);
    type Sums = (i64, i64, i64, i64, i64);
    async fn read(
        db: &mut sqlx::AnyConnection,
        sql: &str,
        user: crate::UserId,
    ) -> Result<std::collections::BTreeMap<Key, Sums>, sqlx::Error> {
        use sqlx::Row;
        let rows = sqlx::query(sql).bind(user.0).fetch_all(&mut *db).await?;
        Ok(rows
            .iter()
            .map(|r| {
                let key = (r.get(0), r.get(1), r.get(2), r.get(3), r.get(4));
                (key, (r.get(5), r.get(6), r.get(7), r.get(8), r.get(9)))
            })
            .collect())
    }
    let mut tx = store.tenant(user).await?;
    let raw = read(
        &mut tx,
        "SELECT substr(date, 1, 7), account_id, COALESCE(category_id, 0), COALESCE(merchant_id, 0), currency,
                CAST(SUM(CASE WHEN amount_minor < 0 THEN amount_minor ELSE 0 END) AS BIGINT),
                CAST(SUM(CASE WHEN amount_minor > 0 THEN amount_minor ELSE 0 END) AS BIGINT),
                CAST(SUM(CASE WHEN amount_minor < 0 THEN 1 ELSE 0 END) AS BIGINT),
                CAST(SUM(CASE WHEN amount_minor > 0 THEN 1 ELSE 0 END) AS BIGINT),
                CAST(COUNT(*) AS BIGINT)
         FROM transactions WHERE user_id = $1
         GROUP BY substr(date, 1, 7), account_id, COALESCE(category_id, 0), COALESCE(merchant_id, 0), currency",
        user,
    )
    .await?;
    let rolled = read(
        &mut tx,
        "SELECT month, account_id, category_id, merchant_id, currency,
                CAST(debit AS BIGINT), CAST(credit AS BIGINT), CAST(debits AS BIGINT), CAST(credits AS BIGINT),
                CAST(n AS BIGINT)
         FROM ledger_months WHERE user_id = $1",
        user,
    )
    .await?;
    tx.commit().await?;
    let mut out = Vec::new();
    for key in raw.keys().chain(rolled.keys()).collect::<std::collections::BTreeSet<_>>() {
        let (a, b) = (raw.get(key), rolled.get(key));
        if a != b {
            out.push(format!("{key:?}: transactions {a:?}, roll-up {b:?}"));
        }
    }
    Ok(out)
}

/// The tools as tests and benchmarks call them, without a chat: a validated call run
/// (and checked), the monthly roll-up compared with its rows, recurring payments found.
pub mod tools {
    pub use crate::tools::{check_months, recurring, run, run_checked};
}

/// How the migrations' versions were renumbered once, as the migration test checks it.
pub mod renumbering {
    pub use crate::store::renumbering::{moves, old_version, RENUMBERING};
}

/// Datasets made and listed with the store the test holds.
pub mod datasets {
    pub use crate::datasets::{
        create, delete, describe, list, query, sandbox::Refused, DATASET_ROW_CAP, MAX_CELL_CHARS,
        RESULT_BYTES,
    };
}

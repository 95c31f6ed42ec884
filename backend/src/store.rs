//! The SQLite store: opening, migrations, and the few queries shared by tools.

use std::path::Path;
use std::sync::Arc;

use agent::{Term, Vocabulary};
use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::{Any, AnyPool, Executor, Row, Transaction};

use crate::error::{BackendError, StoreError};
use crate::ids::{name_key, Dialect, UserId};
use crate::slots::{QueryLimits, Slots, MAX_TOTAL};

pub(crate) mod owner;
pub mod renumbering;

/// RFC 3339 in UTC with milliseconds, the form of every stored timestamp: sorts as
/// text, in SQLite and PostgreSQL alike.
pub fn timestamp(t: chrono::DateTime<chrono::Utc>) -> String {
    t.to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

/// A transaction in which one user's rows are visible (on PostgreSQL, row-level
/// security shows no other); on SQLite, a plain transaction.
pub type Tenant = Transaction<'static, Any>;

#[derive(Clone, Debug)]
pub struct Store {
    pool: AnyPool,
    dialect: Dialect,
    sandbox: Sandbox,
    /// Turns at the sandbox: each user's share of its connections (`slots.rs`).
    slots: Arc<Slots>,
}

/// Connections for dataset SQL (`datasets::query`), apart from the store's: on SQLite
/// opened read-only, on PostgreSQL as the same role (each query in a read-only
/// transaction). Native drivers, so every result type can be read as text. Opened as
/// needed, up to [`MAX_TOTAL`]; [`Slots`] lets fewer queries run at once, so a query
/// that has its turn never waits for a connection another holds.
#[derive(Clone, Debug)]
pub(crate) enum Sandbox {
    Sqlite(sqlx::SqlitePool),
    Postgres(sqlx::PgPool),
}

/// The store's pool, `max` connections. sqlx's default pings every connection it hands
/// out (and again when it comes back): on PostgreSQL a round trip, on SQLite a hand-off
/// to the connection's thread and back, for each of the dozen statements an answer
/// runs. Here only a connection idle for over a second is pinged: one the database, a
/// proxy or a firewall may have closed (after a restart, every connection is pinged
/// once the restart took a second). A connection that broke while in use fails its
/// statement and is not returned to the pool (its release ping fails).
fn pool_options(max: u32) -> AnyPoolOptions {
    AnyPoolOptions::new().max_connections(max).test_before_acquire(false).before_acquire(|conn, meta| {
        Box::pin(async move {
            if meta.idle_for > std::time::Duration::from_secs(1) {
                sqlx::Connection::ping(conn).await?;
            }
            Ok(true)
        })
    })
}

/// The two trees are numbered alike: a version is the same change on both databases,
/// under the same file name (empty on the side it does not concern). A database migrated
/// under the older numbering is renumbered first ([`renumbering::renumber`]).
static SQLITE: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");
static POSTGRES: sqlx::migrate::Migrator = sqlx::migrate!("./migrations_pg");

impl Store {
    /// Opens (creating if needed) the database at `url` and applies every pending
    /// migration. Any failure is returned: the caller stops instead of serving.
    /// A `postgres:` URL is migrated with its own role; see [`Store::open_postgres`].
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        if url.starts_with("postgres:") || url.starts_with("postgresql:") {
            return Store::open_postgres(url, None).await;
        }
        if !url.starts_with("sqlite:") {
            let scheme = url.split(':').next().unwrap_or_default().to_string();
            return Err(StoreError::UnsupportedUrl(scheme));
        }
        sqlx::any::install_default_drivers();
        let url = if url.contains('?') { url.to_string() } else { format!("{url}?mode=rwc") };
        let open_error = |source| StoreError::Open { url: redact(&url), source };
        let options: AnyConnectOptions = url.parse().map_err(open_error)?;
        let pool = pool_options(8)
            .after_connect(|conn, _| {
                Box::pin(async move {
                    conn.execute(
                        "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;
                         PRAGMA busy_timeout = 5000; PRAGMA journal_size_limit = 67108864;",
                    )
                    .await?;
                    Ok(())
                })
            })
            .connect_with(options)
            .await
            .map_err(open_error)?;
        // A database migrated under the older numbering gets the new one first.
        renumbering::renumber(&pool, Dialect::Sqlite).await?;
        SQLITE.run(&pool).await?;
        fill_name_keys(&pool).await?;
        let _ = sqlx::query("PRAGMA optimize = 0x10002").execute(&pool).await;
        let read_only: sqlx::sqlite::SqliteConnectOptions = url.parse().map_err(open_error)?;
        let sandbox = sqlx::sqlite::SqlitePoolOptions::new()
            .max_connections(MAX_TOTAL as u32)
            .after_connect(|conn, _| {
                Box::pin(async move {
                    conn.execute("PRAGMA query_only = ON; PRAGMA busy_timeout = 2000;").await?;
                    Ok(())
                })
            })
            .connect_lazy_with(read_only.read_only(true));
        Ok(Store {
            pool,
            dialect: Dialect::Sqlite,
            sandbox: Sandbox::Sqlite(sandbox),
            slots: Slots::new(QueryLimits::default()),
        })
    }

    /// PostgreSQL: `url` is the role Sou works as, which must own no table and must not
    /// bypass row-level security; `owner_url`, if given, is the role that runs the
    /// migrations and owns the tables (else `url` does, and the check below refuses
    /// to serve). The app's role is granted what it needs on every table.
    pub async fn open_postgres(url: &str, owner_url: Option<&str>) -> Result<Store, StoreError> {
        sqlx::any::install_default_drivers();
        let connect = |url: &str, max| {
            let url = url.to_string();
            async move {
                pool_options(max)
                    .after_connect(|conn, _| {
                        Box::pin(async move {
                            // PostgreSQL's default cost of a random page read (4, for spinning
                            // disks) makes it scan a user's whole table rather than look up a
                            // few hundred rows or read a year through a covering index. Sou's
                            // data is on SSD or in memory: 1.1, the usual value there. A value
                            // an operator set (on the server, database or role) is kept.
                            //
                            // Every statement is planned for its values: how much a ledger
                            // statement reads depends on them (a day or ten years, a filter
                            // set or not), and the generic plan PostgreSQL switches to after
                            // five runs sorted a whole category to show its newest 50 lines
                            // (14 to 70 ms instead of 0.5). Planning costs 0.03 to 0.5 ms.
                            conn.execute(
                                "SELECT set_config('random_page_cost', '1.1', false)
                                 WHERE current_setting('random_page_cost') = '4';
                                 SET plan_cache_mode = force_custom_plan;",
                            )
                            .await?;
                            Ok(())
                        })
                    })
                    .connect(&url)
                    .await
                    .map_err(|source| StoreError::Open { url: redact(&url), source })
            }
        };
        let pool = connect(url, 16).await?;
        let app_role: String =
            sqlx::query_scalar("SELECT CAST(current_user AS TEXT)").fetch_one(&pool).await?;
        let owner = match owner_url {
            Some(owner_url) => connect(owner_url, 1).await?,
            None => pool.clone(),
        };
        // A database migrated under the older numbering gets the new one first, by the
        // role that migrates: its failure is a migration's.
        let migrated = match renumbering::renumber(&owner, Dialect::Postgres).await {
            Ok(()) => POSTGRES.run(&owner).await,
            Err(e) => Err(e),
        };
        migrated.map_err(|e| match owner_url {
            Some(_) => StoreError::Migrate(e),
            None => StoreError::MigrateAsApp(e),
        })?;
        let role = format!("\"{}\"", app_role.replace('"', "\"\""));
        let grants = format!(
            "GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO {role};
             REVOKE ALL ON _sqlx_migrations FROM {role};
             GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO {role};
             GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA public TO {role};"
        );
        if owner_url.is_some() {
            owner.execute(grants.as_str()).await?;
            owner.close().await;
        }
        let (superuser, bypass, owned): (bool, bool, i64) = sqlx::query_as(
            "SELECT r.rolsuper, r.rolbypassrls,
                    (SELECT COUNT(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                     WHERE c.relowner = r.oid AND n.nspname = 'public' AND c.relkind = 'r')
             FROM pg_roles r WHERE r.rolname = current_user",
        )
        .fetch_one(&pool)
        .await?;
        if superuser || bypass || owned > 0 {
            return Err(StoreError::UnsafeRole { role: app_role, superuser, bypass, owned });
        }
        fill_name_keys(&pool).await?;
        let sandbox = sqlx::postgres::PgPoolOptions::new()
            .max_connections(MAX_TOTAL as u32)
            .connect_lazy(url)
            .map_err(|source| StoreError::Open { url: redact(url), source })?;
        Ok(Store {
            pool,
            dialect: Dialect::Postgres,
            sandbox: Sandbox::Postgres(sandbox),
            slots: Slots::new(QueryLimits::default()),
        })
    }

    /// `sqlite://<dir>/sou.db`, creating `dir`.
    pub async fn open_in(data_dir: &Path) -> Result<Store, StoreError> {
        std::fs::create_dir_all(data_dir)
            .map_err(|source| StoreError::DataDir { path: data_dir.display().to_string(), source })?;
        let url = format!("sqlite://{}", data_dir.join("sou.db").display());
        Store::open(&url).await
    }

    /// The pool, for what is not one user's: the `users` table, and tests.
    pub fn pool(&self) -> &AnyPool {
        &self.pool
    }

    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    pub(crate) fn sandbox(&self) -> &Sandbox {
        &self.sandbox
    }

    /// The same, its dataset queries taking turns under `limits` (made usable: see
    /// [`QueryLimits::problem`]). Before the store is shared: clones made earlier keep
    /// the turns they had.
    pub fn with_query_limits(mut self, limits: QueryLimits) -> Store {
        self.slots = Slots::new(limits);
        self
    }

    /// The turns at the sandbox: how many dataset queries run at once.
    pub fn query_slots(&self) -> &Arc<Slots> {
        &self.slots
    }

    /// A transaction for `user`'s rows that may write. Commit it to keep what it wrote.
    ///
    /// On SQLite it begins as the writer (`BEGIN IMMEDIATE`), waiting for another
    /// writer up to the busy timeout. A deferred transaction that reads then writes
    /// cannot wait: once another connection has written since its read, SQLite fails
    /// it at once with "database is locked", so concurrent users got errors.
    pub async fn tenant(&self, user: UserId) -> Result<Tenant, sqlx::Error> {
        let begin = match self.dialect {
            Dialect::Sqlite => "BEGIN IMMEDIATE",
            Dialect::Postgres => "BEGIN",
        };
        self.begin_tenant(user, begin).await
    }

    /// A transaction that only reads `user`'s rows, all of them as of its first read (a
    /// tool's result and its checks see the same rows): on SQLite a deferred one, which
    /// does not wait for writers (WAL); on PostgreSQL `READ ONLY` (a write in it fails
    /// instead of slipping into a transaction that is not a writer's) and `REPEATABLE
    /// READ` (one snapshot; a transaction that only reads never fails to serialise).
    pub async fn tenant_read(&self, user: UserId) -> Result<Tenant, sqlx::Error> {
        let begin = match self.dialect {
            Dialect::Sqlite => "BEGIN",
            Dialect::Postgres => "BEGIN READ ONLY ISOLATION LEVEL REPEATABLE READ",
        };
        self.begin_tenant(user, begin).await
    }

    /// A write transaction for a log that can be written again: a run's events and
    /// steps. On PostgreSQL its commit does not wait for the disk (`synchronous_commit
    /// = off`): if Sou dies, PostgreSQL still has it; if PostgreSQL itself crashes
    /// within a fraction of a second of the commit, the batch is lost, the run is then
    /// marked interrupted. Any later ordinary commit (the answer's message) flushes it
    /// first. On SQLite, [`Self::tenant`].
    pub async fn tenant_log(&self, user: UserId) -> Result<Tenant, sqlx::Error> {
        match self.dialect {
            Dialect::Sqlite => self.tenant(user).await,
            Dialect::Postgres => self.begin_tenant(user, "BEGIN; SET LOCAL synchronous_commit = off").await,
        }
    }

    async fn begin_tenant(&self, user: UserId, begin: &'static str) -> Result<Tenant, sqlx::Error> {
        let sql = match self.dialect {
            Dialect::Sqlite => begin.to_string(),
            // The transaction and whose rows it sees, in one round trip: row-level
            // security reads `sou.user_id`. The id is an integer, so there is nothing to
            // quote; a setting that fails fails the `BEGIN`.
            Dialect::Postgres => format!("{begin}; SET LOCAL sou.user_id = '{}'", user.0),
        };
        // The `BEGIN` runs in a task of its own, so it always ends: sqlx (0.8 and 0.9)
        // does not clean up after a `BEGIN` whose future is dropped half-way (a client
        // gone, a read dropped) — on PostgreSQL the connection went back to the pool
        // inside a transaction, the next borrower's writes failing in a stranger's
        // read-only one; on SQLite the next `BEGIN` on it was refused. Dropped now, the
        // finished transaction rolls back as any dropped transaction does.
        let pool = self.pool.clone();
        tokio::spawn(async move { pool.begin_with(sql).await }).await.unwrap_or_else(|e| {
            tracing::error!(error = %e, "a BEGIN's task failed");
            Err(sqlx::Error::WorkerCrashed)
        })
    }

    /// Runs one statement on `user`'s rows in a transaction of its own; whether it
    /// touched any (none: no such row, or not the user's).
    pub async fn change<'q>(
        &self,
        user: UserId,
        query: sqlx::query::Query<'q, Any, sqlx::any::AnyArguments<'q>>,
    ) -> Result<bool, sqlx::Error> {
        let mut db = self.tenant(user).await?;
        let done = query.execute(&mut *db).await?;
        db.commit().await?;
        Ok(done.rows_affected() > 0)
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

    /// Keeps SQLite in shape, every few minutes: the statistics its query planner
    /// chooses indexes by (`PRAGMA optimize`, which analyses only the tables that grew),
    /// and the write-ahead log bounded — a checkpoint that waits for readers, then
    /// truncates the log (readers that never stop would otherwise keep it growing).
    /// Returns how many pages the log held when checkpointed. PostgreSQL does its own.
    pub async fn maintain(&self) -> Result<u64, sqlx::Error> {
        if self.dialect != Dialect::Sqlite {
            return Ok(0);
        }
        sqlx::query("PRAGMA optimize").execute(&self.pool).await?;
        let row = sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)").fetch_one(&self.pool).await?;
        // (busy, pages in the log, pages checkpointed): a busy checkpoint is tried again next time.
        let pages: i64 = row.try_get(1).unwrap_or(0);
        Ok(u64::try_from(pages).unwrap_or(0))
    }

    /// The user's categories, merchants, accounts and datasets, for the parser.
    pub async fn vocabulary(&self, user: UserId) -> Result<Vocabulary, BackendError> {
        let mut db = self.tenant_read(user).await?;
        let categories = kind_terms(
            &mut db,
            "SELECT key, name_fr, name_en, aliases, kind FROM categories WHERE user_id = $1 ORDER BY id",
            user,
        )
        .await?;
        let merchants: Vec<(String, String, String)> =
            sqlx::query_as("SELECT key, name, aliases FROM merchants WHERE user_id = $1 ORDER BY id")
                .bind(user.0)
                .fetch_all(&mut *db)
                .await?;
        let merchants = merchants
            .into_iter()
            .map(|(key, name, aliases)| term(key, name.clone(), name, aliases))
            .collect::<Result<Vec<_>, _>>()?;
        let accounts = kind_terms(
            &mut db,
            "SELECT key, name, COALESCE(name_en, name), aliases, kind FROM accounts
             WHERE user_id = $1 AND key IS NOT NULL ORDER BY id",
            user,
        )
        .await?;
        let currency = Some(currency(&mut db, user).await?);
        let datasets: Vec<(String, String)> =
            sqlx::query_as("SELECT name, columns FROM datasets WHERE user_id = $1 ORDER BY id")
                .bind(user.0)
                .fetch_all(&mut *db)
                .await?;
        let datasets = datasets
            .into_iter()
            .map(|(name, columns)| {
                let columns = serde_json::from_str(&columns)
                    .map_err(|e| BackendError::Corrupt(format!("columns of dataset {name:?}: {e}")))?;
                Ok(agent::datasets::DatasetShape { name, columns })
            })
            .collect::<Result<Vec<_>, BackendError>>()?;
        db.commit().await?;
        Ok(Vocabulary { categories, merchants, accounts, currency, datasets })
    }
}

/// Gives every account without one its [`name_key`] (older accounts, and
/// the `local` user), unless another account has that key already: then it stays empty
/// and the account signs in by its exact name.
async fn fill_name_keys(pool: &AnyPool) -> Result<(), sqlx::Error> {
    let missing: Vec<(i64, String)> =
        sqlx::query_as("SELECT id, name FROM users WHERE name_key IS NULL ORDER BY id")
            .fetch_all(pool)
            .await?;
    for (id, name) in missing {
        let key = name_key(&name);
        sqlx::query(
            "UPDATE users SET name_key = $1 WHERE id = $2
             AND NOT EXISTS (SELECT 1 FROM users other WHERE other.name_key = $1)",
        )
        .bind(&key)
        .bind(id)
        .execute(pool)
        .await?;
    }
    Ok(())
}

/// The user's main currency, read on the caller's connection (a tenant transaction).
pub async fn currency(db: &mut sqlx::AnyConnection, user: UserId) -> Result<agent::Currency, BackendError> {
    let code: String = sqlx::query_scalar("SELECT currency FROM users WHERE id = $1")
        .bind(user.0)
        .fetch_optional(db)
        .await?
        .ok_or(BackendError::NotFound)?;
    agent::Currency::new(&code).ok_or_else(|| BackendError::Corrupt(format!("currency {code:?}")))
}

/// Every row `sql` selects for `user` (bound as `$1`) in `db`, which is then
/// committed: a page's one read.
pub(crate) async fn rows_then_commit<T>(
    mut db: Tenant,
    sql: &str,
    user: UserId,
) -> Result<Vec<T>, sqlx::Error>
where
    T: for<'r> sqlx::FromRow<'r, sqlx::any::AnyRow> + Send + Unpin,
{
    let rows = sqlx::query_as(sql).bind(user.0).fetch_all(&mut *db).await?;
    db.commit().await?;
    Ok(rows)
}

/// The user's categories or accounts as terms: `sql` selects a key, the French and
/// English names, the aliases and the kind, of the user `$1`.
async fn kind_terms(
    db: &mut sqlx::AnyConnection,
    sql: &str,
    user: UserId,
) -> Result<Vec<Term>, BackendError> {
    let rows: Vec<KindTerm> = sqlx::query_as(sql).bind(user.0).fetch_all(&mut *db).await?;
    rows.into_iter()
        .map(|(key, name_fr, name_en, aliases, kind)| {
            term(key, name_fr, name_en, aliases).map(|t| Term { kind: Some(kind), ..t })
        })
        .collect()
}

/// A category's or an account's key, French and English names, aliases and kind.
type KindTerm = (String, String, String, String, String);

fn term(key: String, name_fr: String, name_en: String, aliases: String) -> Result<Term, BackendError> {
    let aliases: Vec<String> = serde_json::from_str(&aliases)
        .map_err(|e| BackendError::Corrupt(format!("aliases of {key:?}: {e}")))?;
    Ok(Term { key, name_fr, name_en, aliases, kind: None })
}

/// `url` without its password, for messages.
fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let userinfo = &url[scheme + 3..at];
            match userinfo.split_once(':') {
                Some((user, _)) => format!("{}{user}:***{}", &url[..scheme + 3], &url[at..]),
                None => url.to_string(),
            }
        }
        _ => url.to_string(),
    }
}

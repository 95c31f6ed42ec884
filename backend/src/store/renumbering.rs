//! The two migration trees, `migrations/` (SQLite) and `migrations_pg/` (PostgreSQL),
//! were once numbered apart: PostgreSQL's `0001_init.sql` held what SQLite made in four,
//! and PostgreSQL had changes of its own, so one version meant two different changes.
//! They are now numbered alike: a version is the same change on both databases, under
//! the same file name, and a change made on one side only (or already in the other's
//! `0001_init.sql`) is a file of comments only on the other side. Each file kept its text;
//! only its number changed.
//!
//! A database migrated before has the old versions in sqlx's `_sqlx_migrations`, and
//! [`renumber`] gives them their new ones before sqlx reads the table. What sqlx 0.8
//! does then (`sqlx-core`, `migrate/migrator.rs`, `Migrator::run`): an applied version
//! that no file has stops it (`VersionMissing`); an applied version whose checksum (the
//! SHA-384 of the file's text) is not its file's stops it (`VersionMismatch`); the
//! description is not compared; and every version not applied yet is run, in order,
//! even one below a version already applied. So a moved row's checksum is still its
//! file's (the text is the same), and the empty migrations an old database lacks are
//! left to sqlx, which runs them (nothing: comments only, which both drivers accept) and
//! records them as it records any other. A Sou from before the renumbering refuses a
//! renumbered database (sqlx's `VersionMissing`) rather than run anything on it.

use sqlx::migrate::MigrateError;
use sqlx::{AnyPool, Executor};

use crate::ids::Dialect;

/// The renumbering, the one table of it: each migration up to it, in order, as (its
/// version, its description as sqlx reads it from the file name — the words after the
/// number, `_` as a space —, the version it had on SQLite, the version it had on
/// PostgreSQL), `None` where it was no migration of its own (its file there is empty).
/// A migration added since has the same version on both sides from the start, and no
/// row here.
#[rustfmt::skip]
pub const RENUMBERING: [(i64, &str, Option<i64>, Option<i64>); 26] = [
    // (new version, description, old SQLite version, old PostgreSQL version)
    (1,  "init",                 Some(1),  Some(1)),
    (2,  "accounts budgets",     Some(2),  None),
    (3,  "llm",                  Some(3),  None),
    (4,  "auth",                 Some(4),  None),
    (5,  "system functions",     None,     Some(2)),
    (6,  "imports",              Some(5),  Some(3)),
    (7,  "datasets",             Some(6),  Some(4)),
    (8,  "name keys",            Some(7),  Some(5)),
    (9,  "reports",              Some(8),  Some(6)),
    (10, "widgets",              Some(9),  Some(7)),
    (11, "writes",               Some(10), Some(8)),
    (12, "runs",                 Some(11), Some(9)),
    (13, "ledger months",        Some(12), Some(10)),
    (14, "vocabulary version",   Some(13), Some(11)),
    (15, "shared state",         Some(14), Some(12)),
    (16, "filter indexes",       Some(15), Some(13)),
    (17, "size index",           None,     Some(14)),
    (18, "ledger checked",       Some(16), Some(15)),
    (19, "unchecked months",     None,     Some(16)),
    (20, "insert triggers",      None,     Some(17)),
    (21, "partial indexes",      Some(17), Some(18)),
    (22, "login attempts",       Some(18), Some(19)),
    (23, "session list",         Some(19), Some(20)),
    (24, "step refused",         Some(20), Some(21)),
    (25, "approval resume",      Some(21), Some(22)),
    (26, "import formats",       Some(22), Some(23)),
];

/// The version `dialect`'s old numbering gave the migration of `row` (of
/// [`RENUMBERING`]), if it was one there.
pub fn old_version(row: &(i64, &str, Option<i64>, Option<i64>), dialect: Dialect) -> Option<i64> {
    match dialect {
        Dialect::Sqlite => row.2,
        Dialect::Postgres => row.3,
    }
}

/// (old version, new version) of each `applied` migration, (version, description) as
/// `_sqlx_migrations` has them, that is still under `dialect`'s old numbering at a
/// version that changed. A migration is recognised by its version and its description
/// together: no pair of the old numbering whose version changed is a pair of the new
/// one (the descriptions differ at that version), so a database already renumbered, or
/// new, has none, and a database migrated in part under the old numbering (stopped at
/// any version) has exactly the rows it applied.
pub fn moves(dialect: Dialect, applied: &[(i64, String)]) -> Vec<(i64, i64)> {
    applied
        .iter()
        .filter_map(|(version, description)| {
            let row = RENUMBERING
                .iter()
                .find(|row| old_version(row, dialect) == Some(*version) && row.1 == description)?;
            (row.0 != *version).then_some((*version, row.0))
        })
        .collect()
}

/// Moves `_sqlx_migrations` from the old numbering to the new one, if the database has
/// the table and the old numbering, in one transaction; else changes nothing. Run before
/// the migrator, on the connection that migrates (on PostgreSQL the owner: Sou's own
/// role may not read the table, and its error then says to migrate as the owner).
///
/// Two servers opening one database at once: on SQLite the transaction begins as the
/// writer, on PostgreSQL it locks the table against other writers before reading it, so
/// the second waits for the first and then finds the new numbering.
pub(crate) async fn renumber(pool: &AnyPool, dialect: Dialect) -> Result<(), MigrateError> {
    let (begin, exists) = match dialect {
        Dialect::Sqlite => (
            "BEGIN IMMEDIATE",
            "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = '_sqlx_migrations'",
        ),
        // The name as sqlx's own statements find it, through the search path.
        Dialect::Postgres => ("BEGIN", "SELECT COUNT(to_regclass('_sqlx_migrations'))"),
    };
    let mut tx = pool.begin_with(begin).await?;
    let found: i64 = sqlx::query_scalar(exists).fetch_one(&mut *tx).await?;
    if found == 0 {
        // A new database: sqlx makes the table, numbered alike from the start.
        tx.rollback().await?;
        return Ok(());
    }
    if dialect == Dialect::Postgres {
        tx.execute("LOCK TABLE _sqlx_migrations IN EXCLUSIVE MODE").await?;
    }
    let applied: Vec<(i64, String)> =
        sqlx::query_as("SELECT version, description FROM _sqlx_migrations").fetch_all(&mut *tx).await?;
    let moves = moves(dialect, &applied);
    if moves.is_empty() {
        tx.rollback().await?;
        return Ok(());
    }
    // The version is the table's key, and a new version may still be another row's old
    // one: each row moves first to its new version negated (no version is negative),
    // then all turn positive.
    for (old, new) in &moves {
        sqlx::query("UPDATE _sqlx_migrations SET version = $1 WHERE version = $2")
            .bind(-new)
            .bind(old)
            .execute(&mut *tx)
            .await?;
    }
    sqlx::query("UPDATE _sqlx_migrations SET version = -version WHERE version < 0").execute(&mut *tx).await?;
    tx.commit().await?;
    tracing::info!(
        ?dialect,
        moved = moves.len(),
        "migrations renumbered: both databases' trees numbered alike"
    );
    Ok(())
}

//! The two migration trees are numbered alike: the same file names (number and
//! description) in the same order, a version being the same change on SQLite and on
//! PostgreSQL. A store migrated under the older numbering, where they differed, opens
//! with the new one: its `_sqlx_migrations` renumbered, nothing applied again but the
//! empty migrations it never had, its data kept.

use std::borrow::Cow;
use std::collections::HashSet;
use std::path::{Path, PathBuf};

use backend::testing::renumbering::{moves, old_version, RENUMBERING};
use backend::testing::FreshDatabase;
use backend::{Dialect, Store, UserId};
use sqlx::migrate::Migrator;
use sqlx::AnyPool;

/// The execution time the tests give every row of the older numbering: a migration sqlx
/// applied again would have its own.
const MARK: i64 = 4242;

fn tree(dir: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(dir)
}

fn tree_of(dialect: Dialect) -> PathBuf {
    tree(match dialect {
        Dialect::Sqlite => "migrations",
        Dialect::Postgres => "migrations_pg",
    })
}

/// The `.sql` files of a tree, by name.
fn files(dir: &str) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(tree(dir))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".sql"))
        .collect();
    names.sort();
    names
}

#[test]
fn both_trees_have_the_same_files_in_the_same_order() {
    let (lite, pg) = (files("migrations"), files("migrations_pg"));
    assert!(lite.len() >= RENUMBERING.len(), "{lite:?}");
    assert_eq!(lite, pg, "the same version is the same change, under the same name, on both databases");
    for (i, name) in lite.iter().enumerate() {
        assert!(name.starts_with(&format!("{:04}_", i + 1)), "{name}: versions follow one another from 0001");
    }
}

#[test]
fn the_renumbering_table_matches_the_files_and_the_older_trees() {
    let names = files("migrations");
    let mut descriptions = HashSet::new();
    for (i, row) in RENUMBERING.iter().enumerate() {
        let (version, description) = (row.0, row.1);
        assert_eq!(version, i64::try_from(i).unwrap() + 1);
        assert!(descriptions.insert(description), "{description} twice");
        assert_eq!(names[i], format!("{version:04}_{}.sql", description.replace(' ', "_")));
        for dialect in [Dialect::Sqlite, Dialect::Postgres] {
            if old_version(row, dialect).is_none() {
                // A change that was no migration of its own there: comments only.
                let sql = std::fs::read_to_string(tree_of(dialect).join(&names[i])).unwrap();
                assert!(sql.lines().all(|l| l.trim().is_empty() || l.starts_with("--")), "{}", names[i]);
            }
        }
    }
    // The older trees, in their order: SQLite's 0001 to 0022, PostgreSQL's 0001 to 0023.
    for (dialect, count) in [(Dialect::Sqlite, 22), (Dialect::Postgres, 23)] {
        let old: Vec<i64> = RENUMBERING.iter().filter_map(|row| old_version(row, dialect)).collect();
        assert_eq!(old, (1..=count).collect::<Vec<_>>(), "{dialect:?}");
    }
}

#[test]
fn only_the_older_numbering_is_moved() {
    let applied = |rows: &[(i64, &str)]| rows.iter().map(|(v, d)| (*v, d.to_string())).collect::<Vec<_>>();
    // PostgreSQL stopped at its old 0003: init stays, the two after it move.
    let pg = applied(&[(1, "init"), (2, "system functions"), (3, "imports")]);
    assert_eq!(moves(Dialect::Postgres, &pg), [(2, 5), (3, 6)]);
    assert_eq!(moves(Dialect::Sqlite, &pg), [], "SQLite's old 0002 and 0003 were other changes");
    // SQLite's first four kept their numbers.
    let lite = applied(&[(1, "init"), (2, "accounts budgets"), (3, "llm"), (4, "auth"), (5, "imports")]);
    assert_eq!(moves(Dialect::Sqlite, &lite), [(5, 6)]);
    // The new numbering, whole: nothing moves, on either database.
    let new: Vec<(i64, String)> = RENUMBERING.iter().map(|row| (row.0, row.1.to_string())).collect();
    assert_eq!(moves(Dialect::Sqlite, &new), []);
    assert_eq!(moves(Dialect::Postgres, &new), []);
}

/// What sqlx computes from a tree's files: (version, description, checksum).
async fn expected(dialect: Dialect) -> Vec<(i64, String, Vec<u8>)> {
    let migrator = Migrator::new(tree_of(dialect)).await.unwrap();
    migrator.iter().map(|m| (m.version, m.description.to_string(), m.checksum.to_vec())).collect()
}

/// `_sqlx_migrations`: (version, description, checksum, execution time), by version.
async fn applied(pool: &AnyPool) -> Vec<(i64, String, Vec<u8>, i64)> {
    sqlx::query_as(
        "SELECT version, description, checksum, execution_time FROM _sqlx_migrations ORDER BY version",
    )
    .fetch_all(pool)
    .await
    .unwrap()
}

/// Puts `_sqlx_migrations` back as the older numbering left it on `dialect`: the empty
/// migrations that were none there gone, every other row at its old version and marked.
async fn back_to_the_older_numbering(pool: &AnyPool, dialect: Dialect) {
    let mut tx = pool.begin().await.unwrap();
    for row in &RENUMBERING {
        let statement = match old_version(row, dialect) {
            Some(old) => sqlx::query(
                "UPDATE _sqlx_migrations SET version = $1, execution_time = $2 WHERE version = $3",
            )
            .bind(-old)
            .bind(MARK),
            None => sqlx::query("DELETE FROM _sqlx_migrations WHERE version = $1"),
        };
        statement.bind(row.0).execute(&mut *tx).await.unwrap();
    }
    sqlx::query("UPDATE _sqlx_migrations SET version = -version WHERE version < 0")
        .execute(&mut *tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();
}

/// `_sqlx_migrations` after opening: every migration of the tree at its version, with
/// the checksum sqlx computes from its file; the rows of `kept` (new versions) as they
/// were, not applied again; only the others run now.
async fn check_renumbered(pool: &AnyPool, dialect: Dialect, kept: &[i64]) {
    let now = applied(pool).await;
    let rows: Vec<(i64, String, Vec<u8>)> = now.iter().map(|r| (r.0, r.1.clone(), r.2.clone())).collect();
    assert_eq!(rows, expected(dialect).await, "{dialect:?}: the same migrations as a fresh store's");
    let marked: Vec<i64> = now.iter().filter(|r| r.3 == MARK).map(|r| r.0).collect();
    assert_eq!(marked, kept, "{dialect:?}: what was applied is not applied again");
}

/// A user with an account, as data a store must keep, written before Sou opens the
/// store (as the tables' owner on PostgreSQL, whom row-level security lets in).
async fn some_data(pool: &AnyPool) -> UserId {
    let user: i64 = sqlx::query_scalar("INSERT INTO users (name) VALUES ('renumbered') RETURNING id")
        .fetch_one(pool)
        .await
        .unwrap();
    sqlx::query(
        "INSERT INTO accounts (user_id, name, kind, currency, key)
         VALUES ($1, 'Old account', 'checking', 'EUR', 'old_account')",
    )
    .bind(user)
    .execute(pool)
    .await
    .unwrap();
    UserId(user)
}

/// A database migrated by the tree as it stood when the numbering changed (the
/// renumbering table's versions, none after), its `_sqlx_migrations` then put back as
/// the older numbering left it on `dialect`.
async fn older_store(pool: &AnyPool, dialect: Dialect) {
    let all = Migrator::new(tree_of(dialect)).await.unwrap();
    let last = i64::try_from(RENUMBERING.len()).unwrap();
    let part = Migrator {
        migrations: Cow::Owned(all.iter().filter(|m| m.version <= last).cloned().collect()),
        ..Migrator::DEFAULT
    };
    part.run(pool).await.unwrap();
    back_to_the_older_numbering(pool, dialect).await;
}

async fn check_data(store: &Store, user: UserId) {
    assert_eq!(store.ensure_user("renumbered").await.unwrap(), user);
    let mut db = store.tenant_read(user).await.unwrap();
    let names: Vec<String> = sqlx::query_scalar("SELECT name FROM accounts WHERE user_id = $1")
        .bind(user.0)
        .fetch_all(&mut *db)
        .await
        .unwrap();
    db.commit().await.unwrap();
    assert_eq!(names, ["Old account"]);
}

/// New versions of the migrations `dialect`'s older numbering had.
fn had(dialect: Dialect) -> Vec<i64> {
    RENUMBERING.iter().filter(|row| old_version(row, dialect).is_some()).map(|row| row.0).collect()
}

#[tokio::test]
async fn a_sqlite_store_of_the_older_numbering_opens_renumbered_with_its_data() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("sou.db").display());
    sqlx::any::install_default_drivers();
    let pool = AnyPool::connect(&url).await.unwrap();
    older_store(&pool, Dialect::Sqlite).await;
    let versions: Vec<i64> = applied(&pool).await.iter().map(|r| r.0).collect();
    assert_eq!(versions, (1..=22).collect::<Vec<_>>(), "as SQLite's older tree left it");
    let user = some_data(&pool).await;
    pool.close().await;

    let store = Store::open_in(dir.path()).await.unwrap();
    check_renumbered(store.pool(), Dialect::Sqlite, &had(Dialect::Sqlite)).await;
    check_data(&store, user).await;
    store.pool().close().await;
    drop(store);
    // Once renumbered, opening again changes nothing.
    let store = Store::open_in(dir.path()).await.unwrap();
    check_renumbered(store.pool(), Dialect::Sqlite, &had(Dialect::Sqlite)).await;
}

#[tokio::test]
async fn a_sqlite_store_stopped_part_way_under_the_older_numbering_is_renumbered_and_migrated() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("sou.db").display());
    // Migrated up to SQLite's old 0016 (ledger checked), no further.
    let stopped: Vec<i64> = RENUMBERING
        .iter()
        .filter(|row| old_version(row, Dialect::Sqlite).is_some_and(|old| old <= 16))
        .map(|row| row.0)
        .collect();
    {
        let all = Migrator::new(tree("migrations")).await.unwrap();
        let part = Migrator {
            migrations: Cow::Owned(all.iter().filter(|m| stopped.contains(&m.version)).cloned().collect()),
            ..Migrator::DEFAULT
        };
        sqlx::any::install_default_drivers();
        let pool = AnyPool::connect(&url).await.unwrap();
        part.run(&pool).await.unwrap();
        back_to_the_older_numbering(&pool, Dialect::Sqlite).await;
        let versions: Vec<i64> = applied(&pool).await.iter().map(|r| r.0).collect();
        assert_eq!(versions, (1..=16).collect::<Vec<_>>());
        pool.close().await;
    }
    let store = Store::open(&url).await.unwrap();
    check_renumbered(store.pool(), Dialect::Sqlite, &stopped).await;
}

#[tokio::test]
async fn a_postgres_store_of_the_older_numbering_opens_renumbered_with_its_data() {
    let db = FreshDatabase::create().await.expect("PostgreSQL at 127.0.0.1:5432");
    // `_sqlx_migrations` is the owner's: Sou's role may not read it.
    sqlx::any::install_default_drivers();
    let owner = AnyPool::connect(&db.owner_url()).await.unwrap();
    older_store(&owner, Dialect::Postgres).await;
    let versions: Vec<i64> = applied(&owner).await.iter().map(|r| r.0).collect();
    assert_eq!(versions, (1..=23).collect::<Vec<_>>(), "as PostgreSQL's older tree left it");
    let user = some_data(&owner).await;

    let store = db.open_store().await.unwrap();
    check_renumbered(&owner, Dialect::Postgres, &had(Dialect::Postgres)).await;
    check_data(&store, user).await;
    store.pool().close().await;
    drop(store);
    let store = db.open_store().await.unwrap();
    check_renumbered(&owner, Dialect::Postgres, &had(Dialect::Postgres)).await;
    store.pool().close().await;
    owner.close().await;
    db.drop().await;
}

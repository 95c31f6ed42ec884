//! The two migration trees make the same schema: every table, and every column of it,
//! exists on SQLite and on PostgreSQL alike (their types are each dialect's own).
//! A migration written for one database and forgotten for the other fails here.

use std::collections::{BTreeMap, BTreeSet};

use backend::testing::FreshDatabase;
use backend::Store;
use sqlx::Row;

type Schema = BTreeMap<String, BTreeSet<String>>;

/// Tables Sou's own migrations do not make: sqlx's ledger of migrations.
fn sou_table(name: &str) -> bool {
    name != "_sqlx_migrations"
}

async fn sqlite_tables(store: &Store) -> Vec<String> {
    let tables = sqlx::query(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
    )
    .fetch_all(store.pool())
    .await
    .unwrap();
    tables.iter().map(|t| t.get::<String, _>(0)).filter(|t| sou_table(t)).collect()
}

async fn sqlite_schema() -> Schema {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_in(dir.path()).await.unwrap();
    let mut schema = Schema::new();
    for table in sqlite_tables(&store).await {
        let columns = sqlx::query("SELECT name FROM pragma_table_info(?)")
            .bind(&table)
            .fetch_all(store.pool())
            .await
            .unwrap()
            .iter()
            .map(|c| c.get::<String, _>(0))
            .collect();
        schema.insert(table, columns);
    }
    schema
}

/// PostgreSQL's tables and their columns, as `store` sees them.
async fn postgres_columns(store: &Store) -> Schema {
    let rows = sqlx::query(
        "SELECT c.table_name::text, c.column_name::text FROM information_schema.columns c \
         JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name \
         WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'",
    )
    .fetch_all(store.pool())
    .await
    .unwrap();
    let mut schema = Schema::new();
    for r in rows {
        let (table, column): (String, String) = (r.get(0), r.get(1));
        if sou_table(&table) {
            schema.entry(table).or_default().insert(column);
        }
    }
    schema
}

async fn postgres_schema() -> Schema {
    let db = FreshDatabase::create().await.expect("PostgreSQL at 127.0.0.1:5432");
    let store = db.open_store().await.unwrap();
    let schema = postgres_columns(&store).await;
    store.pool().close().await;
    db.drop().await;
    schema
}

#[tokio::test]
async fn both_migration_trees_make_the_same_tables_and_columns() {
    let (lite, pg) = (sqlite_schema().await, postgres_schema().await);
    assert!(lite.len() >= 20, "SQLite has {} tables", lite.len());
    let mut differences = Vec::new();
    for table in lite.keys().chain(pg.keys()).collect::<BTreeSet<_>>() {
        match (lite.get(table), pg.get(table)) {
            (Some(_), None) => differences.push(format!("{table}: only on SQLite")),
            (None, Some(_)) => differences.push(format!("{table}: only on PostgreSQL")),
            (Some(a), Some(b)) => {
                for c in a.difference(b) {
                    differences.push(format!("{table}.{c}: only on SQLite"));
                }
                for c in b.difference(a) {
                    differences.push(format!("{table}.{c}: only on PostgreSQL"));
                }
            }
            (None, None) => {}
        }
    }
    assert!(differences.is_empty(), "the schemas differ:\n{}", differences.join("\n"));
}

/// Tables that hold no one's data, or are read before anyone is known (a session's or
/// a token's hash, a login's rate): they stay whole on a sharded PostgreSQL, as
/// reference tables (docs/postgresql.md).
const WHOLE: [&str; 5] = ["users", "sessions", "api_tokens", "login_streaks", "rate_events"];

/// A table's keys, each as its columns in order.
#[derive(Debug, Default)]
struct Keys {
    columns: BTreeSet<String>,
    primary: Vec<String>,
    unique: Vec<Vec<String>>,
    /// (columns, parent table, parent columns)
    foreign: Vec<(Vec<String>, String, Vec<String>)>,
    /// SQLite: the primary key is the INTEGER `id` the row is stored under (its rowid).
    rowid: bool,
}

fn split(columns: &str) -> Vec<String> {
    columns.split(',').filter(|c| !c.is_empty()).map(str::to_string).collect()
}

async fn sqlite_keys() -> BTreeMap<String, Keys> {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_in(dir.path()).await.unwrap();
    let pool = store.pool();
    let mut all = BTreeMap::new();
    for table in sqlite_tables(&store).await {
        let mut keys = Keys::default();
        let mut primary: Vec<(i64, String, String)> = Vec::new();
        for c in sqlx::query("SELECT name, type, pk FROM pragma_table_info(?)")
            .bind(&table)
            .fetch_all(pool)
            .await
            .unwrap()
        {
            let (name, kind, pk): (String, String, i64) = (c.get(0), c.get(1), c.get(2));
            if pk > 0 {
                primary.push((pk, name.clone(), kind));
            }
            keys.columns.insert(name);
        }
        primary.sort();
        keys.rowid = matches!(primary.as_slice(), [(_, name, kind)] if name == "id" && kind == "INTEGER");
        keys.primary = primary.into_iter().map(|(_, name, _)| name).collect();
        let indexes =
            sqlx::query("SELECT name FROM pragma_index_list(?) WHERE \"unique\" = 1 AND origin <> 'pk'")
                .bind(&table)
                .fetch_all(pool)
                .await
                .unwrap();
        for index in indexes {
            let name: String = index.get(0);
            let columns = sqlx::query("SELECT name FROM pragma_index_info(?) ORDER BY seqno")
                .bind(&name)
                .fetch_all(pool)
                .await
                .unwrap();
            keys.unique.push(columns.iter().map(|c| c.get::<String, _>(0)).collect());
        }
        let foreign = sqlx::query(
            "SELECT \"table\", group_concat(\"from\", ','), group_concat(\"to\", ',')
             FROM (SELECT * FROM pragma_foreign_key_list(?) ORDER BY id, seq) GROUP BY id",
        )
        .bind(&table)
        .fetch_all(pool)
        .await
        .unwrap();
        for f in foreign {
            keys.foreign.push((split(&f.get::<String, _>(1)), f.get(0), split(&f.get::<String, _>(2))));
        }
        all.insert(table, keys);
    }
    all
}

async fn postgres_keys() -> BTreeMap<String, Keys> {
    let db = FreshDatabase::create().await.expect("PostgreSQL at 127.0.0.1:5432");
    let store = db.open_store().await.unwrap();
    let mut all: BTreeMap<String, Keys> = postgres_columns(&store)
        .await
        .into_iter()
        .map(|(table, columns)| (table, Keys { columns, ..Keys::default() }))
        .collect();
    // Constraints, and the unique indexes no constraint stands for.
    let names = |keys: &str, rel: &str| {
        format!(
            "COALESCE((SELECT string_agg(a.attname::text, ',' ORDER BY k.o) FROM unnest({keys}) WITH ORDINALITY k(n, o)
              JOIN pg_attribute a ON a.attrelid = {rel} AND a.attnum = k.n), '')"
        )
    };
    let sql = format!(
        "SELECT c.conrelid::regclass::text, c.contype::text, {}, COALESCE(c.confrelid::regclass::text, ''), {}
         FROM pg_constraint c WHERE c.connamespace = current_schema()::regnamespace AND c.contype IN ('p', 'u', 'f')
         UNION ALL
         SELECT i.indrelid::regclass::text, 'u', {}, '', ''
         FROM pg_index i JOIN pg_class x ON x.oid = i.indexrelid
         WHERE x.relnamespace = current_schema()::regnamespace AND i.indisunique
           AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid AND k.contype IN ('p', 'u'))",
        names("c.conkey", "c.conrelid"),
        names("c.confkey", "c.confrelid"),
        names("i.indkey::int2[]", "i.indrelid"),
    );
    for r in sqlx::query(&sql).fetch_all(store.pool()).await.unwrap() {
        let (table, kind, columns, parent, to): (String, String, String, String, String) =
            (r.get(0), r.get(1), r.get(2), r.get(3), r.get(4));
        let Some(keys) = all.get_mut(&table) else { continue };
        match kind.as_str() {
            "p" => keys.primary = split(&columns),
            "u" => keys.unique.push(split(&columns)),
            _ => keys.foreign.push((split(&columns), parent, split(&to))),
        }
    }
    store.pool().close().await;
    db.drop().await;
    all
}

/// What keeps a table from being sharded by user, or (on SQLite, without row-level
/// security) lets a row point at another user's row.
fn keys_without_the_user(all: &BTreeMap<String, Keys>, dialect: &str) -> Vec<String> {
    let mut wrong = Vec::new();
    for (table, keys) in all.iter().filter(|(t, _)| !WHOLE.contains(&t.as_str())) {
        let with_user = |columns: &[String]| columns.iter().any(|c| c == "user_id");
        if !keys.columns.contains("user_id") {
            wrong.push(format!("{dialect}: {table} has no user_id"));
        }
        // SQLite stores a row under its INTEGER id (the rowid): that key may stay alone.
        let rowid = dialect == "SQLite" && keys.rowid;
        if !(with_user(&keys.primary) || rowid) {
            wrong.push(format!("{dialect}: {table}'s primary key is ({})", keys.primary.join(", ")));
        }
        for unique in keys.unique.iter().filter(|u| !with_user(u)) {
            wrong.push(format!("{dialect}: {table} has UNIQUE ({})", unique.join(", ")));
        }
        for (columns, parent, to) in &keys.foreign {
            let paired = columns.iter().zip(to).any(|(c, t)| c == "user_id" && t == "user_id");
            if !WHOLE.contains(&parent.as_str()) && !paired {
                wrong.push(format!(
                    "{dialect}: {table} ({}) → {parent} ({})",
                    columns.join(", "),
                    to.join(", ")
                ));
            }
        }
    }
    wrong
}

#[tokio::test]
async fn every_key_of_someones_data_has_the_user_in_it() {
    let (lite, pg) = (sqlite_keys().await, postgres_keys().await);
    assert!(lite.len() >= 20 && pg.len() >= 20, "{} and {} tables", lite.len(), pg.len());
    for (table, keys) in lite.iter().chain(&pg).filter(|(t, _)| !WHOLE.contains(&t.as_str())) {
        assert!(!keys.primary.is_empty(), "{table} has a primary key");
    }
    let mut wrong = keys_without_the_user(&lite, "SQLite");
    wrong.extend(keys_without_the_user(&pg, "PostgreSQL"));
    assert!(wrong.is_empty(), "keys without the user:\n{}", wrong.join("\n"));
}

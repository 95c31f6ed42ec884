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

async fn sqlite_schema() -> Schema {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_in(dir.path()).await.unwrap();
    let tables = sqlx::query(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
    )
    .fetch_all(store.pool())
    .await
    .unwrap();
    let mut schema = Schema::new();
    for t in tables {
        let table: String = t.get(0);
        if !sou_table(&table) {
            continue;
        }
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

async fn postgres_schema() -> Schema {
    let db = FreshDatabase::create().await.expect("PostgreSQL at 127.0.0.1:5432");
    let store = db.open_store().await.unwrap();
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

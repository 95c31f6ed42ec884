//! The PostgreSQL schema on the local server (127.0.0.1:5432, or `SOU_TEST_POSTGRES_URL`),
//! in a fresh database per run: every table with a `user_id` has row-level security
//! enabled and forced, and a role that owns nothing sees and writes only the rows of
//! the user set for its transaction — none when no user is set, and a pooled
//! connection does not keep the previous transaction's user.

use sqlx::postgres::{PgPool, PgPoolOptions};
use sqlx::Row;

use backend::testing::FreshDatabase;

static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations_pg");

struct Fresh {
    db: FreshDatabase,
    role: String,
    pool: PgPool,
}

async fn fresh() -> Fresh {
    let db = FreshDatabase::create_nologin().await.expect("PostgreSQL at 127.0.0.1:5432");
    let role = db.role().to_string();
    let pool = PgPoolOptions::new().max_connections(1).connect(&db.owner_url()).await.unwrap();
    MIGRATOR.run(&pool).await.unwrap();
    for grant in [
        format!("GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO {role}"),
        format!("GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO {role}"),
    ] {
        sqlx::query(&grant).execute(&pool).await.unwrap();
    }
    Fresh { db, role, pool }
}

impl Fresh {
    async fn drop(self) {
        self.pool.close().await;
        self.db.drop().await;
    }

    /// A transaction as the app role, for `user` (none: no user set), as Sou will open them.
    async fn as_app(&self, user: Option<i64>) -> sqlx::Transaction<'_, sqlx::Postgres> {
        let mut tx = self.pool.begin().await.unwrap();
        sqlx::query(&format!("SET LOCAL ROLE {}", self.role)).execute(&mut *tx).await.unwrap();
        if let Some(u) = user {
            sqlx::query("SELECT set_config('sou.user_id', $1, true)")
                .bind(u.to_string())
                .execute(&mut *tx)
                .await
                .unwrap();
        }
        tx
    }

    /// Counts `conversations` as the app role, with `user` set for the transaction.
    async fn visible(&self, user: Option<i64>) -> i64 {
        let mut tx = self.as_app(user).await;
        let n: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM conversations").fetch_one(&mut *tx).await.unwrap();
        tx.commit().await.unwrap();
        n
    }
}

#[tokio::test]
async fn tenant_tables_have_row_level_security_enabled_and_forced() {
    let db = fresh().await;
    let rows = sqlx::query(
        "SELECT c.relname, c.relrowsecurity, c.relforcerowsecurity
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE n.nspname = 'public' AND c.relkind = 'r'
           AND EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'user_id'
                         AND NOT a.attisdropped)
         ORDER BY c.relname",
    )
    .fetch_all(&db.pool)
    .await
    .unwrap();
    let tables: Vec<(String, bool, bool)> = rows.iter().map(|r| (r.get(0), r.get(1), r.get(2))).collect();
    println!("tenant tables: {}", tables.iter().map(|t| t.0.as_str()).collect::<Vec<_>>().join(", "));
    // The app role owns nothing and cannot bypass RLS.
    let owns: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM pg_class c JOIN pg_roles r ON r.oid = c.relowner WHERE r.rolname = $1",
    )
    .bind(&db.role)
    .fetch_one(&db.pool)
    .await
    .unwrap();
    let bypass: bool = sqlx::query_scalar("SELECT rolbypassrls FROM pg_roles WHERE rolname = $1")
        .bind(&db.role)
        .fetch_one(&db.pool)
        .await
        .unwrap();
    db.drop().await;
    // The same tenant tables as the SQLite schema.
    let dir = tempfile::tempdir().unwrap();
    let sqlite = backend::Store::open_in(dir.path()).await.unwrap();
    let expected: Vec<String> = sqlx::query_scalar(
        "SELECT m.name FROM sqlite_master m, pragma_table_info(m.name) p
         WHERE m.type = 'table' AND p.name = 'user_id' ORDER BY m.name",
    )
    .fetch_all(sqlite.pool())
    .await
    .unwrap();
    assert_eq!(tables.iter().map(|t| t.0.clone()).collect::<Vec<_>>(), expected);
    for (table, enabled, forced) in &tables {
        assert!(*enabled && *forced, "{table}: RLS enabled {enabled}, forced {forced}");
    }
    assert_eq!((owns, bypass), (0, false));
}

#[tokio::test]
async fn the_app_role_sees_only_the_user_of_its_transaction() {
    let db = fresh().await;
    let mut users = Vec::new();
    for name in ["alice", "bob"] {
        let id: i64 = sqlx::query_scalar("INSERT INTO users (name) VALUES ($1) RETURNING id")
            .bind(name)
            .fetch_one(&db.pool)
            .await
            .unwrap();
        users.push(id);
    }
    let (alice, bob) = (users[0], users[1]);

    // As the app role, for Alice: a row for Bob is refused; hers goes in.
    let insert = |id: &'static str, user: i64| {
        sqlx::query("INSERT INTO conversations (id, user_id, title) VALUES ($1, $2, 'a title')")
            .bind(id)
            .bind(user)
    };
    let mut tx = db.as_app(Some(alice)).await;
    let error =
        insert("b1", bob).execute(&mut *tx).await.expect_err("a row for another user is refused").to_string();
    assert!(error.contains("row-level security"), "{error}");
    tx.rollback().await.unwrap();
    let mut tx = db.as_app(Some(alice)).await;
    insert("a1", alice).execute(&mut *tx).await.unwrap();
    tx.commit().await.unwrap();

    assert_eq!(db.visible(Some(alice)).await, 1, "Alice sees her conversation");
    assert_eq!(db.visible(Some(bob)).await, 0, "Bob does not");
    // One pooled connection: the previous transaction's user is gone.
    assert_eq!(db.visible(None).await, 0, "no user set, no rows");
    // Bob cannot change or delete Alice's row either.
    let mut tx = db.as_app(Some(bob)).await;
    let changed = sqlx::query("UPDATE conversations SET title = 'mine' WHERE id = 'a1'")
        .execute(&mut *tx)
        .await
        .unwrap();
    let deleted = sqlx::query("DELETE FROM conversations WHERE id = 'a1'").execute(&mut *tx).await.unwrap();
    tx.commit().await.unwrap();
    assert_eq!((changed.rows_affected(), deleted.rows_affected()), (0, 0));
    assert_eq!(db.visible(Some(alice)).await, 1);
    db.drop().await;
}

/// A transaction whose `BEGIN` is cancelled half-way (a client gone, a read dropped
/// because the vocabulary moved) never leaves its connection inside a transaction for
/// the next borrower: sqlx raises its rollback guard only once `BEGIN` has answered, so
/// Sou finishes every `BEGIN` it starts. Before, a cancelled read-only one made the
/// next write on that connection fail ("cannot execute … in a read-only transaction").
#[tokio::test]
async fn a_cancelled_begin_leaves_no_transaction_behind() {
    use futures::FutureExt;
    let fresh = FreshDatabase::create().await.expect("PostgreSQL at 127.0.0.1:5432");
    let store = fresh.open_store().await.unwrap();
    let user = store.ensure_user("alice").await.unwrap();
    for round in 0..40 {
        // Polled once: the BEGIN is sent, then the future is dropped.
        drop(store.tenant_read(user).now_or_never());
        tokio::task::yield_now().await;
        let mut tx = store.tenant(user).await.unwrap();
        let title = format!("round {round}");
        sqlx::query("INSERT INTO conversations (id, user_id, title) VALUES ($2, $1, $2)")
            .bind(user.0)
            .bind(title)
            .execute(&mut *tx)
            .await
            .unwrap_or_else(|e| panic!("round {round}: {e}"));
        tx.commit().await.unwrap();
    }
    drop(store);
    fresh.drop().await;
}

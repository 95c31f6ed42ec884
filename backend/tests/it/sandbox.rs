//! The dataset SQL sandbox under attack, on SQLite and on PostgreSQL (row-level
//! security, Sou's role owning nothing). Alice and Bob each have a `sales` dataset;
//! Bob also has the demo ledger. As Alice, every attempt below — other statements,
//! several statements, catalogs, the ledger, Bob's table, files, extensions, settings,
//! roles, sleeps, huge values, recursive and cross-join bombs, values grown by nested
//! `replace()`, aggregated text, results of many megabytes, her own table by its
//! physical name — is refused, stopped by the time limit, cut at the result's byte cap,
//! or returns only Alice's rows. Afterwards every table holds the same rows as before
//! and no table was added: 0 writes, 0 foreign rows.

use std::collections::BTreeMap;

use agent::datasets::ColumnType;
use backend::testing::datasets::{self, Refused};
use backend::DatasetError;
use backend::Dialect;
use backend::{Store, UserId};

const ALICE_SALES: &str = "region;amount;month;note\nNord;1200,50;2026-01-01;alice-1\nSud;800;2026-01-01;alice-2\nNord;300,25;2026-02-01;alice-3\nEst;50;2026-02-01;alice-4\n";
const BOB_SALES: &str = "region,amount,month,note\nOuest,999,2026-01-01,BOB-SECRET\n";

/// What must never appear in Alice's results.
const FOREIGN: &[&str] = &["BOB-SECRET", "CARREFOUR", "argon2", "bob", "Ouest"];

async fn world(store: &Store) -> (UserId, UserId) {
    let alice = store.ensure_user("alice").await.unwrap();
    let bob = store.ensure_user("bob").await.unwrap();
    backend::demo::seed(store, bob).await.unwrap();
    let a = datasets::create(store, alice, "sales.csv", ALICE_SALES.as_bytes()).await.unwrap();
    assert_eq!(a.name, "sales");
    let kinds: Vec<ColumnType> = a.columns.iter().map(|c| c.kind).collect();
    assert_eq!(kinds, [ColumnType::Text, ColumnType::Number, ColumnType::Date, ColumnType::Text]);
    datasets::create(store, bob, "sales.csv", BOB_SALES.as_bytes()).await.unwrap();
    (alice, bob)
}

/// Every table and its row count, as the tables' owner sees them (on PostgreSQL,
/// row-level security is set per user, so each user's rows are counted in turn).
async fn snapshot(store: &Store, users: &[UserId]) -> BTreeMap<String, i64> {
    let (relations, tables) = match store.dialect() {
        Dialect::Sqlite => (
            "SELECT type || ' ' || name FROM sqlite_master ORDER BY name",
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name <> '_sqlx_migrations'",
        ),
        Dialect::Postgres => (
            "SELECT CAST(relkind AS TEXT) || ' ' || CAST(relname AS TEXT) FROM pg_class c
             JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' ORDER BY relname",
            "SELECT CAST(relname AS TEXT) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
             WHERE n.nspname = 'public' AND relkind = 'r' AND relname <> '_sqlx_migrations'",
        ),
    };
    let mut out = BTreeMap::new();
    for r in sqlx::query_scalar::<_, String>(relations).fetch_all(store.pool()).await.unwrap() {
        out.insert(r, 0);
    }
    let tables: Vec<String> = sqlx::query_scalar(tables).fetch_all(store.pool()).await.unwrap();
    for user in users {
        let mut tx = store.tenant(*user).await.unwrap();
        for t in &tables {
            let n: i64 = sqlx::query_scalar(&format!("SELECT COUNT(*) FROM \"{t}\""))
                .fetch_one(&mut *tx)
                .await
                .unwrap();
            *out.entry(format!("rows of {t} seen as {}", user.0)).or_default() += n;
        }
        tx.rollback().await.unwrap();
    }
    out
}

/// What an attempt must come to.
#[derive(Debug)]
enum Expect {
    Refused,
    /// Refused by the checker, or failed in the database (a name out of scope).
    Fails,
    Timeout,
    /// Not one row fits in the result's byte cap.
    TooLarge,
    /// The first rows, cut at the result's byte cap.
    Truncated,
}

/// `replace(x, 'a', 'aaaaaaaaaa')` `times` deep: each makes `x` up to ten times longer.
fn grow(x: &str, times: usize) -> String {
    (0..times).fold(x.to_string(), |x, _| format!("replace({x}, 'a', 'aaaaaaaaaa')"))
}

fn attempts(bob_table: &str, alice_table: &str, dialect: Dialect) -> Vec<(&'static str, String, Expect)> {
    use Expect::*;
    let mut v: Vec<(&'static str, String, Expect)> = vec![
        ("two statements", "SELECT 1; SELECT 2".into(), Refused),
        ("a drop after a select", "SELECT * FROM sales; DROP TABLE sales".into(), Refused),
        ("drop", "DROP TABLE sales".into(), Refused),
        ("delete", "DELETE FROM sales".into(), Refused),
        ("update", "UPDATE sales SET amount = 0".into(), Refused),
        ("insert", "INSERT INTO sales (region) VALUES ('x')".into(), Refused),
        ("create table as", "CREATE TABLE copy AS SELECT * FROM sales".into(), Refused),
        ("create view", "CREATE VIEW v AS SELECT 1".into(), Refused),
        ("select into", "SELECT * INTO copy FROM sales".into(), Refused),
        ("for update", "SELECT * FROM sales FOR UPDATE".into(), Refused),
        ("delete in a CTE", "WITH d AS (DELETE FROM sales RETURNING *) SELECT * FROM d".into(), Refused),
        ("update in a CTE", "WITH u AS (UPDATE sales SET amount = 0 RETURNING *) SELECT 1".into(), Refused),
        ("explain analyze", "EXPLAIN ANALYZE DELETE FROM sales".into(), Refused),
        ("begin", "BEGIN".into(), Refused),
        ("commit", "COMMIT".into(), Refused),
        ("the ledger", "SELECT * FROM transactions".into(), Refused),
        ("the users", "SELECT name, password_hash FROM users".into(), Refused),
        ("a schema-qualified table", "SELECT * FROM main.users".into(), Refused),
        ("the ledger joined", "SELECT * FROM sales, transactions".into(), Refused),
        ("a scalar subquery on users", "SELECT (SELECT password_hash FROM users LIMIT 1)".into(), Refused),
        ("IN over users", "SELECT * FROM sales WHERE region IN (SELECT name FROM users)".into(), Refused),
        ("a union with users", "SELECT region, note FROM sales UNION SELECT name, password_hash FROM users".into(), Refused),
        ("a derived table on the ledger", "SELECT * FROM (SELECT * FROM transactions) t".into(), Refused),
        ("api tokens in a filter", "SELECT * FROM sales WHERE amount > (SELECT COUNT(*) FROM api_tokens)".into(), Refused),
        ("values over users", "VALUES ((SELECT password_hash FROM users))".into(), Refused),
        ("TABLE users", "TABLE users".into(), Refused),
        ("Bob's table by its name", format!("SELECT * FROM {bob_table}"), Refused),
        ("Bob's table quoted", format!("SELECT * FROM \"{bob_table}\""), Refused),
        ("the datasets list", "SELECT * FROM datasets".into(), Refused),
        ("a CTE named like a table, used out of its scope",
            "SELECT * FROM (WITH transactions AS (SELECT 1 AS a) SELECT * FROM transactions) x, transactions".into(), Fails),
        ("recursive CTE bomb", "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT COUNT(*) FROM c".into(), Refused),
        ("a cross-join bomb", "SELECT COUNT(*) FROM sales a, sales b, sales c, sales d, sales e, sales f, sales g, sales h, sales i, sales j, sales k, sales l, sales m, sales n, sales o, sales p, sales q, sales r, sales s, sales t".into(), Timeout),
        ("a lateral join", "SELECT * FROM sales, LATERAL (SELECT 1) x".into(), Refused),
        ("a table function", "SELECT * FROM generate_series(1, 1000000000)".into(), Refused),
        ("a cast to regclass", "SELECT CAST('users' AS regclass)".into(), Refused),
        ("printf width bomb", "SELECT printf('%.*c', 1000000000, 'x')".into(), Refused),
        ("repeat bomb", "SELECT repeat('x', 1000000000)".into(), Refused),
        ("a qualified function", "SELECT pg_catalog.lower('X')".into(), Refused),
        // Her own dataset's table by its physical name: no rewrite, so its user_id.
        ("her own table by its physical name", format!("SELECT * FROM {alice_table}"), Refused),
        ("her own table quoted", format!("SELECT user_id, note FROM \"{alice_table}\""), Refused),
        ("her own table beside its dataset", format!("SELECT * FROM sales, {alice_table}"), Refused),
        ("her own table in a subquery", format!("SELECT (SELECT MAX(user_id) FROM {alice_table})"), Refused),
        // Values grown by nested replace(): the issue's six over 60 rows (600 MB once).
        ("six nested replace() over 64 rows", format!("SELECT {} FROM sales a, sales b, sales c", grow("a.note", 6)), Refused),
        ("replace() grown through a derived table",
            format!("SELECT {} FROM (SELECT {} AS x FROM sales) t", grow("x", 1), grow("note", 1)), Refused),
        ("replace() grown through a CTE",
            format!("WITH g AS (SELECT {} AS x FROM sales) SELECT {} FROM g", grow("note", 1), grow("x", 1)), Refused),
        ("replace() grown through a scalar subquery",
            format!("SELECT {}", grow(&format!("(SELECT {} FROM sales LIMIT 1)", grow("note", 1)), 1)), Refused),
        ("replace() grown through an alias",
            format!("SELECT {} AS x FROM sales WHERE length({}) > 0", grow("note", 1), grow("x", 1)), Fails),
        ("a column as the replacement", "SELECT replace(a.note, 'a', b.note) FROM sales a, sales b".into(), Refused),
        ("a cast that pads", "SELECT CAST(note AS char(10000000)) FROM sales".into(), Refused),
        // A short text or number that PostgreSQL writes with 100,000 digits.
        ("a number of 100,000 digits, grown",
            format!("SELECT {}", grow("CAST(CAST('1e100000' AS numeric) AS text)", 1).replace("'a'", "'0'")), Refused),
        ("a rounding to 2,000 decimals, grown",
            format!("SELECT {}", grow("CAST(round(CAST(1 AS numeric(2, 1)), 2000) AS text)", 3).replace("'a'", "'0'")), Refused),
        ("LIKE between grown values",
            format!("SELECT COUNT(*) FROM sales a, sales b WHERE {} LIKE {}", grow("a.note", 1), grow("b.note", 1)), Refused),
        ("instr() in a grown value",
            format!("SELECT instr({}, {}) FROM sales a, sales b", grow("a.note", 1), grow("b.note", 1)), Refused),
        // Aggregated text: cut just past the byte cap in the database, and only returned.
        ("a string_agg() blow-up",
            "SELECT string_agg(a.note, ',') FROM sales a, sales b, sales c, sales d, sales e, sales f, sales g, sales h, sales i".into(), TooLarge),
        ("computing on string_agg()", "SELECT length(string_agg(a.note, ',')) FROM sales a, sales b".into(), Refused),
        ("string_agg() past the database's value cap",
            "SELECT string_agg(n.text, '') FROM notes n, sales a, sales b, sales c, sales d, sales e, sales f".into(), TooLarge),
        // Results of many megabytes.
        ("a wide cross join", "SELECT n.text, a.*, b.* FROM notes n, sales a, sales b, sales c, sales d, sales e".into(), Truncated),
        ("many large cells",
            format!("SELECT {} FROM notes", (0..120).map(|i| format!("text AS t{i}")).collect::<Vec<_>>().join(", ")), TooLarge),
        ("a row of grown values",
            format!("SELECT {} FROM notes", (0..12).map(|i| format!("{} AS g{i}", grow("text", 1))).collect::<Vec<_>>().join(", ")), TooLarge),
    ];
    match dialect {
        Dialect::Sqlite => v.extend([
            ("attach", "ATTACH DATABASE '/tmp/sou-x.db' AS x".into(), Refused),
            ("detach", "DETACH DATABASE main".into(), Refused),
            ("pragma", "PRAGMA table_info(users)".into(), Refused),
            ("pragma writable_schema", "PRAGMA writable_schema = ON".into(), Refused),
            ("a pragma table function", "SELECT * FROM pragma_table_info('users')".into(), Refused),
            ("load_extension", "SELECT load_extension('/tmp/evil.so')".into(), Refused),
            ("vacuum into", "VACUUM INTO '/tmp/sou-copy.db'".into(), Refused),
            ("randomblob", "SELECT randomblob(1000000000)".into(), Refused),
            ("zeroblob", "SELECT hex(zeroblob(100000000))".into(), Refused),
            ("sqlite_master", "SELECT sql FROM sqlite_master".into(), Refused),
            ("sqlite_schema", "SELECT * FROM sqlite_schema".into(), Refused),
            ("sqlite_version", "SELECT sqlite_version()".into(), Refused),
            (
                "an implicitly recursive CTE",
                "WITH c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT COUNT(*) FROM c".into(),
                Timeout,
            ),
            ("reindex", "REINDEX".into(), Refused),
            ("analyze", "ANALYZE".into(), Refused),
            ("json_each", "SELECT * FROM json_each('[1,2]')".into(), Refused),
            ("a group_concat() blow-up",
                "SELECT group_concat(a.note) FROM sales a, sales b, sales c, sales d, sales e, sales f, sales g, sales h, sales i".into(), TooLarge),
            ("computing on group_concat()", "SELECT instr(group_concat(note), 'x') FROM sales".into(), Refused),
        ]),
        Dialect::Postgres => v.extend([
            ("pg_read_file", "SELECT pg_read_file('/etc/passwd')".into(), Refused),
            ("copy to program", "COPY sales TO PROGRAM 'id'".into(), Refused),
            ("copy a query to a file", "COPY (SELECT 1) TO '/tmp/sou-x'".into(), Refused),
            ("set_config", "SELECT set_config('sou.user_id', '2', false)".into(), Refused),
            ("set role", "SET ROLE postgres".into(), Refused),
            ("reset role", "RESET ROLE".into(), Refused),
            ("set the user", "SET sou.user_id = 2".into(), Refused),
            ("current_setting", "SELECT current_setting('sou.user_id')".into(), Refused),
            ("pg_sleep", "SELECT pg_sleep(10)".into(), Refused),
            ("pg_user", "SELECT * FROM pg_user".into(), Refused),
            ("pg_catalog", "SELECT * FROM pg_catalog.pg_tables".into(), Refused),
            ("information_schema", "SELECT * FROM information_schema.tables".into(), Refused),
            ("lo_import", "SELECT lo_import('/etc/passwd')".into(), Refused),
            ("dblink", "SELECT * FROM dblink('dbname=postgres', 'select 1') AS t(x int)".into(), Refused),
            ("query_to_xml", "SELECT query_to_xml('select * from users', true, true, '')".into(), Refused),
            ("a ::regclass cast", "SELECT 'users'::regclass".into(), Refused),
            ("do block", "DO $$ BEGIN DELETE FROM users; END $$".into(), Refused),
            ("prepare", "PREPARE p AS SELECT 1".into(), Refused),
            ("listen", "LISTEN sou".into(), Refused),
            ("nextval", "SELECT nextval('users_id_seq')".into(), Refused),
            ("version", "SELECT version()".into(), Refused),
            ("tablesample", "SELECT * FROM sales TABLESAMPLE SYSTEM (50)".into(), Refused),
            ("create function", "CREATE FUNCTION f() RETURNS int AS 'select 1' LANGUAGE sql".into(), Refused),
            ("call the owner's function", format!("SELECT sou_drop_dataset_table('{bob_table}')"), Refused),
        ]),
    }
    v
}

backend::on_both_databases!(bypasses_fail_on_sqlite, bypasses_fail_on_postgres, |store| bypasses_fail(
    &store
));

async fn bypasses_fail(store: &Store) {
    let (alice, bob) = world(store).await;
    // A long text: one value of the longest a dataset may hold, and a short one.
    let long = "a".repeat(datasets::MAX_CELL_CHARS);
    datasets::create(store, alice, "notes.csv", format!("id;text\n1;{long}\n2;short\n").as_bytes())
        .await
        .unwrap();
    let physical = |user: UserId| async move {
        let mut tx = store.tenant(user).await.unwrap();
        let t: String =
            sqlx::query_scalar("SELECT physical FROM datasets WHERE user_id = $1 AND name = 'sales'")
                .bind(user.0)
                .fetch_one(&mut *tx)
                .await
                .unwrap();
        tx.commit().await.unwrap();
        t
    };
    let (bob_table, alice_table) = (physical(bob).await, physical(alice).await);
    let before = snapshot(store, &[alice, bob]).await;
    let list = attempts(&bob_table, &alice_table, store.dialect());
    assert!(list.len() >= 50, "{} attempts", list.len());
    let (mut table, mut failures) = (Vec::new(), Vec::new());
    for (name, sql, expect) in &list {
        let started = std::time::Instant::now();
        let outcome = datasets::query(store, alice, sql).await;
        let text = match &outcome {
            Ok(r) => format!("{:?} {:?}", r.columns, r.rows),
            Err(e) => e.to_string(),
        };
        for f in FOREIGN {
            assert!(!text.contains(f), "{name}: {f} leaked: {text}");
        }
        let bytes =
            |r: &agent::datasets::QueryResult| r.rows.iter().flatten().map(|c| c.text().len()).sum::<usize>();
        let ok = matches!(
            (expect, &outcome),
            (Expect::Refused, Err(DatasetError::Refused(_)))
                | (Expect::Fails, Err(DatasetError::Refused(_) | DatasetError::Query(_)))
                | (Expect::Timeout, Err(DatasetError::Timeout))
                | (Expect::TooLarge, Err(DatasetError::ResultTooLarge))
        ) || matches!((expect, &outcome), (Expect::Truncated, Ok(r))
            if r.truncated && !r.rows.is_empty() && bytes(r) <= datasets::RESULT_BYTES);
        let shown: String = format!("{outcome:?}").chars().take(300).collect();
        if !ok {
            failures.push(format!("{name}: expected {expect:?}, got {shown}"));
        }
        let text: String = text.chars().take(200).collect();
        table.push(format!("{:?} {name}: {} ms — {text}", store.dialect(), started.elapsed().as_millis()));
    }
    println!("{}", table.join("\n"));
    assert!(
        failures.is_empty(),
        "{} attempts did not come to what they must:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!(snapshot(store, &[alice, bob]).await, before, "something was written");
    // Alice's own questions still work, and see only her rows.
    let r = datasets::query(
        store,
        alice,
        "SELECT region, SUM(amount) AS total FROM sales GROUP BY region ORDER BY total DESC",
    )
    .await
    .unwrap();
    assert_eq!(r.columns, ["region", "total"]);
    let rows: Vec<(String, String)> = r.rows.iter().map(|row| (row[0].text(), row[1].text())).collect();
    assert_eq!(
        rows,
        [("Nord".into(), "1500.75".into()), ("Sud".into(), "800".into()), ("Est".into(), "50".into())]
    );
    let r = datasets::query(store, alice, "SELECT * FROM sales").await.unwrap();
    assert_eq!(r.columns, ["region", "amount", "month", "note"], "no user_id column");
    assert_eq!(r.rows.len(), 4);
    // Text functions that grow values a little, and aggregated text that is returned.
    let column = |sql: &str| {
        let sql = sql.to_string();
        async move {
            let r = datasets::query(store, alice, &sql).await.unwrap_or_else(|e| panic!("{sql}: {e}"));
            r.rows
                .iter()
                .map(|row| row.iter().map(|c| c.text()).collect::<Vec<_>>().join("|"))
                .collect::<Vec<_>>()
        }
    };
    assert_eq!(
        column("SELECT replace(note, '-', '.') FROM sales ORDER BY note").await,
        ["alice.1", "alice.2", "alice.3", "alice.4"]
    );
    assert_eq!(
        column("SELECT replace(replace(note, '-', ' - '), 'alice', 'Alice') || ' (' || region || ')' FROM sales WHERE amount < 100").await,
        ["Alice - 4 (Est)"]
    );
    assert_eq!(
        column("SELECT label FROM (SELECT region || ': ' || note AS label, amount FROM sales) t WHERE amount > 1000").await,
        ["Nord: alice-1"]
    );
    let instr = match store.dialect() {
        Dialect::Sqlite => "instr(note, r)",
        Dialect::Postgres => "strpos(note, r)",
    };
    let sql = format!("WITH t AS (SELECT upper(region) AS r, note FROM sales) SELECT r, COUNT(*) FROM t WHERE note LIKE '%alice%' AND {instr} = 0 GROUP BY r ORDER BY r");
    assert_eq!(column(&sql).await, ["EST|1", "NORD|2", "SUD|1"]);
    let mut notes =
        column("SELECT region, string_agg(note, ', ') AS notes FROM sales GROUP BY region ORDER BY region")
            .await;
    notes[1] = notes[1].replace("alice-3, alice-1", "alice-1, alice-3");
    assert_eq!(notes, ["Est|alice-4", "Nord|alice-1, alice-3", "Sud|alice-2"]);
    assert_eq!(column("SELECT n FROM (SELECT region, COUNT(*) AS n, string_agg(note, ',') AS all_notes FROM sales GROUP BY region) t WHERE region = 'Sud'").await, ["1"]);
    if store.dialect() == Dialect::Sqlite {
        assert_eq!(
            column("SELECT group_concat(note, ';') FROM sales WHERE region = 'Sud'").await,
            ["alice-2"]
        );
    }
    // A CTE named like her dataset's table is hers to name; the dataset still reads its table.
    let sql = format!("WITH {alice_table} AS (SELECT 1 AS x) SELECT COUNT(*) FROM sales");
    assert_eq!(column(&sql).await, ["4"]);
    // The longest value a dataset holds comes back whole, and grows within the limits.
    assert_eq!(column("SELECT text FROM notes WHERE id = 1").await, [long]);
    let grown = column("SELECT replace(text, 'a', 'ab') FROM notes WHERE id = 1").await;
    assert_eq!(grown[0].len(), 2 * datasets::MAX_CELL_CHARS);
}

/// SQLite is built with a cap on every string or blob it makes (`.cargo/config.toml`):
/// past it, a function fails at once rather than building gigabytes in Sou's memory.
#[tokio::test]
async fn sqlite_caps_every_value() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_in(dir.path()).await.unwrap();
    let n: i64 =
        sqlx::query_scalar("SELECT length(zeroblob(10000000))").fetch_one(store.pool()).await.unwrap();
    assert_eq!(n, 10_000_000, "values of 10 MB (uploads) still fit");
    let e = sqlx::query_scalar::<_, i64>("SELECT length(zeroblob(40000000))")
        .fetch_one(store.pool())
        .await
        .expect_err("SQLite must be built with SQLITE_MAX_LENGTH (see .cargo/config.toml)");
    assert!(e.to_string().contains("too big"), "{e}");
    let e = sqlx::query_scalar::<_, i64>("SELECT length(hex(zeroblob(20000000)))")
        .fetch_one(store.pool())
        .await
        .unwrap_err();
    assert!(e.to_string().contains("too big"), "{e}");
}

#[tokio::test]
async fn what_a_query_gets_back() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_in(dir.path()).await.unwrap();
    let user = store.ensure_user("ana").await.unwrap();
    // 1,500 rows: more than the cap.
    let mut csv = String::from("id,city,score,day\n");
    for i in 0..1500 {
        csv.push_str(&format!("{i},{},{}.5,{:02}/01/2026\n", ["Lyon", "Lille"][i % 2], i % 7, i % 28 + 1));
    }
    let info = datasets::create(&store, user, "Scores 2026.csv", csv.as_bytes()).await.unwrap();
    assert_eq!(info.name, "scores_2026");
    let kinds: Vec<(&str, ColumnType)> = info.columns.iter().map(|c| (c.name.as_str(), c.kind)).collect();
    assert_eq!(
        kinds,
        [
            ("id", ColumnType::Integer),
            ("city", ColumnType::Text),
            ("score", ColumnType::Number),
            ("day", ColumnType::Date)
        ]
    );
    let r = datasets::query(&store, user, "SELECT * FROM scores_2026").await.unwrap();
    assert_eq!((r.rows.len(), r.truncated), (datasets::DATASET_ROW_CAP, true));
    let r = datasets::query(&store, user, "select day from scores_2026 where id = 30").await.unwrap();
    assert_eq!(r.rows[0][0].text(), "2026-01-03", "dates stored as YYYY-MM-DD");
    let r = datasets::query(&store, user, "SELECT city FROM scores_2026 WHERE id < 0").await.unwrap();
    assert_eq!((r.columns.as_slice(), r.rows.len()), (["city".to_string()].as_slice(), 0));
    let e = datasets::query(&store, user, "SELECT nope FROM scores_2026").await.unwrap_err();
    assert!(matches!(e, DatasetError::Query(ref m) if m.contains("nope")), "{e}");
    let e = datasets::query(&store, user, "SELECT * FROM sales").await.unwrap_err();
    assert_eq!(e.to_string(), "there is no dataset named \"sales\" (yours: scores_2026)");
    assert!(matches!(
        datasets::query(&store, user, "SELEC 1").await,
        Err(DatasetError::Refused(Refused::Syntax(_)))
    ));
    let described = datasets::describe(&datasets::list(&store, user).await.unwrap(), store.dialect());
    assert!(
        described.contains(
            "- **scores_2026**: 1500 rows, columns: id (integer), city (text), score (number), day (date)"
        ),
        "{described}"
    );
    // A second file of the same name gets another name; deleting drops the table.
    let again = datasets::create(&store, user, "scores 2026.csv", b"a\n1\n").await.unwrap();
    assert_eq!(again.name, "scores_2026_2");
    datasets::delete(&store, user, "scores_2026_2").await.unwrap();
    assert!(matches!(datasets::delete(&store, user, "scores_2026_2").await, Err(DatasetError::NotFound(_))));
    let tables: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM sqlite_master WHERE name GLOB 'ds_*'")
        .fetch_one(store.pool())
        .await
        .unwrap();
    assert_eq!(tables, 1);
    // A value longer than a dataset may hold is refused with its line and column.
    let long = format!("id;text\n1;short\n2;{}\n", "é".repeat(datasets::MAX_CELL_CHARS + 1));
    let e = datasets::create(&store, user, "long.csv", long.as_bytes()).await.unwrap_err();
    assert_eq!(
        e.to_string(),
        format!("line 3: the value of text is longer than {} characters", datasets::MAX_CELL_CHARS)
    );
    // Bad files are refused with the reason.
    let e = datasets::create(&store, user, "x.csv", b"a;b\n1;2\n3\n").await.unwrap_err();
    assert_eq!(e.to_string(), "line 3 has 1 values, the header 2");
    assert!(matches!(datasets::create(&store, user, "x.csv", b"  \n").await, Err(DatasetError::Empty)));
}

/// A demo account's datasets go with it: the purge drops their tables, on both databases.
async fn datasets_go_with_their_user(store: Store) {
    let auth = backend::Auth::new(store.clone(), backend::AuthConfig::default());
    let (account, _) = auth.demo("127.0.0.1").await.unwrap();
    let kept = store.ensure_user("kept").await.unwrap();
    datasets::create(&store, account.user, "sales.csv", ALICE_SALES.as_bytes()).await.unwrap();
    datasets::create(&store, kept, "sales.csv", BOB_SALES.as_bytes()).await.unwrap();
    let tables = |store: Store| async move {
        let sql = match store.dialect() {
            Dialect::Sqlite => "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name GLOB 'ds_*'",
            Dialect::Postgres => {
                "SELECT COUNT(*) FROM pg_tables WHERE schemaname = 'public' AND tablename LIKE 'ds\\_%'"
            }
        };
        sqlx::query_scalar::<_, i64>(sql).fetch_one(store.pool()).await.unwrap()
    };
    assert_eq!(tables(store.clone()).await, 2);
    sqlx::query("UPDATE users SET demo_expires_at = '2000-01-01T00:00:00.000Z' WHERE id = $1")
        .bind(account.user.0)
        .execute(store.pool())
        .await
        .unwrap();
    assert_eq!(auth.purge_expired().await.unwrap(), 1);
    assert_eq!(tables(store.clone()).await, 1, "the demo's dataset table is dropped, the other kept");
    let r = datasets::query(&store, kept, "SELECT COUNT(*) FROM sales").await.unwrap();
    assert_eq!(r.rows[0][0].text(), "1");
}

backend::on_both_databases!(
    datasets_go_with_their_user_on_sqlite,
    datasets_go_with_their_user_on_postgres,
    |store| datasets_go_with_their_user(store)
);

/// Questions about a dataset, read by the parser (no model), validated by the
/// registry and answered through the sandbox: a table and a chart; Bob's same-named
/// dataset never answers for Alice; what the model writes is checked the same way.
async fn questions_about_a_dataset(store: Store) {
    let (alice, bob) = world(&store).await;
    let today = agent::Date::new(2026, 11, 21).unwrap();
    let parser = agent::Parser::new(store.vocabulary(alice).await.unwrap());
    let ask = |message: &'static str| {
        let outcome = parser.parse(message, &agent::Context { today, locale: None, previous: None });
        outcome.plan().cloned().unwrap_or_else(|| panic!("{message}: {outcome:?}"))
    };
    let run = |plan: agent::ToolCallPlan| {
        let store = store.clone();
        async move {
            // The plan travels as JSON and is checked like any other.
            let json = serde_json::to_value(&plan).unwrap();
            let call = backend::Registry::get().validate(&json).unwrap();
            backend::testing::tools::run(&store, alice, &call, plan.meta.locale, today).await
        }
    };

    let plan = ask("total amount by region");
    assert_eq!(plan.meta.confidence, agent::Confidence::High, "{plan:?}");
    let Ok(agent::ToolOutput::QueryDataset(r)) = run(plan).await else { panic!("a dataset result") };
    assert_eq!(r.title, "Sum of amount by region — sales");
    assert_eq!(r.result.columns, ["region", "sum_amount"]);
    let rows: Vec<(String, String)> =
        r.result.rows.iter().map(|row| (row[0].text(), row[1].text())).collect();
    assert_eq!(
        rows,
        [("Nord".into(), "1500.75".into()), ("Sud".into(), "800".into()), ("Est".into(), "50".into())]
    );
    let chart = r.chart.clone().expect("a chart");
    assert_eq!(chart.kind, agent::chart::ChartKind::Bar);
    assert_eq!(chart.points.len(), 3);
    assert!(agent::ToolOutput::QueryDataset(r.clone())
        .answer(agent::Locale::En)
        .contains("first, Nord (1500.75)"));

    // Asked as shares of a whole: a pie.
    let Ok(agent::ToolOutput::QueryDataset(r)) = run(ask("share of amount by region")).await else {
        panic!("a dataset result")
    };
    assert_eq!(r.chart.map(|c| c.kind), Some(agent::chart::ChartKind::Pie));

    // Per month: in time order, drawn as a line; averages rounded to cents.
    let plan = ask("montant moyen par month dans sales");
    let Ok(agent::ToolOutput::QueryDataset(r)) = run(plan).await else { panic!("a dataset result") };
    let rows: Vec<(String, String)> =
        r.result.rows.iter().map(|row| (row[0].text(), row[1].text())).collect();
    assert_eq!(rows, [("2026-01-01".into(), "1000.25".into()), ("2026-02-01".into(), "175.13".into())]);
    assert_eq!(r.chart.map(|c| c.kind), Some(agent::chart::ChartKind::Line));
    let plan = ask("how many rows by region, top 2");
    let Ok(agent::ToolOutput::QueryDataset(r)) = run(plan).await else { panic!("a dataset result") };
    assert_eq!(r.result.rows.len(), 2);
    assert_eq!((r.result.rows[0][0].text(), r.result.rows[0][1].text()), ("Nord".into(), "2".into()));

    // Conditions, periods and dates per quarter, planned by the parser and run by the database.
    let table = |r: &agent::DatasetResult| -> Vec<Vec<String>> {
        r.result.rows.iter().map(|row| row.iter().map(|c| c.text()).collect()).collect()
    };
    for (message, title, rows) in [
        (
            "total amount in sales for region nord in 2026",
            "Sum of amount — sales, region = nord, month: year 2026",
            vec![vec!["1500.75"]],
        ),
        (
            "total amount by region in sales in February 2026",
            "Sum of amount by region — sales, month: February 2026",
            vec![vec!["Nord", "300.25"], vec!["Est", "50"]],
        ),
        (
            "how many rows in sales where amount >= 300",
            "Number of rows — sales, amount ≥ 300",
            vec![vec!["3"]],
        ),
        (
            "nombre de lignes par trimestre dans sales où region n'est pas Est",
            "Nombre de lignes par trimestre (month) — sales, region ≠ Est",
            vec![vec!["2026-T1", "3"]],
        ),
        (
            "total amount by year in sales",
            "Sum of amount by year (month) — sales",
            vec![vec!["2026", "2350.75"]],
        ),
    ] {
        let plan = ask(message);
        assert_eq!(plan.meta.confidence, agent::Confidence::High, "{message}: {plan:?}");
        let Ok(agent::ToolOutput::QueryDataset(r)) = run(plan).await else { panic!("{message}") };
        assert_eq!(r.title, title, "{message}");
        assert_eq!(table(&r), rows, "{message}: {}", r.result.sql);
    }

    // A plan from elsewhere naming what the dataset lacks is refused with the reason.
    let bad = |args: serde_json::Value| {
        let store = store.clone();
        async move {
            let call = backend::Registry::get()
                .validate(&serde_json::json!({"tool": "query_dataset", "args": args}))
                .unwrap();
            match backend::testing::tools::run(&store, alice, &call, agent::Locale::Fr, today).await {
                Err(backend::BackendError::BadRequest(m)) => m,
                other => panic!("{other:?}"),
            }
        }
    };
    assert_eq!(
        bad(serde_json::json!({"dataset": "sales", "measure": "prix", "aggregate": "sum"})).await,
        "Le jeu de données sales n'a pas de colonne « prix »."
    );
    assert!(bad(serde_json::json!({"dataset": "sales", "measure": "note", "aggregate": "avg"}))
        .await
        .starts_with("La colonne note ne contient pas de nombres"));
    assert_eq!(
        bad(serde_json::json!({"dataset": "ventes", "aggregate": "count"})).await,
        "Aucun jeu de données ne s'appelle « ventes »."
    );
    // Column names are identifiers, never SQL: a "column" carrying SQL is just unknown.
    assert!(bad(
        serde_json::json!({"dataset": "sales", "aggregate": "count", "group_by": "region\" FROM users --"})
    )
    .await
    .contains("n'a pas de colonne"));

    // The model's tools: dataset_info, then its SQL through the sandbox.
    let info =
        backend::Registry::get().validate(&serde_json::json!({"tool": "dataset_info", "args": {}})).unwrap();
    let Ok(agent::ToolOutput::DatasetInfo(i)) =
        backend::testing::tools::run(&store, alice, &info, agent::Locale::En, today).await
    else {
        panic!("dataset_info")
    };
    assert_eq!(i.datasets.iter().map(|d| d.name.as_str()).collect::<Vec<_>>(), ["sales"]);
    let sql = |sql: &str| serde_json::json!({"tool": "run_sql", "args": {"sql": sql}});
    let call = backend::Registry::get()
        .validate(&sql("SELECT month, SUM(amount) AS total FROM sales GROUP BY month ORDER BY month"))
        .unwrap();
    let Ok(agent::ToolOutput::RunSql(r)) =
        backend::testing::tools::run(&store, alice, &call, agent::Locale::En, today).await
    else {
        panic!("run_sql")
    };
    assert_eq!(r.result.rows.len(), 2);
    assert!(r.chart.is_some());
    let call = backend::Registry::get().validate(&sql("SELECT * FROM users")).unwrap();
    match backend::testing::tools::run(&store, alice, &call, agent::Locale::En, today).await {
        Err(backend::BackendError::BadRequest(m)) => {
            assert_eq!(m, "There is no dataset named \"users\" (yours: sales).")
        }
        other => panic!("{other:?}"),
    }
    assert!(backend::Registry::get().validate(&sql("")).is_err(), "empty SQL fails the schema");

    // Bob asks the same: his own rows only.
    let bob_parser = agent::Parser::new(store.vocabulary(bob).await.unwrap());
    let outcome =
        bob_parser.parse("total amount by region", &agent::Context { today, locale: None, previous: None });
    let plan = outcome.plan().cloned().expect("a plan");
    let Ok(agent::ToolOutput::QueryDataset(r)) =
        backend::testing::tools::run(&store, bob, &plan.call, agent::Locale::En, today).await
    else {
        panic!("Bob's result")
    };
    assert_eq!(r.result.rows.len(), 1);
    assert_eq!(r.result.rows[0][0].text(), "Ouest");
}

backend::on_both_databases!(
    questions_about_a_dataset_on_sqlite,
    questions_about_a_dataset_on_postgres,
    |store| questions_about_a_dataset(store)
);

//! Queries over datasets: a `query_dataset` plan written as SQL, any SQL checked by the
//! sandbox, then run read-only within the time limit, the row cap and the result's
//! byte budget, on SQLite or PostgreSQL.

use std::collections::HashMap;
use std::time::Instant;

use agent::datasets::{Cell, ColumnType, DatasetColumn, DatasetInfo, NumText, QueryResult};
use agent::{Aggregate, DatasetOrder, DateBucket, FilterOp, QueryDatasetArgs};
use futures::TryStreamExt;
use sqlx::{Column as _, Row as _, TypeInfo as _, ValueRef as _};

use super::catalogue::catalogue;
use super::sandbox::{self, Refused, TableRef};
use super::*;
use crate::ids::UserId;
use crate::store::{Sandbox, Store};

/// Runs `sql` over the user's datasets: checked, rewritten, then run read-only, within
/// [`TIME_LIMIT`], returning at most [`DATASET_ROW_CAP`] rows.
pub async fn query(store: &Store, user: UserId, sql: &str) -> Result<QueryResult, DatasetError> {
    let (_, tables) = catalogue(store, user).await?;
    run(store, user, sql, &tables).await
}

/// `query_dataset`: the SELECT a plan stands for, written by Sou from the dataset's
/// own column names, then run like any other query (checked by the sandbox too).
pub async fn query_plan(
    store: &Store,
    user: UserId,
    args: &QueryDatasetArgs,
    locale: agent::Locale,
) -> Result<QueryResult, DatasetError> {
    let (datasets, tables) = catalogue(store, user).await?;
    let info = datasets
        .iter()
        .find(|d| d.name == args.dataset)
        .ok_or_else(|| DatasetError::NotFound(args.dataset.clone()))?;
    let sql = plan_sql(info, args, locale)?;
    run(store, user, &sql, &tables).await
}

/// The SELECT of a `query_dataset` plan over `info`.
pub fn plan_sql(
    info: &DatasetInfo,
    args: &QueryDatasetArgs,
    locale: agent::Locale,
) -> Result<String, DatasetError> {
    let column = |name: &str| {
        info.columns.iter().find(|c| c.name == name).ok_or_else(|| DatasetError::NoColumn {
            dataset: info.name.clone(),
            column: name.chars().take(100).collect(),
        })
    };
    let value = match (args.aggregate, &args.measure) {
        (Aggregate::Count, _) => "COUNT(*)".to_string(),
        (_, None) => {
            return Err(DatasetError::NoColumn { dataset: info.name.clone(), column: String::new() })
        }
        (aggregate, Some(m)) => {
            let c = column(m)?;
            if !c.kind.is_numeric() && matches!(aggregate, Aggregate::Sum | Aggregate::Avg) {
                return Err(DatasetError::NotNumeric(c.name.clone()));
            }
            let m = quoted(&c.name);
            match aggregate {
                Aggregate::Sum => format!("SUM({m})"),
                // Two decimals: an average of money-like values reads as one.
                Aggregate::Avg => format!("ROUND(CAST(AVG({m}) AS NUMERIC), 2)"),
                Aggregate::Min => format!("MIN({m})"),
                Aggregate::Max => format!("MAX({m})"),
                Aggregate::Count => "COUNT(*)".to_string(),
            }
        }
    };
    let alias = quoted(&agent::tool::query_dataset::value_column(args, locale));
    let table = quoted(&info.name);
    let mut conditions = Vec::new();
    for f in &args.filters {
        conditions.push(filter_sql(column(&f.column)?, f)?);
    }
    if let Some(p) = &args.period {
        let c = column(&p.column)?;
        if c.kind != ColumnType::Date {
            return Err(DatasetError::NotDate(c.name.clone()));
        }
        let c = quoted(&c.name);
        conditions.push(format!("{c} >= '{}' AND {c} < '{}'", p.start, p.end));
    }
    let filter =
        if conditions.is_empty() { String::new() } else { format!(" WHERE {}", conditions.join(" AND ")) };
    let mut sql = match &args.group_by {
        Some(g) => {
            let c = column(g)?;
            let g = quoted(&c.name);
            let (label, named) = match args.bucket {
                None => (g.clone(), g.clone()),
                Some(_) if c.kind != ColumnType::Date => return Err(DatasetError::NotDate(c.name.clone())),
                Some(b) => {
                    let label = match b {
                        DateBucket::Month => format!("SUBSTR({g}, 1, 7)"),
                        DateBucket::Year => format!("SUBSTR({g}, 1, 4)"),
                        DateBucket::Quarter => {
                            let q = if locale == agent::Locale::Fr { "T" } else { "Q" };
                            format!("SUBSTR({g}, 1, 4) || '-{q}' || CAST((CAST(SUBSTR({g}, 6, 2) AS INTEGER) + 2) / 3 AS TEXT)")
                        }
                    };
                    (label, quoted(agent::tool::query_dataset::bucket_label(b, locale)))
                }
            };
            let order = match args.order {
                DatasetOrder::ValueDesc => "2 DESC, 1",
                DatasetOrder::ValueAsc => "2, 1",
                DatasetOrder::Group => "1",
            };
            // Rows without a date are left out of a breakdown by month, not shown as a blank group.
            let filter = match (args.bucket, filter.is_empty()) {
                (None, _) => filter,
                (Some(_), true) => format!(" WHERE {g} IS NOT NULL"),
                (Some(_), false) => format!("{filter} AND {g} IS NOT NULL"),
            };
            format!("SELECT {label} AS {named}, {value} AS {alias} FROM {table}{filter} GROUP BY 1 ORDER BY {order}")
        }
        None => format!("SELECT {value} AS {alias} FROM {table}{filter}"),
    };
    if let Some(n) = args.limit {
        sql.push_str(&format!(" LIMIT {}", n.clamp(1, agent::analyst::MAX_TOP)));
    }
    Ok(sql)
}

/// One filter as SQL over `c`: the value checked against the column's type and
/// written as a literal (numbers re-printed, text quoted with its quotes doubled).
pub(super) fn filter_sql(c: &DatasetColumn, f: &agent::DatasetFilter) -> Result<String, DatasetError> {
    let bad = || DatasetError::BadFilter {
        column: c.name.clone(),
        kind: c.kind.as_str(),
        value: f.value.chars().take(100).collect(),
    };
    let op = match f.op {
        FilterOp::Eq => "=",
        FilterOp::Ne => "<>",
        FilterOp::Lt => "<",
        FilterOp::Lte => "<=",
        FilterOp::Gt => ">",
        FilterOp::Gte => ">=",
    };
    let name = quoted(&c.name);
    Ok(match c.kind {
        ColumnType::Integer | ColumnType::Number => {
            let n: f64 = f.value.trim().parse().map_err(|_| bad())?;
            if !n.is_finite() {
                return Err(bad());
            }
            format!("{name} {op} {}", num_text(n))
        }
        ColumnType::Date => {
            let d = agent::Date::parse_iso(f.value.trim()).ok_or_else(bad)?;
            format!("{name} {op} '{d}'")
        }
        ColumnType::Text => {
            let value = f.value.trim();
            if value.is_empty() || value.chars().count() > 200 || !matches!(f.op, FilterOp::Eq | FilterOp::Ne)
            {
                return Err(bad());
            }
            format!("LOWER({name}) {op} LOWER('{}')", value.replace('\'', "''"))
        }
    })
}

/// Checks `sql` over `tables`, then runs it in its turn (`crate::slots`): past the
/// user's share and queue, or the server's wait, [`DatasetError::Busy`]. The query runs
/// in a task that keeps the turn until the database is done with it, even if the
/// caller goes away; its time limit starts when it runs, not while it waits.
pub(super) async fn run(
    store: &Store,
    user: UserId,
    sql: &str,
    tables: &HashMap<String, TableRef>,
) -> Result<QueryResult, DatasetError> {
    let checked = sandbox::check(sql, store.dialect(), user, tables)?;
    let slot = store.query_slots().enter(user).await?;
    let sandbox = store.sandbox().clone();
    let task = tokio::spawn(async move {
        let result = match sandbox {
            Sandbox::Sqlite(pool) => run_sqlite(&pool, &checked.sql).await,
            Sandbox::Postgres(pool) => run_postgres(&pool, user, &checked.sql).await,
        };
        drop(slot);
        result
    });
    let (columns, rows, truncated) = task.await.map_err(|e| {
        tracing::error!(error = %e, "a dataset query's task failed");
        DatasetError::Db(sqlx::Error::WorkerCrashed)
    })??;
    if truncated && rows.is_empty() {
        // Not even the first row fits in the byte cap.
        return Err(DatasetError::ResultTooLarge);
    }
    Ok(QueryResult { sql: sql.trim().to_string(), columns, rows, truncated })
}

pub(super) type Table = (Vec<String>, Vec<Vec<Cell>>, bool);

/// A real number as short text: at most 10 decimals, no trailing zeros.
pub(super) fn num_text(f: f64) -> String {
    let s = format!("{f:.10}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".into()
    } else {
        s.to_string()
    }
}

/// The bytes of a value as returned.
pub(super) fn cell_bytes(cell: &Cell) -> usize {
    match cell {
        Cell::Int(i) => i.to_string().len(),
        Cell::Num(n) => n.num.len(),
        Cell::Text(t) => t.len(),
        Cell::Null => 0,
    }
}

/// The rows of a result stream — at most [`DATASET_ROW_CAP`] rows and [`RESULT_BYTES`] bytes
/// of values, then it stops reading and says it was cut — with the column names, each
/// row read by `cells`. Cut with no row: not even the first fits.
pub(super) async fn collect<R: sqlx::Row>(
    mut stream: impl futures::Stream<Item = Result<R, sqlx::Error>> + Unpin,
    cells: impl Fn(&R) -> Result<Vec<Cell>, sqlx::Error>,
) -> Result<Table, sqlx::Error> {
    let (mut columns, mut rows, mut bytes) = (Vec::new(), Vec::new(), 0usize);
    while let Some(row) = stream.try_next().await? {
        if columns.is_empty() {
            columns = row.columns().iter().map(|c| c.name().to_string()).collect();
        }
        if rows.len() == DATASET_ROW_CAP {
            return Ok((columns, rows, true));
        }
        let row = cells(&row)?;
        bytes = bytes.saturating_add(row.iter().map(cell_bytes).sum());
        if bytes > RESULT_BYTES {
            return Ok((columns, rows, true));
        }
        rows.push(row);
    }
    Ok((columns, rows, false))
}

pub(super) async fn run_sqlite(pool: &sqlx::SqlitePool, sql: &str) -> Result<Table, DatasetError> {
    let mut conn = pool.acquire().await?;
    let deadline = Instant::now() + TIME_LIMIT;
    conn.lock_handle().await?.set_progress_handler(1_000, move || Instant::now() < deadline);
    let result = async {
        let cells = |row: &sqlx::sqlite::SqliteRow| {
            (0..row.len())
                .map(|i| {
                    let raw = row.try_get_raw(i)?;
                    if raw.is_null() {
                        return Ok(Cell::Null);
                    }
                    Ok(match raw.type_info().name() {
                        "INTEGER" => Cell::Int(row.try_get(i)?),
                        "REAL" => Cell::Num(NumText { num: num_text(row.try_get(i)?) }),
                        "BLOB" => Cell::Text("[binary]".into()),
                        _ => Cell::Text(row.try_get(i)?),
                    })
                })
                .collect()
        };
        let (mut columns, rows, truncated) = collect(sqlx::query(sql).fetch(&mut *conn), cells).await?;
        if columns.is_empty() {
            use sqlx::Executor as _;
            columns =
                (&mut *conn).describe(sql).await?.columns().iter().map(|c| c.name().to_string()).collect();
        }
        Ok::<Table, sqlx::Error>((columns, rows, truncated))
    }
    .await;
    conn.lock_handle().await?.remove_progress_handler();
    result.map_err(|e| engine_error(e, Instant::now() >= deadline))
}

pub(super) async fn run_postgres(
    pool: &sqlx::PgPool,
    user: UserId,
    sql: &str,
) -> Result<Table, DatasetError> {
    // The simple protocol gives every value as text (no type left undecodable); it
    // would also run several statements, so the checked SQL must be one.
    let tokens = sqlparser::tokenizer::Tokenizer::new(&sqlparser::dialect::PostgreSqlDialect {}, sql)
        .tokenize()
        .map_err(|e| DatasetError::Refused(Refused::Syntax(e.to_string())))?;
    if tokens.iter().any(|t| matches!(t, sqlparser::tokenizer::Token::SemiColon)) {
        return Err(DatasetError::Refused(Refused::Several));
    }
    let mut tx = pool.begin().await?;
    sqlx::query("SET TRANSACTION READ ONLY").execute(&mut *tx).await?;
    sqlx::query("SELECT set_config('statement_timeout', $1, true), set_config('sou.user_id', $2, true)")
        .bind(TIME_LIMIT.as_millis().to_string())
        .bind(user.0.to_string())
        .execute(&mut *tx)
        .await?;
    let cells = |row: &sqlx::postgres::PgRow| {
        row.columns()
            .iter()
            .enumerate()
            .map(|(i, column)| {
                let raw = row.try_get_raw(i)?;
                if raw.is_null() {
                    return Ok(Cell::Null);
                }
                let text = raw.as_str().map_err(sqlx::Error::Decode)?.to_string();
                Ok(match column.type_info().name() {
                    "INT2" | "INT4" | "INT8" => text.parse().map_or(Cell::Text(text), Cell::Int),
                    "NUMERIC" | "FLOAT4" | "FLOAT8" => Cell::Num(NumText { num: text }),
                    _ => Cell::Text(text),
                })
            })
            .collect()
    };
    let result = collect(sqlx::raw_sql(sql).fetch(&mut *tx), cells).await;
    let _ = tx.rollback().await;
    result.map_err(|e| engine_error(e, false))
}

/// A database error as the query's author should read it.
pub(super) fn engine_error(e: sqlx::Error, past_deadline: bool) -> DatasetError {
    match &e {
        sqlx::Error::Database(db) => {
            let code = db.code().unwrap_or_default();
            // SQLite: interrupted by the progress handler; PostgreSQL: statement_timeout.
            if code == "57014" || (code == "9" && past_deadline) || db.message().contains("interrupted") {
                DatasetError::Timeout
            } else if code == "18" || code == "54000" {
                // SQLite: a value past SQLITE_MAX_LENGTH; PostgreSQL: past its own limits.
                DatasetError::ResultTooLarge
            } else {
                DatasetError::Query(db.message().to_string())
            }
        }
        _ => DatasetError::Db(e),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;
    use crate::ids::Dialect;
    use agent::chart::ChartKind;

    /// Every shape of `query_dataset` plan gives SQL the sandbox accepts, on both
    /// databases — also with columns named like SQL keywords.
    #[test]
    // (A test: it may be long.)
    #[allow(clippy::too_many_lines)]
    fn plan_sql_passes_the_sandbox() {
        let column = |name: &str, kind| DatasetColumn { name: name.into(), kind };
        let info = DatasetInfo {
            name: "ventes".into(),
            file_name: "ventes.csv".into(),
            rows: 3,
            columns: vec![
                column("order", ColumnType::Text),
                column("select", ColumnType::Number),
                column("date", ColumnType::Date),
                column("montant", ColumnType::Integer),
            ],
            created_at: String::new(),
        };
        let tables = HashMap::from([(
            "ventes".to_string(),
            TableRef {
                physical: "ds_0123".into(),
                columns: info.columns.iter().map(|c| c.name.clone()).collect(),
            },
        )]);
        let filter = |column: &str, op, value: &str| agent::DatasetFilter {
            column: column.into(),
            op,
            value: value.into(),
        };
        let period = agent::DatasetPeriod {
            column: "date".into(),
            start: agent::Date::new(2025, 1, 1).unwrap(),
            end: agent::Date::new(2026, 1, 1).unwrap(),
            label: "2025".into(),
        };
        let aggregates = [Aggregate::Sum, Aggregate::Avg, Aggregate::Count, Aggregate::Min, Aggregate::Max];
        let orders = [DatasetOrder::ValueDesc, DatasetOrder::ValueAsc, DatasetOrder::Group];
        let mut checked = 0;
        for aggregate in aggregates {
            for measure in ["select", "montant"] {
                for (group_by, bucket) in [
                    (None, None),
                    (Some("order"), None),
                    (Some("date"), None),
                    (Some("date"), Some(DateBucket::Month)),
                    (Some("date"), Some(DateBucket::Quarter)),
                    (Some("date"), Some(DateBucket::Year)),
                ] {
                    for order in orders {
                        for (limit, filters, period) in [
                            (None, vec![], None),
                            (Some(1), vec![filter("order", FilterOp::Eq, "l'été")], Some(period.clone())),
                            (
                                Some(500),
                                vec![
                                    filter("select", FilterOp::Gte, "-2.5"),
                                    filter("date", FilterOp::Lt, "2026-02-01"),
                                ],
                                None,
                            ),
                        ] {
                            let args = QueryDatasetArgs {
                                dataset: "ventes".into(),
                                aggregate,
                                measure: Some(measure.into()),
                                group_by: group_by.map(str::to_string),
                                bucket,
                                filters,
                                period,
                                order,
                                limit,
                                chart: Some(ChartKind::Pie),
                            };
                            for locale in [agent::Locale::Fr, agent::Locale::En] {
                                let sql = plan_sql(&info, &args, locale).unwrap();
                                for dialect in [Dialect::Sqlite, Dialect::Postgres] {
                                    let c = sandbox::check(&sql, dialect, UserId(7), &tables)
                                        .unwrap_or_else(|e| panic!("{sql}: {e}"));
                                    assert!(
                                        c.sql.contains("ds_0123") && c.sql.contains("user_id = 7"),
                                        "{}",
                                        c.sql
                                    );
                                    checked += 1;
                                }
                            }
                        }
                    }
                }
            }
        }
        assert_eq!(checked, 5 * 2 * 6 * 3 * 3 * 2 * 2);
        // The limit is capped; a text column is not added up.
        let mut args = QueryDatasetArgs {
            dataset: "ventes".into(),
            aggregate: Aggregate::Sum,
            measure: Some("order".into()),
            ..QueryDatasetArgs::default()
        };
        assert!(matches!(plan_sql(&info, &args, agent::Locale::En), Err(DatasetError::NotNumeric(_))));
        args.aggregate = Aggregate::Max;
        args.limit = Some(10_000);
        let sql = plan_sql(&info, &args, agent::Locale::En).unwrap();
        assert_eq!(sql, "SELECT MAX(\"order\") AS \"maximum_order\" FROM \"ventes\" LIMIT 100");

        // Conditions are literals of the column's type, whatever the plan's value says.
        let base = QueryDatasetArgs {
            dataset: "ventes".into(),
            aggregate: Aggregate::Count,
            ..QueryDatasetArgs::default()
        };
        let with = |f: agent::DatasetFilter| QueryDatasetArgs { filters: vec![f], ..base.clone() };
        let sql =
            plan_sql(&info, &with(filter("order", FilterOp::Eq, "x' OR '1'='1")), agent::Locale::En).unwrap();
        assert!(sql.ends_with("WHERE LOWER(\"order\") = LOWER('x'' OR ''1''=''1')"), "{sql}");
        for (column, op, value) in [
            ("select", FilterOp::Gt, "1 OR 1=1"),
            ("select", FilterOp::Gt, "inf"),
            ("montant", FilterOp::Eq, "NaN"),
            ("date", FilterOp::Lt, "2026-02-30"),
            ("date", FilterOp::Eq, "'2026-01-01'"),
            ("order", FilterOp::Gt, "b"),
            ("order", FilterOp::Eq, " "),
        ] {
            let e = plan_sql(&info, &with(filter(column, op, value)), agent::Locale::Fr).unwrap_err();
            assert!(matches!(e, DatasetError::BadFilter { .. }), "{column} {value}: {e}");
            assert!(e.message(agent::Locale::Fr).contains(column), "{}", e.message(agent::Locale::Fr));
        }
        let e = plan_sql(&info, &with(filter("nope", FilterOp::Eq, "1")), agent::Locale::En).unwrap_err();
        assert!(matches!(e, DatasetError::NoColumn { .. }));
        // Only a date column is bucketed or bounded by a period.
        let by_month = QueryDatasetArgs {
            group_by: Some("order".into()),
            bucket: Some(DateBucket::Month),
            ..base.clone()
        };
        assert!(matches!(plan_sql(&info, &by_month, agent::Locale::En), Err(DatasetError::NotDate(_))));
        let bounded = QueryDatasetArgs {
            period: Some(agent::DatasetPeriod { column: "montant".into(), ..period.clone() }),
            ..base.clone()
        };
        assert!(matches!(plan_sql(&info, &bounded, agent::Locale::En), Err(DatasetError::NotDate(_))));
        let quarters =
            QueryDatasetArgs { group_by: Some("date".into()), bucket: Some(DateBucket::Quarter), ..base };
        assert_eq!(
            plan_sql(&info, &quarters, agent::Locale::Fr).unwrap(),
            "SELECT SUBSTR(\"date\", 1, 4) || '-T' || CAST((CAST(SUBSTR(\"date\", 6, 2) AS INTEGER) + 2) / 3 AS TEXT) AS \"trimestre\", \
             COUNT(*) AS \"nombre\" FROM \"ventes\" WHERE \"date\" IS NOT NULL GROUP BY 1 ORDER BY 2 DESC, 1"
        );
    }
}

//! A CSV file becomes a dataset: its header read into column names, each column's
//! type inferred from its values, and its rows written to a table of its own.

use agent::datasets::{ColumnType, DatasetColumn, DatasetInfo};
use agent::imports::DateOrder;

use super::*;
use sqlx::AnyConnection;

use crate::ids::{Dialect, UserId};
use crate::import::{self, fold};
use crate::store::{timestamp, Store};

/// A column name as queries use it: lower-case ASCII letters, digits and `_`,
/// starting with a letter; unique within the dataset.
pub(super) fn column_names(header: &[String]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for (i, cell) in header.iter().enumerate() {
        let mut name: String = fold(cell)
            .replace(' ', "_")
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
            .take(60)
            .collect();
        if !name.starts_with(|c: char| c.is_ascii_lowercase()) {
            name = format!("c{}{}", i + 1, if name.is_empty() { String::new() } else { format!("_{name}") });
        }
        if name == "user_id" {
            name = "user_id_".into();
        }
        let base = name.clone();
        let mut n = 2;
        while names.contains(&name) {
            name = format!("{base}_{n}");
            n += 1;
        }
        names.push(name);
    }
    names
}

/// A dataset's name from its file's: like a column name, not one of Sou's prefixes.
pub(super) fn dataset_name(file_name: &str) -> String {
    let stem = file_name.rsplit_once('.').map_or(file_name, |(s, _)| s);
    let mut name: String = fold(stem)
        .replace(' ', "_")
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
        .take(40)
        .collect();
    if !name.starts_with(|c: char| c.is_ascii_lowercase())
        || ["ds_", "sou_", "pg_", "sqlite"].iter().any(|p| name.starts_with(p))
    {
        name = format!("data_{name}");
    }
    name.trim_end_matches('_').to_string()
}

pub(super) fn integer(s: &str) -> Option<i64> {
    let s = s.trim();
    let digits = s.strip_prefix(['-', '+']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// A decimal written with `.` or `,` (no thousands separator), as `f64`: dataset values
/// are the user's data, not ledger money.
pub(super) fn number(s: &str) -> Option<f64> {
    let s = s.trim();
    let t = s.strip_prefix(['-', '+']).unwrap_or(s);
    let (units, decimals) = t.split_once(['.', ',']).unwrap_or((t, ""));
    if units.is_empty() && decimals.is_empty()
        || !units.bytes().all(|b| b.is_ascii_digit())
        || !decimals.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    s.replace(',', ".").parse::<f64>().ok().filter(|f| f.is_finite())
}

/// The type all of a column's non-empty values have, and the date order if dates.
pub(super) fn infer(values: &[&str]) -> (ColumnType, Option<DateOrder>) {
    let filled: Vec<&str> = values.iter().copied().filter(|v| !v.trim().is_empty()).collect();
    if filled.is_empty() {
        return (ColumnType::Text, None);
    }
    if filled.iter().all(|v| integer(v).is_some()) {
        return (ColumnType::Integer, None);
    }
    if filled.iter().all(|v| number(v).is_some()) {
        return (ColumnType::Number, None);
    }
    for order in [DateOrder::Ymd, DateOrder::Dmy, DateOrder::Mdy] {
        if filled.iter().all(|v| import::csv::parse_date(v, order).is_some()) {
            return (ColumnType::Date, Some(order));
        }
    }
    (ColumnType::Text, None)
}

/// One value as stored.
pub(super) enum Value {
    Int(Option<i64>),
    Num(Option<f64>),
    Text(Option<String>),
}

pub(super) fn sql_type(kind: ColumnType, dialect: Dialect) -> &'static str {
    match (kind, dialect) {
        (ColumnType::Integer, Dialect::Sqlite) => "INTEGER",
        (ColumnType::Integer, Dialect::Postgres) => "BIGINT",
        (ColumnType::Number, Dialect::Sqlite) => "REAL",
        (ColumnType::Number, Dialect::Postgres) => "DOUBLE PRECISION",
        (ColumnType::Date | ColumnType::Text, _) => "TEXT",
    }
}

/// Uploads `bytes` (a CSV file with a header row) as a dataset; its description.
pub async fn create(
    store: &Store,
    user: UserId,
    file_name: &str,
    bytes: &[u8],
) -> Result<DatasetInfo, DatasetError> {
    let Table { names, records, kinds } = table(file_name, bytes)?;
    let columns: Vec<DatasetColumn> = names
        .iter()
        .zip(&kinds)
        .map(|(name, (kind, _))| DatasetColumn { name: name.clone(), kind: *kind })
        .collect();
    let dialect = store.dialect();
    let mut db = store.tenant(user).await?;
    let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM datasets WHERE user_id = $1")
        .bind(user.0)
        .fetch_one(&mut *db)
        .await?;
    if count >= MAX_DATASETS {
        return Err(DatasetError::TooMany);
    }
    let name = free_name(&mut db, user, file_name).await?;
    let physical = format!("ds_{}", uuid::Uuid::new_v4().simple());
    create_table(&mut db, dialect, &physical, &columns).await?;
    let now = timestamp(chrono::Utc::now());
    let file: String = file_name.chars().filter(|c| !c.is_control()).take(200).collect();
    sqlx::query(
        "INSERT INTO datasets (user_id, name, physical, file_name, columns, row_count, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(user.0)
    .bind(&name)
    .bind(&physical)
    .bind(&file)
    .bind(serde_json::to_string(&columns).unwrap_or_default())
    .bind(records.len() as i64)
    .bind(&now)
    .execute(&mut *db)
    .await?;
    insert_rows(&mut db, user, &physical, &columns, (&records, &kinds)).await?;
    db.commit().await?;
    tracing::info!(rows = records.len(), columns = columns.len(), "dataset created");
    Ok(DatasetInfo { name, file_name: file, rows: records.len() as u64, columns, created_at: now })
}

/// A CSV file read as a table: its columns' names, its records (with their lines) and
/// each column's type (a date column with its order).
struct Table {
    names: Vec<String>,
    records: Vec<import::csv::Record>,
    kinds: Vec<(ColumnType, Option<DateOrder>)>,
}

/// The file as a table, within every limit: refused, with why, when it is not.
fn table(file_name: &str, bytes: &[u8]) -> Result<Table, DatasetError> {
    // The dataset's own name is made of ASCII letters, digits and `_` (`dataset_name`);
    // the file's is shown as given, so it must not hide or reorder text.
    if agent::text::hidden_control(file_name).is_some() {
        return Err(DatasetError::FileName);
    }
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(DatasetError::Empty);
    }
    if bytes.len() > MAX_DATASET_BYTES {
        return Err(DatasetError::TooLarge);
    }
    let (header, records) = import::csv::table(bytes).map_err(|_| DatasetError::Empty)?;
    if header.len() > MAX_COLUMNS {
        return Err(DatasetError::TooManyColumns);
    }
    if records.len() > MAX_ROWS {
        return Err(DatasetError::TooManyRows);
    }
    for (line, r) in &records {
        if r.len() != header.len() {
            return Err(DatasetError::Ragged { line: *line, found: r.len(), expected: header.len() });
        }
    }
    let names = column_names(&header);
    for (line, r) in &records {
        let long =
            r.iter().position(|cell| cell.len() > MAX_CELL_CHARS && cell.chars().count() > MAX_CELL_CHARS);
        if let Some(c) = long {
            return Err(DatasetError::LongValue { line: *line, column: names[c].clone() });
        }
    }
    let kinds: Vec<(ColumnType, Option<DateOrder>)> = (0..header.len())
        .map(|c| infer(&records.iter().map(|(_, r)| r[c].as_str()).collect::<Vec<_>>()))
        .collect();
    Ok(Table { names, records, kinds })
}

/// The dataset's name: the file's, made of ASCII letters, digits and `_`, numbered when
/// the user has one of that name already.
async fn free_name(db: &mut AnyConnection, user: UserId, file_name: &str) -> Result<String, DatasetError> {
    let base = dataset_name(file_name);
    let mut name = if base.is_empty() { "data".to_string() } else { base.clone() };
    for n in 2.. {
        let taken: Option<i64> =
            sqlx::query_scalar("SELECT id FROM datasets WHERE user_id = $1 AND name = $2")
                .bind(user.0)
                .bind(&name)
                .fetch_optional(&mut *db)
                .await?;
        if taken.is_none() {
            break;
        }
        name = format!("{base}_{n}");
    }
    Ok(name)
}

/// The dataset's own table, its columns typed for the database.
async fn create_table(
    db: &mut AnyConnection,
    dialect: Dialect,
    physical: &str,
    columns: &[DatasetColumn],
) -> Result<(), DatasetError> {
    match dialect {
        Dialect::Sqlite => {
            let cols: Vec<String> = columns
                .iter()
                .map(|c| format!("{} {}", quoted(&c.name), sql_type(c.kind, dialect)))
                .collect();
            let ddl = format!(
                "CREATE TABLE {} (user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE, {})",
                quoted(physical),
                cols.join(", ")
            );
            sqlx::query(&ddl).execute(&mut *db).await?;
        }
        Dialect::Postgres => {
            let spec = serde_json::to_string(
                &columns.iter().map(|c| (c.name.as_str(), sql_type(c.kind, dialect))).collect::<Vec<_>>(),
            )
            .unwrap_or_default();
            sqlx::query("SELECT sou_create_dataset_table($1, $2)")
                .bind(physical)
                .bind(spec)
                .execute(&mut *db)
                .await?;
        }
    }
    Ok(())
}

/// The records into the dataset's table, each cell as its column's type.
async fn insert_rows(
    db: &mut AnyConnection,
    user: UserId,
    physical: &str,
    columns: &[DatasetColumn],
    (records, kinds): (&[import::csv::Record], &[(ColumnType, Option<DateOrder>)]),
) -> Result<(), DatasetError> {
    // Rows in batches, within the 999 parameters every SQLite accepts.
    let per_row = columns.len() + 1;
    let batch = (999 / per_row).max(1);
    let column_list = std::iter::once("user_id".to_string())
        .chain(columns.iter().map(|c| quoted(&c.name)))
        .collect::<Vec<_>>()
        .join(", ");
    for chunk in records.chunks(batch) {
        let mut placeholders = Vec::with_capacity(chunk.len());
        for r in 0..chunk.len() {
            let row: Vec<String> = (0..per_row).map(|c| format!("${}", r * per_row + c + 1)).collect();
            placeholders.push(format!("({})", row.join(", ")));
        }
        let sql =
            format!("INSERT INTO {} ({column_list}) VALUES {}", quoted(physical), placeholders.join(", "));
        let mut q = sqlx::query(&sql);
        for (_, record) in chunk {
            q = q.bind(user.0);
            for (cell, (kind, order)) in record.iter().zip(kinds) {
                let empty = cell.trim().is_empty();
                let value = match kind {
                    ColumnType::Integer => Value::Int(if empty { None } else { integer(cell) }),
                    ColumnType::Number => Value::Num(if empty { None } else { number(cell) }),
                    ColumnType::Date => Value::Text(
                        order.and_then(|o| import::csv::parse_date(cell, o)).map(|d| d.to_string()),
                    ),
                    ColumnType::Text => Value::Text(if empty { None } else { Some(cell.clone()) }),
                };
                q = match value {
                    Value::Int(v) => q.bind(v),
                    Value::Num(v) => q.bind(v),
                    Value::Text(v) => q.bind(v),
                };
            }
        }
        q.execute(&mut *db).await?;
    }
    Ok(())
}

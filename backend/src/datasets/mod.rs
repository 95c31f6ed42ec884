//! Analyst mode: any CSV file uploaded as a dataset — its own table, one per user and
//! dataset, with column types inferred from the values — described to the model
//! ([`describe`], the `dataset_info` text) and queried with read-only SQL checked by
//! [`sandbox`] then run on the store's sandbox connections: read-only, within a time
//! limit, at most [`ROW_CAP`] rows and [`RESULT_BYTES`] bytes of values.
//!
//! On PostgreSQL a dataset's table is created by the tables' owner
//! (`sou_create_dataset_table`, a `SECURITY DEFINER` function that takes only a
//! generated table name and checked column names and types), with row-level security
//! like every other table; Sou's role may read and insert, never alter or own it.

pub mod sandbox;

use std::collections::HashMap;
use std::time::{Duration, Instant};

use agent::datasets::{Cell, ColumnType, DatasetColumn, DatasetInfo, NumText, QueryResult};
use agent::imports::DateOrder;
use agent::{Aggregate, DatasetOrder, DateBucket, FilterOp, QueryDatasetArgs};
use futures::TryStreamExt;
use sqlx::{AnyConnection, Column as _, Row as _, TypeInfo as _, ValueRef as _};

use crate::error::{ErrorKind, UserError};
use crate::ids::{Dialect, UserId};
use crate::import::{self, fold};
use crate::store::{timestamp, Sandbox, Store};
use sandbox::{Refused, TableRef};

/// The largest file accepted.
pub const MAX_FILE_BYTES: usize = 20 * 1024 * 1024;
pub const MAX_COLUMNS: usize = 100;
pub const MAX_ROWS: usize = 200_000;
/// Datasets one user may have.
pub const MAX_DATASETS: i64 = 20;
/// Rows a query returns at most.
pub const ROW_CAP: usize = 1_000;
/// How long a query may run.
pub const TIME_LIMIT: Duration = Duration::from_secs(2);
/// Bytes of values a query returns at most: reading stops there, like at the row cap.
pub const RESULT_BYTES: usize = 1024 * 1024;
/// The longest value a dataset holds, in characters.
pub const MAX_CELL_CHARS: usize = sandbox::MAX_CELL_CHARS;

#[derive(Debug, thiserror::Error)]
pub enum DatasetError {
    #[error("the file is empty")]
    Empty,
    #[error("the file's name may not contain control or text-direction characters: rename the file")]
    FileName,
    #[error("the file is larger than {} MB", MAX_FILE_BYTES / 1024 / 1024)]
    TooLarge,
    #[error("the file has more than {MAX_COLUMNS} columns")]
    TooManyColumns,
    #[error("the file has more than {MAX_ROWS} rows")]
    TooManyRows,
    #[error("you have {MAX_DATASETS} datasets already; delete one first")]
    TooMany,
    #[error("line {line} has {found} values, the header {expected}")]
    Ragged { line: u64, found: usize, expected: usize },
    #[error("line {line}: the value of {column} is longer than {MAX_CELL_CHARS} characters")]
    LongValue { line: u64, column: String },
    #[error("no dataset named {0:?}")]
    NotFound(String),
    #[error("the dataset {dataset} has no column {column:?}")]
    NoColumn { dataset: String, column: String },
    #[error("the column {0} holds no numbers: it can be counted or grouped by, not added up")]
    NotNumeric(String),
    #[error("the column {column} holds {kind} values: {value:?} cannot be compared with it")]
    BadFilter { column: String, kind: &'static str, value: String },
    #[error("the column {0} holds no dates: it cannot be grouped by month, quarter or year, or bounded by a period")]
    NotDate(String),
    #[error(transparent)]
    Refused(#[from] Refused),
    #[error("the query took longer than {} s and was stopped", TIME_LIMIT.as_secs())]
    Timeout,
    #[error("the result is larger than {} MB: select fewer or shorter values", RESULT_BYTES / 1024 / 1024)]
    ResultTooLarge,
    #[error("the database refused the query: {0}")]
    Query(String),
    #[error("database: {0}")]
    Db(#[from] sqlx::Error),
}

impl UserError for DatasetError {
    fn code(&self) -> &'static str {
        use DatasetError as E;
        match self {
            E::Empty => "empty",
            E::FileName => "file_name",
            E::TooLarge => "too_large",
            E::TooManyColumns => "too_many_columns",
            E::TooManyRows => "too_many_rows",
            E::TooMany => "too_many",
            E::Ragged { .. } => "ragged",
            E::LongValue { .. } => "long_value",
            E::NotFound(_) => "not_found",
            E::NoColumn { .. } => "no_column",
            E::NotNumeric(_) => "not_numeric",
            E::BadFilter { .. } => "bad_filter",
            E::NotDate(_) => "not_date",
            E::Refused(_) => "refused",
            E::Timeout => "timeout",
            E::ResultTooLarge => "result_too_large",
            E::Query(_) => "query",
            E::Db(_) => "internal",
        }
    }

    fn message(&self, locale: agent::Locale) -> String {
        DatasetError::message(self, locale)
    }

    fn kind(&self) -> ErrorKind {
        match self {
            DatasetError::NotFound(_) => ErrorKind::NotFound,
            DatasetError::Db(_) => ErrorKind::Internal,
            _ => ErrorKind::Invalid,
        }
    }
}

impl DatasetError {
    /// Whether it is about what the user (or model) sent, and may be shown; the rest
    /// is logged.
    pub fn is_users(&self) -> bool {
        self.kind() != ErrorKind::Internal
    }

    /// What to tell a person, in their language. A refused or failed query keeps the
    /// checker's or the database's own words (SQL is written in English).
    pub fn message(&self, locale: agent::Locale) -> String {
        use agent::Locale::{En, Fr};
        use DatasetError as E;
        match (self, locale) {
            (E::Empty, Fr) => "Le fichier est vide.".into(),
            (E::FileName, Fr) => {
                "Le nom du fichier ne peut pas contenir de caractères de contrôle ni de changement de sens d'écriture : renommez le fichier.".into()
            }
            (E::TooLarge, Fr) => format!("Le fichier dépasse {} Mo.", MAX_FILE_BYTES / 1024 / 1024),
            (E::TooManyColumns, Fr) => format!("Le fichier a plus de {MAX_COLUMNS} colonnes."),
            (E::TooManyRows, Fr) => format!("Le fichier a plus de {MAX_ROWS} lignes."),
            (E::TooMany, Fr) => {
                format!("Vous avez déjà {MAX_DATASETS} jeux de données : supprimez-en un d'abord.")
            }
            (E::Ragged { line, found, expected }, Fr) => {
                format!("La ligne {line} a {found} valeur(s), l'en-tête {expected}.")
            }
            (E::LongValue { line, column }, Fr) => {
                format!("Ligne {line} : la valeur de {column} dépasse {MAX_CELL_CHARS} caractères.")
            }
            (E::NotFound(name), Fr) => format!("Aucun jeu de données ne s'appelle « {name} »."),
            (E::NoColumn { dataset, column }, Fr) => {
                format!("Le jeu de données {dataset} n'a pas de colonne « {column} ».")
            }
            (E::NotNumeric(column), Fr) => format!(
                "La colonne {column} ne contient pas de nombres : on peut la compter ou grouper par elle, pas l'additionner."
            ),
            (E::BadFilter { column, kind, value }, Fr) => {
                let kind = match *kind {
                    "integer" | "number" => "des nombres",
                    "date" => "des dates (AAAA-MM-JJ)",
                    _ => "du texte (comparé par égalité seulement)",
                };
                format!("La colonne {column} contient {kind} : « {value} » ne peut pas lui être comparé.")
            }
            (E::NotDate(column), Fr) => format!(
                "La colonne {column} ne contient pas de dates : on ne peut pas la grouper par mois, trimestre ou année, ni la borner par une période."
            ),
            (E::Refused(r), Fr) => format!("Requête refusée : {r}."),
            (E::Timeout, Fr) => {
                format!("La requête a duré plus de {} s et a été arrêtée.", TIME_LIMIT.as_secs())
            }
            (E::ResultTooLarge, Fr) => format!(
                "Le résultat dépasse {} Mo : choisissez moins de valeurs, ou des valeurs plus courtes.",
                RESULT_BYTES / 1024 / 1024
            ),
            (E::Query(m), Fr) => format!("La base de données a refusé la requête : {m}."),
            (E::Db(_), Fr) => "Une erreur est survenue sur le serveur ; réessayez.".into(),
            (E::Db(_), En) => "Something went wrong on the server; try again.".into(),
            (other, En) => {
                let s = other.to_string();
                let mut chars = s.chars();
                chars
                    .next()
                    .map(|c| c.to_uppercase().chain(chars).collect::<String>() + ".")
                    .unwrap_or_default()
            }
        }
    }
}

/// A column name as queries use it: lower-case ASCII letters, digits and `_`,
/// starting with a letter; unique within the dataset.
fn column_names(header: &[String]) -> Vec<String> {
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
fn dataset_name(file_name: &str) -> String {
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

fn integer(s: &str) -> Option<i64> {
    let s = s.trim();
    let digits = s.strip_prefix(['-', '+']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// A decimal written with `.` or `,` (no thousands separator), as `f64`: dataset values
/// are the user's data, not ledger money.
fn number(s: &str) -> Option<f64> {
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
fn infer(values: &[&str]) -> (ColumnType, Option<DateOrder>) {
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
enum Value {
    Int(Option<i64>),
    Num(Option<f64>),
    Text(Option<String>),
}

fn sql_type(kind: ColumnType, dialect: Dialect) -> &'static str {
    match (kind, dialect) {
        (ColumnType::Integer, Dialect::Sqlite) => "INTEGER",
        (ColumnType::Integer, Dialect::Postgres) => "BIGINT",
        (ColumnType::Number, Dialect::Sqlite) => "REAL",
        (ColumnType::Number, Dialect::Postgres) => "DOUBLE PRECISION",
        (ColumnType::Date | ColumnType::Text, _) => "TEXT",
    }
}

fn quoted(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// Uploads `bytes` (a CSV file with a header row) as a dataset; its description.
pub async fn create(
    store: &Store,
    user: UserId,
    file_name: &str,
    bytes: &[u8],
) -> Result<DatasetInfo, DatasetError> {
    // The dataset's own name is made of ASCII letters, digits and `_` (`dataset_name`);
    // the file's is shown as given, so it must not hide or reorder text.
    if agent::text::hidden_control(file_name).is_some() {
        return Err(DatasetError::FileName);
    }
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(DatasetError::Empty);
    }
    if bytes.len() > MAX_FILE_BYTES {
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
    let physical = format!("ds_{}", uuid::Uuid::new_v4().simple());
    match dialect {
        Dialect::Sqlite => {
            let cols: Vec<String> = columns
                .iter()
                .map(|c| format!("{} {}", quoted(&c.name), sql_type(c.kind, dialect)))
                .collect();
            let ddl = format!(
                "CREATE TABLE {} (user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE, {})",
                quoted(&physical),
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
                .bind(&physical)
                .bind(spec)
                .execute(&mut *db)
                .await?;
        }
    }
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
            format!("INSERT INTO {} ({column_list}) VALUES {}", quoted(&physical), placeholders.join(", "));
        let mut q = sqlx::query(&sql);
        for (_, record) in chunk {
            q = q.bind(user.0);
            for (cell, (kind, order)) in record.iter().zip(&kinds) {
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
    db.commit().await?;
    tracing::info!(rows = records.len(), columns = columns.len(), "dataset created");
    Ok(DatasetInfo { name, file_name: file, rows: records.len() as u64, columns, created_at: now })
}

/// The user's datasets, oldest first.
pub async fn list(store: &Store, user: UserId) -> Result<Vec<DatasetInfo>, DatasetError> {
    let mut db = store.tenant_read(user).await?;
    let rows = rows(&mut db, user).await?;
    db.commit().await?;
    Ok(rows.into_iter().map(|(info, _)| info).collect())
}

async fn rows(db: &mut AnyConnection, user: UserId) -> Result<Vec<(DatasetInfo, String)>, DatasetError> {
    let rows = sqlx::query(
        "SELECT name, file_name, row_count, columns, created_at, physical FROM datasets WHERE user_id = $1 ORDER BY id",
    )
    .bind(user.0)
    .fetch_all(&mut *db)
    .await?;
    rows.into_iter()
        .map(|r| {
            let columns: String = r.get(3);
            let columns: Vec<DatasetColumn> = serde_json::from_str(&columns)
                .map_err(|e| DatasetError::Db(sqlx::Error::Decode(Box::new(e))))?;
            let info = DatasetInfo {
                name: r.get(0),
                file_name: r.get(1),
                rows: u64::try_from(r.get::<i64, _>(2)).unwrap_or(0),
                columns,
                created_at: r.get(4),
            };
            Ok((info, r.get(5)))
        })
        .collect()
}

/// `dataset_info`: the user's datasets as the model reads them — one line per table
/// with its rows and typed columns, and the SQL dialect to write.
pub fn describe(datasets: &[DatasetInfo], dialect: Dialect) -> String {
    if datasets.is_empty() {
        return "No dataset yet: the user can upload a CSV file as a dataset.".into();
    }
    let engine = match dialect {
        Dialect::Sqlite => "SQLite",
        Dialect::Postgres => "PostgreSQL",
    };
    let mut out = format!(
        "Datasets (query them with one read-only {engine} SELECT; dates are text YYYY-MM-DD; at most {ROW_CAP} rows and {} MB are returned):\n",
        RESULT_BYTES / 1024 / 1024
    );
    for d in datasets {
        let columns: Vec<String> =
            d.columns.iter().map(|c| format!("{} ({})", c.name, c.kind.as_str())).collect();
        out.push_str(&format!("- **{}**: {} rows, columns: {}\n", d.name, d.rows, columns.join(", ")));
    }
    out
}

/// Deletes a dataset and its table.
pub async fn delete(store: &Store, user: UserId, name: &str) -> Result<(), DatasetError> {
    let mut db = store.tenant(user).await?;
    let physical: Option<String> =
        sqlx::query_scalar("DELETE FROM datasets WHERE user_id = $1 AND name = $2 RETURNING physical")
            .bind(user.0)
            .bind(name)
            .fetch_optional(&mut *db)
            .await?;
    let Some(physical) = physical else {
        return Err(DatasetError::NotFound(name.to_string()));
    };
    match store.dialect() {
        Dialect::Sqlite => {
            sqlx::query(&format!("DROP TABLE {}", quoted(&physical))).execute(&mut *db).await?;
        }
        Dialect::Postgres => {
            sqlx::query("SELECT sou_drop_dataset_table($1)").bind(&physical).execute(&mut *db).await?;
        }
    }
    db.commit().await?;
    Ok(())
}

/// The user's datasets and, by name, the tables behind them.
async fn catalogue(
    store: &Store,
    user: UserId,
) -> Result<(Vec<DatasetInfo>, HashMap<String, TableRef>), DatasetError> {
    let mut db = store.tenant_read(user).await?;
    let rows = rows(&mut db, user).await?;
    db.commit().await?;
    let tables = rows
        .iter()
        .map(|(info, physical)| {
            let columns = info.columns.iter().map(|c| c.name.clone()).collect();
            (info.name.clone(), TableRef { physical: physical.clone(), columns })
        })
        .collect();
    Ok((rows.into_iter().map(|(info, _)| info).collect(), tables))
}

/// Runs `sql` over the user's datasets: checked, rewritten, then run read-only, within
/// [`TIME_LIMIT`], returning at most [`ROW_CAP`] rows.
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
    let alias = quoted(&agent::analyst::value_column(args, locale));
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
                    (label, quoted(agent::analyst::bucket_label(b, locale)))
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
fn filter_sql(c: &DatasetColumn, f: &agent::DatasetFilter) -> Result<String, DatasetError> {
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

/// Checks and runs `sql` over `tables`.
async fn run(
    store: &Store,
    user: UserId,
    sql: &str,
    tables: &HashMap<String, TableRef>,
) -> Result<QueryResult, DatasetError> {
    let checked = sandbox::check(sql, store.dialect(), user, tables)?;
    let (columns, rows, truncated) = match store.sandbox() {
        Sandbox::Sqlite(pool) => run_sqlite(pool, &checked.sql).await?,
        Sandbox::Postgres(pool) => run_postgres(pool, user, &checked.sql).await?,
    };
    if truncated && rows.is_empty() {
        // Not even the first row fits in the byte cap.
        return Err(DatasetError::ResultTooLarge);
    }
    Ok(QueryResult { sql: sql.trim().to_string(), columns, rows, truncated })
}

type Table = (Vec<String>, Vec<Vec<Cell>>, bool);

/// A real number as short text: at most 10 decimals, no trailing zeros.
fn num_text(f: f64) -> String {
    let s = format!("{f:.10}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".into()
    } else {
        s.to_string()
    }
}

/// The bytes of a value as returned.
fn cell_bytes(cell: &Cell) -> usize {
    match cell {
        Cell::Int(i) => i.to_string().len(),
        Cell::Num(n) => n.num.len(),
        Cell::Text(t) => t.len(),
        Cell::Null => 0,
    }
}

/// The rows of a result stream — at most [`ROW_CAP`] rows and [`RESULT_BYTES`] bytes
/// of values, then it stops reading and says it was cut — with the column names, each
/// row read by `cells`. Cut with no row: not even the first fits.
async fn collect<R: sqlx::Row>(
    mut stream: impl futures::Stream<Item = Result<R, sqlx::Error>> + Unpin,
    cells: impl Fn(&R) -> Result<Vec<Cell>, sqlx::Error>,
) -> Result<Table, sqlx::Error> {
    let (mut columns, mut rows, mut bytes) = (Vec::new(), Vec::new(), 0usize);
    while let Some(row) = stream.try_next().await? {
        if columns.is_empty() {
            columns = row.columns().iter().map(|c| c.name().to_string()).collect();
        }
        if rows.len() == ROW_CAP {
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

async fn run_sqlite(pool: &sqlx::SqlitePool, sql: &str) -> Result<Table, DatasetError> {
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

async fn run_postgres(pool: &sqlx::PgPool, user: UserId, sql: &str) -> Result<Table, DatasetError> {
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
fn engine_error(e: sqlx::Error, past_deadline: bool) -> DatasetError {
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
    use agent::chart::ChartKind;

    /// Every shape of `query_dataset` plan gives SQL the sandbox accepts, on both
    /// databases — also with columns named like SQL keywords.
    #[test]
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

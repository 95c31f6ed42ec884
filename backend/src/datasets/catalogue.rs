//! The user's datasets as stored: listed, described to the model (`dataset_info`),
//! deleted, and found by name with the tables behind them.

use std::collections::HashMap;

use agent::datasets::{DatasetColumn, DatasetInfo};
use sqlx::AnyConnection;

use super::sandbox::TableRef;
use super::*;
use crate::ids::{Dialect, UserId};
use crate::store::Store;

/// The user's datasets, oldest first.
pub async fn list(store: &Store, user: UserId) -> Result<Vec<DatasetInfo>, DatasetError> {
    let mut db = store.tenant_read(user).await?;
    let rows = rows(&mut db, user).await?;
    db.commit().await?;
    Ok(rows.into_iter().map(|(info, _)| info).collect())
}

pub(super) async fn rows(
    db: &mut AnyConnection,
    user: UserId,
) -> Result<Vec<(DatasetInfo, String)>, DatasetError> {
    let rows: Vec<(String, String, i64, String, String, String)> = sqlx::query_as(
        "SELECT name, file_name, row_count, columns, created_at, physical FROM datasets WHERE user_id = $1 ORDER BY id",
    )
    .bind(user.0)
    .fetch_all(&mut *db)
    .await?;
    rows.into_iter()
        .map(|(name, file_name, rows, columns, created_at, physical)| {
            let columns: Vec<DatasetColumn> = serde_json::from_str(&columns)
                .map_err(|e| DatasetError::Db(sqlx::Error::Decode(Box::new(e))))?;
            let info =
                DatasetInfo { name, file_name, rows: u64::try_from(rows).unwrap_or(0), columns, created_at };
            Ok((info, physical))
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
        "Datasets (query them with one read-only {engine} SELECT; dates are text YYYY-MM-DD; at most {DATASET_ROW_CAP} rows and {} MB are returned):\n",
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
pub(super) async fn catalogue(
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

//! What a write writes: every row it touches with its value before and after. The dry
//! run computes them; executing writes `after` where each row is still `before`, and
//! undoing writes `before` back where each is still `after`, in reverse order. One row
//! found otherwise stops the whole write, and its transaction writes nothing.

use serde::{Deserialize, Serialize};
use sqlx::AnyConnection;

use crate::ids::UserId;

/// A merchant as a row: what a merge or a rename changes, and what undo puts back.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MerchantRow {
    pub key: String,
    pub name: String,
    /// JSON array of names, as the table keeps it.
    pub aliases: String,
    pub category_id: Option<i64>,
}

/// One month's budget row: an amount, or none (the budget ends that month).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BudgetRow {
    pub amount: Option<i64>,
    pub currency: String,
}

/// One row, before and after; `None` is "no such row".
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "row", rename_all = "snake_case")]
pub enum RowChange {
    /// A transaction's category.
    TxCategory {
        id: i64,
        before: Option<i64>,
        after: Option<i64>,
    },
    /// A transaction's merchant.
    TxMerchant {
        id: i64,
        before: Option<i64>,
        after: Option<i64>,
    },
    /// A category's budget from a month (`YYYY-MM`) on.
    Budget {
        category: i64,
        month: String,
        before: Option<BudgetRow>,
        after: Option<BudgetRow>,
    },
    /// A categorisation rule, by its pattern.
    Rule {
        pattern: String,
        before: Option<i64>,
        after: Option<i64>,
    },
    Merchant {
        id: i64,
        before: Option<MerchantRow>,
        after: Option<MerchantRow>,
    },
}

/// Which way the rows are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Way {
    /// `before` → `after`: executing a write.
    Forward,
    /// `after` → `before`: undoing it.
    Back,
}

/// Why the rows were not written.
#[derive(Debug, thiserror::Error)]
pub enum ApplyError {
    /// A row is not as expected: the data changed since.
    #[error("a row changed since: {0}")]
    Conflict(String),
    #[error(transparent)]
    Db(#[from] sqlx::Error),
}

fn pick<T>(way: Way, before: T, after: T) -> (T, T) {
    match way {
        Way::Forward => (before, after),
        Way::Back => (after, before),
    }
}

/// Writes `rows` one way, checking each against what it must be now. Nothing is
/// committed here: the caller's transaction keeps all of it or none. A row the
/// database refuses as a duplicate (a merchant's key taken again since) is a
/// conflict too.
pub async fn apply(
    db: &mut AnyConnection,
    user: UserId,
    rows: &[RowChange],
    way: Way,
) -> Result<(), ApplyError> {
    match apply_rows(db, user, rows, way).await {
        Err(ApplyError::Db(sqlx::Error::Database(e))) if e.is_unique_violation() => {
            Err(ApplyError::Conflict(format!("a row is taken: {e}")))
        }
        other => other,
    }
}

async fn apply_rows(
    db: &mut AnyConnection,
    user: UserId,
    rows: &[RowChange],
    way: Way,
) -> Result<(), ApplyError> {
    let mut ordered: Vec<&RowChange> = rows.iter().collect();
    if way == Way::Back {
        ordered.reverse();
    }
    for row in ordered {
        match row {
            RowChange::TxCategory { id, before, after } => {
                transaction(db, user, ("category_id", *id), pick(way, before, after)).await?;
            }
            RowChange::TxMerchant { id, before, after } => {
                transaction(db, user, ("merchant_id", *id), pick(way, before, after)).await?;
            }
            RowChange::Budget { category, month, before, after } => {
                budget(db, user, (*category, month), pick(way, before, after)).await?;
            }
            RowChange::Rule { pattern, before, after } => {
                rule(db, user, pattern, pick(way, before, after)).await?;
            }
            RowChange::Merchant { id, before, after } => {
                merchant(db, user, *id, pick(way, before, after)).await?;
            }
        }
    }
    Ok(())
}

/// A transaction's category or merchant (`column`) from `expected` to `new`.
async fn transaction(
    db: &mut AnyConnection,
    user: UserId,
    (column, id): (&str, i64),
    (expected, new): (&Option<i64>, &Option<i64>),
) -> Result<(), ApplyError> {
    let now: Option<Option<i64>> =
        sqlx::query_scalar(&format!("SELECT {column} FROM transactions WHERE user_id = $1 AND id = $2"))
            .bind(user.0)
            .bind(id)
            .fetch_optional(&mut *db)
            .await?;
    if now.as_ref() != Some(expected) {
        return Err(ApplyError::Conflict(format!("transaction {id}")));
    }
    sqlx::query(&format!("UPDATE transactions SET {column} = $1 WHERE user_id = $2 AND id = $3"))
        .bind(*new)
        .bind(user.0)
        .bind(id)
        .execute(&mut *db)
        .await?;
    Ok(())
}

/// A category's budget from a month on, from `expected` to `new` (`None`: none).
async fn budget(
    db: &mut AnyConnection,
    user: UserId,
    (category, month): (i64, &str),
    (expected, new): (&Option<BudgetRow>, &Option<BudgetRow>),
) -> Result<(), ApplyError> {
    let now: Option<(Option<i64>, String)> = sqlx::query_as(
        "SELECT amount_minor, currency FROM budgets
         WHERE user_id = $1 AND category_id = $2 AND start_month = $3",
    )
    .bind(user.0)
    .bind(category)
    .bind(month)
    .fetch_optional(&mut *db)
    .await?;
    let now = now.map(|(amount, currency)| BudgetRow { amount, currency });
    if now.as_ref() != expected.as_ref() {
        return Err(ApplyError::Conflict(format!("budget {category} {month}")));
    }
    match new {
        None => {
            sqlx::query("DELETE FROM budgets WHERE user_id = $1 AND category_id = $2 AND start_month = $3")
                .bind(user.0)
                .bind(category)
                .bind(month)
                .execute(&mut *db)
                .await?;
        }
        Some(b) => {
            sqlx::query(
                "INSERT INTO budgets (user_id, category_id, start_month, amount_minor, currency)
                 VALUES ($1, $2, $3, $4, $5)
                 ON CONFLICT (user_id, category_id, start_month)
                 DO UPDATE SET amount_minor = excluded.amount_minor, currency = excluded.currency",
            )
            .bind(user.0)
            .bind(category)
            .bind(month)
            .bind(b.amount)
            .bind(&b.currency)
            .execute(&mut *db)
            .await?;
        }
    }
    Ok(())
}

/// A categorisation rule, from `expected` to `new` (`None`: none).
async fn rule(
    db: &mut AnyConnection,
    user: UserId,
    pattern: &str,
    (expected, new): (&Option<i64>, &Option<i64>),
) -> Result<(), ApplyError> {
    let now: Option<i64> =
        sqlx::query_scalar("SELECT category_id FROM category_rules WHERE user_id = $1 AND pattern = $2")
            .bind(user.0)
            .bind(pattern)
            .fetch_optional(&mut *db)
            .await?;
    if now.as_ref() != expected.as_ref() {
        return Err(ApplyError::Conflict(format!("rule {pattern:?}")));
    }
    match new {
        None => {
            sqlx::query("DELETE FROM category_rules WHERE user_id = $1 AND pattern = $2")
                .bind(user.0)
                .bind(pattern)
                .execute(&mut *db)
                .await?;
        }
        Some(category) => {
            sqlx::query(
                "INSERT INTO category_rules (user_id, pattern, category_id, created_at)
                 VALUES ($1, $2, $3, $4)
                 ON CONFLICT (user_id, pattern) DO UPDATE SET category_id = excluded.category_id",
            )
            .bind(user.0)
            .bind(pattern)
            .bind(category)
            .bind(crate::store::timestamp(chrono::Utc::now()))
            .execute(&mut *db)
            .await?;
        }
    }
    Ok(())
}

/// A merchant, from `expected` to `new` (`None`: none).
async fn merchant(
    db: &mut AnyConnection,
    user: UserId,
    id: i64,
    (expected, new): (&Option<MerchantRow>, &Option<MerchantRow>),
) -> Result<(), ApplyError> {
    let now: Option<(String, String, String, Option<i64>)> = sqlx::query_as(
        "SELECT key, name, aliases, category_id FROM merchants WHERE user_id = $1 AND id = $2",
    )
    .bind(user.0)
    .bind(id)
    .fetch_optional(&mut *db)
    .await?;
    let now = now.map(|(key, name, aliases, category_id)| MerchantRow { key, name, aliases, category_id });
    if now.as_ref() != expected.as_ref() {
        return Err(ApplyError::Conflict(format!("merchant {id}")));
    }
    match (now, new) {
        (_, None) => {
            // A merchant goes only once no transaction points at it: on
            // PostgreSQL its transactions would go with it.
            let used: i64 = sqlx::query_scalar(
                "SELECT COUNT(*) FROM transactions WHERE user_id = $1 AND merchant_id = $2",
            )
            .bind(user.0)
            .bind(id)
            .fetch_one(&mut *db)
            .await?;
            if used > 0 {
                return Err(ApplyError::Conflict(format!("merchant {id} has transactions")));
            }
            sqlx::query("DELETE FROM merchants WHERE user_id = $1 AND id = $2")
                .bind(user.0)
                .bind(id)
                .execute(&mut *db)
                .await?;
        }
        (None, Some(m)) => {
            sqlx::query(
                "INSERT INTO merchants (id, user_id, key, name, aliases, category_id)
                 VALUES ($1, $2, $3, $4, $5, $6)",
            )
            .bind(id)
            .bind(user.0)
            .bind(&m.key)
            .bind(&m.name)
            .bind(&m.aliases)
            .bind(m.category_id)
            .execute(&mut *db)
            .await?;
        }
        (Some(_), Some(m)) => {
            sqlx::query(
                "UPDATE merchants SET key = $1, name = $2, aliases = $3, category_id = $4
                 WHERE user_id = $5 AND id = $6",
            )
            .bind(&m.key)
            .bind(&m.name)
            .bind(&m.aliases)
            .bind(m.category_id)
            .bind(user.0)
            .bind(id)
            .execute(&mut *db)
            .await?;
        }
    }
    Ok(())
}

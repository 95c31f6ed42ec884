//! Months whose roll-up was compared with their own rows, found equal, and not changed
//! since (`ledger_month_state.checked` = 1; triggers set it back to NULL at every
//! change to a month's transactions or roll-up). A summary's check reads such months
//! from the roll-up, and compares the others: a year asked about twice is compared with
//! its rows once, and again only in the months that changed.

use std::collections::{BTreeMap, BTreeSet};

use agent::Date;
use sqlx::AnyConnection;

use super::rollup::month;
use crate::error::BackendError;
use crate::ids::UserId;
use crate::store::owner::Owner;
use crate::store::Store;

/// One month's roll-up line: (account, category, merchant, currency) and its sums
/// (debit, credit, debits, credits, lines).
type Line = ((i64, i64, i64, String), [i64; 5]);

/// The months from `first` to `last` whose roll-up was not found equal to their rows
/// since they last changed, read on the caller's connection. A month without a state
/// row never had a line (the triggers make it at the first one): nothing to compare.
pub(super) async fn unchecked(
    db: &mut AnyConnection,
    user: UserId,
    first: Date,
    last: Date,
) -> Result<Vec<Date>, BackendError> {
    let months: Vec<String> = sqlx::query_scalar(
        "SELECT month FROM ledger_month_state
         WHERE user_id = $1 AND month >= $2 AND month < $3 AND (checked IS NULL OR checked <> 1)
         ORDER BY month",
    )
    .bind(user.0)
    .bind(month(first))
    .bind(month(last))
    .fetch_all(&mut *db)
    .await?;
    Ok(months.iter().filter_map(|m| Date::parse_iso(&format!("{m}-01"))).collect())
}

/// Up to `max` months not compared since they last changed, of every user: (user,
/// first day of the month), by user then month.
pub(super) async fn unchecked_everywhere(
    store: &Store,
    max: u32,
) -> Result<Vec<(UserId, Date)>, BackendError> {
    let sql = Owner::UncheckedMonths.sql(store.dialect());
    let rows: Vec<(i64, String)> = sqlx::query_as(sql).bind(i64::from(max)).fetch_all(store.pool()).await?;
    Ok(rows
        .into_iter()
        .filter_map(|(user, month)| Some((UserId(user), Date::parse_iso(&format!("{month}-01"))?)))
        .collect())
}

/// Compares each of the `unchecked` months' roll-up with its rows, and records those
/// found equal; whether all were.
///
/// A month compared now is recorded only if nothing changed it meanwhile: it is first
/// marked with this check's token (committed), then compared in a read that starts
/// after that, then recorded where the token is still there. A change clears the token
/// (on PostgreSQL a change in flight holds the row, so the marking waits for it).
///
/// Each step takes a connection of its own and gives it back before the next: the
/// caller holds none.
pub(super) async fn compare(store: &Store, user: UserId, unchecked: Vec<Date>) -> Result<bool, BackendError> {
    if unchecked.is_empty() {
        return Ok(true);
    }
    let (high, low) = uuid::Uuid::new_v4().as_u64_pair();
    let token = -i64::try_from((high ^ low) >> 2).unwrap_or(0) - 2;
    let mark = |sql: &'static str, value: i64| {
        let months = unchecked.clone();
        async move {
            let mut tx = store.tenant(user).await?;
            for m in months {
                sqlx::query(sql)
                    .bind(value)
                    .bind(user.0)
                    .bind(month(m))
                    .bind(token)
                    .execute(&mut *tx)
                    .await?;
            }
            tx.commit().await?;
            Ok::<_, BackendError>(())
        }
    };
    mark(
        "UPDATE ledger_month_state SET checked = $1
         WHERE user_id = $2 AND month = $3 AND (checked IS NULL OR checked <> 1) AND CAST($4 AS BIGINT) <> 1",
        token,
    )
    .await?;
    // Runs of consecutive months, each compared in one statement, in a read that starts
    // after the marks.
    let mut runs: Vec<(Date, Date)> = Vec::new();
    for m in &unchecked {
        match runs.last_mut() {
            Some((_, end)) if *end == *m => *end = m.add_months(1),
            _ => runs.push((*m, m.add_months(1))),
        }
    }
    let mut read = store.tenant_read(user).await?;
    for (from, to) in runs {
        if !run_matches(&mut read, user, from, to).await? {
            read.commit().await?;
            return Ok(false);
        }
    }
    read.commit().await?;
    mark("UPDATE ledger_month_state SET checked = $1 WHERE user_id = $2 AND month = $3 AND checked = $4", 1)
        .await?;
    Ok(true)
}

/// One line of a month, from its rows (`side` 0) or from the roll-up (1): its account,
/// category, merchant and currency, with its sums.
#[derive(sqlx::FromRow)]
struct SideRow {
    side: i64,
    month: String,
    account_id: i64,
    category_id: i64,
    merchant_id: i64,
    currency: String,
    debit: i64,
    credit: i64,
    debits: i64,
    credits: i64,
    n: i64,
}

/// Whether the months from `from` to `to` have a roll-up equal to their rows: per
/// month, the same (account, category, merchant, currency) lines with the same sums.
async fn run_matches(
    db: &mut AnyConnection,
    user: UserId,
    from: Date,
    to: Date,
) -> Result<bool, BackendError> {
    // Both sides in one statement, so in one snapshot on either database.
    let rows: Vec<SideRow> = sqlx::query_as(
        "SELECT CAST(0 AS BIGINT) AS side, substr(date, 1, 7) AS month, account_id,
                COALESCE(category_id, 0) AS category_id, COALESCE(merchant_id, 0) AS merchant_id, currency,
                CAST(SUM(CASE WHEN amount_minor < 0 THEN amount_minor ELSE 0 END) AS BIGINT) AS debit,
                CAST(SUM(CASE WHEN amount_minor > 0 THEN amount_minor ELSE 0 END) AS BIGINT) AS credit,
                CAST(SUM(CASE WHEN amount_minor < 0 THEN 1 ELSE 0 END) AS BIGINT) AS debits,
                CAST(SUM(CASE WHEN amount_minor > 0 THEN 1 ELSE 0 END) AS BIGINT) AS credits,
                CAST(COUNT(*) AS BIGINT) AS n
         FROM transactions WHERE user_id = $1 AND date >= $2 AND date < $3
         GROUP BY substr(date, 1, 7), account_id, COALESCE(category_id, 0), COALESCE(merchant_id, 0), currency
         UNION ALL
         SELECT CAST(1 AS BIGINT), month, account_id, category_id, merchant_id, currency, CAST(debit AS BIGINT),
                CAST(credit AS BIGINT), CAST(debits AS BIGINT), CAST(credits AS BIGINT), CAST(n AS BIGINT)
         FROM ledger_months WHERE user_id = $1 AND month >= $4 AND month < $5",
    )
    .bind(user.0)
    .bind(from.to_string())
    .bind(to.to_string())
    .bind(month(from))
    .bind(month(to))
    .fetch_all(&mut *db)
    .await?;
    // Per month, the lines of each side.
    let mut sides: BTreeMap<String, [BTreeSet<Line>; 2]> = BTreeMap::new();
    for r in rows {
        let side = usize::from(r.side != 0);
        let key = (r.account_id, r.category_id, r.merchant_id, r.currency);
        let sums = [r.debit, r.credit, r.debits, r.credits, r.n];
        if let Some(set) = sides.entry(r.month).or_default().get_mut(side) {
            set.insert((key, sums));
        }
    }
    Ok(sides.values().all(|[raw, rolled]| raw == rolled))
}

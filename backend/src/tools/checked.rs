//! Months whose roll-up was compared with their own rows, found equal, and not changed
//! since (`ledger_month_state`, kept by triggers: every change to a month's
//! transactions or roll-up moves its `version`). A summary's check reads such months
//! from the roll-up, and the others' rows again: a year asked about twice is compared
//! with its rows once, and again only in the months that changed.

use std::collections::{BTreeMap, BTreeSet};

use agent::Date;
use sqlx::{AnyConnection, Row};

use super::rollup::month;
use crate::error::BackendError;
use crate::ids::UserId;
use crate::store::Store;

/// One month's roll-up line: (account, category, merchant, currency) and its sums
/// (debit, credit, debits, credits, lines).
type Line = ((i64, i64, i64, String), [i64; 5]);

/// Whether every month from `first` to `last` (exclusive, first days of months) has a
/// roll-up equal to its rows: months checked before and unchanged since, and the
/// others compared now (and recorded when they match and did not change meanwhile).
/// `false` as soon as one month differs. A month without a state row never had a line
/// (the triggers make it at the first one), so it has nothing to compare.
/// Reads in `db` (the check's transaction); records in a transaction of its own.
pub(super) async fn months_match(
    store: &Store,
    db: &mut AnyConnection,
    user: UserId,
    first: Date,
    last: Date,
) -> Result<bool, BackendError> {
    // The versions first: a change that lands after this read moves a version past the
    // one recorded below, so a month compared before that change is not recorded.
    let unchecked: Vec<(Date, i64)> = sqlx::query(
        "SELECT month, CAST(version AS BIGINT) FROM ledger_month_state
         WHERE user_id = $1 AND month >= $2 AND month < $3 AND (checked IS NULL OR checked <> version)
         ORDER BY month",
    )
    .bind(user.0)
    .bind(month(first))
    .bind(month(last))
    .fetch_all(&mut *db)
    .await?
    .iter()
    .filter_map(|r| {
        let m = Date::parse_iso(&format!("{}-01", r.get::<String, _>(0)))?;
        Some((m, r.get::<i64, _>(1)))
    })
    .collect();
    // Runs of consecutive months, each compared in one statement.
    let mut runs: Vec<(Date, Date)> = Vec::new();
    for (m, _) in &unchecked {
        match runs.last_mut() {
            Some((_, end)) if *end == *m => *end = m.add_months(1),
            _ => runs.push((*m, m.add_months(1))),
        }
    }
    for (from, to) in runs {
        if !run_matches(db, user, from, to).await? {
            return Ok(false);
        }
    }
    if unchecked.is_empty() {
        return Ok(true);
    }
    // Recorded only where the version is still the one read before comparing.
    let mut tx = store.tenant(user).await?;
    for (m, version) in unchecked {
        sqlx::query(
            "UPDATE ledger_month_state SET checked = version WHERE user_id = $1 AND month = $2 AND version = $3",
        )
        .bind(user.0)
        .bind(month(m))
        .bind(version)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    Ok(true)
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
    let rows = sqlx::query(
        "SELECT CAST(0 AS BIGINT), substr(date, 1, 7), account_id, COALESCE(category_id, 0), COALESCE(merchant_id, 0), currency,
                CAST(SUM(CASE WHEN amount_minor < 0 THEN amount_minor ELSE 0 END) AS BIGINT),
                CAST(SUM(CASE WHEN amount_minor > 0 THEN amount_minor ELSE 0 END) AS BIGINT),
                CAST(SUM(CASE WHEN amount_minor < 0 THEN 1 ELSE 0 END) AS BIGINT),
                CAST(SUM(CASE WHEN amount_minor > 0 THEN 1 ELSE 0 END) AS BIGINT),
                CAST(COUNT(*) AS BIGINT)
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
    for r in &rows {
        let side = usize::from(r.get::<i64, _>(0) != 0);
        let key = (r.get::<i64, _>(2), r.get::<i64, _>(3), r.get::<i64, _>(4), r.get::<String, _>(5));
        let sums = [r.get(6), r.get(7), r.get(8), r.get(9), r.get(10)];
        if let Some(set) = sides.entry(r.get(1)).or_default().get_mut(side) {
            set.insert((key, sums));
        }
    }
    Ok(sides.values().all(|[raw, rolled]| raw == rolled))
}

//! Where money went or came from: a spending or income summary (grouped by category,
//! merchant, account or time), the same over two periods, and the transactions
//! themselves.

use std::collections::BTreeMap;

use agent::{
    Currency, Date, Direction, EntityRef, Group, GroupBy, ListOrder, ListTransactionsArgs, Locale, Money,
    SummaryArgs, SummaryResult, TransactionListResult,
};
use sqlx::AnyConnection;

use crate::error::BackendError;
use crate::ids::UserId;

use super::ledger::*;
use super::SUMMARY_ROWS;

#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Flow {
    /// Spending: money going out of expense categories.
    Out,
    /// Income: money coming into income categories.
    In,
}

pub(super) async fn summary(
    db: &mut AnyConnection,
    user: UserId,
    a: &SummaryArgs,
    flow: Flow,
    locale: Locale,
    today: Date,
) -> Result<SummaryResult, BackendError> {
    let Scope { category, merchant, account, currency } =
        scope(db, user, a.category.as_deref(), a.merchant.as_deref(), a.account.as_deref(), locale).await?;
    // Without a category filter, spending counts expense categories (and uncategorised
    // lines) and income counts income categories (and uncategorised lines): savings
    // transfers are neither, and a refund is not income.
    let (sign, kind) = match flow {
        Flow::Out => ("t.amount_minor < 0", "expense"),
        Flow::In => ("t.amount_minor > 0", "income"),
    };
    let sql = format!(
        "{SELECT} AND {sign} AND ($4 IS NOT NULL OR c.kind IS NULL OR c.kind = '{kind}')
         ORDER BY t.date DESC, t.id DESC"
    );
    let excluded =
        excluded(db, user, [&a.exclude_category, &a.exclude_merchant], [&a.category, &a.merchant], locale)
            .await?;
    let keys = [&a.category, &a.merchant, &a.account];
    let filters = Filters::of(&a.period, keys, a.amount_min, a.amount_max)
        .excluding(a.exclude_category.as_deref(), a.exclude_merchant.as_deref());
    let rows = filters.fetch(db, &sql, user, currency, locale).await?;

    let mut total = 0i64;
    let mut count = 0u32;
    let mut others: BTreeMap<Currency, i64> = BTreeMap::new();
    let mut groups: BTreeMap<String, Group> = BTreeMap::new();
    let uncategorised = match locale {
        Locale::Fr => "Sans catégorie",
        Locale::En => "Uncategorised",
    };
    let no_merchant = match locale {
        Locale::Fr => "Sans marchand",
        Locale::En => "No merchant",
    };
    for r in &rows {
        let spent = r.row.amount.minor.saturating_abs();
        if r.row.amount.currency != currency {
            *others.entry(r.row.amount.currency).or_default() += spent;
            continue;
        }
        total = total.saturating_add(spent);
        count += 1;
        let (key, label) = match a.group_by {
            GroupBy::None => continue,
            GroupBy::Category => (
                r.category_key.clone().unwrap_or_default(),
                r.row.category.clone().unwrap_or_else(|| uncategorised.to_string()),
            ),
            GroupBy::Merchant => (
                r.merchant_key.clone().unwrap_or_default(),
                r.row.merchant.clone().unwrap_or_else(|| no_merchant.to_string()),
            ),
            GroupBy::Account => (r.account_key.clone().unwrap_or_default(), r.row.account.clone()),
            GroupBy::Month | GroupBy::Week | GroupBy::Day => {
                let Some((start, label)) = time_bucket(r.row.date, a.group_by, locale) else { continue };
                let key = start.to_string();
                // Months are keyed "2026-01", weeks by their Monday, days by the date.
                let key = if a.group_by == GroupBy::Month { key[..7].to_string() } else { key };
                (key, label)
            }
        };
        let g = groups.entry(key.clone()).or_insert_with(|| Group {
            key,
            label,
            total: Money::new(0, currency),
            count: 0,
        });
        g.total.minor = g.total.minor.saturating_add(spent);
        g.count += 1;
    }
    let mut groups: Vec<Group> = groups.into_values().collect();
    if a.group_by.is_time() {
        groups.sort_by(|x, y| x.key.cmp(&y.key));
    } else {
        groups.sort_by(|x, y| y.total.minor.cmp(&x.total.minor).then(x.label.cmp(&y.label)));
    }
    if let Some(n) = a.top {
        groups.truncate(n as usize);
    }
    let chart =
        a.group_by.is_time().then(|| summary_chart(&groups, a, flow, &category, &merchant, locale)).flatten();
    // An average divides by the part of the period that has happened: "this year" in
    // November is ten months and a bit, not twelve.
    let average = a.average.and_then(|per| {
        let elapsed = agent::Period { end: a.period.end.min(today.add_days(1)), ..a.period.clone() };
        agent::average::average(Money::new(total, currency), count, &elapsed, per)
    });
    let source_ids = rows.iter().map(|r| r.row.id).collect();
    let truncated = rows.len() > SUMMARY_ROWS;
    let transactions = rows.into_iter().take(SUMMARY_ROWS).map(|r| r.row).collect();
    Ok(SummaryResult {
        period: a.period.clone(),
        category,
        merchant,
        account,
        excluded,
        average,
        group_by: a.group_by,
        total: Money::new(total, currency),
        count,
        other_currencies: others.into_iter().map(|(c, m)| Money::new(m, c)).collect(),
        groups,
        chart,
        transactions,
        transactions_truncated: truncated,
        source_ids,
    })
}

/// A summary's months, weeks or days as a line: "Dépenses par mois — Courses, 2025".
pub(super) fn summary_chart(
    groups: &[Group],
    a: &SummaryArgs,
    flow: Flow,
    category: &Option<EntityRef>,
    merchant: &Option<EntityRef>,
    locale: Locale,
) -> Option<agent::chart::ChartSpec> {
    let what = match (flow, locale) {
        (Flow::Out, Locale::Fr) => "Dépenses",
        (Flow::Out, Locale::En) => "Spending",
        (Flow::In, Locale::Fr) => "Revenus",
        (Flow::In, Locale::En) => "Income",
    };
    // "par mois" names the line; "mois", its axis.
    let by = agent::wording::group_label(a.group_by, locale);
    let unit = by.split_once(' ').map_or(by, |(_, unit)| unit);
    let scope = merchant.as_ref().or(category.as_ref()).map(|e| format!("{}, ", e.label)).unwrap_or_default();
    let title = format!("{what} {by} — {scope}{}", a.period.label);
    agent::chart::over_time(groups, &title, unit, &what.to_lowercase())
}

/// The same summary over two periods, and the change between them.
pub(super) async fn compare(
    db: &mut AnyConnection,
    user: UserId,
    a: &agent::CompareArgs,
    locale: Locale,
    today: Date,
) -> Result<agent::CompareResult, BackendError> {
    let flow = match a.flow {
        agent::Flow::Spending => Flow::Out,
        agent::Flow::Income => Flow::In,
    };
    let args = |period: &agent::Period| SummaryArgs {
        period: period.clone(),
        category: a.category.clone(),
        merchant: a.merchant.clone(),
        account: a.account.clone(),
        amount_min: None,
        amount_max: None,
        exclude_category: None,
        exclude_merchant: None,
        group_by: GroupBy::None,
        top: None,
        average: None,
    };
    let current = summary(db, user, &args(&a.current), flow, locale, today).await?;
    let reference = summary(db, user, &args(&a.reference), flow, locale, today).await?;
    let difference = current.total.minor.saturating_sub(reference.total.minor);
    let change_basis_points = (reference.total.minor != 0).then(|| {
        i64::try_from(i128::from(difference) * 10_000 / i128::from(reference.total.minor)).unwrap_or(i64::MAX)
    });
    Ok(agent::CompareResult {
        flow: a.flow,
        category: current.category.clone(),
        merchant: current.merchant.clone(),
        account: current.account.clone(),
        difference: Money::new(difference, current.total.currency),
        change_basis_points,
        current: agent::PeriodTotal { period: current.period, total: current.total, count: current.count },
        reference: agent::PeriodTotal {
            period: reference.period,
            total: reference.total,
            count: reference.count,
        },
    })
}

pub(super) async fn list_transactions(
    db: &mut AnyConnection,
    user: UserId,
    a: &ListTransactionsArgs,
    locale: Locale,
) -> Result<TransactionListResult, BackendError> {
    let Scope { category, merchant, account, currency } =
        scope(db, user, a.category.as_deref(), a.merchant.as_deref(), a.account.as_deref(), locale).await?;
    // Case-insensitive in both databases (SQLite's LIKE is, PostgreSQL's is not).
    let pattern = a.text.as_ref().map(|t| {
        let escaped = t.replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_");
        format!("%{escaped}%")
    });
    let direction = match a.direction {
        None => "",
        Some(Direction::Debit) => "AND t.amount_minor < 0",
        Some(Direction::Credit) => "AND t.amount_minor > 0",
    };
    let order = match a.order {
        ListOrder::Newest => "t.date DESC, t.id DESC",
        ListOrder::Largest => "ABS(t.amount_minor) DESC, t.date DESC, t.id DESC",
    };
    let sql = format!(
        "{SELECT} {direction} AND ($11 IS NULL OR LOWER(t.raw_label) LIKE LOWER($11) ESCAPE '\\') ORDER BY {order}"
    );
    let excluded =
        excluded(db, user, [&a.exclude_category, &a.exclude_merchant], [&a.category, &a.merchant], locale)
            .await?;
    let keys = [&a.category, &a.merchant, &a.account];
    let filters = Filters::of(&a.period, keys, a.amount_min, a.amount_max)
        .excluding(a.exclude_category.as_deref(), a.exclude_merchant.as_deref());
    let rows = filters.bind(&sql, user, currency)?.bind(pattern).fetch_all(&mut *db).await?;
    let rows = rows.iter().map(|r| decode(r, locale)).collect::<Result<Vec<_>, _>>()?;
    let net = rows
        .iter()
        .filter(|r| r.row.amount.currency == currency)
        .fold(0i64, |acc, r| acc.saturating_add(r.row.amount.minor));
    let count = u32::try_from(rows.len()).unwrap_or(u32::MAX);
    let limit = a.limit as usize;
    Ok(TransactionListResult {
        period: a.period.clone(),
        category,
        merchant,
        account,
        excluded,
        direction: a.direction,
        order: a.order,
        text: a.text.clone(),
        count,
        truncated: rows.len() > limit,
        net: Money::new(net, currency),
        source_ids: rows.iter().map(|r| r.row.id).collect(),
        transactions: rows.into_iter().take(limit).map(|r| r.row).collect(),
    })
}

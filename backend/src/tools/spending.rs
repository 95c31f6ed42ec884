//! Where money went or came from: a spending or income summary (grouped by category,
//! merchant, account or time), the same over two periods, and the transactions
//! themselves.

use std::collections::BTreeMap;

use agent::{
    Currency, Date, Direction, EntityRef, Group, GroupBy, ListOrder, ListTransactionsArgs, Locale, Money,
    SummaryArgs, SummaryResult, TransactionListResult,
};
use sqlx::AnyConnection;

use super::Known;
use crate::error::BackendError;
use crate::ids::UserId;

use super::ledger::*;
use super::rollup::{self, By};
use super::SUMMARY_ROWS;
use super::{PageCx, RunCx};

#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Flow {
    /// Spending: money going out of expense categories.
    Out,
    /// Income: money coming into income categories.
    In,
}

impl Flow {
    /// The sign of its lines, and the kind of category it counts when no category is named.
    fn sql(self) -> (&'static str, &'static str) {
        match self {
            Flow::Out => ("t.amount_minor < 0", "expense"),
            Flow::In => ("t.amount_minor > 0", "income"),
        }
    }

    fn kind(self) -> &'static str {
        self.sql().1
    }
}

fn summary_filters(a: &SummaryArgs) -> Filters<'_> {
    let keys = [&a.category, &a.merchant, &a.account];
    Filters::of(&a.period, keys, a.amount_min, a.amount_max)
        .excluding(a.exclude_category.as_deref(), a.exclude_merchant.as_deref())
}

/// The lines a summary counts, newest first: `limit` of them after the first `offset`.
pub(super) async fn summary_lines(
    cx: PageCx<'_>,
    a: &SummaryArgs,
    flow: Flow,
) -> Result<Vec<Row_>, BackendError> {
    let (db, user, currency, locale, (limit, offset)) = (cx.db, cx.user, cx.currency, cx.locale, cx.page);
    // Without a category filter, spending counts expense categories (and uncategorised
    // lines) and income counts income categories (and uncategorised lines).
    let (sign, kind) = flow.sql();
    let filter = format!("AND {sign} AND ($4 IS NOT NULL OR {})", of_kind(kind));
    let filters = summary_filters(a);
    let sql = lines_sql(&filters, &filter, "t.date DESC, t.id DESC", (limit, offset));
    filters.fetch(db, &sql, user, currency, locale).await
}

/// What a summary's lines add up to, read from the rows alone (never the roll-up): in
/// `currency` (sum, count) and in each other currency. Verification compares a summary
/// with it; `period` replaces the call's (the part of it after today, say).
pub(super) async fn summary_from_rows<'a>(
    db: &mut AnyConnection,
    user: UserId,
    a: &'a SummaryArgs,
    flow: Flow,
    currency: Currency,
    period: Option<&'a agent::Period>,
) -> Result<((i64, i64), BTreeMap<Currency, (i64, i64)>), BackendError> {
    let mut filters = summary_filters(a);
    if let Some(p) = period {
        filters.period = p;
    }
    let (sign, kind) = flow.sql();
    let condition =
        format!("AND {sign} AND ($4 IS NOT NULL OR {}) AND CAST($11 AS TEXT) IS NULL", of_kind(kind));
    let ((sum, n), others) = totals(db, user, &filters, &condition, None, currency).await?;
    let abs = |(sum, n): (i64, i64)| (sum.saturating_abs(), n);
    Ok((abs((sum, n)), others.into_iter().map(|(c, t)| (c, abs(t))).collect()))
}

/// What a summary's lines add up to, as [`summary_from_rows`], but with the whole
/// months from `first` to `last` read from the roll-up: for the check, once
/// [`super::checked::months_match`] found those months equal to their rows. The same
/// filters, written on the roll-up; the days around them from the rows.
pub(super) async fn summary_from_rollup(
    db: &mut AnyConnection,
    user: UserId,
    a: &SummaryArgs,
    flow: Flow,
    currency: Currency,
    (first, last): (Date, Date),
) -> Result<((i64, i64), BTreeMap<Currency, (i64, i64)>), BackendError> {
    let filters = summary_filters(a);
    let (sign, kind) = flow.sql();
    let (sum, n) = match flow {
        Flow::Out => ("l.debit", "l.debits"),
        Flow::In => ("l.credit", "l.credits"),
    };
    let rows = |from: u8, to: u8| {
        format!(
            "SELECT t.currency, t.amount_minor AS s, 1 AS n FROM transactions t
             WHERE {} AND {sign} AND ($4 IS NOT NULL OR {})",
            filters.matching(from, to),
            of_kind(kind)
        )
    };
    let sql = format!(
        "SELECT g.currency, CAST(SUM(g.s) AS BIGINT), CAST(SUM(g.n) AS BIGINT) FROM (
             SELECT l.currency, {sum} AS s, {n} AS n FROM ledger_months l
             WHERE {} AND ($4 IS NOT NULL OR l.category_id = 0
                   OR l.category_id NOT IN (SELECT id FROM categories WHERE user_id = $1 AND kind <> '{kind}'))
             UNION ALL {}
             UNION ALL {}
         ) g GROUP BY g.currency HAVING SUM(g.n) > 0",
        rollup::ROLLED,
        rows(2, 13),
        rows(14, 3)
    );
    let found: Vec<(String, i64, i64)> = filters
        .bind_as(&sql, user, currency)?
        .bind(rollup::month(first))
        .bind(rollup::month(last))
        .bind(first.to_string())
        .bind(last.to_string())
        .fetch_all(&mut *db)
        .await?;
    let mut mine = (0i64, 0i64);
    let mut others: BTreeMap<Currency, (i64, i64)> = BTreeMap::new();
    for (code, sum, n) in found {
        let c = Currency::new(&code).ok_or_else(|| BackendError::Corrupt(format!("currency {code:?}")))?;
        let slot = if c == currency { &mut mine } else { others.entry(c).or_default() };
        *slot = (slot.0.saturating_add(sum.saturating_abs()), slot.1 + n);
    }
    Ok((mine, others))
}

pub(super) async fn summary(
    cx: &mut RunCx<'_>,
    a: &SummaryArgs,
    flow: Flow,
) -> Result<SummaryResult, BackendError> {
    let (db, user, known, locale, today) = (&mut *cx.db, cx.user, cx.known, cx.locale, cx.today);
    let Scope { category, merchant, account, currency } =
        scope(db, user, known, Names::of(a), locale).await?;
    // Without a category filter, spending counts expense categories (and uncategorised
    // lines) and income counts income categories (and uncategorised lines): savings
    // transfers are neither, and a refund is not income.
    let kind = flow.kind();
    let excluded = excluded(
        db,
        user,
        known,
        [&a.exclude_category, &a.exclude_merchant],
        [&a.category, &a.merchant],
        locale,
    )
    .await?;
    let filters = summary_filters(a);
    let by = match a.group_by {
        GroupBy::None => By::Nothing,
        GroupBy::Category => By::Category,
        GroupBy::Merchant => By::Merchant,
        GroupBy::Account => By::Account,
        GroupBy::Month => By::Month,
        GroupBy::Week | GroupBy::Day => By::Day,
    };
    let sums = rollup::sums(db, user, &filters, currency, by, true).await?;
    // What a group of lines adds to the answer: what was spent (or earned), and how many.
    let amount = |s: &rollup::Sums| match flow {
        Flow::Out => (s.debit.saturating_neg(), s.debits),
        Flow::In => (s.credit, s.credits),
    };
    let entity = match by {
        By::Category => Some(Entity::Category),
        By::Merchant => Some(Entity::Merchant),
        By::Account => Some(Entity::Account),
        _ => None,
    };
    let names = match entity {
        Some(e) => {
            let ids: Vec<i64> = sums.iter().map(rollup::Sums::id).filter(|id| *id != 0).collect();
            rollup::names(db, user, e, &ids, locale).await?
        }
        None => Default::default(),
    };
    let mut total = 0i64;
    let mut count = 0u32;
    let mut source_count = 0u64;
    let mut others: BTreeMap<Currency, i64> = BTreeMap::new();
    let mut groups: BTreeMap<String, Group> = BTreeMap::new();
    for s in sums.iter().filter(|s| s.counts_as(kind, a.category.is_some())) {
        let (spent, n) = amount(s);
        if n == 0 {
            continue;
        }
        source_count += n as u64;
        if s.currency != currency {
            *others.entry(s.currency).or_default() += spent;
            continue;
        }
        total = total.saturating_add(spent);
        count = count.saturating_add(u32::try_from(n).unwrap_or(u32::MAX));
        let Some((key, label)) = group_of(s, a.group_by, &names, locale) else { continue };
        let g = groups.entry(key.clone()).or_insert_with(|| Group {
            key,
            label,
            total: Money::new(0, currency),
            count: 0,
        });
        g.total.minor = g.total.minor.saturating_add(spent);
        g.count = g.count.saturating_add(u32::try_from(n).unwrap_or(u32::MAX));
    }
    let mut groups: Vec<Group> = groups.into_values().collect();
    // Months, weeks and days in date order, unless the largest are asked for ("my 3
    // most expensive months").
    if a.group_by.is_time() && a.top.is_none() {
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
    // The newest lines, shown and named as the first of the sources.
    let rows =
        summary_lines(PageCx { db: &mut *db, user, currency, locale, page: (SUMMARY_ROWS, 0) }, a, flow)
            .await?;
    let source_ids = rows.iter().map(|r| r.row.id).take(agent::SOURCE_PAGE).collect();
    let truncated = source_count > rows.len() as u64;
    let shown = rows.len();
    let transactions = in_groups(rows, a, &groups, locale);
    let truncated = truncated || transactions.len() < shown;
    Ok(SummaryResult {
        top: a.top.and_then(|n| u8::try_from(n).ok()),
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
        source_count,
    })
}

/// What a group without a name is called: lines with no merchant, or no category.
fn unnamed(group_by: GroupBy, locale: Locale) -> &'static str {
    match (group_by == GroupBy::Merchant, locale) {
        (true, Locale::Fr) => "Sans marchand",
        (true, Locale::En) => "No merchant",
        (false, Locale::Fr) => "Sans catégorie",
        (false, Locale::En) => "Uncategorised",
    }
}

/// The group a roll-up's sums go to, its key and label: a category, merchant or account
/// by name (the unnamed ones together), a month, a week or a day. `None`: no groups, or
/// a date that does not read.
fn group_of(
    s: &rollup::Sums,
    group_by: GroupBy,
    names: &std::collections::HashMap<i64, (String, String)>,
    locale: Locale,
) -> Option<(String, String)> {
    match group_by {
        GroupBy::None => None,
        GroupBy::Category | GroupBy::Merchant | GroupBy::Account => Some(match names.get(&s.id()) {
            Some((key, label)) => (key.clone(), label.clone()),
            None => (String::new(), unnamed(group_by, locale).to_string()),
        }),
        GroupBy::Month => {
            let first = Date::parse_iso(&format!("{}-01", s.group))?;
            Some((s.group.clone(), agent::wording::month_label(first, locale)))
        }
        GroupBy::Week | GroupBy::Day => {
            let (start, label) = Date::parse_iso(&s.group).and_then(|d| time_bucket(d, group_by, locale))?;
            Some((start.to_string(), label))
        }
    }
}

/// The lines a summary shows: under "top 5 merchants" (or categories), only the five's.
fn in_groups(
    rows: Vec<Row_>,
    a: &SummaryArgs,
    groups: &[Group],
    locale: Locale,
) -> Vec<agent::TransactionRow> {
    let ranked = a.top.is_some() && matches!(a.group_by, GroupBy::Category | GroupBy::Merchant);
    let in_top = |row: &agent::TransactionRow| {
        let name = match a.group_by {
            GroupBy::Merchant => row.merchant.as_deref(),
            _ => row.category.as_deref(),
        };
        groups.iter().any(|g| g.label == name.unwrap_or(unnamed(a.group_by, locale)))
    };
    rows.into_iter().map(|r| r.row).filter(|row| !ranked || in_top(row)).collect()
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
    cx: &mut RunCx<'_>,
    a: &agent::CompareArgs,
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
    let current = summary(cx, &args(&a.current), flow).await?;
    let reference = summary(cx, &args(&a.reference), flow).await?;
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

/// A list's label filter, `$11`: case-insensitive in both databases (SQLite's LIKE is,
/// PostgreSQL's is not). Without a label it only names its parameter: a condition on
/// the label would make every line of the period a read of its row, not of an index.
fn label(pattern: &Option<String>) -> &'static str {
    match pattern {
        Some(_) => "LOWER(t.raw_label) LIKE LOWER($11) ESCAPE '\\'",
        None => "CAST($11 AS TEXT) IS NULL",
    }
}

/// A list's filters, its label pattern, its direction and its order.
fn list_filters(a: &ListTransactionsArgs) -> (Filters<'_>, Option<String>, &'static str, &'static str) {
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
    let keys = [&a.category, &a.merchant, &a.account];
    let filters = Filters::of(&a.period, keys, a.amount_min, a.amount_max)
        .excluding(a.exclude_category.as_deref(), a.exclude_merchant.as_deref());
    (filters, pattern, direction, order)
}

/// The lines a list matches, in its order: `limit` of them after the first `offset`.
pub(super) async fn list_lines(
    db: &mut AnyConnection,
    user: UserId,
    a: &ListTransactionsArgs,
    currency: Currency,
    locale: Locale,
    (limit, offset): (usize, usize),
) -> Result<Vec<Row_>, BackendError> {
    let (filters, pattern, direction, order) = list_filters(a);
    let sql = lines_sql(&filters, &format!("{direction} AND {}", label(&pattern)), order, (limit, offset));
    let rows = filters.bind(&sql, user, currency)?.bind(pattern).fetch_all(&mut *db).await?;
    rows.iter().map(|r| decode(r, locale)).collect()
}

pub(super) async fn list_transactions(
    db: &mut AnyConnection,
    user: UserId,
    known: &Known,
    a: &ListTransactionsArgs,
    locale: Locale,
) -> Result<TransactionListResult, BackendError> {
    let Scope { category, merchant, account, currency } = scope(
        db,
        user,
        known,
        Names {
            category: a.category.as_deref(),
            merchant: a.merchant.as_deref(),
            account: a.account.as_deref(),
        },
        locale,
    )
    .await?;
    let excluded = excluded(
        db,
        user,
        known,
        [&a.exclude_category, &a.exclude_merchant],
        [&a.category, &a.merchant],
        locale,
    )
    .await?;
    let (filters, pattern, direction, _) = list_filters(a);
    // How many lines match and what they add up to (in the main currency); then the
    // first lines. Without a label to look for, the roll-up has the whole months.
    let (net, all) = match &pattern {
        None => {
            let sums = rollup::sums(db, user, &filters, currency, By::Nothing, true).await?;
            sums.iter().fold((0i64, 0i64), |(net, all), s| {
                let (sum, n) = match a.direction {
                    None => (s.debit.saturating_add(s.credit), s.lines),
                    Some(Direction::Debit) => (s.debit, s.debits),
                    Some(Direction::Credit) => (s.credit, s.credits),
                };
                let sum = if s.currency == currency { sum } else { 0 };
                (net.saturating_add(sum), all + n)
            })
        }
        Some(text) => {
            let condition = format!("{direction} AND {}", label(&pattern));
            let ((net, n), others) = totals(db, user, &filters, &condition, Some(text), currency).await?;
            (net, n + others.values().map(|(_, n)| n).sum::<i64>())
        }
    };
    let limit = a.limit as usize;
    let rows = list_lines(db, user, a, currency, locale, (limit.max(agent::SOURCE_PAGE), 0)).await?;
    let count = u32::try_from(all).unwrap_or(u32::MAX);
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
        truncated: count as usize > limit,
        net: Money::new(net, currency),
        source_ids: rows.iter().map(|r| r.row.id).take(agent::SOURCE_PAGE).collect(),
        transactions: rows.into_iter().take(limit).map(|r| r.row).collect(),
    })
}

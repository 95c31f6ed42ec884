//! `activity` on the server: the lines with a merchant, in a category or on an account
//! over a period, counted and added up in one pass, and the first, last and largest
//! read as lines.

use agent::runs::{Check, CheckCode};
use agent::tool::activity::{ActivityArgs, ActivityResult};
use agent::{Date, Direction, Money};

use super::{CheckCx, PageCx, RunCx};
use crate::error::BackendError;
use crate::tools::ledger::{div_round, lines_sql, scope, totals, Filters, Names, Row_, Scope};
use crate::tools::verify::{count_check, coverage, future_check, money, reread};

/// The side counted, on `t`.
fn side(a: &ActivityArgs) -> (Direction, &'static str) {
    match a.direction {
        Some(Direction::Credit) => (Direction::Credit, "AND t.amount_minor > 0"),
        _ => (Direction::Debit, "AND t.amount_minor < 0"),
    }
}

fn filters(a: &ActivityArgs) -> Filters<'_> {
    Filters::of(&a.period, [&a.category, &a.merchant, &a.account], None, None)
}

/// The lines counted, in the main currency, in `order`.
async fn lines(cx: PageCx<'_>, a: &ActivityArgs, order: &str) -> Result<Vec<Row_>, BackendError> {
    let filters = filters(a);
    let sql = lines_sql(&filters, &format!("{} AND t.currency = $11", side(a).1), order, cx.page);
    let rows = filters.bind(&sql, cx.user, cx.currency)?.bind(cx.currency.as_str()).fetch_all(&mut *cx.db).await?;
    rows.iter().map(|r| crate::tools::ledger::decode(r, cx.locale)).collect()
}

const NEWEST: &str = "t.date DESC, t.id DESC";
const OLDEST: &str = "t.date ASC, t.id ASC";
const LARGEST: &str = "ABS(t.amount_minor) DESC, t.date DESC, t.id DESC";

pub(in crate::tools) async fn run(cx: &mut RunCx<'_>, a: &ActivityArgs) -> Result<ActivityResult, BackendError> {
    let (db, user, locale) = (&mut *cx.db, cx.user, cx.locale);
    let Scope { category, merchant, account, currency } =
        scope(db, user, cx.known, Names { category: a.category.as_deref(), merchant: a.merchant.as_deref(), account: a.account.as_deref() }, locale).await?;
    let (direction, condition) = side(a);
    let condition = format!("{condition} AND CAST($11 AS TEXT) IS NULL");
    let ((sum, n), others) = totals(db, user, &filters(a), &condition, None, currency).await?;
    let first = lines(PageCx { db: &mut *db, user, currency, locale, page: (1, 0) }, a, OLDEST).await?;
    let largest = lines(PageCx { db: &mut *db, user, currency, locale, page: (1, 0) }, a, LARGEST).await?;
    let [first, largest] = [first, largest].map(|mut rows| rows.pop().map(|r| Box::new(r.row)));
    // The sources' first page, newest first: its first line is the last one.
    let page = PageCx { db: &mut *db, user, currency, locale, page: (agent::SOURCE_PAGE, 0) };
    let newest = lines(page, a, NEWEST).await?;
    let source_ids = newest.iter().map(|r| r.row.id).collect();
    let last = newest.into_iter().next().map(|r| Box::new(r.row));
    let total = sum.saturating_abs();
    let count = u32::try_from(n).unwrap_or(u32::MAX);
    let average = (n > 0).then(|| {
        let avg = div_round(i128::from(total), i128::from(n));
        Money::new(i64::try_from(avg).unwrap_or(i64::MAX), currency)
    });
    Ok(ActivityResult {
        period: a.period.clone(),
        category,
        merchant,
        account,
        direction,
        count,
        total: Money::new(total, currency),
        average,
        first,
        last,
        largest,
        other_currencies: others.into_iter().map(|(c, (s, _))| Money::new(s.saturating_abs(), c)).collect(),
        source_ids,
        source_count: u64::try_from(n).unwrap_or(0),
    })
}

/// The count against the ids carried; the first, last and largest in order and among
/// the lines counted; the average times the count is the total (to the rounding); the
/// first ids found again; none dated after today.
pub(in crate::tools) async fn checks(
    cx: &mut CheckCx<'_>,
    _: &ActivityArgs,
    r: &ActivityResult,
) -> Result<Vec<Check>, BackendError> {
    let (locale, today) = (cx.locale, cx.today);
    let mut checks = vec![coverage(&r.period, cx.span, today, locale)];
    let page = (r.count as usize).min(agent::SOURCE_PAGE);
    let ids_ok = r.source_ids.len() == page && u64::from(r.count) == r.source_count;
    checks.push(count_check(ids_ok, r.count, r.source_ids.len().max(r.count as usize), locale));
    let in_range = |d: Date| r.period.start <= d && d < r.period.end;
    let ends_ok = match (&r.first, &r.last, &r.largest) {
        (Some(f), Some(l), Some(big)) => {
            f.date <= l.date
                && [f, l, big].iter().all(|row| in_range(row.date))
                && big.amount.minor.saturating_abs() <= r.total.minor
                && r.source_ids.first() == Some(&l.id)
        }
        (None, None, None) => r.count == 0,
        _ => false,
    };
    let average = r.average.map_or(0, |m| m.minor);
    let spread = i64::from(r.count) / 2 + 1;
    let sum_ok = r.count == 0 || (average * i64::from(r.count) - r.total.minor).abs() <= spread;
    let text = locale.pick(
        format!(
            "{} opérations, {} en moyenne, {} en tout ; la première, la dernière et la plus grosse en font partie.",
            r.count,
            money(average, r.total.currency, locale),
            r.total.format(locale)
        ),
        format!(
            "{} transactions, {} on average, {} in all; the first, the last and the largest are among them.",
            r.count,
            money(average, r.total.currency, locale),
            r.total.format(locale)
        ),
    );
    checks.push(Check::of(ends_ok && sum_ok, CheckCode::TotalOfGroups, text));
    let rows = reread(cx.db, cx.user, &r.source_ids, locale, &mut checks).await?;
    let future = rows.iter().filter(|(d, _)| *d > today).count();
    checks.push(future_check(future as i64, locale));
    Ok(checks)
}

pub(in crate::tools) fn sources(r: &ActivityResult) -> (Vec<i64>, u64) {
    (r.source_ids.clone(), r.source_count)
}

pub(in crate::tools) fn rollup_months(_: &ActivityArgs) -> Option<(Date, Date)> {
    None
}

pub(in crate::tools) async fn source_page(cx: PageCx<'_>, a: &ActivityArgs) -> Result<Vec<Row_>, BackendError> {
    lines(cx, a, NEWEST).await
}

/// The amount the traces bucket ([`crate::trace::bucket`]).
pub(in crate::tools) fn headline(r: &ActivityResult) -> i64 {
    r.total.minor
}

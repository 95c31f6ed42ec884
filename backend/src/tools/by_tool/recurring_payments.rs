//! `recurring_payments` on the server (its detection is in `tools/recurring.rs`).

use agent::runs::{Check, CheckCode};
use agent::{Date, RecurringArgs, RecurringResult};

use super::{CheckCx, PageCx, RunCx};
use crate::error::BackendError;
use crate::tools::ledger::Row_;
use crate::tools::recurring::recurring_payments;
use crate::tools::verify::{coverage, future_check, money, reread};

pub(in crate::tools) async fn run(
    cx: &mut RunCx<'_>,
    a: &RecurringArgs,
) -> Result<RecurringResult, BackendError> {
    recurring_payments(cx.db, cx.user, cx.known, a, cx.locale).await
}

/// The payments' yearly costs add up; every payment found again; none after today.
pub(in crate::tools) async fn checks(
    cx: &mut CheckCx<'_>,
    _: &RecurringArgs,
    r: &RecurringResult,
) -> Result<Vec<Check>, BackendError> {
    let (locale, today) = (cx.locale, cx.today);
    let mut checks = vec![coverage(&r.period, cx.span, today, locale)];
    let yearly: i64 = r.items.iter().map(|i| i.yearly_cost.minor).sum();
    let shown = money(yearly, r.yearly_total.currency, locale);
    let text = locale.pick(
        format!("Somme des paiements par an : {shown}."),
        format!("Sum of the payments per year: {shown}."),
    );
    checks.push(Check::of(yearly == r.yearly_total.minor, CheckCode::TotalOfGroups, text));
    let (ids, _) = sources(r);
    let rows = reread(cx.db, cx.user, &ids, locale, &mut checks).await?;
    let future = rows.iter().filter(|(d, _)| *d > today).count();
    checks.push(future_check(future as i64, locale));
    Ok(checks)
}

/// Every payment of every series (a result holds them all).
pub(in crate::tools) fn sources(r: &RecurringResult) -> (Vec<i64>, u64) {
    let ids: Vec<i64> = r.items.iter().flat_map(|i| i.source_ids.iter().copied()).collect();
    let n = ids.len() as u64;
    (ids, n)
}

pub(in crate::tools) fn rollup_months(_: &RecurringArgs) -> Option<(Date, Date)> {
    None
}

/// Its sources are all in the result: no page past it.
pub(in crate::tools) async fn source_page(
    _: PageCx<'_>,
    _: &RecurringArgs,
) -> Result<Vec<Row_>, BackendError> {
    Ok(Vec::new())
}

/// The amount the traces bucket ([`crate::trace::bucket`]).
pub(in crate::tools) fn headline(r: &RecurringResult) -> i64 {
    r.monthly_total.minor
}

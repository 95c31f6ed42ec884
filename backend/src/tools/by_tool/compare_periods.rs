//! `compare_periods` on the server.

use agent::runs::{Check, CheckCode};
use agent::{CompareArgs, CompareResult, Date};

use super::{CheckCx, PageCx, RunCx};
use crate::error::BackendError;
use crate::tools::ledger::Row_;
use crate::tools::spending::compare;
use crate::tools::verify::coverage;

pub(in crate::tools) async fn run(
    cx: &mut RunCx<'_>,
    a: &CompareArgs,
) -> Result<CompareResult, BackendError> {
    compare(cx, a).await
}

/// Both periods covered; the difference is the one total minus the other.
pub(in crate::tools) async fn checks(
    cx: &mut CheckCx<'_>,
    _: &CompareArgs,
    r: &CompareResult,
) -> Result<Vec<Check>, BackendError> {
    let (locale, today) = (cx.locale, cx.today);
    let mut checks = vec![
        coverage(&r.current.period, cx.span, today, locale),
        coverage(&r.reference.period, cx.span, today, locale),
    ];
    let ok = r.difference.minor == r.current.total.minor - r.reference.total.minor;
    let (current, reference, difference) =
        (r.current.total.format(locale), r.reference.total.format(locale), r.difference.format(locale));
    let text = locale.pick(
        format!("Écart : {current} − {reference} = {difference}."),
        format!("Difference: {current} − {reference} = {difference}."),
    );
    checks.push(Check::of(ok, CheckCode::TotalOfGroups, text));
    Ok(checks)
}

/// Two totals: no transaction of their own.
pub(in crate::tools) fn sources(_: &CompareResult) -> (Vec<i64>, u64) {
    (Vec::new(), 0)
}

pub(in crate::tools) fn rollup_months(_: &CompareArgs) -> Option<(Date, Date)> {
    None
}

pub(in crate::tools) async fn source_page(_: PageCx<'_>, _: &CompareArgs) -> Result<Vec<Row_>, BackendError> {
    Ok(Vec::new())
}

/// The amount the traces bucket ([`crate::trace::bucket`]).
pub(in crate::tools) fn headline(r: &CompareResult) -> i64 {
    r.current.total.minor
}

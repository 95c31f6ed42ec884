//! `list_transactions` on the server.

use agent::runs::Check;
use agent::{Date, ListTransactionsArgs, TransactionListResult};

use super::{CheckCx, PageCx, RunCx};
use crate::error::BackendError;
use crate::tools::ledger::Row_;
use crate::tools::spending::{list_lines, list_transactions};
use crate::tools::verify::{count_check, coverage, future_check, reread};

pub(in crate::tools) async fn run(
    cx: &mut RunCx<'_>,
    a: &ListTransactionsArgs,
) -> Result<TransactionListResult, BackendError> {
    list_transactions(cx.db, cx.user, cx.known, a, cx.locale).await
}

/// Its count against the ids it carries, its first rows found again, none dated after
/// today.
pub(in crate::tools) async fn checks(
    cx: &mut CheckCx<'_>,
    _: &ListTransactionsArgs,
    r: &TransactionListResult,
) -> Result<Vec<Check>, BackendError> {
    let (locale, today) = (cx.locale, cx.today);
    let mut checks = vec![coverage(&r.period, cx.span, today, locale)];
    let page = (r.count as usize).min(agent::SOURCE_PAGE);
    let ok = r.source_ids.len() == page && r.transactions.len() <= r.count as usize;
    checks.push(count_check(ok, r.count, r.source_ids.len().max(r.count as usize), locale));
    let rows = reread(cx.db, cx.user, &r.source_ids, locale, &mut checks).await?;
    let future = rows.iter().filter(|(d, _)| *d > today).count();
    checks.push(future_check(future as i64, locale));
    Ok(checks)
}

pub(in crate::tools) fn sources(r: &TransactionListResult) -> (Vec<i64>, u64) {
    (r.source_ids.clone(), u64::from(r.count))
}

pub(in crate::tools) fn rollup_months(_: &ListTransactionsArgs) -> Option<(Date, Date)> {
    None
}

pub(in crate::tools) async fn source_page(
    cx: PageCx<'_>,
    a: &ListTransactionsArgs,
) -> Result<Vec<Row_>, BackendError> {
    list_lines(cx.db, cx.user, a, cx.currency, cx.locale, cx.page).await
}

/// The amount the traces bucket ([`crate::trace::bucket`]).
pub(in crate::tools) fn headline(r: &TransactionListResult) -> i64 {
    r.net.minor
}

//! `budget_status` on the server.

use agent::runs::{Check, CheckCode};
use agent::{BudgetArgs, BudgetStatusResult, Date};

use super::{CheckCx, PageCx, RunCx};
use crate::error::BackendError;
use crate::tools::flows::budget_status;
use crate::tools::ledger::Row_;
use crate::tools::verify::{coverage, money};

pub(in crate::tools) async fn run(
    cx: &mut RunCx<'_>,
    a: &BudgetArgs,
) -> Result<BudgetStatusResult, BackendError> {
    budget_status(cx.db, cx.user, cx.known, a, cx.locale, cx.today).await
}

/// The lines add up to the totals, and each line's remainder is its budget minus what
/// was spent.
pub(in crate::tools) async fn checks(
    cx: &mut CheckCx<'_>,
    _: &BudgetArgs,
    r: &BudgetStatusResult,
) -> Result<Vec<Check>, BackendError> {
    let locale = cx.locale;
    let mut checks = vec![coverage(&r.period, cx.span, cx.today, locale)];
    let budget: i64 = r.lines.iter().map(|l| l.budget.minor).sum();
    let spent: i64 = r.lines.iter().map(|l| l.spent.minor).sum();
    let lines_ok = r.lines.iter().all(|l| l.remaining.minor == l.budget.minor - l.spent.minor);
    let ok = budget == r.budget.minor && spent == r.spent.minor && lines_ok;
    let (budget, spent) = (money(budget, r.budget.currency, locale), money(spent, r.spent.currency, locale));
    let text = locale.pick(
        format!("Les lignes s'additionnent : budget {budget}, dépensé {spent}."),
        format!("The lines add up: budget {budget}, spent {spent}."),
    );
    checks.push(Check::of(ok, CheckCode::TotalOfGroups, text));
    Ok(checks)
}

/// Each category's budget: no transaction of its own.
pub(in crate::tools) fn sources(_: &BudgetStatusResult) -> (Vec<i64>, u64) {
    (Vec::new(), 0)
}

pub(in crate::tools) fn rollup_months(_: &BudgetArgs) -> Option<(Date, Date)> {
    None
}

pub(in crate::tools) async fn source_page(_: PageCx<'_>, _: &BudgetArgs) -> Result<Vec<Row_>, BackendError> {
    Ok(Vec::new())
}

/// The amount the traces bucket ([`crate::trace::bucket`]).
pub(in crate::tools) fn headline(r: &BudgetStatusResult) -> i64 {
    r.spent.minor
}

//! `balances` on the server.

use agent::runs::{Check, CheckCode};
use agent::{BalancesArgs, BalancesResult, Date, Money, Period};

use super::{CheckCx, PageCx, RunCx};
use crate::error::BackendError;
use crate::tools::flows::balances;
use crate::tools::ledger::Row_;
use crate::tools::verify::{coverage, money};

pub(in crate::tools) async fn run(
    cx: &mut RunCx<'_>,
    a: &BalancesArgs,
) -> Result<BalancesResult, BackendError> {
    balances(cx.db, cx.user, cx.known, a, cx.locale, cx.today).await
}

/// The day is covered; the accounts in the main currency add up to the total; the
/// others are said apart.
pub(in crate::tools) async fn checks(
    cx: &mut CheckCx<'_>,
    _: &BalancesArgs,
    r: &BalancesResult,
) -> Result<Vec<Check>, BackendError> {
    let locale = cx.locale;
    let mut checks = Vec::new();
    let day = Period { start: r.date, end: r.date.add_days(1), label: String::new(), words: String::new() };
    if cx.span.is_some_and(|(first, _)| r.date < first) {
        checks.push(coverage(&day, cx.span, cx.today, locale));
    }
    let sum: i64 =
        r.accounts.iter().filter(|a| a.balance.currency == r.total.currency).map(|a| a.balance.minor).sum();
    let text = locale.pick(
        format!("Somme des comptes : {}.", money(sum, r.total.currency, locale)),
        format!("Sum of the accounts: {}.", money(sum, r.total.currency, locale)),
    );
    checks.push(Check::of(sum == r.total.minor, CheckCode::TotalOfGroups, text));
    let apart: Vec<Money> =
        r.accounts.iter().filter(|a| a.balance.currency != r.total.currency).map(|a| a.balance).collect();
    if !apart.is_empty() {
        let listed = apart.iter().map(|m| m.format(locale)).collect::<Vec<_>>().join(", ");
        checks.push(Check::note(
            CheckCode::Currencies,
            locale.pick(
                format!("Hors du total, dans leur devise : {listed}."),
                format!("Not in the total, in their own currency: {listed}."),
            ),
        ));
    }
    Ok(checks)
}

/// Each account's balance: no transaction of its own.
pub(in crate::tools) fn sources(_: &BalancesResult) -> (Vec<i64>, u64) {
    (Vec::new(), 0)
}

pub(in crate::tools) fn rollup_months(_: &BalancesArgs) -> Option<(Date, Date)> {
    None
}

pub(in crate::tools) async fn source_page(
    _: PageCx<'_>,
    _: &BalancesArgs,
) -> Result<Vec<Row_>, BackendError> {
    Ok(Vec::new())
}

/// The amount the traces bucket ([`crate::trace::bucket`]).
pub(in crate::tools) fn headline(r: &BalancesResult) -> i64 {
    r.total.minor
}

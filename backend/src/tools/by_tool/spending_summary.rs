//! `spending_summary` on the server (its checks are shared with `income_summary`).

use agent::runs::{Check, CheckCode};
use agent::{Date, SummaryArgs, SummaryResult};

use super::{CheckCx, PageCx, RunCx};
use crate::error::BackendError;
use crate::tools::ledger::Row_;
use crate::tools::rollup::whole_months;
use crate::tools::spending::{summary, summary_from_rollup, summary_from_rows, summary_lines, Flow};
use crate::tools::verify::{after_today, coverage, currencies, future_check, money, reread};

pub(in crate::tools) async fn run(
    cx: &mut RunCx<'_>,
    a: &SummaryArgs,
) -> Result<SummaryResult, BackendError> {
    summary(cx, a, Flow::Out).await
}

pub(in crate::tools) async fn checks(
    cx: &mut CheckCx<'_>,
    a: &SummaryArgs,
    r: &SummaryResult,
) -> Result<Vec<Check>, BackendError> {
    summary_checks(cx, a, r, Flow::Out).await
}

/// A summary's ids and how many transactions it counted.
pub(in crate::tools) fn sources(r: &SummaryResult) -> (Vec<i64>, u64) {
    (r.source_ids.clone(), r.source_count)
}

/// The whole months of its period, when no bound on amounts rules out the roll-up.
pub(in crate::tools) fn rollup_months(a: &SummaryArgs) -> Option<(Date, Date)> {
    if a.amount_min.is_none() && a.amount_max.is_none() {
        whole_months(a.period.start, a.period.end)
    } else {
        None
    }
}

pub(in crate::tools) async fn source_page(
    cx: PageCx<'_>,
    a: &SummaryArgs,
) -> Result<Vec<Row_>, BackendError> {
    summary_lines(cx, a, Flow::Out).await
}

/// A summary's checks: its groups add up to its total, its total and count read again
/// from the rows (whole months already compared, from the roll-up), other currencies,
/// its first sources found again, nothing dated after today.
pub(in crate::tools) async fn summary_checks(
    cx: &mut CheckCx<'_>,
    a: &SummaryArgs,
    r: &SummaryResult,
    flow: Flow,
) -> Result<Vec<Check>, BackendError> {
    let (locale, today) = (cx.locale, cx.today);
    let pick = |fr: String, en: String| locale.pick(fr, en);
    let mut checks = vec![coverage(&r.period, cx.span, today, locale)];
    if !r.groups.is_empty() {
        let sum: i64 = r.groups.iter().map(|g| g.total.minor).sum();
        let count: u32 = r.groups.iter().map(|g| g.count).sum();
        let whole = a.top.is_none_or(|n| r.groups.len() < n as usize);
        let ok = if whole { sum == r.total.minor && count == r.count } else { sum <= r.total.minor };
        let text = pick(
            format!(
                "Somme des groupes : {} ; total : {}.",
                money(sum, r.total.currency, locale),
                r.total.format(locale)
            ),
            format!(
                "Sum of the groups: {}; total: {}.",
                money(sum, r.total.currency, locale),
                r.total.format(locale)
            ),
        );
        checks.push(Check::of(ok, CheckCode::TotalOfGroups, text));
    }
    // Read again from the rows themselves (the answer used the monthly roll-up); the
    // whole months whose roll-up was found equal to their rows, and has not changed
    // since, from the roll-up.
    let (db, user) = (&mut *cx.db, cx.user);
    let currency = r.total.currency;
    let ((sum, n), others) = match cx.checked {
        Some(months) => summary_from_rollup(db, user, a, flow, currency, months).await?,
        None => summary_from_rows(db, user, a, flow, currency, None).await?,
    };
    let shown = money(sum, currency, locale);
    let text = match cx.checked {
        Some(_) => pick(
            format!(
                "Relu dans vos opérations : {shown} sur {n} opérations ; les mois entiers d'après \
                 leur cumul, comparé à leurs opérations depuis leur dernier changement."
            ),
            format!(
                "Read again from your transactions: {shown} over {n} transactions; whole months \
                 from their roll-up, compared with their transactions since they last changed."
            ),
        ),
        None => pick(
            format!("Relu dans vos opérations : {shown} sur {n} opérations."),
            format!("Read again from your transactions: {shown} over {n} transactions."),
        ),
    };
    let ok = sum == r.total.minor && n == i64::from(r.count);
    checks.push(Check::of(ok, CheckCode::TotalOfSources, text));
    currencies(&others, &r.other_currencies, locale, &mut checks);
    reread(db, user, &r.source_ids, locale, &mut checks).await?;
    let future = match after_today(&a.period, today) {
        Some(later) => {
            let ((_, n), others) = summary_from_rows(db, user, a, flow, currency, Some(&later)).await?;
            n + others.values().map(|(_, n)| n).sum::<i64>()
        }
        None => 0,
    };
    checks.push(future_check(future, locale));
    Ok(checks)
}

/// The amount the traces bucket ([`crate::trace::bucket`]).
pub(in crate::tools) fn headline(r: &SummaryResult) -> i64 {
    r.total.minor
}

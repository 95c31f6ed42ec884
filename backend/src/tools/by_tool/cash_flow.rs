//! `cash_flow` on the server.

use agent::runs::{Check, CheckCode};
use agent::{CashFlowArgs, CashFlowResult, Date};

use super::{CheckCx, PageCx, RunCx};
use crate::error::BackendError;
use crate::tools::flows::{cash_flow, cash_flow_from_rows, cash_flow_lines};
use crate::tools::ledger::Row_;
use crate::tools::rollup::whole_months;
use crate::tools::verify::{coverage, future_check, money, reread};

pub(in crate::tools) async fn run(
    cx: &mut RunCx<'_>,
    a: &CashFlowArgs,
) -> Result<CashFlowResult, BackendError> {
    cash_flow(cx.db, cx.user, cx.known, a, cx.locale).await
}

/// In − out = net, the rows add up, in and out read again from the rows (whole months
/// already compared, from the roll-up), the first sources found again, none dated after
/// today.
pub(in crate::tools) async fn checks(
    cx: &mut CheckCx<'_>,
    a: &CashFlowArgs,
    r: &CashFlowResult,
) -> Result<Vec<Check>, BackendError> {
    let (locale, today) = (cx.locale, cx.today);
    let pick = |fr: String, en: String| locale.pick(fr, en);
    let mut checks = vec![coverage(&r.period, cx.span, today, locale)];
    let mut ok = r.net.minor == r.income.minor - r.spending.minor;
    if !r.rows.is_empty() {
        let income: i64 = r.rows.iter().map(|x| x.income.minor).sum();
        let spending: i64 = r.rows.iter().map(|x| x.spending.minor).sum();
        ok &= income == r.income.minor && spending == r.spending.minor;
    }
    let (inc, out, net) = (r.income.format(locale), r.spending.format(locale), r.net.format(locale));
    let text = pick(
        format!("Entrées {inc} − sorties {out} = {net} ; les lignes s'additionnent."),
        format!("Income {inc} − spending {out} = {net}; the rows add up."),
    );
    checks.push(Check::of(ok, CheckCode::TotalOfGroups, text));
    let currency = r.net.currency;
    let (income, spending, n) = cash_flow_from_rows(cx.db, cx.user, a, currency, cx.checked).await?;
    let (shown_in, shown_out) = (money(income, currency, locale), money(spending, currency, locale));
    let text = match cx.checked {
        Some(_) => pick(
            format!(
                "Relu dans vos opérations : entrées {shown_in}, sorties {shown_out}, sur {n} \
                 opérations ; les mois entiers d'après leur cumul, comparé à leurs opérations \
                 depuis leur dernier changement."
            ),
            format!(
                "Read again from your transactions: income {shown_in}, spending {shown_out}, over \
                 {n} transactions; whole months from their roll-up, compared with their \
                 transactions since they last changed."
            ),
        ),
        None => pick(
            format!(
                "Relu dans vos opérations : entrées {shown_in}, sorties {shown_out}, sur {n} opérations."
            ),
            format!(
                "Read again from your transactions: income {shown_in}, spending {shown_out}, over \
                 {n} transactions."
            ),
        ),
    };
    let ok = income == r.income.minor && spending == r.spending.minor && n == r.source_count;
    checks.push(Check::of(ok, CheckCode::TotalOfSources, text));
    let rows = reread(cx.db, cx.user, &r.source_ids, locale, &mut checks).await?;
    let future = rows.iter().filter(|(d, _)| *d > today).count();
    checks.push(future_check(future as i64, locale));
    Ok(checks)
}

pub(in crate::tools) fn sources(r: &CashFlowResult) -> (Vec<i64>, u64) {
    (r.source_ids.clone(), r.source_count)
}

pub(in crate::tools) fn rollup_months(a: &CashFlowArgs) -> Option<(Date, Date)> {
    whole_months(a.period.start, a.period.end)
}

pub(in crate::tools) async fn source_page(
    cx: PageCx<'_>,
    a: &CashFlowArgs,
) -> Result<Vec<Row_>, BackendError> {
    cash_flow_lines(cx.db, cx.user, a, cx.currency, cx.locale, cx.page).await
}

/// The amount the traces bucket ([`crate::trace::bucket`]).
pub(in crate::tools) fn headline(r: &CashFlowResult) -> i64 {
    r.net.minor
}

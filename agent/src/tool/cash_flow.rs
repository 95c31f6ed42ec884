//! `cash_flow`: money in, money out, the net and the savings rate over a period,
//! optionally per month, week or day.

use serde::{Deserialize, Serialize};

use super::{Filters, FiltersMut, Heading};
use crate::answer::percent;
use crate::json::{string, unit, Fields, Json, R};
use crate::args::ledger_args;
use crate::plan_json::period as read_period;
use super::Hide;
use crate::tools::EntityRef;
use crate::wording::group_label;
use crate::args::{GroupBy, Period};
use crate::locale::Locale;
use crate::money::Money;

ledger_args! {
    /// Arguments of `cash_flow`: money in, money out, the net and the savings rate over a
    /// period, optionally per month, week or day. Transfers between the user's own
    /// accounts count as neither.
    pub struct CashFlowArgs {
        pub period: Period,
        pub account?: String,
        /// `none`, `month`, `week` or `day`.
        #[serde(default)]
        pub group_by: GroupBy,
    }
}

/// Money in, money out and the net for one month, week or day.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CashFlowRow {
    /// The group's first day, ISO ("2026-01-01").
    pub key: String,
    pub label: String,
    pub income: Money,
    pub spending: Money,
    /// `income - spending`.
    pub net: Money,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CashFlowResult {
    pub period: Period,
    pub account: Option<EntityRef>,
    pub group_by: GroupBy,
    /// Money received (positive), transfers between own accounts excluded.
    pub income: Money,
    /// Money spent (positive), transfers between own accounts excluded.
    pub spending: Money,
    /// `income - spending`.
    pub net: Money,
    /// `net / income` in hundredths of a percent; absent when there was no income.
    pub savings_rate_basis_points: Option<i64>,
    /// In date order; empty unless `group_by` is a time group.
    pub rows: Vec<CashFlowRow>,
    /// The first [`crate::tools::SOURCE_PAGE`] transactions' ids, newest first.
    pub source_ids: Vec<i64>,
    /// How many transactions (in the main currency) the result counted.
    #[serde(default)]
    pub source_count: u64,
}

/// What the tool does, as the registry gives it to models and API clients.
pub const DESCRIPTION: &str = "Money in, money out, the net and the savings rate over a period, optionally \
     for one account and per month, week or day. Transfers between the user's own \
     accounts are neither; refunds lower spending.";

pub type Args = CashFlowArgs;
pub type Output = CashFlowResult;

pub(crate) const EXPECT: (&str, &str) = ("Entrées, sorties et solde", "Money in, out and the net");

pub(crate) fn read(json: &Json) -> R<CashFlowArgs> {
    let f = Fields::of(json, Some(&["period", "account", "group_by"]))?;
    Ok(CashFlowArgs {
        period: f.req("period", read_period)?,
        account: f.opt("account", string)?,
        group_by: f.or("group_by", unit, GroupBy::default)?,
    })
}

pub(crate) fn filters(a: &CashFlowArgs) -> Filters<'_> {
    Filters { period: Some(&a.period), account: a.account.as_deref(), ..Filters::default() }
}

pub(crate) fn filters_mut(a: &mut CashFlowArgs) -> FiltersMut<'_> {
    FiltersMut { period: Some(&mut a.period), account: Some(&mut a.account), ..FiltersMut::default() }
}

pub(crate) fn title(a: &CashFlowArgs, h: &Heading<'_>, locale: Locale) -> String {
    let base = h.with(locale.pick("Entrées et sorties", "Cash flow"), locale);
    if a.group_by.is_time() {
        format!("{base} ({})", group_label(a.group_by, locale))
    } else {
        base
    }
}

pub(crate) fn answer(r: &CashFlowResult, locale: Locale) -> String {
    let (inc, out, net) = (r.income.format(locale), r.spending.format(locale), r.net.format(locale));
    let net = if r.net.minor > 0 { format!("+{net}") } else { net };
    let period = &r.period.label;
    let rate = r.savings_rate_basis_points.map(|bp| percent(bp, locale));
    match (locale, rate) {
        (Locale::Fr, Some(rate)) => {
            format!("{period} : {inc} de revenus, {out} de dépenses, solde {net} — taux d'épargne {rate}.")
        }
        (Locale::Fr, None) => format!("{period} : aucun revenu, {out} de dépenses, solde {net}."),
        (Locale::En, Some(rate)) => {
            format!("{period}: {inc} in, {out} out, net {net} — savings rate {rate}.")
        }
        (Locale::En, None) => format!("{period}: no income, {out} out, net {net}."),
    }
}

pub(crate) fn period(r: &CashFlowResult) -> &Period {
    &r.period
}

/// No transaction id; the figures name no merchant.
pub(crate) fn redact(mut r: CashFlowResult, _: &Hide) -> CashFlowResult {
    r.source_ids.clear();
    r
}

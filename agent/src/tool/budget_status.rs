//! `budget_status`: each monthly budget against what was spent in its category.

use serde::{Deserialize, Serialize};

use super::{Filters, FiltersMut, Heading};
use crate::json::{string, Fields, Json, R};
use crate::args::ledger_args;
use crate::plan_json::period as read_period;
use super::Hide;
use crate::tools::EntityRef;
use crate::locale::Locale;
use crate::money::Money;
use crate::args::Period;

ledger_args! {
    /// Arguments of `budget_status`: each monthly budget against what was spent in its
    /// category over the period (whole months; a budget counts once per month).
    pub struct BudgetArgs {
        pub period: Period,
        pub category?: String,
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BudgetState {
    /// Under 80 % of the budget used.
    Ok,
    /// 80 % to 100 %.
    Warning,
    /// Over the budget.
    Over,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BudgetLine {
    pub category: EntityRef,
    /// The budget for the whole period (monthly amount × months).
    pub budget: Money,
    pub spent: Money,
    /// `budget - spent`; negative when over.
    pub remaining: Money,
    /// `spent / budget` in hundredths of a percent.
    pub used_basis_points: i64,
    pub state: BudgetState,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BudgetStatusResult {
    pub period: Period,
    /// Whole months the period covers (each month's budget counts once).
    pub months: u32,
    /// Most used first.
    pub lines: Vec<BudgetLine>,
    pub budget: Money,
    pub spent: Money,
    /// For a period that contains today: the share of it already elapsed, in
    /// hundredths of a percent, to compare with `used_basis_points`.
    pub elapsed_basis_points: Option<i64>,
}

/// What the tool does, as the registry gives it to models and API clients.
pub const DESCRIPTION: &str = "Each monthly budget (or one category's) against what was spent in its \
     category over the period, net of refunds: spent, remaining, share used and \
     state (ok, warning from 80 %, over).";

pub type Args = BudgetArgs;
pub type Output = BudgetStatusResult;

pub(crate) const EXPECT: (&str, &str) = ("L'état de chaque budget", "Where each budget stands");

pub(crate) fn read(json: &Json) -> R<BudgetArgs> {
    let f = Fields::of(json, Some(&["period", "category"]))?;
    Ok(BudgetArgs { period: f.req("period", read_period)?, category: f.opt("category", string)? })
}

pub(crate) fn filters(a: &BudgetArgs) -> Filters<'_> {
    Filters { period: Some(&a.period), category: a.category.as_deref(), ..Filters::default() }
}

pub(crate) fn filters_mut(a: &mut BudgetArgs) -> FiltersMut<'_> {
    FiltersMut { period: Some(&mut a.period), category: Some(&mut a.category), ..FiltersMut::default() }
}

pub(crate) fn title(_: &BudgetArgs, h: &Heading<'_>, locale: Locale) -> String {
    h.with(locale.pick("Suivi des budgets", "Budget status"), locale)
}

pub(crate) fn answer(r: &BudgetStatusResult, locale: Locale) -> String {
    let over: Vec<&str> =
        r.lines.iter().filter(|l| l.state == BudgetState::Over).map(|l| l.category.label.as_str()).collect();
    let (spent, budget) = (r.spent.format(locale), r.budget.format(locale));
    let period = &r.period.label;
    let mut s = match (locale, r.lines.as_slice()) {
        (Locale::Fr, [one]) => format!(
            "Budget {} — {period} : {spent} dépensés sur {budget}, reste {}.",
            one.category.label,
            one.remaining.format(locale)
        ),
        (Locale::En, [one]) => format!(
            "{} budget — {period}: {spent} spent of {budget}, {} left.",
            one.category.label,
            one.remaining.format(locale)
        ),
        (Locale::Fr, _) => format!("Budgets — {period} : {spent} dépensés sur {budget} prévus."),
        (Locale::En, _) => format!("Budgets — {period}: {spent} spent of {budget} planned."),
    };
    s.push_str(&match (locale, over.is_empty()) {
        (Locale::Fr, true) => " Aucun budget dépassé.".to_string(),
        (Locale::En, true) => " No budget exceeded.".to_string(),
        (Locale::Fr, false) => format!(" Dépassé : {}.", over.join(", ")),
        (Locale::En, false) => format!(" Over budget: {}.", over.join(", ")),
    });
    s
}

pub(crate) fn period(r: &BudgetStatusResult) -> &Period {
    &r.period
}

/// Nothing to hide: each category's budget names no merchant and carries no id.
pub(crate) fn redact(r: BudgetStatusResult, _: &Hide) -> BudgetStatusResult {
    r
}

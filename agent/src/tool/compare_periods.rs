//! `compare_periods`: the same total over two periods, and the change.

use serde::{Deserialize, Serialize};

use super::{Filters, FiltersMut, Heading};
use crate::answer::percent;
use crate::json::{string, unit, Fields, Json, R};
use crate::args::ledger_args;
use crate::plan_json::period as read_period;
use super::Hide;
use crate::tools::EntityRef;
use crate::args::{Flow, Period};
use crate::locale::Locale;
use crate::money::Money;

ledger_args! {
    /// Arguments of `compare_periods`: the same total over two periods.
    pub struct CompareArgs {
        #[serde(default)]
        pub flow: Flow,
        /// The period asked about.
        pub current: Period,
        /// The period it is compared with.
        pub reference: Period,
        [keys]
    }
}

/// One side of a comparison.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PeriodTotal {
    pub period: Period,
    pub total: Money,
    pub count: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CompareResult {
    pub flow: Flow,
    pub category: Option<EntityRef>,
    pub merchant: Option<EntityRef>,
    #[serde(default)]
    pub account: Option<EntityRef>,
    pub current: PeriodTotal,
    pub reference: PeriodTotal,
    /// `current - reference`.
    pub difference: Money,
    /// The change relative to `reference` in hundredths of a percent (1234 = +12.34 %);
    /// absent when the reference is zero.
    pub change_basis_points: Option<i64>,
}

/// What the tool does, as the registry gives it to models and API clients.
pub const DESCRIPTION: &str = "Spending or income over two periods (optionally for one category or merchant) \
     and the change between them, in money and in hundredths of a percent.";

pub type Args = CompareArgs;
pub type Output = CompareResult;

pub(crate) const EXPECT: (&str, &str) = ("Deux totaux et leur écart", "Two totals and their difference");

pub(crate) fn read(json: &Json) -> R<CompareArgs> {
    let f = Fields::of(json, Some(&["flow", "current", "reference", "category", "merchant", "account"]))?;
    Ok(CompareArgs {
        flow: f.or("flow", unit, Flow::default)?,
        current: f.req("current", read_period)?,
        reference: f.req("reference", read_period)?,
        category: f.opt("category", string)?,
        merchant: f.opt("merchant", string)?,
        account: f.opt("account", string)?,
    })
}

/// The period is the current one; the reference is read from the arguments.
pub(crate) fn filters(a: &CompareArgs) -> Filters<'_> {
    Filters {
        period: Some(&a.current),
        category: a.category.as_deref(),
        merchant: a.merchant.as_deref(),
        account: a.account.as_deref(),
        ..Filters::default()
    }
}

pub(crate) fn filters_mut(a: &mut CompareArgs) -> FiltersMut<'_> {
    FiltersMut {
        period: Some(&mut a.current),
        category: Some(&mut a.category),
        merchant: Some(&mut a.merchant),
        account: Some(&mut a.account),
        ..FiltersMut::default()
    }
}

pub(crate) fn title(a: &CompareArgs, h: &Heading<'_>, locale: Locale) -> String {
    let what = match (locale, a.flow) {
        (Locale::Fr, Flow::Spending) => "Dépenses",
        (Locale::Fr, Flow::Income) => "Revenus",
        (Locale::En, Flow::Spending) => "Spending",
        (Locale::En, Flow::Income) => "Income",
    };
    let vs = locale.pick("comparé à", "compared with");
    let period = h.period;
    match &h.filter {
        Some(f) => format!("{what} : {f} — {period} {vs} {}", a.reference.label),
        None => format!("{what} — {period} {vs} {}", a.reference.label),
    }
}

pub(crate) fn answer(r: &CompareResult, locale: Locale) -> String {
    let cur = r.current.total.format(locale);
    let refe = r.reference.total.format(locale);
    let diff = r.difference.format(locale);
    let diff = if r.difference.minor > 0 { format!("+{diff}") } else { diff };
    let change = r.change_basis_points.map(|bp| format!(" ({})", percent(bp, locale))).unwrap_or_default();
    let filter =
        r.merchant.as_ref().or(r.category.as_ref()).map(|e| format!(" — {}", e.label)).unwrap_or_default();
    let (a, b) = (&r.current.period.label, &r.reference.period.label);
    match (locale, r.flow) {
        (Locale::Fr, Flow::Spending) => {
            format!("Dépenses{filter} : {cur} ({a}) contre {refe} ({b}), soit {diff}{change}.")
        }
        (Locale::Fr, Flow::Income) => {
            format!("Revenus{filter} : {cur} ({a}) contre {refe} ({b}), soit {diff}{change}.")
        }
        (Locale::En, Flow::Spending) => {
            format!("Spending{filter}: {cur} ({a}) vs {refe} ({b}), a change of {diff}{change}.")
        }
        (Locale::En, Flow::Income) => {
            format!("Income{filter}: {cur} ({a}) vs {refe} ({b}), a change of {diff}{change}.")
        }
    }
}

pub(crate) fn period(r: &CompareResult) -> &Period {
    &r.current.period
}

/// With categories only, a merchant compared reads "a merchant".
pub(crate) fn redact(mut r: CompareResult, hide: &Hide) -> CompareResult {
    hide.merchant(&mut r.merchant);
    r
}

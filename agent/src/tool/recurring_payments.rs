//! `recurring_payments`: payments that repeat at a regular interval with a stable
//! amount (subscriptions, rent, bills).

use serde::{Deserialize, Serialize};

use super::{Filters, FiltersMut, Heading};
use crate::json::{string, Fields, Json, R};
use crate::args::ledger_args;
use crate::plan_json::period as read_period;
use super::Hide;
use crate::tools::EntityRef;
use crate::date::Date;
use crate::locale::Locale;
use crate::money::Money;
use crate::args::Period;

ledger_args! {
    /// Arguments of `recurring_payments`: payments that repeat at a regular interval with
    /// a stable amount (subscriptions, rent, bills), detected over the period.
    pub struct RecurringArgs {
        pub period: Period,
        pub category?: String,
        pub merchant?: String,
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Cadence {
    Weekly,
    Monthly,
    Quarterly,
    Yearly,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecurringItem {
    /// The merchant, when the payments have one.
    pub merchant: Option<EntityRef>,
    /// What the user sees: the merchant's name or the bank label.
    pub label: String,
    pub category: Option<EntityRef>,
    pub cadence: Cadence,
    /// The typical (median) payment, positive.
    pub amount: Money,
    pub count: u32,
    pub first_date: Date,
    pub last_date: Date,
    /// When the next payment is expected.
    pub next_date: Date,
    /// `amount` over a year at this cadence.
    pub yearly_cost: Money,
    pub source_ids: Vec<i64>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecurringResult {
    pub period: Period,
    pub category: Option<EntityRef>,
    pub merchant: Option<EntityRef>,
    /// Largest yearly cost first.
    pub items: Vec<RecurringItem>,
    /// Sum of the items' cost per month (yearly cost / 12).
    pub monthly_total: Money,
    pub yearly_total: Money,
}

/// What the tool does, as the registry gives it to models and API clients.
pub const DESCRIPTION: &str = "Payments that repeat weekly, monthly, quarterly or yearly with a stable \
     amount (subscriptions, rent, bills), found over the period, optionally for one \
     category or merchant: typical amount, next date, yearly cost.";

pub type Args = RecurringArgs;
pub type Output = RecurringResult;

pub(crate) const EXPECT: (&str, &str) = ("Les paiements réguliers", "The regular payments");

pub(crate) fn read(json: &Json) -> R<RecurringArgs> {
    let f = Fields::of(json, Some(&["period", "category", "merchant"]))?;
    Ok(RecurringArgs {
        period: f.req("period", read_period)?,
        category: f.opt("category", string)?,
        merchant: f.opt("merchant", string)?,
    })
}

pub(crate) fn filters(a: &RecurringArgs) -> Filters<'_> {
    Filters {
        period: Some(&a.period),
        category: a.category.as_deref(),
        merchant: a.merchant.as_deref(),
        ..Filters::default()
    }
}

pub(crate) fn filters_mut(a: &mut RecurringArgs) -> FiltersMut<'_> {
    FiltersMut {
        period: Some(&mut a.period),
        category: Some(&mut a.category),
        merchant: Some(&mut a.merchant),
        ..FiltersMut::default()
    }
}

pub(crate) fn title(_: &RecurringArgs, h: &Heading<'_>, locale: Locale) -> String {
    h.with(locale.pick("Paiements récurrents", "Recurring payments"), locale)
}

pub(crate) fn answer(r: &RecurringResult, locale: Locale) -> String {
    let n = r.items.len();
    let (monthly, yearly) = (r.monthly_total.format(locale), r.yearly_total.format(locale));
    match (locale, n) {
        (Locale::Fr, 0) => format!("Aucun paiement récurrent trouvé — {}.", r.period.label),
        (Locale::En, 0) => format!("No recurring payments found — {}.", r.period.label),
        (Locale::Fr, n) => {
            format!("{n} paiement(s) récurrent(s) : environ {monthly} par mois, soit {yearly} par an.")
        }
        (Locale::En, n) => format!("{n} recurring payment(s): about {monthly} a month, {yearly} a year."),
    }
}

pub(crate) fn period(r: &RecurringResult) -> &Period {
    &r.period
}

/// No transaction id; with categories only, each payment named by its category (or
/// "Paiement 2"), a merchant filter "a merchant".
pub(crate) fn redact(mut r: RecurringResult, hide: &Hide) -> RecurringResult {
    hide.merchant(&mut r.merchant);
    for (i, item) in r.items.iter_mut().enumerate() {
        item.source_ids.clear();
        if hide.categories {
            item.merchant = None;
            item.label = match &item.category {
                Some(c) => c.label.clone(),
                None => format!("{} {}", hide.locale.pick("Paiement", "Payment"), i + 1),
            };
        }
    }
    r
}

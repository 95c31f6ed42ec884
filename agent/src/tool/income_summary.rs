//! `income_summary`: money coming in over a period, with `spending_summary`'s arguments
//! and result.

use super::spending_summary::{average_title, SummaryArgs, SummaryResult};
use super::Heading;
use crate::answer::{average_sentence, left_out};
use crate::locale::Locale;

pub(crate) use super::spending_summary::{filters, filters_mut, period, read, redact};

/// What the tool does, as the registry gives it to models and API clients.
pub const DESCRIPTION: &str = "Money received (incoming transactions of income categories) over a period, \
     optionally for one category or payer, optionally grouped by category, payer \
     or month. Returns the total, groups, matching transactions and their ids.";

pub type Args = SummaryArgs;
pub type Output = SummaryResult;

pub(crate) const EXPECT: (&str, &str) = ("Un total de revenus", "An income total");

pub(crate) fn title(a: &SummaryArgs, h: &Heading<'_>, locale: Locale) -> String {
    if a.average.is_some() {
        return average_title(a, false, h, locale);
    }
    match (locale, &h.filter) {
        (Locale::Fr, Some(f)) => format!("Revenus : {f} — {}", h.period),
        (Locale::Fr, None) => format!("Revenus — {}", h.period),
        (Locale::En, Some(f)) => format!("Income: {f} — {}", h.period),
        (Locale::En, None) => format!("Income — {}", h.period),
    }
}

pub(crate) fn answer(r: &SummaryResult, locale: Locale) -> String {
    let total = r.total.format(locale);
    let filter = r.merchant.as_ref().or(r.category.as_ref()).map(|e| e.label.as_str());
    let period = &format!("{}{}", r.period.label, left_out(&r.excluded, locale));
    let n = r.count;
    let mut s = match (locale, filter) {
        (Locale::Fr, Some(f)) => format!("Vous avez reçu {total} ({f}) — {period}, en {n} versement(s)."),
        (Locale::Fr, None) => format!("Vous avez reçu {total} — {period}, en {n} versement(s)."),
        (Locale::En, Some(f)) => format!("You received {total} ({f}) — {period}, in {n} payment(s)."),
        (Locale::En, None) => format!("You received {total} — {period}, in {n} payment(s)."),
    };
    if let Some(a) = &r.average {
        s.push(' ');
        s.push_str(&average_sentence(a, locale));
    }
    s
}

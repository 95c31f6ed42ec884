//! `activity`: how often and since when — the transactions with a merchant, in a
//! category or on an account over a period: how many, what they add up to and on
//! average, the first, the last and the largest.

use serde::{Deserialize, Serialize};

use super::{Filters, FiltersMut, Heading};
use crate::json::{string, unit, Fields, Json, R};
use crate::args::ledger_args;
use crate::plan_json::period as read_period;
use super::Hide;
use crate::tools::{EntityRef, TransactionRow};
use crate::wording::day_label;
use crate::args::{Direction, Period};
use crate::locale::Locale;
use crate::money::Money;

ledger_args! {
    /// Arguments of `activity`: the transactions with a merchant, in a category or on an
    /// account over a period, counted, added up, and the first, last and largest.
    pub struct ActivityArgs {
        pub period: Period,
        [keys]
        /// `debit` (money going out, the default: "how many times at Carrefour") or
        /// `credit` (money coming in: "when was I last paid by Acme").
        pub direction?: Direction,
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActivityResult {
    pub period: Period,
    pub category: Option<EntityRef>,
    pub merchant: Option<EntityRef>,
    pub account: Option<EntityRef>,
    /// The side counted: `debit` unless the call asked for `credit`.
    pub direction: Direction,
    /// Transactions counted, in the ledger's main currency.
    pub count: u32,
    /// What they add up to, positive.
    pub total: Money,
    /// `total / count`, rounded half away from zero; absent when none.
    pub average: Option<Money>,
    /// The oldest, the newest and the largest of them (in the main currency); boxed,
    /// which keeps a result, and the stream's events, small.
    pub first: Option<Box<TransactionRow>>,
    pub last: Option<Box<TransactionRow>>,
    pub largest: Option<Box<TransactionRow>>,
    /// Amounts in other currencies, not converted and not counted above.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub other_currencies: Vec<Money>,
    /// The first [`crate::tools::SOURCE_PAGE`] transactions' ids, newest first.
    pub source_ids: Vec<i64>,
    /// How many transactions the result counted (in the main currency).
    pub source_count: u64,
}

/// What the tool does, as the registry gives it to models and API clients.
pub const DESCRIPTION: &str = "How often and since when: the transactions with a merchant, in a category or on \
     an account over a period (money going out unless direction is credit): how many, \
     their total and average, the first, the last and the largest. Only the ledger's \
     main currency is counted; other currencies are listed apart.";

pub type Args = ActivityArgs;
pub type Output = ActivityResult;

pub(crate) const EXPECT: (&str, &str) =
    ("Un nombre d'opérations, la première et la dernière", "A count of transactions, the first and the last");

pub(crate) fn read(json: &Json) -> R<ActivityArgs> {
    let f = Fields::of(json, Some(&["period", "category", "merchant", "account", "direction"]))?;
    Ok(ActivityArgs {
        period: f.req("period", read_period)?,
        category: f.opt("category", string)?,
        merchant: f.opt("merchant", string)?,
        account: f.opt("account", string)?,
        direction: f.opt("direction", unit)?,
    })
}

pub(crate) fn filters(a: &ActivityArgs) -> Filters<'_> {
    Filters {
        period: Some(&a.period),
        category: a.category.as_deref(),
        merchant: a.merchant.as_deref(),
        account: a.account.as_deref(),
        ..Filters::default()
    }
}

pub(crate) fn filters_mut(a: &mut ActivityArgs) -> FiltersMut<'_> {
    FiltersMut {
        period: Some(&mut a.period),
        category: Some(&mut a.category),
        merchant: Some(&mut a.merchant),
        account: Some(&mut a.account),
        ..FiltersMut::default()
    }
}

pub(crate) fn title(a: &ActivityArgs, h: &Heading<'_>, locale: Locale) -> String {
    let what = match (a.direction, locale) {
        (Some(Direction::Credit), Locale::Fr) => "Activité (crédits)",
        (Some(Direction::Credit), Locale::En) => "Activity (money in)",
        (_, Locale::Fr) => "Activité",
        (_, Locale::En) => "Activity",
    };
    h.with(what, locale)
}

pub(crate) fn answer(r: &ActivityResult, locale: Locale) -> String {
    let credit = r.direction == Direction::Credit;
    let place = match (&r.merchant, &r.category, &r.account, locale, credit) {
        (Some(m), _, _, Locale::Fr, false) => format!(" chez {}", m.label),
        (Some(m), _, _, Locale::Fr, true) => format!(" de {}", m.label),
        (Some(m), _, _, Locale::En, false) => format!(" at {}", m.label),
        (Some(m), _, _, Locale::En, true) => format!(" from {}", m.label),
        (None, Some(c), _, Locale::Fr, _) => format!(" en {}", c.label),
        (None, Some(c), _, Locale::En, _) => format!(" in {}", c.label),
        (None, None, Some(a), Locale::Fr, _) => format!(" sur {}", a.label),
        (None, None, Some(a), Locale::En, _) => format!(" on {}", a.label),
        (None, None, None, _, _) => String::new(),
    };
    let period = &r.period.label;
    let what = match (locale, credit, r.count) {
        (Locale::Fr, false, 1) => "1 dépense".to_string(),
        (Locale::Fr, false, n) => format!("{n} dépenses"),
        (Locale::Fr, true, 1) => "1 entrée d'argent".to_string(),
        (Locale::Fr, true, n) => format!("{n} entrées d'argent"),
        (Locale::En, false, 1) => "1 payment".to_string(),
        (Locale::En, false, n) => format!("{n} payments"),
        (Locale::En, true, 1) => "1 credit".to_string(),
        (Locale::En, true, n) => format!("{n} credits"),
    };
    let (Some(first), Some(last), Some(largest), Some(average)) = (&r.first, &r.last, &r.largest, r.average) else {
        return match locale {
            Locale::Fr => format!("Aucune opération{place} — {period}."),
            Locale::En => format!("No transactions{place} — {period}."),
        };
    };
    let (total, average) = (r.total.format(locale), average.format(locale));
    let day = |row: &TransactionRow| day_label(row.date, locale);
    let biggest = Money::new(largest.amount.minor.saturating_abs(), largest.amount.currency).format(locale);
    match locale {
        Locale::Fr => format!(
            "{what}{place} — {period}, pour {total} ({average} en moyenne) ; la première le {}, la dernière le {}, \
             la plus grosse {biggest} le {}.",
            day(first),
            day(last),
            day(largest)
        ),
        Locale::En => format!(
            "{what}{place} — {period}, {total} in all ({average} on average); the first on {}, the last on {}, \
             the largest {biggest} on {}.",
            day(first),
            day(last),
            day(largest)
        ),
    }
}

pub(crate) fn period(r: &ActivityResult) -> &Period {
    &r.period
}

/// No transaction id; with categories only, each row named by its category and a
/// merchant asked about "a merchant".
pub(crate) fn redact(mut r: ActivityResult, hide: &Hide) -> ActivityResult {
    r.source_ids.clear();
    hide.merchant(&mut r.merchant);
    for row in [&mut r.first, &mut r.last, &mut r.largest].into_iter().flatten() {
        hide.rows(std::slice::from_mut(&mut **row));
    }
    r
}

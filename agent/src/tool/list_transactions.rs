//! `list_transactions`: the transactions of a period, newest or largest first.

use serde::{Deserialize, Serialize};

use super::{Filters, FiltersMut, Heading};
use crate::answer::left_out;
use crate::json::{string, u32_, unit, Fields, Json, R};
use crate::args::ledger_args;
use crate::plan_json::{money, period as read_period};
use super::Hide;
use crate::tools::{EntityRef, TransactionRow};
use crate::args::{Direction, ListOrder, Period, DEFAULT_LIST_LIMIT};
use crate::locale::Locale;
use crate::money::Money;

ledger_args! {
    /// Arguments of `list_transactions`: the transactions of a period, newest first.
    pub struct ListTransactionsArgs {
        pub period: Period,
        [keys]
        /// Only money going out (`debit`) or coming in (`credit`: refunds, salary…).
        pub direction?: Direction,
        [amounts]
        [exclude]
        /// Case- and accent-insensitive substring of the bank label.
        pub text?: String,
        /// `newest` first (the default) or `largest` amounts first ("my biggest expenses").
        #[serde(default, skip_serializing_if = "ListOrder::is_newest")]
        pub order: ListOrder,
        #[serde(default = "default_limit")]
        pub limit: u32,
    }
}

fn default_limit() -> u32 {
    DEFAULT_LIST_LIMIT
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TransactionListResult {
    pub period: Period,
    pub category: Option<EntityRef>,
    pub merchant: Option<EntityRef>,
    #[serde(default)]
    pub account: Option<EntityRef>,
    /// The merchant and the category left out.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub excluded: Vec<EntityRef>,
    #[serde(default)]
    pub direction: Option<Direction>,
    /// Newest first, or largest amounts first.
    #[serde(default)]
    pub order: ListOrder,
    pub text: Option<String>,
    /// Number of matching transactions, even beyond `limit`.
    pub count: u32,
    pub transactions: Vec<TransactionRow>,
    pub truncated: bool,
    /// Net sum of the matching transactions (signed), in the main currency.
    pub net: Money,
    /// The first [`crate::tools::SOURCE_PAGE`] matching transactions' ids, in the list's order.
    pub source_ids: Vec<i64>,
}

/// What the tool does, as the registry gives it to models and API clients.
pub const DESCRIPTION: &str = "Transactions of a period, newest first, optionally filtered by category, \
     merchant, account, direction (debit or credit) or label text. Returns the \
     rows, their count and net sum.";

pub type Args = ListTransactionsArgs;
pub type Output = TransactionListResult;

pub(crate) const EXPECT: (&str, &str) = ("Une liste d'opérations", "A list of transactions");

const FIELDS: &[&str] = &[
    "period",
    "category",
    "merchant",
    "account",
    "direction",
    "amount_min",
    "amount_max",
    "exclude_category",
    "exclude_merchant",
    "text",
    "order",
    "limit",
];

pub(crate) fn read(json: &Json) -> R<ListTransactionsArgs> {
    let f = Fields::of(json, Some(FIELDS))?;
    Ok(ListTransactionsArgs {
        period: f.req("period", read_period)?,
        category: f.opt("category", string)?,
        merchant: f.opt("merchant", string)?,
        account: f.opt("account", string)?,
        direction: f.opt("direction", unit)?,
        amount_min: f.opt("amount_min", money)?,
        amount_max: f.opt("amount_max", money)?,
        exclude_category: f.opt("exclude_category", string)?,
        exclude_merchant: f.opt("exclude_merchant", string)?,
        text: f.opt("text", string)?,
        order: f.or("order", unit, ListOrder::default)?,
        limit: f.or("limit", u32_, || DEFAULT_LIST_LIMIT)?,
    })
}

pub(crate) fn filters(a: &ListTransactionsArgs) -> Filters<'_> {
    Filters {
        period: Some(&a.period),
        category: a.category.as_deref(),
        merchant: a.merchant.as_deref(),
        account: a.account.as_deref(),
        exclude_category: a.exclude_category.as_deref(),
        exclude_merchant: a.exclude_merchant.as_deref(),
        amount_min: a.amount_min,
        amount_max: a.amount_max,
    }
}

pub(crate) fn filters_mut(a: &mut ListTransactionsArgs) -> FiltersMut<'_> {
    FiltersMut {
        period: Some(&mut a.period),
        category: Some(&mut a.category),
        merchant: Some(&mut a.merchant),
        account: Some(&mut a.account),
        excluded: Some((&mut a.exclude_category, &mut a.exclude_merchant)),
        amounts: Some((&mut a.amount_min, &mut a.amount_max)),
        written_category: None,
    }
}

pub(crate) fn title(a: &ListTransactionsArgs, h: &Heading<'_>, locale: Locale) -> String {
    let (filter, period) = (&h.filter, h.period);
    match (locale, a.direction, filter) {
        (_, Some(Direction::Credit), _) => {
            h.with(locale.pick("Crédits et remboursements", "Credits and refunds"), locale)
        }
        (_, Some(Direction::Debit), _) => h.with(locale.pick("Débits", "Debits"), locale),
        (Locale::Fr, None, Some(f)) => format!("Opérations : {f} — {period}"),
        (Locale::Fr, None, None) => format!("Toutes les opérations — {period}"),
        (Locale::En, None, Some(f)) => format!("Transactions: {f} — {period}"),
        (Locale::En, None, None) => format!("All transactions — {period}"),
    }
}

pub(crate) fn answer(r: &TransactionListResult, locale: Locale) -> String {
    if r.order == ListOrder::Largest {
        let shown = r.transactions.len();
        let top = r.transactions.first().map(|t| (t.amount.format(locale), t.label.as_str()));
        return match (locale, top) {
            (Locale::Fr, None) => format!("Aucune opération — {}.", r.period.label),
            (Locale::En, None) => format!("No transactions — {}.", r.period.label),
            (Locale::Fr, Some((amount, label))) => format!(
                "Les {shown} plus grosses opérations sur {} — {} ; la première : {label}, {amount}.",
                r.count, r.period.label
            ),
            (Locale::En, Some((amount, label))) => format!(
                "The {shown} largest of {} transactions — {}; the largest: {label}, {amount}.",
                r.count, r.period.label
            ),
        };
    }
    let shown = r.transactions.len();
    let net = r.net.format(locale);
    let (n, period) = (r.count, format!("{}{}", r.period.label, left_out(&r.excluded, locale)));
    match (locale, r.truncated) {
        (Locale::Fr, false) => format!("{n} opération(s) — {period}, solde net {net}."),
        (Locale::Fr, true) => {
            format!("{n} opérations — {period} ; les {shown} plus récentes sont affichées. Solde net {net}.")
        }
        (Locale::En, false) => format!("{n} transaction(s) — {period}, net {net}."),
        (Locale::En, true) => {
            format!("{n} transactions — {period}; showing the {shown} most recent. Net {net}.")
        }
    }
}

pub(crate) fn period(r: &TransactionListResult) -> &Period {
    &r.period
}

/// No id; with categories only, each line named by its category, no merchant, no text.
pub(crate) fn redact(mut r: TransactionListResult, hide: &Hide) -> TransactionListResult {
    hide.rows(&mut r.transactions);
    r.source_ids.clear();
    hide.merchant(&mut r.merchant);
    hide.excluded(&mut r.excluded);
    if hide.categories {
        r.text = None;
    }
    r
}

//! Words that point at a tool without asking it: an intent keyword misspelt ("budjet"),
//! and the topic a clarification offers first.

use super::Kind;
use crate::parser::lexicon::{
    changes_meaning, is_balance_word, is_budget_word, is_cash_flow_word, is_income_word, is_recurring_word,
    is_spend_word, is_stopword, is_subscription_word,
};
use crate::text::{edit_distance, Token};

/// The words that say what to compute, for one-letter typos ("budjet", "depnses").
const INTENT_KEYWORDS: &[(&str, Kind)] = &[
    ("solde", Kind::Balance),
    ("soldes", Kind::Balance),
    ("balance", Kind::Balance),
    ("budget", Kind::Budget),
    ("budgets", Kind::Budget),
    ("prelevements", Kind::Recurring),
    ("recurrents", Kind::Recurring),
    ("recurring", Kind::Recurring),
    ("tresorerie", Kind::CashFlow),
    ("depenses", Kind::Spending),
    ("depense", Kind::Spending),
    ("spending", Kind::Spending),
    ("expenses", Kind::Spending),
    ("revenus", Kind::Income),
    ("income", Kind::Income),
    ("transactions", Kind::List),
    ("operations", Kind::List),
];

/// A word one typo away from an intent keyword (same first letter, five letters or more).
pub(super) fn fuzzy_intent_word(w: &str) -> Option<(Kind, &'static str)> {
    // "solve" is not "solde".
    if w.chars().count() < 5 || is_stopword(w) || changes_meaning(w) {
        return None;
    }
    INTENT_KEYWORDS
        .iter()
        .find(|(k, _)| k.chars().next() == w.chars().next() && edit_distance(w, k, 1) <= 1)
        .map(|(k, kind)| (*kind, *k))
}

/// The tool a message's words point at when it asks nothing Sou can compute, so that a
/// clarification offers it first: "comment réduire mes abonnements ?" → the recurring
/// payments, "est-ce que je suis à découvert" → the balances, "mes économies" → cash
/// flow. Only orders suggestions; it never makes a plan.
pub(crate) fn topic(tokens: &[Token]) -> Option<Kind> {
    tokens.iter().find_map(|t| {
        let w = t.norm.as_str();
        if is_subscription_word(w)
            || is_recurring_word(w)
            || matches!(w, "resilier" | "cancel" | "unsubscribe")
        {
            Some(Kind::Recurring)
        } else if is_budget_word(w) {
            Some(Kind::Budget)
        } else if is_balance_word(w) || matches!(w, "decouvert" | "overdraft" | "overdrawn") {
            Some(Kind::Balance)
        } else if is_cash_flow_word(w)
            || matches!(
                w,
                "epargne" | "epargner" | "economies" | "economiser" | "savings" | "save" | "saving"
            )
        {
            Some(Kind::CashFlow)
        } else if is_income_word(w) {
            Some(Kind::Income)
        } else if is_spend_word(w) {
            Some(Kind::Spending)
        } else {
            None
        }
    })
}

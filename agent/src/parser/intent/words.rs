//! Words that point at a tool without asking it: an intent keyword misspelt ("budjet"),
//! and the topic a clarification offers first; the two sides of the ledger, and one
//! turned down ("not the refunds").

use super::Kind;
use crate::args::Direction;
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

/// Words for money that came in, and for money that went out.
pub(super) const CREDIT_SIDE: &[&str] =
    &["refunds", "refund", "remboursements", "remboursement", "credits", "credit", "rentrees", "entrees"];
pub(super) const DEBIT_SIDE: &[&str] = &[
    "debits",
    "debit",
    "depenses",
    "spending",
    "expenses",
    "sorties",
    "achats",
    "purchases",
    "paiements",
    "payments",
];

/// "not the refunds", "pas les dépenses", "no refunds": a negation, then one side of
/// the ledger — the other side, and the last token used.
pub(super) fn side_turned_down(tokens: &[Token], used: &[bool], i: usize) -> Option<(Direction, usize)> {
    let w = |j: usize| tokens.get(j).filter(|_| !used[j]).map(|t| t.norm.as_str());
    if !matches!(w(i)?, "not" | "pas" | "no" | "sans" | "hors" | "without" | "excluding" | "minus") {
        return None;
    }
    let mut j = i + 1;
    while matches!(w(j), Some("the" | "les" | "des" | "de" | "d" | "l" | "any")) {
        j += 1;
    }
    let side = w(j)?;
    let other = if CREDIT_SIDE.contains(&side) {
        Direction::Debit
    } else if DEBIT_SIDE.contains(&side) {
        Direction::Credit
    } else {
        return None;
    };
    Some((other, j))
}

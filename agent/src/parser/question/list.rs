//! A list of transactions asked by a new question: its label text, its side (money in
//! or out), its order and its length.

use super::{Question, Signals};
use crate::parser::intent::{DEFAULT_LARGEST, DEFAULT_LATEST};
use crate::text::Token;
use crate::tool::list_transactions::ListTransactionsArgs;

/// Whether the word at `j` says money came in: "incoming", "entrants", "I got".
fn says_incoming(tokens: &[Token], j: usize) -> bool {
    matches!(tokens[j].norm.as_str(), "incoming" | "entrants" | "entrantes")
        || (tokens[j].norm == "got" && j > 0 && matches!(tokens[j - 1].norm.as_str(), "i" | "we"))
}

/// Whether the words say money was received: "from" someone, "reçu", "versement",
/// "incoming".
fn says_received(tokens: &[Token]) -> bool {
    // ("the EDF payments from 2025": "from" a date is the period.)
    tokens.iter().enumerate().any(|(j, t)| {
        let dated = tokens.get(j + 1).is_some_and(|n| {
            n.kind == crate::text::TokenKind::Number
                || crate::period::is_time_word(n)
                || matches!(n.norm.as_str(), "last" | "this")
        });
        // ("apart from the ones at Carrefour": left out, not received.)
        let apart = cfg!(feature = "readings")
            && j > 0
            && matches!(tokens[j - 1].norm.as_str(), "apart" | "aside" | "away");
        (t.norm == "from" && !dated && !apart)
            || matches!(t.norm.as_str(), "recu" | "recus" | "received" | "verse" | "versement" | "versements")
            || says_incoming(tokens, j)
    })
}

/// Whether a word says money was paid or spent: "payment", "payé", "spent", "prélevé".
fn says_paid(tokens: &[Token]) -> bool {
    tokens.iter().any(|t| {
        matches!(
            t.norm.as_str(),
            "payment"
                | "paiement"
                | "payments"
                | "paiements"
                | "paye"
                | "pay"
                | "paid"
                | "spent"
                | "spending"
                | "expenses"
                | "depenses"
                | "depense"
                | "charges"
                | "charged"
                | "debited"
                | "preleve"
                | "prelevee"
                | "preleves"
                | "prelevees"
        )
    })
}

impl Question<'_> {
    /// The list's label text, its side when the words say money in or out, and its
    /// order and length for the largest or the latest.
    pub(super) fn fill_list(&self, a: &mut ListTransactionsArgs, text: Option<String>, signals: &Signals) {
        let (intent, tokens) = (self.intent, self.tokens);
        a.text = text;
        // "my deliveroo orders", "what did I buy", "mes dépenses de plus de 100 €":
        // money that went out.
        // "my last Airbnb payment": paid, unless received ("the last payment from ACME").
        // "my incoming payments", "the payments I got": money in — credits.
        if a.direction.is_none() && (0..tokens.len()).any(|j| says_incoming(tokens, j)) {
            a.direction = Some(crate::args::Direction::Credit);
        }
        let paid = !says_received(tokens) && says_paid(tokens);
        // ("my salary payments": an income category's lines, received.)
        let income_category = a.category.as_ref().is_some_and(|k| self.parser.vocab.category_is(k, "income"));
        if a.direction.is_none() && (signals.items || signals.bought || paid) && !income_category {
            a.direction = Some(crate::args::Direction::Debit);
        }
        if intent.largest {
            a.order = crate::args::ListOrder::Largest;
            a.limit = intent.limit.unwrap_or(DEFAULT_LARGEST);
        } else if intent.latest {
            a.limit = intent.limit.unwrap_or(DEFAULT_LATEST);
        }
    }
}

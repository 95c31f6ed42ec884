//! Amounts and money's direction said two ways: a threshold said of where one stands,
//! a year that may be an amount, one payment or the first few, money received or moved.

use super::super::Question;
use crate::parser::lexicon::is_spend_word;
use crate::tool::ToolCall;

impl Question<'_> {
    /// An amount said of where one stands ("am I over 300 on groceries", "j'en suis à
    /// plus de 200 en restos ?", "groceries this month, over 300?"): the total against
    /// it, not the payments above it — unless the words bound payments ("purchases
    /// over 100", "les achats de plus de 50 €").
    pub(super) fn total_against_amount(&self, call: &ToolCall) -> Option<String> {
        use crate::parser::lexicon::{is_item_noun, is_transaction_word};
        if call.amounts() == (None, None)
            || !matches!(
                call,
                ToolCall::SpendingSummary(_) | ToolCall::IncomeSummary(_) | ToolCall::ListTransactions(_)
            )
        {
            return None;
        }
        let pairs = [
            ("am", "i"),
            ("are", "we"),
            ("suis", "je"),
            ("je", "suis"),
            ("en", "suis"),
            ("en", "est"),
            ("on", "est"),
            ("ca", "fait"),
            ("ca", "depasse"),
        ];
        let standing = (0..self.tokens.len()).find(|&i| pairs.contains(&(self.w(i), self.w(i + 1))));
        if let Some(i) = standing {
            return Some(self.span(i, i + 1));
        }
        // ("is uber over 100 this month", "mes dépenses sont au-dessus de 2000 ?": a yes
        // or no about the total.)
        let asked = self.message.trim_end().ends_with('?');
        if matches!(self.w(0), "is" | "are" | "was" | "were") {
            return Some(self.span(0, 0));
        }
        let comparator = |w: &str| {
            matches!(
                w,
                "over"
                    | "under"
                    | "above"
                    | "below"
                    | "more"
                    | "less"
                    | "least"
                    | "plus"
                    | "moins"
                    | "dessus"
                    | "dessous"
                    | "superieur"
                    | "superieure"
                    | "superieures"
                    | "superieurs"
                    | "inferieur"
                    | "inferieure"
                    | "inferieures"
                    | "inferieurs"
            )
        };
        let k = (0..self.tokens.len()).find(|&i| comparator(self.w(i)))?;
        let lines = |w: &str| {
            is_item_noun(w)
                || is_transaction_word(w)
                || matches!(
                    w,
                    "ones"
                        | "celles"
                        | "ceux"
                        | "lines"
                        | "lignes"
                        | "everything"
                        | "tout"
                        | "anything"
                        | "items"
                        | "articles"
                )
        };
        if asked && (k.saturating_sub(3)..k).any(|j| matches!(self.w(j), "sont" | "est")) {
            return Some(self.span(k, k));
        }
        // ("how much did I spend on shopping above 1.5k": spent in payments above it —
        // unless said after a comma: "…ce mois, plus de 300 ?".)
        let afterthought = (k.saturating_sub(2)..=k).any(|j| self.gap_holds(j, &[',', '-', '(', '?']));
        let spent = (0..k).any(|j| is_spend_word(self.w(j)));
        let of_lines = (k.saturating_sub(6)..k).any(|j| lines(self.w(j))) || (spent && !afterthought);
        let total = matches!(call, ToolCall::SpendingSummary(_) | ToolCall::IncomeSummary(_));
        (total && !of_lines).then(|| self.span(k, k))
    }
}

impl Question<'_> {
    /// "transactions of 2000 euros", "budget voyages 2000 €": a number that reads as a
    /// year, with money's words beside it or long before any statement.
    pub(super) fn year_or_amount(&self, call: &ToolCall) -> Option<String> {
        use crate::token::TokenKind;
        let money = |j: usize| {
            self.tokens.get(j).is_some_and(|t| t.kind == TokenKind::Currency)
                || crate::amount::is_currency_word(self.w(j))
        };
        (0..self.tokens.len()).find_map(|i| {
            let t = &self.tokens[i];
            let year = t.kind == TokenKind::Number
                && t.norm.len() == 4
                && t.norm.parse::<u32>().is_ok_and(|y| (1990..=2100).contains(&y));
            // ("do I have 2000 on my account", "budget voyages 2000": a year long before
            // any bank export — an amount, more likely.)
            let long_ago = t.norm.parse::<i32>().is_ok_and(|y| y < self.cx.today.year() - 10);
            let of_period = call.period().is_some_and(|p| p.words.contains(t.norm.as_str()));
            (year && of_period && (money(i + 1) || (i > 0 && money(i - 1)) || long_ago))
                .then(|| self.span(i, i))
        })
    }
}

impl Question<'_> {
    /// "my biggest trip", "mon plus gros uber", "ma plus grosse course": a name in the
    /// singular after the marker — the one payment, or the first few?
    pub(super) fn one_or_several(&self, call: &ToolCall) -> Option<String> {
        // (The list's order and length are filled in later: the words say them.)
        let one = self.intent.limit.is_some_and(|n| n != crate::parser::intent::DEFAULT_LARGEST);
        if !matches!(call, ToolCall::ListTransactions(_)) || !self.intent.largest || one {
            return None;
        }
        (0..self.tokens.len()).find_map(|i| {
            let marker = match (self.w(i), self.w(i + 1)) {
                ("biggest" | "largest", _) => 1,
                ("most", "expensive") | ("plus", "gros" | "grosse" | "cher" | "chere") => 2,
                _ => return None,
            };
            // ("the 5 biggest amazon orders": counted; "my biggest uber ride": one.)
            let counted =
                (i.saturating_sub(2)..i).any(|j| self.tokens[j].kind == crate::token::TokenKind::Number);
            let named_after = (i + marker + 1..i + marker + 3).any(|j| {
                let w = self.w(j);
                crate::parser::lexicon::is_item_noun(w)
                    || matches!(w, "runs" | "ride" | "trajet" | "course" | "commande")
            });
            if counted || named_after {
                return None;
            }
            let next = self.w(i + marker);
            let singular = !next.is_empty()
                && !next.ends_with('s')
                && !next.ends_with('x')
                && !matches!(
                    next,
                    "of" | "de"
                        | "d"
                        | "des"
                        | "in"
                        | "en"
                        | "this"
                        | "ce"
                        | "cette"
                        | "last"
                        | "dernier"
                        | "one"
                        | "ones"
                        | "first"
                        | "premier"
                );
            let item = crate::parser::lexicon::is_item_noun(next)
                || matches!(
                    next,
                    "expense"
                        | "purchase"
                        | "depense"
                        | "achat"
                        | "transaction"
                        | "payment"
                        | "paiement"
                        | "debit"
                        | "credit"
                );
            (singular
                && !item
                && self.tokens.get(i + marker).is_some_and(|t| t.kind == crate::token::TokenKind::Word))
            .then(|| self.span(i, i + marker))
        })
    }
}

impl Question<'_> {
    /// Spending read from words that say money came or went elsewhere: "money from
    /// acme", "how much from acme", "l'argent de la MAIF" (received, not spent); "how
    /// much did I transfer", "combien j'ai viré", "how much did I give" with no one named
    /// (transfers and gifts, which spending leaves out, or everything?).
    pub(super) fn received_or_moved(&self, call: &ToolCall) -> Option<String> {
        let ToolCall::SpendingSummary(a) = call else { return None };
        let spent = self.tokens.iter().any(|t| {
            is_spend_word(&t.norm)
                && !matches!(t.norm.as_str(), "transfer" | "transferred" | "vire" | "transfere")
        });
        let from = (1..self.tokens.len()).find(|&j| {
            (self.w(j) == "from" && matches!(self.w(j - 1), "money" | "cash" | "much" | "total" | "income"))
                || (matches!(self.w(j), "de" | "d" | "du") && self.w(j - 1) == "argent")
        });
        if let Some(j) = from.filter(|_| !spent) {
            return Some(self.span(j - 1, j));
        }
        let named = a.category.is_some() || a.merchant.is_some();
        // ("did I transfer", "j'ai viré", "have I given" — not "give me my spending".)
        let moved = (1..self.tokens.len()).find(|&j| {
            matches!(
                self.w(j),
                "transfer"
                    | "transferred"
                    | "transfered"
                    | "vire"
                    | "viree"
                    | "transfere"
                    | "give"
                    | "gave"
                    | "given"
                    | "donne"
                    | "donnee"
            ) && matches!(self.w(j - 1), "i" | "we" | "ai" | "avons" | "j" | "have")
                && !matches!(self.w(j + 1), "me" | "moi")
        });
        moved.filter(|_| !named).map(|j| self.span(j, j))
    }
}

//! The tool a new question asks for: what it computes, from the intent and what else
//! the words show; why (said, following from the filters, or guessed); its top N and
//! breakdown.

use super::{distinct, Filters, Picked, Question, Signals};
use crate::parser::entities::{follows_a_name, Entities, EntityMatch, Unplaced};
use crate::parser::intent::Kind;
use crate::parser::lexicon::{is_item_noun, is_spend_word};
use crate::parser::{Parser, Reading};
use crate::reason::{Reason, ReasonCode};
use crate::text::Token;

/// What the tool computes, and whether and in which words the message said it.
pub(super) struct Tool {
    pub(super) kind: Kind,
    pub(super) explicit: bool,
    pub(super) words: Vec<String>,
}

impl Signals {
    /// What the words show besides the intent, read from the message and its names.
    pub(super) fn read(p: &Parser, reading: &Reading<'_>, tokens: &[Token]) -> Signals {
        let (message, intent) = (reading.message, &reading.intent);
        let Entities { categories, merchants, accounts, .. } = &reading.entities;
        let income_category = categories
            .first()
            .and_then(|m| m.ids.first())
            .and_then(|id| p.vocab.term(*id))
            .is_some_and(|t| t.kind.as_deref() == Some("income"));
        let only_account = !accounts.is_empty()
            && categories.is_empty()
            && merchants.is_empty()
            && reading.amounts.is_none()
            && reading.text.is_none();
        // "every expense over €500", "dépenses de plus de 100 €": the transactions the
        // amounts select, unless a total is asked.
        // "tout ce que j'ai payé plus de 500 €", "everything over €100": the transactions.
        // (Not the transactions of a name left out: "leaving out the Decathlon purchases";
        // "les depense" typed for "les dépenses" is plural.)
        let left_out = |t: &Token| follows_a_name(&reading.excluded, t, message);
        let items = tokens.iter().enumerate().any(|(k, t)| {
            let plural =
                t.norm == "depense" && k > 0 && matches!(tokens[k - 1].norm.as_str(), "les" | "mes" | "des");
            (is_item_noun(&t.norm) || plural) && !left_out(t)
        });
        // "quelles dépenses ont été enregistrées", "which expenses": the lines.
        // ("j'ai fait quoi comme dépenses": which, too.)
        let which_items = tokens
            .windows(2)
            .any(|w| matches!(w[0].norm.as_str(), "quelles" | "quels" | "which") && is_item_noun(&w[1].norm))
            || tokens.windows(3).any(|w| {
                w[0].norm == "quoi"
                    && w[1].norm == "comme"
                    && (is_item_noun(&w[2].norm) || w[2].norm == "depenses")
            });
        let bought =
            tokens.iter().any(|t| matches!(t.norm.as_str(), "buy" | "bought" | "achete" | "achetes"));
        // "where did I buy groceries, broken down by shop": money spent, by merchant — a
        // list has no breakdown.
        let spent_by = intent.group_by.is_some()
            && !intent.largest
            && !intent.latest
            && !intent.list_verb
            && intent.direction != Some(crate::args::Direction::Credit);
        let spend_word = tokens.iter().any(|t| is_spend_word(&t.norm));
        // "what did I pay on Nov 11", "what have we paid this week": what was paid, item
        // by item, as "qu'est-ce que j'ai payé" — unless a name says to whom or for what
        // ("what did I pay Foncia in September": a total).
        let what_paid = tokens.windows(4).any(|w| {
            w[0].norm == "what"
                && matches!(w[1].norm.as_str(), "did" | "have" | "ve")
                && matches!(w[2].norm.as_str(), "i" | "we")
                && matches!(w[3].norm.as_str(), "pay" | "paid")
        }) && categories.is_empty()
            && merchants.is_empty()
            && !intent.asks_amount
            && intent.group_by.is_none();
        // "montant total des prélèvements MAIF": what one merchant's direct debits took.
        let debited_total = intent.asks_amount
            && merchants.len() == 1
            && tokens.iter().any(|t| matches!(t.norm.as_str(), "prelevements" | "prelevement"));
        Signals {
            income_category,
            only_account,
            items,
            which_items,
            bought,
            spent_by,
            spend_word,
            what_paid,
            debited_total,
        }
    }
}

/// The tool the message asks for; `None` when it asks nothing, which is then asked.
pub(super) fn pick_tool(reading: &Reading<'_>, s: &Signals) -> Option<Tool> {
    let Reading { intent, amounts, text, period, has_content, .. } = reading;
    let accounts = &reading.entities.accounts;
    let mut explicit = intent.explicit;
    let mut words = intent.words.clone();
    let kind = match intent.kind {
        Some(Kind::Spending) if s.what_paid => Kind::List,
        Some(Kind::Recurring) if s.debited_total => Kind::Spending,
        // Label text is searched in transactions.
        _ if text.is_some() => Kind::List,
        // "salaire moyen par mois": the average of an income category is income.
        Some(Kind::Spending) if s.income_category && intent.average && !s.spend_word => Kind::Income,
        Some(Kind::List) if s.spent_by => Kind::Spending,
        // "show me my livret A": what the account holds, unless a period asks for
        // its transactions.
        Some(Kind::List) if intent.shown_names && s.only_account && period.is_none() => Kind::Balance,
        Some(Kind::Spending)
            if (amounts.is_some() && (s.items || intent.everything) || s.which_items)
                && !intent.asks_amount
                && intent.group_by.is_none() =>
        {
            Kind::List
        }
        Some(k) => k,
        None if s.income_category => Kind::Income,
        // "combien sur mon Livret A ?": what the account holds.
        None if s.only_account && intent.asks_amount => {
            explicit = true;
            words.push(accounts.first().map_or_else(String::new, |a| a.words.clone()));
            Kind::Balance
        }
        None if s.only_account => Kind::Balance,
        // "plus de 100 € chez Carrefour": a search for transactions.
        None if amounts.is_some() && !intent.asks_amount => Kind::List,
        None if *has_content || intent.asks_amount => Kind::Spending,
        None => return None,
    };
    Some(Tool { kind, explicit, words })
}

impl Question<'_> {
    /// Whether the message says only filters, what it asks following from them.
    pub(super) fn filters_only(
        &self,
        f: &Filters,
        unrecognized: &[Unplaced],
        dated: bool,
        only_account: bool,
    ) -> bool {
        // Only filters and nothing else: what the message asks follows from them.
        // "courses janvier 2026", "Carrefour last month" → that name's total over the
        // period; "plus de 2000 € en 2025", "« RETRAIT DAB » en mars" → the transactions
        // they select; "my livret a" → its balance.
        let (intent, names) = (self.intent, f.names());
        unrecognized.is_empty()
            && intent.group_by.is_none()
            && intent.direction.is_none()
            && match self.kind {
                // One category, one merchant, or one of each ("pharmacy at Pharmacie du
                // Centre in 2024").
                Kind::Spending | Kind::Income => {
                    dated
                        && names >= 1
                        && distinct(&f.categories) <= 1
                        && distinct(&f.merchants) <= 1
                        && f.accounts.is_empty()
                        && f.amounts.is_none()
                        && f.text.is_none()
                }
                Kind::List => {
                    dated && (f.amounts.is_some() || f.text.is_some()) && names <= 1 && f.accounts.len() <= 1
                }
                Kind::Balance => only_account && f.accounts.len() == 1 && !dated,
                _ => false,
            }
    }

    /// The reasons for the tool: said (or nearly), following from the filters, or guessed.
    pub(super) fn tool_reasons(&mut self, filters_only: bool, f: &Filters) {
        let (intent, kind, locale, names) = (self.intent, self.kind, self.locale, f.names());
        let reasons = &mut self.reasons;
        let words = &self.words;
        if let Some(detail) = &intent.fuzzy {
            reasons.push(Reason::new(ReasonCode::FuzzyIntent, locale, detail));
            if !intent.words.is_empty() {
                reasons.push(Reason::new(ReasonCode::ExplicitIntent, locale, &words.join(" ")));
            }
        } else if self.explicit {
            reasons.push(Reason::new(ReasonCode::ExplicitIntent, locale, &words.join(" ")));
        } else if filters_only {
            reasons.push(Reason::new(
                ReasonCode::FiltersOnly,
                locale,
                crate::parser::intent::kind_label(kind, locale),
            ));
        } else if kind == Kind::Spending && intent.asks_amount && names == 0 && f.accounts.is_empty() {
            // "combien ce week-end", "nov 2025 total", "how much in december": an amount
            // of a period, nothing else said — what went out.
            reasons.push(Reason::new(
                ReasonCode::ExplicitIntent,
                locale,
                crate::parser::intent::kind_label(kind, locale),
            ));
        } else {
            reasons.push(Reason::new(
                ReasonCode::InferredIntent,
                locale,
                crate::parser::intent::kind_label(kind, locale),
            ));
            // Nothing but a period ("show me everything from yesterday"): what to compute
            // is all guessed — asked, not run.
            if names == 0
                && f.accounts.is_empty()
                && f.amounts.is_none()
                && f.text.is_none()
                && intent.group_by.is_none()
            {
                reasons.push(Reason::new(ReasonCode::NoIntent, locale, ""));
            }
        }
    }

    /// The top N and the breakdown: "top 3 restos" ranks the merchants of the one
    /// category named; a top N said of nothing a breakdown ranks is unplaced.
    pub(super) fn top_and_grouping(
        &mut self,
        picked: &Picked,
        categories: &[EntityMatch],
    ) -> (Option<u32>, crate::args::GroupBy) {
        let (intent, kind) = (self.intent, self.kind);
        // "top 3 restos": the first merchants of the one category named.
        let mut top = intent.top;
        let mut group_by = intent.group_by.unwrap_or_default();
        if let Some(n) = intent.top_of_name {
            let one_category =
                picked.category.is_some() && picked.merchant.is_none() && distinct(categories) == 1;
            if one_category && group_by == crate::args::GroupBy::None && matches!(kind, Kind::Spending) {
                group_by = crate::args::GroupBy::Merchant;
                top = Some(n);
            } else if group_by != crate::args::GroupBy::None
                && top.is_none()
                && matches!(kind, Kind::Spending | Kind::Income)
            {
                // "by category, top 5 only".
                top = Some(n);
            } else {
                self.reasons.push(Reason::new(ReasonCode::UnplacedMeaning, self.locale, "« top »"));
            }
        }
        (top, group_by)
    }
}

//! A new question on the ledger — neither a follow-up nor a comparison: the tool
//! that answers it, the period it means and the filters it names, with the reasons.
//!
//! `Parser::question` reads it in steps, in the order its reasons are given: the tool
//! (`tool`), the period (`period`), the names, amounts and text it filters on
//! (`filters`), the words left over (`leftover`), what the call cannot do (`checks`)
//! and, for a list, its side, order and length (`list`).

mod checks;
mod filters;
mod leftover;
mod list;
mod period;
#[cfg(feature = "readings")]
mod said;
mod tool;

use super::build::{call_for, plan, Slots};
use super::clarify::Near;
use super::entities::{Entities, EntityMatch};
use super::intent::{Intent, Kind};
use super::{Context, Parser, Reading};
use crate::amount::AmountFilter;
use crate::args::Period;
use crate::locale::Locale;
use crate::money::Money;
use crate::plan::{ParseOutcome, ToolCallPlan};
use crate::reason::{Reason, ReasonCode};
use crate::text::Token;
use crate::tool::ToolCall;

/// A new question being read: what it asks, in which words, and the reasons so far.
struct Question<'a> {
    parser: &'a Parser,
    cx: &'a Context<'a>,
    message: &'a str,
    locale: Locale,
    intent: &'a Intent,
    tokens: &'a [Token],
    /// What the tool computes.
    kind: Kind,
    /// Whether the words said what to compute (else it follows or is guessed).
    explicit: bool,
    /// The user's words that said what to compute.
    words: Vec<String>,
    reasons: Vec<Reason>,
}

/// What the words show besides the intent: read once, for the tool and a list's side.
struct Signals {
    /// The first category named is an income's.
    income_category: bool,
    /// An account is named, and no category, merchant, amount or text.
    only_account: bool,
    /// Transactions are named ("every expense", "les dépenses").
    items: bool,
    /// "quelles dépenses", "which expenses".
    which_items: bool,
    /// "buy", "bought", "acheté".
    bought: bool,
    /// Money spent, broken down ("where did I buy groceries, broken down by shop").
    spent_by: bool,
    /// A word of spending.
    spend_word: bool,
    /// "what did I pay", with no name and no amount asked.
    what_paid: bool,
    /// "montant total des prélèvements MAIF".
    debited_total: bool,
}

/// The names, amounts and label text a question filters on.
struct Filters {
    categories: Vec<EntityMatch>,
    merchants: Vec<EntityMatch>,
    accounts: Vec<EntityMatch>,
    amounts: Option<AmountFilter>,
    text: Option<String>,
}

/// The category, merchant and account the call filters on: one of each at most.
struct Picked {
    category: Option<String>,
    merchant: Option<String>,
    account: Option<String>,
}

/// The names a question leaves out, read before the call.
struct LeftOut {
    /// The names said to be left out, but for other accounts than the one asked about.
    names: Vec<EntityMatch>,
    /// What is left out is what a summary never holds (moves between accounts).
    already: bool,
}

impl Filters {
    /// The lowest and highest amounts said, if any.
    fn bounds(&self) -> (Option<Money>, Option<Money>) {
        self.amounts.as_ref().map_or((None, None), |a| (a.min, a.max))
    }

    /// How many categories and merchants are named, each counted once.
    fn names(&self) -> usize {
        distinct(&self.categories) + distinct(&self.merchants)
    }
}

/// How many names the matches hold, each counted once.
fn distinct(ms: &[EntityMatch]) -> usize {
    // Distinct names: "retraits d'espèces" names the cash category twice.
    let mut ids: Vec<_> = ms.iter().filter_map(|m| m.ids.first().copied()).collect();
    ids.sort_unstable();
    ids.dedup();
    ids.len()
}

impl Parser {
    /// The plan for what the message asks, or a question when it asks nothing.
    pub(super) fn question(
        &self,
        reading: Reading<'_>,
        cx: &Context<'_>,
        previous: Option<(&ToolCallPlan, &Period)>,
    ) -> ParseOutcome {
        let tokens = crate::text::tokenize(reading.message);
        let signals = Signals::read(self, &reading, &tokens);
        let Some(tool) = tool::pick_tool(&reading, &signals) else {
            let reasons = vec![Reason::new(ReasonCode::NoIntent, reading.locale, "")];
            let near = Near { kind: reading.topic, ..Near::default() };
            return ParseOutcome::Clarification(self.clarify(reading.locale, cx, reasons, near));
        };
        let Reading { message, locale, intent, entities, excluded, amounts, text, period, .. } = reading;
        let Entities { categories, merchants, accounts, unrecognized } = entities;
        let mut filters = Filters { categories, merchants, accounts, amounts, text };
        let mut q = Question {
            parser: self,
            cx,
            message,
            locale,
            intent: &intent,
            tokens: &tokens,
            kind: tool.kind,
            explicit: tool.explicit,
            words: tool.words,
            reasons: Vec::new(),
        };
        let filters_only = q.filters_only(&filters, &unrecognized, period.is_some(), signals.only_account);
        q.tool_reasons(filters_only, &filters);
        let period = q.pick_period(period, previous);
        q.category_beside_merchant(&mut filters);
        q.said_of_the_bank(&filters);
        #[cfg(feature = "readings")]
        q.everyday_words(&filters);
        #[cfg(feature = "readings")]
        q.named_as_example(&filters);
        let picked = q.pick_names(&filters);
        q.amount_and_text_reasons(&filters);
        #[cfg(feature = "readings")]
        q.filed_or_shown(&filters, &picked);
        q.left_over(unrecognized);
        q.other_asks();
        let (top, group_by) = q.top_and_grouping(&picked, &filters.categories);
        #[cfg(feature = "asides")]
        q.left_out_in_another_sentence(&excluded, &filters);
        let (left_out, exclude) = q.leave_out(excluded, &picked);
        q.earned_with_spending_category(&picked);
        let (amount_min, amount_max) = filters.bounds();
        let mut call = call_for(
            q.kind,
            Slots {
                period,
                category: picked.category,
                merchant: picked.merchant,
                account: picked.account,
                amount_min,
                amount_max,
                group_by,
                top,
                // "mon tout premier salaire": an income's activity is money in.
                direction: intent.direction.or((q.kind == Kind::Activity && signals.income_category)
                    .then_some(crate::args::Direction::Credit)),
                exclude,
                average: intent.average_per.filter(|_| intent.average),
            },
        );
        let unit = q.average_or_rate_unit(&call, top);
        q.left_out_by_call(&call, &filters, &left_out);
        q.dropped_by_call(&call, &filters);
        #[cfg(feature = "readings")]
        q.said_more_than_call(&call, &filters);
        // A request people read two ways is asked ("show me my spending": the total, or
        // the lines?) — on the server; the browser shows its first reading.
        #[cfg(feature = "readings")]
        let two_ways =
            self.read_two_ways(&tokens, (&call, &intent), filters.amounts.is_some(), &q.reasons, cx);
        #[cfg(not(feature = "readings"))]
        let two_ways = false;
        q.time_words_unread(&call, two_ways);
        if let ToolCall::ListTransactions(a) = &mut call {
            q.fill_list(a, filters.text, &signals);
        }
        q.outcome(call, unit)
    }
}

impl Question<'_> {
    /// The plan — or, for an average without its unit or a rate said in one word, the
    /// user's pick, once nothing else is unread.
    fn outcome(mut self, call: ToolCall, unit: Option<ReasonCode>) -> ParseOutcome {
        let (locale, cx) = (self.locale, self.cx);
        // A rate or a breakdown ("daily spend")? Asked on the server; the browser's
        // badge shows the breakdown.
        #[cfg(not(feature = "readings"))]
        let unit = unit.filter(|c| *c != ReasonCode::RateOrBreakdown);
        match unit {
            Some(code) if crate::reason::confidence_of(&self.reasons) != crate::reason::Confidence::Low => {
                ParseOutcome::Clarification(match code {
                    #[cfg(feature = "readings")]
                    ReasonCode::RateOrBreakdown => self.parser.rate_or_breakdown(call, locale, cx),
                    // (`AverageUnit`, the only other code a unit has.)
                    _ => self.parser.average_per(call, locale, cx),
                })
            }
            Some(code) => {
                self.reasons.push(Reason::new(code, locale, ""));
                ParseOutcome::Plan(plan(call, self.reasons, locale, cx.today))
            }
            None => ParseOutcome::Plan(plan(call, self.reasons, locale, cx.today)),
        }
    }
}

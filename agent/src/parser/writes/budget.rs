//! `set_budget`: a category's monthly budget, set, changed or removed from a month on.

use super::{is_budget_word, removes, sets, Read};
use crate::parser::build::{call_for, plan, Slots};
use crate::parser::intent::Kind;
use crate::reason::{Reason, ReasonCode};
use crate::text::{Token, TokenKind};
use crate::vocab::EntityKind;
use crate::{amount, period, wording, Date, Money, ParseOutcome, SetBudgetArgs, Suggestion, ToolCall};

impl Read<'_> {
    /// An amount as written from token `i` ("300 €", "€1,234.56", "1.5k", "400"), read
    /// by the amount reader as the bound of "over": (money, last token).
    fn money(&self, i: usize) -> Option<(Money, usize)> {
        let over = Token { norm: "over".to_string(), start: 0, end: 0, kind: TokenKind::Word };
        let tokens: Vec<Token> = std::iter::once(over).chain(self.tokens.get(i..)?.iter().cloned()).collect();
        let used: Vec<bool> = std::iter::once(false).chain(self.used.get(i..)?.iter().copied()).collect();
        let found = amount::find(&tokens, &used, self.locale, self.currency).filter(|f| f.first == 0)?;
        Some((found.min?, i + found.last - 1))
    }

    /// `set_budget`: a category's monthly amount from a month on, or its removal.
    pub(super) fn budget(mut self) -> Option<ParseOutcome> {
        // "set … and remove …" is two writes: the removal stays unread.
        let remove =
            !self.tokens.iter().any(|t| sets(&t.norm)) && self.tokens.iter().any(|t| removes(&t.norm));
        self.mark(|w| sets(w) || (remove && removes(w)) || is_budget_word(w));
        // The amount: the first number left (not a month's year), with its currency.
        let mut amount = None;
        for i in 0..self.tokens.len() {
            let after_month = i > 0 && period::is_time_word(&self.tokens[i - 1]);
            if self.used[i] || self.tokens[i].kind != TokenKind::Number || after_month {
                continue;
            }
            let start = if i > 0 && self.tokens[i - 1].kind == TokenKind::Currency { i - 1 } else { i };
            if let Some((m, last)) = self.money(start) {
                self.use_span(start, last);
                amount = Some((m, self.words(start, last)));
                break;
            }
        }
        let from = self.month();
        let e = self.p.finder().entities(self.tokens, &mut self.used, self.message);
        let others: Vec<String> =
            e.merchants.iter().chain(&e.accounts).map(|m| format!("« {} »", m.words)).collect();
        if !others.is_empty() {
            self.note(ReasonCode::UnplacedMeaning, &others.join(", "));
        }
        let f = self.p.finder();
        let Some(category) = f.pick(&e.categories, self.locale, &mut self.reasons, EntityKind::Category)
        else {
            let left = self.left();
            let unknown = (!left.is_empty())
                .then(|| left.iter().map(|&i| self.words(i, i)).collect::<Vec<_>>().join(" "));
            left.iter().for_each(|&i| self.used[i] = true);
            return self.ask_category(unknown);
        };
        match (amount, remove) {
            (None, false) => {
                let name = self.p.vocabulary().label_of(&category, self.locale);
                let question = [
                    format!("Quel montant par mois pour le budget {name} ?"),
                    format!("What amount a month for the {name} budget?"),
                ];
                // The budget as it stands, one click away.
                let period = period::month(self.today, self.locale);
                let call = call_for(Kind::Budget, Slots { category: Some(category), ..Slots::over(period) });
                let label = self.p.describe(&call, self.locale);
                let picked = vec![Reason::new(ReasonCode::UserSelected, self.locale, &label)];
                let suggestion = Suggestion { label, plan: plan(call, picked, self.locale, self.today) };
                let detail = self.locale.pick("montant", "amount");
                self.ask(ReasonCode::MissingValue, detail, [&question[0], &question[1]], vec![suggestion])
            }
            (Some((_, words)), true) => {
                self.note(ReasonCode::UnplacedMeaning, &format!("« {words} »"));
                self.done(ToolCall::SetBudget(SetBudgetArgs { category, amount: None, from }))
            }
            (amount, _) => {
                let amount = amount.map(|(m, _)| m);
                if let Some(m) = amount {
                    self.note(ReasonCode::ExplicitAmount, &m.format(self.locale));
                    if m.currency != self.currency {
                        let detail = format!("{} ≠ {}", m.currency.as_str(), self.currency.as_str());
                        self.note(ReasonCode::ForeignCurrency, &detail);
                    }
                }
                self.done(ToolCall::SetBudget(SetBudgetArgs { category, amount, from }))
            }
        }
    }

    /// The first month a budget change applies to: the month named — without a year,
    /// the next such month ("à partir de janvier" in November is next January) — else
    /// this one. Another period (a year, a quarter) is not a month: unread.
    fn month(&mut self) -> Date {
        let this = self.today.first_of_month();
        let Some(f) = period::find(self.tokens, &self.used, self.message, self.today, self.locale) else {
            self.note(ReasonCode::DefaultMonth, &wording::month_label(this, self.locale));
            return this;
        };
        self.use_span(f.first, f.last);
        let p = f.period;
        let said = (f.first..=f.last).any(|j| {
            self.tokens[j].kind == TokenKind::Number
                || matches!(self.w(j), "dernier" | "derniere" | "last" | "precedent" | "previous" | "passe")
        });
        let start = if !said && p.start < this { p.start.add_months(12) } else { p.start };
        if p.start.day() == 1 && p.end == p.start.add_months(1) && !f.apart {
            self.note(ReasonCode::ExplicitPeriod, &wording::month_label(start, self.locale));
        } else {
            self.note(ReasonCode::UnplacedMeaning, &format!("« {} »", p.words));
        }
        start.first_of_month()
    }
}

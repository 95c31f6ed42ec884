//! Follow-ups: a message that changes the previous plan ("et en février ?", "by
//! merchant", "le mois précédent") — its period, filters, breakdown or tool.

use super::build::{convert, plan, push_unrecognized};
use super::clarify::Near;
use super::entities::Entities;
use super::{Context, Parser, Reading};
use crate::amount;
use crate::args::Period;
use crate::period;
use crate::plan::{ParseOutcome, ToolCallPlan};
use crate::reason::{Reason, ReasonCode};
use crate::tool::ToolCall;
use crate::vocab::EntityKind;
use crate::wording;

impl Parser {
    /// The previous plan, changed by what the message says.
    pub(super) fn followup(
        &self,
        reading: Reading<'_>,
        cx: &Context<'_>,
        previous: Option<(&ToolCallPlan, &Period)>,
    ) -> ParseOutcome {
        let Reading {
            message,
            locale,
            intent,
            entities,
            excluded,
            amounts,
            text: _,
            period,
            has_content: _,
            topic,
        } = reading;
        let Entities { categories, merchants, accounts, unrecognized } = entities;
        let mut reasons = Vec::new();
        let Some((prev, prev_period)) = previous else {
            let detail = quote(message);
            let reasons = vec![Reason::new(ReasonCode::MissingContext, locale, &detail)];
            let near = Near {
                period,
                entity: categories.first().or(merchants.first()),
                kind: intent.kind.or(topic),
            };
            return ParseOutcome::Clarification(self.clarify(locale, cx, reasons, near));
        };
        let mut call = prev.call.clone();
        let mut changed = Vec::new();
        let period = match period {
            Some(p) => {
                // "le mois précédent" after a question on January is December.
                let p = match context_step(&p.words) {
                    Some((unit, n)) => period::step(prev_period, unit, n, locale),
                    None => p,
                };
                changed.push(p.label.clone());
                p
            }
            // Keep the previous period, relabelled in this message's language.
            None => period::relabel(prev_period.clone(), locale),
        };
        if let Some(slot) = call.period_mut() {
            *slot = period.clone();
        }
        let category = self.finder().pick(&categories, locale, &mut reasons, EntityKind::Category);
        let merchant = self.finder().pick(&merchants, locale, &mut reasons, EntityKind::Merchant);
        let account = self.finder().pick(&accounts, locale, &mut reasons, EntityKind::Account);
        if category.is_some() || merchant.is_some() {
            changed.extend(category.iter().chain(merchant.iter()).map(|k| self.vocab.label_of(k, locale)));
            call.set_filters(category, merchant);
        }
        if account.is_some() {
            changed.extend(account.iter().map(|k| self.vocab.label_of(k, locale)));
            call.set_account(account);
        }
        if let Some(kind) = intent.kind.filter(|_| !intent.group_only) {
            call = convert(call, kind, intent.group_by, period);
        }
        // "et sans Deliveroo ?": what to leave out from now on.
        if !excluded.is_empty() {
            let (c, m) = self.exclusions(&excluded, locale, &mut reasons);
            let names: Vec<String> =
                c.iter().chain(m.iter()).map(|k| self.vocab.label_of(k, locale)).collect();
            // Added to what the previous plan left out; one of each kind at most.
            let (c0, m0) = call.excluded();
            let (c0, m0) = (c0.map(str::to_string), m0.map(str::to_string));
            let clash = (c.is_some() && c0.is_some() && c != c0) || (m.is_some() && m0.is_some() && m != m0);
            if clash {
                reasons.push(Reason::new(ReasonCode::UnplacedMeaning, locale, &names.join(", ")));
            }
            let (c, m) = (c.or(c0), m.or(m0));
            if call.set_excluded(c, m) {
                changed.extend(names);
            } else {
                let words: Vec<String> = excluded.iter().map(|m| format!("« {} »", m.words)).collect();
                reasons.push(Reason::new(ReasonCode::UnplacedMeaning, locale, &words.join(", ")));
            }
        }
        if let Some(g) = intent.group_by {
            let applied = match &mut call {
                ToolCall::SpendingSummary(a) | ToolCall::IncomeSummary(a) => {
                    a.group_by = g;
                    a.top = intent.top;
                    true
                }
                ToolCall::CashFlow(a) if g.is_time() => {
                    a.group_by = g;
                    true
                }
                _ => false,
            };
            if applied {
                changed.push(wording::group_label(g, locale).to_string());
            }
        }
        // "et en moyenne par mois ?".
        if intent.average {
            match (&mut call, intent.average_per) {
                (ToolCall::SpendingSummary(a) | ToolCall::IncomeSummary(a), Some(per)) => {
                    a.average = Some(per);
                    changed.push(wording::per_label(per, locale).to_string());
                }
                _ => reasons.push(Reason::new(ReasonCode::UnplacedMeaning, locale, &intent.words.join(" "))),
            }
        }
        if let Some(a) = &amounts {
            call.set_amounts(a.min, a.max);
            changed.push(amount::describe(a.min, a.max, locale));
        }
        if let (ToolCall::ListTransactions(a), Some(d)) = (&mut call, intent.direction) {
            a.direction = Some(d);
        }
        if changed.is_empty() {
            changed.push(quote(message));
        }
        reasons.insert(0, Reason::new(ReasonCode::FollowupUsesContext, locale, &changed.join(", ")));
        push_unrecognized(&mut reasons, &unrecognized, locale);
        ParseOutcome::Plan(plan(call, reasons, locale, cx.today))
    }
}

/// "le mois précédent", "the year after": in a follow-up, a step from the previous
/// plan's period rather than from today.
pub(super) fn context_step(words: &str) -> Option<(period::Unit, i32)> {
    let words = crate::text::normalize(words);
    let has = |w: &str| words.split(' ').any(|x| x == w);
    let n = if has("precedent") || has("precedente") || has("previous") || has("avant") || has("before") {
        -1
    } else if has("suivant") || has("suivante") || has("following") || has("apres") || has("after") {
        1
    } else {
        return None;
    };
    let unit = if has("mois") || has("month") {
        period::Unit::Month
    } else if has("annee") || has("year") || has("an") {
        period::Unit::Year
    } else if has("semaine") || has("week") {
        period::Unit::Week
    } else if has("trimestre") || has("quarter") {
        period::Unit::Quarter
    } else if has("jour") || has("day") || has("veille") {
        period::Unit::Day
    } else {
        return None;
    };
    Some((unit, n))
}

fn quote(message: &str) -> String {
    let trimmed: String = message.trim().chars().take(60).collect();
    format!("« {trimmed} »")
}

//! The period a new question means: the one it says, now for a question about now,
//! the conversation's, or the default — with the reason for each.

use super::Question;
use crate::args::Period;
use crate::parser::build::{current_period, LOOKBACK_MONTHS};
use crate::parser::intent::{Kind, When};
use crate::plan::ToolCallPlan;
use crate::reason::{Reason, ReasonCode};

impl Question<'_> {
    /// The period the question means, and the reason that says where it comes from.
    pub(super) fn pick_period(
        &mut self,
        period: Option<Period>,
        previous: Option<(&ToolCallPlan, &Period)>,
    ) -> Period {
        let (intent, kind, locale, today) = (self.intent, self.kind, self.locale, self.cx.today);
        match (period, previous) {
            (Some(p), _) => {
                // "subscriptions over the past 12 months": the payments, or their cost?
                if intent.bare_subscriptions && kind == Kind::Recurring {
                    self.reasons.push(Reason::new(
                        ReasonCode::UnplacedMeaning,
                        locale,
                        &self.words.join(" "),
                    ));
                }
                self.reasons.push(Reason::new(ReasonCode::ExplicitPeriod, locale, &p.label));
                p
            }
            // "la dernière fois chez Lidl", "since when": the whole history; "how often":
            // the last 12 months, a rate's window.
            (None, _) if kind == Kind::Activity => {
                let p = match intent.when {
                    Some(When::Ever) => crate::period::ever(today, locale),
                    _ => crate::period::last_months(today, LOOKBACK_MONTHS, locale),
                };
                self.reasons.push(Reason::new(ReasonCode::CurrentPeriod, locale, &p.label));
                p
            }
            // "my last 10 transactions": the newest, from the last 12 months.
            (None, _) if kind == Kind::List && intent.latest => {
                let p = crate::period::last_months(today, LOOKBACK_MONTHS, locale);
                self.reasons.push(Reason::new(ReasonCode::CurrentPeriod, locale, &p.label));
                p
            }
            // A point-in-time question means now, conversation or not — unless it is
            // asked in the past ("quel était mon solde ?", "what was my balance?"): then
            // when? Asked.
            (None, _) if kind.is_current() => {
                let p = current_period(kind, today, locale);
                self.reasons.push(Reason::new(ReasonCode::CurrentPeriod, locale, &p.label));
                let past = self.tokens.iter().find(|t| {
                    matches!(
                        t.norm.as_str(),
                        "etait" | "etaient" | "avait" | "avais" | "was" | "were" | "had"
                    )
                });
                if let Some(t) = past.filter(|_| previous.is_none()) {
                    let said = self.message.get(t.start..t.end).unwrap_or(&t.norm);
                    self.reasons.push(Reason::new(
                        ReasonCode::UnplacedMeaning,
                        locale,
                        &format!("« {said} »"),
                    ));
                }
                p
            }
            // A new question without a period, in a conversation that had one.
            (None, Some((_, prev_period))) => {
                let p = crate::period::relabel(prev_period.clone(), locale);
                self.reasons.push(Reason::new(ReasonCode::FollowupUsesContext, locale, &p.label));
                p
            }
            (None, None) => {
                let p = crate::period::default_period(today, locale);
                self.reasons.push(Reason::new(ReasonCode::ImplicitPeriod, locale, &p.label));
                p
            }
        }
    }
}

//! Clarifying questions: when a message asks nothing Sou can compute, asks advice,
//! or continues a conversation that has no previous question — the question, and
//! the nearest plans to pick from.

use super::build::{call_for, current_period, plan, Slots};
use super::entities::EntityMatch;
use super::intent::Kind;
use super::{Context, Parser};
use crate::period;
use crate::reason::{Reason, ReasonCode};
use crate::vocab::EntityKind;
use crate::{Clarification, GroupBy, Locale, Period, Suggestion};

impl Parser {
    pub(super) fn clarify(
        &self,
        locale: Locale,
        cx: &Context<'_>,
        reasons: Vec<Reason>,
        period: Option<Period>,
        entity: Option<&EntityMatch>,
    ) -> Clarification {
        let stated = period.is_some();
        let period = period.unwrap_or_else(|| period::default_period(cx.today, locale));
        let (category, merchant) = match entity.and_then(|e| e.ids.first().copied()) {
            Some(id) => {
                let key = self.vocab.term(id).map(|t| t.key.clone());
                match id.kind {
                    EntityKind::Category => (key, None),
                    EntityKind::Merchant => (None, key),
                    EntityKind::Account => (None, None),
                }
            }
            None => (None, None),
        };
        let slots = |group_by: GroupBy| Slots {
            category: category.clone(),
            merchant: merchant.clone(),
            group_by,
            ..Slots::over(period.clone())
        };
        // The nearest plans: about what the message named, else the usual overview.
        let calls = if category.is_some() || merchant.is_some() {
            let recurring_period =
                if stated { period.clone() } else { current_period(Kind::Recurring, cx.today, locale) };
            vec![
                call_for(Kind::Spending, slots(GroupBy::None)),
                // Its trend: month by month over the last year.
                call_for(Kind::Spending, Slots { period: recurring_period.clone(), ..slots(GroupBy::Month) }),
                call_for(Kind::List, slots(GroupBy::None)),
                call_for(Kind::Recurring, Slots { period: recurring_period, ..slots(GroupBy::None) }),
            ]
        } else {
            vec![
                call_for(Kind::Spending, slots(GroupBy::Category)),
                call_for(Kind::CashFlow, slots(GroupBy::None)),
                call_for(
                    Kind::Balance,
                    Slots { period: period::today(cx.today, locale), ..slots(GroupBy::None) },
                ),
                call_for(Kind::List, slots(GroupBy::None)),
            ]
        };
        let suggestions = calls
            .into_iter()
            .map(|call| {
                let label = call.period().map(|p| p.label.as_str()).unwrap_or_default();
                let picked = vec![Reason::new(ReasonCode::UserSelected, locale, label)];
                Suggestion { label: self.describe(&call, locale), plan: plan(call, picked, locale, cx.today) }
            })
            .collect();
        let question = match (locale, reasons.first().map(|r| r.code)) {
            (Locale::Fr, Some(ReasonCode::MissingContext)) => {
                "Je n'ai pas de question précédente à compléter. Que voulez-vous savoir ?"
            }
            (Locale::En, Some(ReasonCode::MissingContext)) => {
                "There is no previous question to continue. What would you like to know?"
            }
            (Locale::Fr, Some(ReasonCode::OutOfScope)) => {
                "Je ne donne pas de conseil sans modèle de langage, mais je peux calculer avec vos comptes :"
            }
            (Locale::En, Some(ReasonCode::OutOfScope)) => {
                "I don't give advice without a language model, but I can work out from your accounts:"
            }
            (Locale::Fr, _) => "Je n'ai pas compris la demande. Voulez-vous plutôt :",
            (Locale::En, _) => "I did not understand the request. Did you mean:",
        };
        Clarification { question: question.to_string(), reasons, suggestions, locale }
    }
}

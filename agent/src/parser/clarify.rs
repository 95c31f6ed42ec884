//! Clarifying questions: when a message asks nothing Sou can compute, asks advice,
//! is too long to read quickly, or continues a conversation that has no previous
//! question — the question, and the nearest plans to pick from: first the tool the
//! message's words point at ("abonnements" → the recurring payments), then about what
//! it named, else the usual overview.

use super::build::{call_for, current_period, plan, Slots};
use super::entities::EntityMatch;
use super::intent::Kind;
use super::{Context, Parser};
use crate::args::{GroupBy, Period};
use crate::locale::Locale;
use crate::period;
use crate::plan::{Clarification, Suggestion};
use crate::reason::{Reason, ReasonCode};
use crate::text::MAX_MESSAGE_CHARS;
use crate::tool::ToolCall;
use crate::vocab::EntityKind;

/// How many plans a clarification offers.
pub(super) const MAX_SUGGESTIONS: usize = 4;

/// What a clarification knows of the message: its period, the first name it holds,
/// and the tool its words point at.
#[derive(Default)]
pub(super) struct Near<'a> {
    pub(super) period: Option<Period>,
    pub(super) entity: Option<&'a EntityMatch>,
    pub(super) kind: Option<Kind>,
}

impl Parser {
    pub(super) fn clarify(
        &self,
        locale: Locale,
        cx: &Context<'_>,
        reasons: Vec<Reason>,
        near: Near<'_>,
    ) -> Clarification {
        let stated = near.period.is_some();
        let period = near.period.unwrap_or_else(|| period::default_period(cx.today, locale));
        let (category, merchant) = match near.entity.and_then(|e| e.ids.first().copied()) {
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
        let named = category.is_some() || merchant.is_some();
        let slots = |group_by: GroupBy| Slots {
            category: category.clone(),
            merchant: merchant.clone(),
            group_by,
            ..Slots::over(period.clone())
        };
        // The period a tool reads when the message gives none: balances today,
        // recurring payments over the last year, the rest over the default period.
        let period_for = |kind: Kind| {
            if kind == Kind::Balance || (kind == Kind::Recurring && !stated) {
                current_period(kind, cx.today, locale)
            } else {
                period.clone()
            }
        };
        let over = |kind: Kind, group_by: GroupBy| {
            (kind, call_for(kind, Slots { period: period_for(kind), ..slots(group_by) }))
        };
        let mut calls: Vec<(Kind, ToolCall)> = if named {
            vec![
                over(Kind::Spending, GroupBy::None),
                // Its trend: month by month over the last year.
                (
                    Kind::Spending,
                    call_for(
                        Kind::Spending,
                        Slots { period: period_for(Kind::Recurring), ..slots(GroupBy::Month) },
                    ),
                ),
                over(Kind::List, GroupBy::None),
                over(Kind::Recurring, GroupBy::None),
            ]
        } else {
            vec![
                over(Kind::Spending, GroupBy::Category),
                over(Kind::CashFlow, GroupBy::None),
                over(Kind::Balance, GroupBy::None),
                over(Kind::List, GroupBy::None),
            ]
        };
        // The tool the words point at comes first.
        if let Some(kind) = near.kind {
            if calls.iter().any(|(k, _)| *k == kind) {
                calls.sort_by_key(|(k, _)| *k != kind);
            } else {
                let group_by =
                    if kind == Kind::Spending && !named { GroupBy::Category } else { GroupBy::None };
                calls.insert(0, over(kind, group_by));
            }
        }
        let suggestions = calls
            .into_iter()
            .take(MAX_SUGGESTIONS)
            .map(|(_, call)| {
                let label = call.period().map(|p| p.label.as_str()).unwrap_or_default();
                let picked = vec![Reason::new(ReasonCode::UserSelected, locale, label)];
                Suggestion { label: self.describe(&call, locale), plan: plan(call, picked, locale, cx.today) }
            })
            .collect();
        let question = match (locale, reasons.first().map(|r| r.code)) {
            (Locale::Fr, Some(ReasonCode::MissingContext)) => {
                "Je n'ai pas de question précédente à compléter. Que voulez-vous savoir ?".to_string()
            }
            (Locale::En, Some(ReasonCode::MissingContext)) => {
                "There is no previous question to continue. What would you like to know?".to_string()
            }
            (Locale::Fr, Some(ReasonCode::OutOfScope)) => {
                "Sans modèle de langage, je ne donne ni conseil ni réponse sur ce qui sort de vos comptes, \
                 mais je peux calculer :"
                    .to_string()
            }
            (Locale::En, Some(ReasonCode::OutOfScope)) => {
                "Without a language model I give no advice and no answers beyond your accounts, \
                 but I can work out:"
                    .to_string()
            }
            (Locale::Fr, Some(ReasonCode::TooLong)) => format!(
                "Ce message est trop long pour que je le calcule : {MAX_MESSAGE_CHARS} caractères au plus. \
                 Posez une question plus courte, ou choisissez :"
            ),
            (Locale::En, Some(ReasonCode::TooLong)) => format!(
                "This message is too long for me to work out: {MAX_MESSAGE_CHARS} characters at most. \
                 Ask a shorter question, or pick one:"
            ),
            (Locale::Fr, _) => "Je n'ai pas compris la demande. Voulez-vous plutôt :".to_string(),
            (Locale::En, _) => "I did not understand the request. Did you mean:".to_string(),
        };
        Clarification { question, reasons, suggestions, locale }
    }
}

impl Parser {
    /// "daily spend this month": each day's total, or the average per day? Writers of
    /// the blind sets read it both ways; the user picks (on the server: `readings`).
    #[cfg(feature = "readings")]
    pub(super) fn rate_or_breakdown(
        &self,
        call: ToolCall,
        locale: crate::locale::Locale,
        cx: &Context<'_>,
    ) -> crate::plan::Clarification {
        let per = match &call {
            ToolCall::SpendingSummary(a) | ToolCall::IncomeSummary(a) => match a.group_by {
                crate::args::GroupBy::Day => crate::args::AveragePer::Day,
                crate::args::GroupBy::Week => crate::args::AveragePer::Week,
                _ => crate::args::AveragePer::Month,
            },
            _ => crate::args::AveragePer::Month,
        };
        let mut average = call.clone();
        if let ToolCall::SpendingSummary(a) | ToolCall::IncomeSummary(a) = &mut average {
            a.average = Some(per);
        }
        let suggestions = vec![self.picked(call, locale, cx.today), self.picked(average, locale, cx.today)];
        let question = match (locale, per) {
            (crate::locale::Locale::Fr, crate::args::AveragePer::Day) => {
                "Le total de chaque jour, ou la moyenne par jour ?"
            }
            (crate::locale::Locale::Fr, crate::args::AveragePer::Week) => {
                "Le total de chaque semaine, ou la moyenne par semaine ?"
            }
            (crate::locale::Locale::Fr, _) => "Le total de chaque mois, ou la moyenne par mois ?",
            (crate::locale::Locale::En, crate::args::AveragePer::Day) => {
                "Each day's total, or the average per day?"
            }
            (crate::locale::Locale::En, crate::args::AveragePer::Week) => {
                "Each week's total, or the average per week?"
            }
            (crate::locale::Locale::En, _) => "Each month's total, or the average per month?",
        };
        let reasons = vec![Reason::new(ReasonCode::RateOrBreakdown, locale, "")];
        crate::plan::Clarification { question: question.to_string(), reasons, suggestions, locale }
    }

    /// "mes dépenses moyennes en courses en 2025": an average, but per what? Per month
    /// (with the months) or per transaction — the user picks.
    pub(super) fn average_per(
        &self,
        call: ToolCall,
        locale: crate::locale::Locale,
        cx: &Context<'_>,
    ) -> crate::plan::Clarification {
        let per = |per: crate::args::AveragePer, group_by: Option<crate::args::GroupBy>| {
            let mut call = call.clone();
            if let ToolCall::SpendingSummary(a) | ToolCall::IncomeSummary(a) = &mut call {
                a.average = Some(per);
                if let Some(g) = group_by {
                    a.group_by = g;
                }
            }
            self.picked(call, locale, cx.today)
        };
        let suggestions = vec![
            per(crate::args::AveragePer::Month, Some(crate::args::GroupBy::Month)),
            per(crate::args::AveragePer::Transaction, None),
        ];
        let question = match locale {
            crate::locale::Locale::Fr => "Une moyenne par mois, ou par opération ?",
            crate::locale::Locale::En => "An average per month, or per transaction?",
        };
        let reasons = vec![Reason::new(ReasonCode::AverageUnit, locale, "")];
        crate::plan::Clarification { question: question.to_string(), reasons, suggestions, locale }
    }
}

//! The hand-off to the analyst: a message about the user's datasets becomes a
//! `query_dataset` plan, or a choice between the datasets or columns it may mean.

use super::build::plan;
use super::lexicon::is_followup;
use super::{Context, Parser};
use crate::analyst;
use crate::reason::{Reason, ReasonCode};
use crate::text::Token;
use crate::{wording, Clarification, Locale, ParseOutcome, Suggestion, ToolCall};

impl Parser {
    /// A question about the user's datasets ("total montant par région"), or `None`
    /// when the message is about the ledger.
    pub(super) fn dataset_question(
        &self,
        tokens: &[Token],
        message: &str,
        locale: Locale,
        cx: &Context<'_>,
    ) -> Option<ParseOutcome> {
        let previous = cx.previous.and_then(|p| match &p.call {
            ToolCall::QueryDataset(a) => Some(a),
            _ => None,
        });
        let q = analyst::Question {
            datasets: &self.vocab.datasets,
            names: &self.dataset_names,
            tokens,
            message,
            locale,
            today: cx.today,
            previous,
            marked_followup: is_followup(tokens),
            finder: self.finder(),
        };
        match analyst::read(&q) {
            analyst::Read::NotDataset => None,
            analyst::Read::Plan { args, reasons } => {
                Some(ParseOutcome::Plan(plan(ToolCall::QueryDataset(args), reasons, locale, cx.today)))
            }
            analyst::Read::Choose { reasons, options } => {
                let several_sets = options.iter().any(|a| a.dataset != options[0].dataset);
                let question = match (locale, several_sets) {
                    (Locale::Fr, true) => "Plusieurs jeux de données ont ces colonnes. Lequel voulez-vous ?",
                    (Locale::En, true) => "Several datasets have these columns. Which one do you mean?",
                    (Locale::Fr, false) => "Quelle colonne voulez-vous calculer ?",
                    (Locale::En, false) => "Which column do you want worked out?",
                };
                let suggestions = options
                    .into_iter()
                    .map(|a| {
                        let label = wording::dataset_title(&a, locale);
                        let picked = vec![Reason::new(ReasonCode::UserSelected, locale, &label)];
                        Suggestion { label, plan: plan(ToolCall::QueryDataset(a), picked, locale, cx.today) }
                    })
                    .collect();
                Some(ParseOutcome::Clarification(Clarification {
                    question: question.to_string(),
                    reasons,
                    suggestions,
                    locale,
                }))
            }
        }
    }
}

//! The hand-off to the analyst: a message about the user's datasets becomes a
//! `query_dataset` plan, or a choice between the datasets or columns it may mean. In the
//! browser (without the `datasets` feature) it is only recognised, and sent.

#[cfg(feature = "datasets")]
use super::build::plan;
use super::lexicon::is_followup;
use super::{Context, Parser};
use crate::locale::Locale;
use crate::parser::analyst;
use crate::plan::Clarification;
#[cfg(feature = "datasets")]
use crate::plan::{ParseOutcome, Suggestion};
use crate::reason::{Reason, ReasonCode};
use crate::text::Token;
use crate::tool::ToolCall;

impl Parser {
    /// A question about the user's datasets, as the browser's parser recognises one: it
    /// names a dataset or a column of its own, or follows one ("and by month?"). Sent,
    /// the server reads it.
    #[cfg(not(feature = "datasets"))]
    pub(super) fn dataset_request(
        &self,
        tokens: &[Token],
        locale: Locale,
        cx: &Context<'_>,
    ) -> Option<Clarification> {
        if self.vocab.datasets.is_empty() {
            return None;
        }
        let followed = match cx.previous.map(|p| &p.call) {
            Some(ToolCall::QueryDataset(a)) if is_followup(tokens) => Some(a.dataset.clone()),
            _ => None,
        };
        let name = followed.or_else(|| {
            let d = analyst::named_dataset(&self.dataset_names, tokens)?;
            Some(self.vocab.datasets.get(d)?.name.clone())
        })?;
        let question = match locale {
            Locale::Fr => {
                format!("Une question sur vos données (« {name} ») : envoyez-la, Sou la lit sur le serveur.")
            }
            Locale::En => {
                format!("A question about your data (“{name}”): send it, and Sou reads it on the server.")
            }
        };
        Some(Clarification {
            question,
            reasons: vec![Reason::new(ReasonCode::ExactDataset, locale, &name)],
            suggestions: Vec::new(),
            locale,
        })
    }

    /// A question about the user's datasets ("total montant par région"), or `None`
    /// when the message is about the ledger.
    #[cfg(feature = "datasets")]
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
                        let label = crate::tool::query_dataset::dataset_title(&a, locale);
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

/// In the browser a question about a dataset is recognised and sent, not read; a ledger
/// question that shares a column's word ("mois", "montant") is not taken for one.
#[cfg(all(test, not(feature = "datasets")))]
mod tests {
    use crate::datasets::DatasetShape;
    use crate::date::Date;
    use crate::locale::Locale;
    use crate::parser::{Context, Parser};
    use crate::plan::ParseOutcome;
    use crate::reason::ReasonCode;
    use crate::vocab::Vocabulary;

    #[test]
    fn the_browser_recognises_a_dataset_question_and_sends_it() {
        let outline = "ventes: region text, montant number, mois date";
        let vocab = Vocabulary {
            datasets: vec![DatasetShape::from_outline(outline).unwrap()],
            ..Vocabulary::default()
        };
        let p = Parser::new(vocab);
        let cx =
            Context { today: Date::new(2026, 11, 29).unwrap(), locale: Some(Locale::Fr), previous: None };
        let sent = |m: &str| match p.parse(m, &cx) {
            ParseOutcome::Clarification(c) => c.reasons.iter().any(|r| r.code == ReasonCode::ExactDataset),
            ParseOutcome::Plan(_) => false,
        };
        assert!(sent("total montant par region"));
        assert!(sent("combien dans ventes en 2025"));
        assert!(!sent("combien j'ai dépensé ce mois"));
        assert!(!sent("montant des courses en octobre"));
    }
}

//! What a widget's visitor may ask: only what the site's scope offers (`agent::widgets`);
//! anything else is refused before it runs, and never offered as a suggestion.

use agent::widgets::WidgetScope;
use agent::{Locale, ParseOutcome};

/// What a parse leaves a widget's visitor — a question keeps only the suggestions the
/// site offers — and whether any of it is the site's (else the route refuses it).
pub(super) fn within(scope: &WidgetScope, outcome: ParseOutcome) -> (ParseOutcome, bool) {
    match outcome {
        ParseOutcome::Plan(p) => {
            let allowed = scope.allows(&p.call);
            (ParseOutcome::Plan(p), allowed)
        }
        ParseOutcome::Clarification(mut c) => {
            let offered = !c.suggestions.is_empty();
            c.suggestions.retain(|s| scope.allows(&s.plan.call));
            let allowed = !offered || !c.suggestions.is_empty();
            (ParseOutcome::Clarification(c), allowed)
        }
    }
}

/// What a widget says to a question outside its site's scope: what it does answer.
pub(super) fn outside_scope(scope: &WidgetScope, locale: Locale) -> String {
    let mut topics: Vec<String> = Vec::new();
    if !scope.tools.is_empty() {
        topics.push(locale.pick("les comptes", "the accounts").to_string());
    }
    topics.extend(scope.datasets.iter().map(|d| locale.pick(format!("« {d} »"), format!("“{d}”"))));
    let topics = topics.join(", ");
    locale.pick(
        format!("Cet assistant ne répond pas à cette question ici. Il répond sur : {topics}."),
        format!("This assistant does not answer that here. It answers about: {topics}."),
    )
}

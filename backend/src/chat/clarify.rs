//! The questions Sou asks instead of guessing: a plan it will not run as is comes back
//! as a clarification offering it and its neighbours (without filters, the month
//! before), and the reasons that tell a free-form question (advice, no recognisable
//! calculation, too long) from a plan the parser could not make.

use agent::{Clarification, Confidence, Locale, Parser, Reason, ReasonCode, Suggestion, ToolCallPlan};

/// A question about a plan Sou will not run as is, offering it and neighbours; the
/// guardian's own question when it asked one.
pub(super) fn low_confidence_question(
    parser: &Parser,
    message: &str,
    plan: &ToolCallPlan,
    asked: Option<String>,
) -> Clarification {
    let locale = plan.meta.locale;
    // Words that would change the calculation were not read. After an exclusion the
    // plan as parsed may be the opposite of what was asked ("hors Picard" read as
    // Picard): it is not offered, only the question without the excluded filter.
    let unread = !plan.carries_context();
    let words = agent::text::tokenize(message);
    let excludes = unread && (0..words.len()).any(|i| agent::negates_at(&words, i));
    // A write the parser could not read (a transfer of money, a card, a change it did
    // not understand): Sou says what it does change, and offers the read nearest to it.
    let writes = unread && words.iter().any(|t| agent::is_write_word(&t.norm));

    let chosen = |call: agent::ToolCall| {
        let label = parser.describe(&call, locale);
        let reasons = vec![Reason::new(ReasonCode::UserSelected, locale, &label)];
        Suggestion {
            label,
            plan: ToolCallPlan {
                call,
                meta: agent::PlanMeta {
                    confidence: Confidence::High,
                    confidence_reasons: reasons,
                    locale,
                    today: plan.meta.today,
                },
            },
        }
    };
    let mut suggestions = Vec::new();
    // The plan as read, one click away — unless it might be the opposite of what was
    // asked (an exclusion not read), or a change Sou did not fully read.
    if !(excludes || writes || (unread && plan.call.is_write())) {
        suggestions.push(chosen(plan.call.clone()));
    }
    let (category, merchant) =
        (plan.call.category().map(str::to_string), plan.call.merchant().map(str::to_string));
    // With a category and a merchant, the category alone: "courses hors Picard" → the groceries.
    if excludes && category.is_some() && merchant.is_some() {
        let mut only_category = plan.call.clone();
        only_category.set_filters(category.clone(), None);
        suggestions.push(chosen(only_category));
    }
    // The same question without its filters, for when the filter was the misunderstanding.
    if category.is_some() || merchant.is_some() {
        let mut broader = plan.call.clone();
        broader.set_filters(None, None);
        suggestions.push(chosen(broader));
    }
    // The same question over the previous month.
    let mut earlier = plan.call.clone();
    if let Some(p) = earlier.period_mut() {
        *p = agent::period::month(p.start.first_of_month().add_months(-1), locale);
    }
    if earlier != plan.call && !unread {
        suggestions.push(chosen(earlier));
    }
    // What Sou read and the words it did not use, said plainly: "Sou a compris :
    // dépenses d'octobre. Je n'ai pas utilisé : « takeout »."
    let unused = unused_words(plan);
    let understood = (!unused.is_empty() && !excludes && !writes).then(|| {
        // "Total des dépenses — octobre 2026" inside a sentence.
        let described = parser.describe(&plan.call, locale);
        let mut chars = described.chars();
        let read: String = chars.next().into_iter().flat_map(char::to_lowercase).chain(chars).collect();
        let words = unused.join(", ");
        match (locale, suggestions.len() > 1) {
            (Locale::Fr, true) => {
                format!("Sou a compris : {read}. Je n'ai pas utilisé : {words}. Le calculer tel quel, ou plutôt :")
            }
            (Locale::Fr, false) => format!("Sou a compris : {read}. Je n'ai pas utilisé : {words}. Le calculer tel quel ?"),
            (Locale::En, true) => format!("Sou understood: {read}. I did not use: {words}. Work it out as read, or rather:"),
            (Locale::En, false) => format!("Sou understood: {read}. I did not use: {words}. Work it out as read?"),
        }
    });
    let question = asked.filter(|q| !q.trim().is_empty()).or(understood).unwrap_or_else(|| {
        match (locale, unread, writes, suggestions.is_empty()) {
            (Locale::Fr, false, _, _) => "Je ne suis pas sûr d'avoir bien compris. Voulez-vous :",
            (Locale::En, false, _, _) => "I am not sure I understood. Did you mean:",
            (Locale::Fr, true, true, _) => {
                "Sou modifie, avec votre accord, budgets, règles, catégories et marchands — jamais d'argent ni de carte — mais n'a pas compris cette modification. Voulez-vous plutôt voir :"
            }
            (Locale::En, true, true, _) => {
                "Sou changes budgets, rules, categories and merchants, with your approval — never money or cards — but did not understand this change. Would you like to see:"
            }
            (Locale::Fr, true, false, false) => {
                "Je ne sais pas encore calculer tout ce que demande ce message, et je préfère ne pas deviner. Voulez-vous plutôt :"
            }
            (Locale::En, true, false, false) => {
                "I cannot yet work out everything this message asks, and I would rather not guess. Would one of these help:"
            }
            (Locale::Fr, true, false, true) => {
                "Je ne sais pas encore calculer tout ce que demande ce message, et je préfère ne pas deviner."
            }
            (Locale::En, true, false, true) => {
                "I cannot yet work out everything this message asks, and I would rather not guess."
            }
        }
        .to_string()
    });
    Clarification {
        question,
        reasons: plan
            .meta
            .confidence_reasons
            .iter()
            .filter(|r| r.code.cap() < Confidence::High)
            .cloned()
            .collect(),
        suggestions,
        locale,
    }
}

/// The words of a message the parser did not place, as its reasons quote them
/// (« takeout », « not »), each once.
fn unused_words(plan: &ToolCallPlan) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for r in &plan.meta.confidence_reasons {
        if !matches!(r.code, ReasonCode::UnrecognizedWords | ReasonCode::UnplacedMeaning) {
            continue;
        }
        let mut rest = r.text.as_str();
        while let Some(start) = rest.find('«') {
            let Some(len) = rest[start..].find('»') else { break };
            let quoted = &rest[start..start + len + '»'.len_utf8()];
            if !out.iter().any(|w| w == quoted) {
                out.push(quoted.to_string());
            }
            rest = &rest[start + len + '»'.len_utf8()..];
        }
    }
    out
}

/// Questions no plan covers, which a model may answer: advice, no recognisable
/// calculation, or a message too long to plan.
pub(super) fn is_free_form(c: &Clarification) -> bool {
    c.reasons
        .iter()
        .any(|r| matches!(r.code, ReasonCode::OutOfScope | ReasonCode::NoIntent | ReasonCode::TooLong))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use agent::{Context, Date, ParseOutcome, Vocabulary};

    fn low(parser: &Parser, message: &str) -> ToolCallPlan {
        let cx = Context { today: Date::new(2026, 11, 29).unwrap(), locale: None, previous: None };
        match parser.parse(message, &cx) {
            ParseOutcome::Plan(p) if p.meta.confidence == Confidence::Low => p,
            other => panic!("{message}: not a low plan: {other:?}"),
        }
    }

    #[test]
    fn unused_words_are_named_and_the_plan_as_read_is_offered_unless_a_negation_went_unread() {
        let vocab: Vocabulary = serde_json::from_str(include_str!("../../demo/vocabulary.json")).unwrap();
        let parser = Parser::new(vocab);
        let plan = low(&parser, "takeout spend last month");
        let c = low_confidence_question(&parser, "takeout spend last month", &plan, None);
        assert!(c.question.starts_with("Sou understood: total spending — October 2026."), "{}", c.question);
        assert!(c.question.contains("I did not use: « takeout »"), "{}", c.question);
        assert_eq!(c.suggestions.first().map(|s| &s.plan.call), Some(&plan.call));
        // "not counting the refunds": what was read may be the opposite; never offered.
        let message = "my 2025 spending not counting the refunds";
        let plan = low(&parser, message);
        let c = low_confidence_question(&parser, message, &plan, None);
        assert!(c.suggestions.iter().all(|s| s.plan.call != plan.call), "{c:?}");
        assert!(!c.question.contains("understood"), "{}", c.question);
    }
}

//! The questions Sou asks instead of guessing: a plan it will not run as is comes back
//! as a clarification offering it and its neighbours (without filters, the month
//! before), and the reasons that tell a free-form question (advice, no recognisable
//! calculation, too long) from a plan the parser could not make.

use agent::{Clarification, Confidence, Locale, Parser, Reason, ReasonCode, Suggestion, ToolCallPlan};

/// A question about a plan Sou will not run as is, offering it and neighbours; the
/// guardian's own question when it asked one.
pub(super) fn low_confidence_question(
    parser: &Parser,
    plan: &ToolCallPlan,
    asked: Option<String>,
) -> Clarification {
    let locale = plan.meta.locale;
    let question = asked.filter(|q| !q.trim().is_empty()).unwrap_or_else(|| {
        match locale {
            Locale::Fr => "Je ne suis pas sûr d'avoir bien compris. Voulez-vous :",
            Locale::En => "I am not sure I understood. Did you mean:",
        }
        .to_string()
    });
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
    let mut suggestions = vec![chosen(plan.call.clone())];
    // The same question without its filters, for when the filter was the misunderstanding.
    if plan.call.category().is_some() || plan.call.merchant().is_some() {
        let mut broader = plan.call.clone();
        broader.set_filters(None, None);
        suggestions.push(chosen(broader));
    }
    // The same question over the previous month.
    let mut earlier = plan.call.clone();
    if let Some(p) = earlier.period_mut() {
        *p = agent::period::month(p.start.first_of_month().add_months(-1), locale);
    }
    if earlier != plan.call {
        suggestions.push(chosen(earlier));
    }
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

/// Questions no plan covers, which a model may answer: advice, no recognisable
/// calculation, or a message too long to plan.
pub(super) fn is_free_form(c: &Clarification) -> bool {
    c.reasons
        .iter()
        .any(|r| matches!(r.code, ReasonCode::OutOfScope | ReasonCode::NoIntent | ReasonCode::TooLong))
}

//! The parser's plan and its clarifying questions: the badge that says what will be
//! calculated and how sure Sou is, and the one-click suggestions.

#[cfg(feature = "ssr")]
use agent::Clarification;
use agent::{Confidence, Locale, ParseOutcome, Reason, ToolCallPlan};
use leptos::prelude::*;

use crate::i18n::{t, tr, T};
#[cfg(feature = "ssr")]
use crate::post;

fn level_class(c: Confidence) -> &'static str {
    match c {
        Confidence::High => "level level-high",
        Confidence::Medium => "level level-medium",
        Confidence::Low => "level level-low",
    }
}

fn level_text(c: Confidence, locale: Locale) -> &'static str {
    match c {
        Confidence::High => tr(locale, "élevée", "high"),
        Confidence::Medium => tr(locale, "moyenne", "medium"),
        Confidence::Low => tr(locale, "faible", "low"),
    }
}

fn reasons_list(reasons: Vec<Reason>) -> impl IntoView {
    view! {
        <ul class="reasons">
            {reasons
                .into_iter()
                .map(|r| {
                    let cap = r.code.cap();
                    view! {
                        <li class=format!("reason reason-{}", cap.as_str()) data-code=r.code.as_str()>
                            {r.text}
                        </li>
                    }
                })
                .collect_view()}
        </ul>
    }
}

/// What the parser understood: the calculation, the confidence and why.
#[component]
pub fn PlanBadge(
    plan: ToolCallPlan,
    description: String,
    locale: Locale,
    #[prop(optional)] live: bool,
) -> impl IntoView {
    let c = plan.meta.confidence;
    view! {
        <div class="plan" class:plan-live=live data-testid=if live { "draft-plan" } else { "plan" }
            data-tool=plan.call.name() data-confidence=c.as_str()>
            <div class="plan-head">
                <span class="plan-tool">{description}</span>
                <span class=level_class(c) title=t(locale, T::Confidence)>
                    {t(locale, T::Confidence)} " " {level_text(c, locale)}
                </span>
            </div>
            {reasons_list(plan.meta.confidence_reasons)}
        </div>
    }
}

/// The badge under the input while typing.
pub fn draft_badge(
    outcome: &ParseOutcome,
    describe: impl Fn(&ToolCallPlan) -> String,
    locale: Locale,
) -> AnyView {
    match outcome {
        ParseOutcome::Plan(p) => {
            view! { <PlanBadge plan=p.clone() description=describe(p) locale live=true/> }.into_any()
        }
        ParseOutcome::Clarification(c) => view! {
            <div class="plan plan-live" data-testid="draft-plan" data-tool="clarify" data-confidence="none">
                <div class="plan-head">
                    <span class="plan-tool">{c.question.clone()}</span>
                    <span class="level level-low">{t(locale, T::Confidence)} " —"</span>
                </div>
                {reasons_list(c.reasons.clone())}
            </div>
        }
        .into_any(),
    }
}

/// A question with one-click plans. Each suggestion is a form, so it works without
/// JavaScript; the composer catches its submission and sends it over the stream.
#[cfg(feature = "ssr")]
#[component]
pub fn ClarifyCard(
    clarification: Clarification,
    conversation_id: Option<String>,
    /// False when a plan badge above already shows the same reasons.
    show_reasons: bool,
) -> impl IntoView {
    view! {
        <div class="clarify" data-testid="clarify">
            <p class="clarify-question">{clarification.question.clone()}</p>
            {(show_reasons && !clarification.reasons.is_empty()).then(|| reasons_list(clarification.reasons.clone()))}
            <div class="suggestions">
                {clarification
                    .suggestions
                    .into_iter()
                    .map(|s| {
                        let plan_json = serde_json::to_string(&s.plan).unwrap_or_default();
                        view! {
                            <form method="post" action=post::chat::SEND.route() class="suggestion">
                                <input type="hidden" name="message" value=s.label.clone()/>
                                <input type="hidden" name="plan" value=plan_json/>
                                <input type="hidden" name="conversation_id"
                                    value=conversation_id.clone().unwrap_or_default()/>
                                <button type="submit">{s.label}</button>
                            </form>
                        }
                    })
                    .collect_view()}
            </div>
        </div>
    }
}

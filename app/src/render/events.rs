//! One assistant answer as its events arrive or as they were stored: the plan, the
//! clarifying question, each tool's result, the answer's words, warnings and errors.

use agent::protocol::{ChatEvent, TextFormat};
use agent::runs::{RunStatus, RunTrace};
use agent::{Clarification, Locale, ToolCallPlan};
use leptos::prelude::*;

use super::answer::{answer_text, usage_line};
use super::plan::{ClarifyCard, PlanBadge};
use super::tool_output;
use crate::i18n::{t, T};

/// One stored assistant answer, event by event, with its run's trace when it has one
/// (its owner's pages): each result then links to the step that computed it, and the
/// answer ends with "How Sou got this".
pub fn events_view(
    events: Vec<ChatEvent>,
    locale: Locale,
    describe: impl Fn(&ToolCallPlan) -> String,
    conversation_id: Option<String>,
    trace: Option<Box<RunTrace>>,
) -> impl IntoView {
    let mut out = Sink::default();
    let back = conversation_id.as_ref().map_or_else(|| "/".to_string(), |c| format!("/c/{c}"));
    let result_steps = trace.as_deref().map(super::runs::result_steps).unwrap_or_default();
    let mut results = 0usize;
    // A result, and under it the step that computed it.
    let with_source = |view: AnyView, results: &mut usize| -> AnyView {
        let source = trace
            .as_deref()
            .zip(result_steps.get(*results))
            .map(|(t, s)| super::runs::figure_source(&t.id, s, locale));
        *results += 1;
        view! { <div class="sourced">{view}{source}</div> }.into_any()
    };
    let mut ended = false;
    // Results speak the language of the question, which the plan carries.
    let mut locale = locale;
    let mut had_plan = false;
    // Text pieces not shown yet, all of `format`.
    let mut text = String::new();
    let mut format = TextFormat::Markdown;
    let mut stopped = false;
    let mut had_result = false;
    // A plan's answer has two ends (its proposal's, then its steps'): the last one says
    // what the answer cost and how Sou got it.
    let last_status = events.iter().rposition(ChatEvent::is_terminal);
    for (i, e) in events.into_iter().enumerate() {
        if let ChatEvent::Token { content, format: f } = &e {
            if *f != format && !text.is_empty() {
                out.push(answer_text(std::mem::take(&mut text), format));
            }
            format = *f;
            text.push_str(content);
            continue;
        }
        if !text.is_empty() {
            out.push(answer_text(std::mem::take(&mut text), format));
        }
        let v = match e {
            ChatEvent::Plan { plan } => {
                let description = describe(&plan);
                locale = plan.meta.locale;
                had_plan = true;
                view! { <PlanBadge plan description locale/> }.into_any()
            }
            ChatEvent::Clarify { clarification } => {
                view! { <ClarifyCard clarification conversation_id=conversation_id.clone() show_reasons=!had_plan/> }.into_any()
            }
            ChatEvent::ToolResult(output) => {
                had_result = true;
                with_source(tool_output(output, locale), &mut results)
            }
            ChatEvent::PlanProposed { run, plan } => {
                // As it is now: edited, running, done.
                let (plan, status, next) = match trace.as_deref() {
                    Some(t) => (t.plan.clone().unwrap_or(*plan), t.status, t.next_step),
                    None => (*plan, RunStatus::Done, u32::MAX),
                };
                locale = plan.locale;
                super::runs::plan_card(&run, plan, status, next, &back, locale)
            }
            ChatEvent::StepStarted { step, title, .. } => {
                out.open();
                step_head(step, &title, locale)
            }
            ChatEvent::StepResult { result, .. } => {
                had_result = true;
                with_source(tool_output(*result, locale), &mut results)
            }
            ChatEvent::StepFailed { step, code, message } => step_failed(step, code, &message, locale),
            ChatEvent::Token { .. } => ().into_any(),
            ChatEvent::ApprovalRequired { approval } => {
                super::approval::approval_card(*approval, back.clone(), locale).into_any()
            }
            ChatEvent::EntitiesDetected { entities } => {
                mentioned(entities.into_iter().map(|e| e.suggestion).collect(), conversation_id.clone(), locale)
            }
            ChatEvent::Error { message, code } => {
                stopped |= code == "stopped";
                view! { <p class="error" role="alert" data-code=code>{message}</p> }.into_any()
            }
            ChatEvent::Status { .. } if Some(i) != last_status => {
                out.close();
                ended = true;
                ().into_any()
            }
            ChatEvent::Status { uncertainty, usage, message_id, .. } => {
                out.close();
                ended = true;
                let share =
                    message_id.filter(|_| had_result).map(|id| super::share::answer_share(id, locale));
                let panel = trace.as_deref().map(|t| super::runs::trace_panel(t, locale));
                view! { {warning(uncertainty, usage.route != "parser", locale)} {usage_line(&usage, locale)} {share} {panel} }
                    .into_any()
            }
        };
        out.push(v);
    }
    if !text.is_empty() {
        out.push(answer_text(text, format));
    }
    // An answer stored without its end: the server stopped while writing it.
    if !ended && !stopped {
        out.push(view! { <p class="error" role="alert">{t(locale, T::Interrupted)}</p> }.into_any());
    }
    out.close();
    out.out
}

fn step_head(step: u32, title: &str, locale: Locale) -> AnyView {
    let head = match locale {
        Locale::Fr => format!("Étape {step} : {title}"),
        Locale::En => format!("Step {step}: {title}"),
    };
    view! { <h3 class="step-head" data-testid="step-head">{head}</h3> }.into_any()
}

fn step_failed(step: u32, code: String, message: &str, locale: Locale) -> AnyView {
    let text = match locale {
        Locale::Fr => format!("Étape {step} en échec : {message}"),
        Locale::En => format!("Step {step} failed: {message}"),
    };
    view! { <p class="error" role="alert" data-code=code>{text}</p> }.into_any()
}

/// Names an answer mentioned that the user may mean, offered as suggestions.
fn mentioned(
    suggestions: Vec<agent::Suggestion>,
    conversation_id: Option<String>,
    locale: Locale,
) -> AnyView {
    let clarification = Clarification {
        question: t(locale, T::Mentioned).to_string(),
        reasons: Vec::new(),
        suggestions,
        locale,
    };
    view! {
        <div class="entities" data-testid="entities">
            <ClarifyCard clarification conversation_id show_reasons=false/>
        </div>
    }
    .into_any()
}

/// The warnings under an answer: when its confidence is middling, or a model answered
/// with warnings.
fn warning(uncertainty: agent::protocol::Uncertainty, by_model: bool, locale: Locale) -> Option<AnyView> {
    let warn = (uncertainty.answer_confidence > 0.0 && uncertainty.answer_confidence < 0.8)
        || (by_model && !uncertainty.warnings.is_empty());
    (warn && !uncertainty.warnings.is_empty()).then(|| {
        view! {
            <div class="warning" role="note" data-testid="warning">
                <strong>{t(locale, T::Warning)}</strong>
                <ul>{uncertainty.warnings.into_iter().map(|w| view! { <li>{w}</li> }).collect_view()}</ul>
            </div>
        }
        .into_any()
    })
}

/// Where an answer's views go: in order, a plan's steps each in a section of its own
/// (head, result, sentence), so that the answer's layout does not pull them apart.
#[derive(Default)]
struct Sink {
    out: Vec<AnyView>,
    step: Option<Vec<AnyView>>,
}

impl Sink {
    fn push(&mut self, v: AnyView) {
        match &mut self.step {
            Some(step) => step.push(v),
            None => self.out.push(v),
        }
    }

    fn open(&mut self) {
        self.close();
        self.step = Some(Vec::new());
    }

    fn close(&mut self) {
        if let Some(step) = self.step.take() {
            self.out.push(
                view! { <section class="plan-step" data-testid="plan-step">{step}</section> }.into_any(),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;
    use agent::protocol::{StreamStatus, Uncertainty, Usage};

    /// The answer's events as the server renders them (the conversation page, with or
    /// without JavaScript).
    fn rendered(tokens: Vec<ChatEvent>) -> String {
        let owner = Owner::new();
        owner.with(|| {
            let mut events = tokens;
            events.push(ChatEvent::Status {
                content: StreamStatus::Done,
                usage: Usage { route: "parser".into(), ..Usage::default() },
                uncertainty: Uncertainty { plan_confidence: None, answer_confidence: 1.0, warnings: vec![] },
                conversation_id: None,
                message_id: None,
            });
            let view = events_view(events, Locale::Fr, |_| String::new(), None, None);
            view.to_html()
        })
    }

    #[test]
    fn sou_s_own_answer_shows_labels_as_text() {
        let label = "[Confirmez votre compte](https://evil.example/login) <img src=x onerror=alert(1)>";
        let html = rendered(vec![ChatEvent::text(format!(
            "Les 1 plus grosses opérations — la première : {label}, -99,00 €."
        ))]);
        assert!(!html.contains("<a") && !html.contains("<img"), "{html}");
        assert!(html.contains("[Confirmez votre compte](https://evil.example/login) &lt;img"), "{html}");
        assert!(html.contains(r#"data-testid="answer" class="answer"><p>Les 1"#), "{html}");
    }

    #[test]
    fn a_model_s_answer_is_still_markdown_even_when_stored_before_formats() {
        let stored: ChatEvent = serde_json::from_str(
            r#"{"type":"token","content":"**Netflix** : [aide](https://help.example)"}"#,
        )
        .unwrap();
        let html = rendered(vec![stored]);
        assert!(html.contains("<strong>Netflix</strong>"), "{html}");
        assert!(html.contains(r#"href="https://help.example""#), "{html}");
        // Sou's text then a model's Markdown: two blocks, each read its own way.
        let html = rendered(vec![ChatEvent::text("*a*"), ChatEvent::markdown("*b*")]);
        assert!(html.contains("<p>*a*</p>") && html.contains("<em>b</em>"), "{html}");
    }
}

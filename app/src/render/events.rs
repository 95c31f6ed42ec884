//! One assistant answer as its events arrive or as they were stored: the plan, the
//! clarifying question, each tool's result, the answer's words, warnings and errors.

use agent::protocol::{ChatEvent, TextFormat};
use agent::{Clarification, Locale, ToolCallPlan, ToolOutput};
use leptos::prelude::*;

use super::answer::{answer_text, usage_line};
use super::plan::{ClarifyCard, PlanBadge};
use super::{accounts, budgets, ledger, recurring, tables};
use crate::i18n::{t, T};

/// A tool's result as the answer shows it.
pub fn tool_output(output: ToolOutput, locale: Locale) -> AnyView {
    match output {
        ToolOutput::SpendingSummary(r) => ledger::summary(r, "spending_summary", locale).into_any(),
        ToolOutput::IncomeSummary(r) => ledger::summary(r, "income_summary", locale).into_any(),
        ToolOutput::ListTransactions(r) => ledger::listing(r, locale).into_any(),
        ToolOutput::ComparePeriods(r) => ledger::comparison(r, locale).into_any(),
        ToolOutput::CashFlow(r) => accounts::cash_flow(r, locale).into_any(),
        ToolOutput::Balances(r) => accounts::balances(r, locale).into_any(),
        ToolOutput::BudgetStatus(r) => budgets::budget_status(r, locale).into_any(),
        ToolOutput::RecurringPayments(r) => recurring::recurring(r, locale).into_any(),
        ToolOutput::QueryDataset(r) => tables::dataset_result(r, "query_dataset", locale).into_any(),
        ToolOutput::RunSql(r) => tables::dataset_result(r, "run_sql", locale).into_any(),
        ToolOutput::DatasetInfo(r) => tables::dataset_info(r, locale).into_any(),
    }
}

/// One stored assistant answer, event by event.
pub fn events_view(
    events: Vec<ChatEvent>,
    locale: Locale,
    describe: impl Fn(&ToolCallPlan) -> String,
    conversation_id: Option<String>,
) -> impl IntoView {
    let mut out: Vec<AnyView> = Vec::new();
    let mut ended = false;
    // Results speak the language of the question, which the plan carries.
    let mut locale = locale;
    let mut had_plan = false;
    // Text pieces not shown yet, all of `format`.
    let mut text = String::new();
    let mut format = TextFormat::Markdown;
    let mut stopped = false;
    let mut had_result = false;
    for e in events {
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
                tool_output(output, locale)
            }
            ChatEvent::Token { .. } => ().into_any(),
            ChatEvent::ApprovalRequired { approval } => {
                let back = conversation_id.as_ref().map_or_else(|| "/".to_string(), |c| format!("/c/{c}"));
                super::approval::approval_card(*approval, back, locale).into_any()
            }
            ChatEvent::EntitiesDetected { entities } => {
                let clarification = Clarification {
                    question: t(locale, T::Mentioned).to_string(),
                    reasons: Vec::new(),
                    suggestions: entities.into_iter().map(|e| e.suggestion).collect(),
                    locale,
                };
                view! {
                    <div class="entities" data-testid="entities">
                        <ClarifyCard clarification conversation_id=conversation_id.clone() show_reasons=false/>
                    </div>
                }
                .into_any()
            }
            ChatEvent::Error { message, code } => {
                stopped |= code == "stopped";
                view! { <p class="error" role="alert" data-code=code>{message}</p> }.into_any()
            }
            ChatEvent::Status { uncertainty, usage, message_id, .. } => {
                ended = true;
                let share =
                    message_id.filter(|_| had_result).map(|id| super::share::answer_share(id, locale));
                let by_model = usage.route != "parser";
                let warn = (uncertainty.answer_confidence > 0.0 && uncertainty.answer_confidence < 0.8)
                    || (by_model && !uncertainty.warnings.is_empty());
                let warning = (warn && !uncertainty.warnings.is_empty()).then(|| {
                    view! {
                        <div class="warning" role="note" data-testid="warning">
                            <strong>{t(locale, T::Warning)}</strong>
                            <ul>{uncertainty.warnings.into_iter().map(|w| view! { <li>{w}</li> }).collect_view()}</ul>
                        </div>
                    }
                });
                view! { {warning} {usage_line(&usage, locale)} {share} }.into_any()
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
    out
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
            let view = events_view(events, Locale::Fr, |_| String::new(), None);
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

//! What the page shows of a run: a plan of several steps (to accept, reject or edit
//! while proposed; to pause, resume or cancel while it runs), the link from a result to
//! the step that computed it, and "How Sou got this" — the steps with their timings,
//! the model calls with tokens and cost, the arguments, the checks and the source
//! transactions, in `<details>` that open without JavaScript.

use agent::runs::{CheckOutcome, RunPlan, RunStatus, RunTrace, Step, StepKind, StepStatus};
use agent::{Locale, TransactionRow};
use leptos::prelude::*;

use crate::post;

/// A step's anchor in the trace panel.
pub fn step_anchor(run: &str, seq: u32) -> String {
    format!("step-{run}-{seq}")
}

fn back_field(back: &str) -> impl IntoView {
    view! { <input type="hidden" name="back" value=back.to_string()/> }
}

fn action_form(
    run: &str,
    action: &'static str,
    label: &'static str,
    back: &str,
    primary: bool,
) -> impl IntoView {
    // Without JavaScript the answer comes back once the steps have run (`wait`); with
    // it, at once, and the composer follows the steps as they run.
    view! {
        <form method="post" action=post::runs::ACT.to(&[run, action])>
            {back_field(back)}
            <noscript><input type="hidden" name="wait" value="1"/></noscript>
            <button type="submit" class:primary=primary data-testid=format!("run-{action}")>{label}</button>
        </form>
    }
}

fn status_label(s: RunStatus, locale: Locale) -> &'static str {
    match s {
        RunStatus::Proposed => locale.pick("En attente de votre accord", "Waiting for your go-ahead"),
        RunStatus::Running => locale.pick("En cours", "Running"),
        RunStatus::Paused => locale.pick("En pause", "Paused"),
        RunStatus::Done => locale.pick("Terminé", "Done"),
        RunStatus::Failed => locale.pick("En échec", "Failed"),
        RunStatus::Cancelled => locale.pick("Annulé", "Cancelled"),
        RunStatus::Rejected => locale.pick("Refusé", "Rejected"),
        RunStatus::Interrupted => locale.pick("Interrompu", "Interrupted"),
    }
}

/// A plan of several steps, as it is now.
pub fn plan_card(
    run: &str,
    plan: RunPlan,
    status: RunStatus,
    next_step: u32,
    back: &str,
    locale: Locale,
) -> AnyView {
    let pick = |fr: &'static str, en: &'static str| locale.pick(fr, en);
    let n = plan.steps.len();
    let steps = plan
        .steps
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let state = match (i as u32).cmp(&next_step) {
                std::cmp::Ordering::Less => "done",
                std::cmp::Ordering::Equal if status == RunStatus::Running => "running",
                _ => "waiting",
            };
            view! {
                <li data-state=state data-tool=s.call.name()>
                    <span class="step-title">{s.title.clone()}</span>
                    <span class="step-why">{s.why.clone()}</span>
                    <span class="step-expect">{s.expect.clone()}</span>
                </li>
            }
        })
        .collect_view();
    let actions = match status {
        RunStatus::Proposed => view! {
            <div class="actions">
                {action_form(run, "accept", pick("Lancer le plan", "Run the plan"), back, true)}
                {action_form(run, "reject", pick("Refuser", "Reject"), back, false)}
            </div>
            {edit_form(run, &plan, back, locale)}
        }
        .into_any(),
        RunStatus::Running => view! {
            <div class="actions">
                {action_form(run, "pause", pick("Mettre en pause", "Pause"), back, false)}
                {action_form(run, "cancel", pick("Annuler", "Cancel"), back, false)}
            </div>
        }
        .into_any(),
        RunStatus::Paused => view! {
            <div class="actions">
                {action_form(run, "resume", pick("Reprendre", "Resume"), back, true)}
                {action_form(run, "cancel", pick("Annuler", "Cancel"), back, false)}
            </div>
        }
        .into_any(),
        _ => ().into_any(),
    };
    let heading = match locale {
        Locale::Fr => format!("Plan en {n} étapes"),
        Locale::En => format!("A plan of {n} steps"),
    };
    view! {
        <section class="run-plan" data-testid="run-plan" data-state=status.as_str() id=format!("run-{run}")>
            <h3>{heading}</h3>
            <p class="state">{status_label(status, locale)}</p>
            <ol class="plan-steps">{steps}</ol>
            {actions}
        </section>
    }
    .into_any()
}

/// A period as the edit form takes it back: `2026-10`, `2026` or `first..last`.
fn period_text(p: &agent::Period) -> String {
    let last = p.end.add_days(-1);
    if p.start.day() == 1 && p.end == p.start.add_months(1) {
        format!("{:04}-{:02}", p.start.year(), p.start.month())
    } else if p.start.day() == 1 && p.start.month() == 1 && p.end == p.start.add_months(12) {
        format!("{:04}", p.start.year())
    } else {
        format!("{}..{}", p.start, last)
    }
}

/// Keep, order and period of each step; the API's `PATCH` changes any argument.
fn edit_form(run: &str, plan: &RunPlan, back: &str, locale: Locale) -> impl IntoView {
    let pick = |fr: &'static str, en: &'static str| locale.pick(fr, en);
    let n = plan.steps.len();
    let rows = plan
        .steps
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let k = i + 1;
            let period = s.call.period().map(period_text);
            let period = period.map(|p| {
                view! {
                    <label for=format!("period-{run}-{k}")>{pick("Période", "Period")}</label>
                    <input id=format!("period-{run}-{k}") name=format!("period_{k}") value=p autocomplete="off"
                        aria-describedby=format!("period-help-{run}")/>
                }
            });
            view! {
                <fieldset class="edit-step">
                    <legend>{format!("{k}. {}", s.title)}</legend>
                    <label class="keep">
                        <input type="checkbox" name=format!("keep_{k}") value="1" checked/>
                        {pick("Garder cette étape", "Keep this step")}
                    </label>
                    <label for=format!("order-{run}-{k}")>{pick("Position", "Position")}</label>
                    <input id=format!("order-{run}-{k}") name=format!("order_{k}") type="number" min="1"
                        max=n.to_string() value=k.to_string() inputmode="numeric"/>
                    {period}
                </fieldset>
            }
        })
        .collect_view();
    view! {
        <details class="edit">
            <summary>{pick("Modifier le plan", "Edit the plan")}</summary>
            <form method="post" action=post::runs::EDIT.to(&[run]) class="edit-form">
                {back_field(back)}
                <p class="help" id=format!("period-help-{run}")>{pick(
                    "Une période s'écrit 2026-10 (un mois), 2026 (une année) ou 2026-01-01..2026-03-31.",
                    "Write a period as 2026-10 (a month), 2026 (a year) or 2026-01-01..2026-03-31.")}</p>
                {rows}
                <button type="submit" data-testid="run-edit">{pick("Enregistrer le plan", "Save the plan")}</button>
            </form>
        </details>
    }
}

/// The steps of a trace whose results the answer shows, in the answer's order.
pub fn result_steps(trace: &RunTrace) -> Vec<&Step> {
    trace
        .steps
        .iter()
        .filter(|s| {
            s.kind == StepKind::Tool
                && s.status == StepStatus::Done
                && s.tool.as_deref().is_some_and(|t| !agent::ToolCall::WRITE_NAMES.contains(&t))
        })
        .collect()
}

/// Under a result: which step computed it, and on how many transactions.
pub fn figure_source(run: &str, step: &Step, locale: Locale) -> impl IntoView {
    let n = step.sources.transactions.len();
    let text = match (locale, n) {
        (Locale::Fr, 0) => "D'où vient ce résultat".to_string(),
        (Locale::Fr, 1) => "D'où vient ce résultat : 1 opération".to_string(),
        (Locale::Fr, n) => format!("D'où vient ce résultat : {n} opérations"),
        (Locale::En, 0) => "Where this comes from".to_string(),
        (Locale::En, 1) => "Where this comes from: 1 transaction".to_string(),
        (Locale::En, n) => format!("Where this comes from: {n} transactions"),
    };
    view! {
        <p class="figure-source"><a href=format!("#{}", step_anchor(run, step.seq)) data-testid="figure-source">{text}</a></p>
    }
}

fn duration(us: u64, locale: Locale) -> String {
    let sep = locale.pick(",", ".");
    if us < 1_000 {
        format!("{us} µs")
    } else if us < 1_000_000 {
        format!("{}{sep}{} ms", us / 1_000, us % 1_000 / 100)
    } else {
        format!("{}{sep}{} s", us / 1_000_000, us % 1_000_000 / 100_000)
    }
}

fn row_line(r: &TransactionRow, locale: Locale) -> String {
    let who = r.merchant.clone().unwrap_or_else(|| r.label.clone());
    format!("{} · {who} · {}", agent::wording::day_label(r.date, locale), r.amount.format(locale))
}

/// "How Sou got this": the run's steps.
pub fn trace_panel(trace: &RunTrace, locale: Locale) -> AnyView {
    let (input, output) = trace.tokens();
    let cost = trace.cost_eur_micros();
    let n = trace.steps.len();
    let mut summary = match (locale, n) {
        (Locale::Fr, 1) => "Comment Sou a obtenu ceci · 1 étape".to_string(),
        (Locale::Fr, n) => format!("Comment Sou a obtenu ceci · {n} étapes"),
        (Locale::En, 1) => "How Sou got this · 1 step".to_string(),
        (Locale::En, n) => format!("How Sou got this · {n} steps"),
    };
    if let Some(ms) = trace.total_ms {
        summary.push_str(&format!(" · {}", duration(ms * 1_000, locale)));
    }
    if input + output > 0 {
        summary.push_str(&format!(
            " · {input} + {output} {} · ≈ {}",
            locale.pick("jetons", "tokens"),
            agent::runs::eur_micros(cost, locale)
        ));
    }
    let steps = trace.steps.iter().map(|s| step_view(trace, s, locale)).collect_view();
    view! {
        <details class="trace" data-testid="trace" id=format!("trace-{}", trace.id)>
            <summary>{summary}</summary>
            <ol class="trace-steps">{steps}</ol>
        </details>
    }
    .into_any()
}

/// One step of a run's trace: what it was, its model, error, arguments, SQL, checks and
/// sources.
fn step_view(trace: &RunTrace, s: &agent::runs::Step, locale: Locale) -> impl IntoView {
    let pick = |fr: &'static str, en: &'static str| locale.pick(fr, en);
    let run = trace.id.clone();

    let model = s.model.as_ref().map(|m| {
        let provider = s.provider.clone().unwrap_or_default();
        let cost = agent::runs::eur_micros(s.cost_eur_micros, locale);
        let floor = if s.unpriced { "≥ " } else { "≈ " };
        view! {
            <p class="step-model">{format!("{provider} · {m} · {} + {} {} · {floor}{cost}", s.input_tokens, s.output_tokens, locale.pick("jetons", "tokens"))}</p>
        }
    });
    let arguments = s.arguments.as_ref().map(|a| {
        let text = serde_json::to_string_pretty(a).unwrap_or_default();
        view! { <details class="step-args"><summary>{pick("Arguments", "Arguments")}</summary><pre><code>{text}</code></pre></details> }
    });
    let sql = s.sql.clone().map(
        |q| view! { <details class="step-sql"><summary>"SQL"</summary><pre><code>{q}</code></pre></details> },
    );
    let checks = checks_view(&s.checks);
    let sources = sources_view(trace, s, locale);
    let dataset = s.sources.dataset_rows.map(|rows| {
        let name = s.sources.dataset.clone().unwrap_or_default();
        let text = match locale {
            Locale::Fr => format!("Sources : {rows} lignes de « {name} »"),
            Locale::En => format!("Sources: {rows} rows of “{name}”"),
        };
        view! { <p class="step-sources">{text}</p> }
    });
    let error = s.error.clone().map(|e| view! { <p class="step-error">{e}</p> });
    let label = match (s.kind, &s.tool) {
        (StepKind::Tool, Some(t)) => format!("{} · {t}", s.kind.label(locale)),
        _ => s.kind.label(locale).to_string(),
    };
    // A tool step's title is its tool's name unless it says more.
    let title = (s.tool.as_deref() != Some(s.title.as_str())).then(|| s.title.clone());
    view! {
        <li id=step_anchor(&run, s.seq) data-kind=s.kind.as_str() data-status=s.status.as_str() data-testid="trace-step">
            <p class="step-head">
                <span class="step-kind">{label}</span>
                {title.map(|t| view! { " "<span class="step-title">{t}</span> })}
                " "<span class="step-time">{duration(s.duration_us, locale)}</span>
            </p>
            {model} {error} {arguments} {sql} {checks} {sources} {dataset}
        </li>
    }
}

/// A step's checks, each with its outcome.
fn checks_view(checks: &[agent::runs::Check]) -> Option<impl IntoView> {
    (!checks.is_empty()).then(|| {
    let items = checks
        .iter()
        .map(|c| {
            let outcome = match c.outcome {
                CheckOutcome::Passed => "passed",
                CheckOutcome::Note => "note",
                CheckOutcome::Failed => "failed",
            };
            let mark = match c.outcome {
                CheckOutcome::Passed => "✓",
                CheckOutcome::Note => "ℹ",
                CheckOutcome::Failed => "✗",
            };
            view! { <li data-outcome=outcome data-code=c.code.as_str()><span aria-hidden="true">{mark}</span>" "{c.text.clone()}</li> }
        })
        .collect_view();
    view! { <ul class="checks">{items}</ul> }
    })
}

/// The transactions a step read, the first of them linked.
fn sources_view(trace: &RunTrace, s: &agent::runs::Step, locale: Locale) -> Option<impl IntoView> {
    let run = &trace.id;
    (!s.sources.transactions.is_empty()).then(|| {
        let ids = &s.sources.transactions;
        let shown: Vec<&TransactionRow> = ids
            .iter()
            .take(agent::runs::SOURCE_ROWS)
            .filter_map(|id| trace.source_rows.iter().find(|r| r.id == *id))
            .collect();
        let link = |id: i64| format!("/runs/{run}/sources?step={}#tx-{id}", s.seq);
        let items = shown
            .iter()
            .map(|r| view! { <li data-id=r.id.to_string()><a href=link(r.id)>{row_line(r, locale)}</a></li> })
            .collect_view();
        let all = (ids.len() > shown.len()).then(|| {
            let text = match locale {
                Locale::Fr => format!("Voir les {} opérations", ids.len()),
                Locale::En => format!("See all {} transactions", ids.len()),
            };
            view! { <p><a href=format!("/runs/{run}/sources?step={}", s.seq)>{text}</a></p> }
        });
        let count = match locale {
            Locale::Fr => format!("Sources : {} opérations", ids.len()),
            Locale::En => format!("Sources: {} transactions", ids.len()),
        };
        view! {
            <details class="step-sources" data-testid="sources">
                <summary>{count}</summary>
                <ul>{items}</ul>
                {all}
            </details>
        }
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use agent::runs::{PlanStep, Sources};

    const HOSTILE: &str = "<img src=x onerror=alert(1)> [lien](https://evil.example)";

    #[test]
    fn a_plan_s_and_a_trace_s_words_are_text() {
        let owner = Owner::new();
        owner.with(|| {
            let today = agent::Date::new(2026, 11, 20).unwrap();
            let call: agent::ToolCall =
                serde_json::from_value(serde_json::json!({"tool": "spending_summary",
                "args": {"period": {"start": "2026-10-01", "end": "2026-11-01", "label": "octobre 2026"}}}))
                .unwrap();
            // A model's plan: its "why" is the model's text.
            let plan = RunPlan {
                steps: vec![PlanStep {
                    call,
                    title: HOSTILE.into(),
                    why: HOSTILE.into(),
                    expect: HOSTILE.into(),
                }],
                confidence: agent::Confidence::Medium,
                by: "model".into(),
                locale: Locale::Fr,
                today,
            };
            let html = plan_card("r1", plan, RunStatus::Proposed, 0, "/c/x", Locale::Fr).to_html();
            assert!(!html.contains("<img"), "{html}");
            assert!(html.contains("&lt;img src=x"), "{html}");
            // A trace: a bank's label among the sources, a model's error.
            let mut step = Step::new(StepKind::Tool, HOSTILE);
            step.seq = 2;
            step.error = Some(HOSTILE.into());
            step.sources = Sources { transactions: vec![7], ..Sources::default() };
            let row = TransactionRow {
                id: 7,
                date: today,
                label: HOSTILE.into(),
                merchant: None,
                category: None,
                account: "Compte".into(),
                amount: agent::Money::new(-1234, agent::Currency::new("EUR").unwrap()),
            };
            let trace = RunTrace {
                id: "r1".into(),
                conversation_id: "c1".into(),
                status: RunStatus::Done,
                started_at: String::new(),
                finished_at: None,
                total_ms: Some(1_234),
                answer_confidence: Some(1.0),
                plan: None,
                next_step: 0,
                steps: vec![step],
                source_rows: vec![row],
            };
            let html = trace_panel(&trace, Locale::Fr).to_html();
            assert!(!html.contains("<img") && !html.contains("href=\"https://evil"), "{html}");
            assert!(html.contains("/runs/r1/sources?step=2#tx-7"), "{html}");
            assert!(html.contains("1,2 s"), "{html}");
        });
    }
}

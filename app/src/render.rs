//! Views of plans, clarifications and tool results. Pure functions of the data, so the
//! server-rendered page and the hydrated one are the same.

use agent::protocol::ChatEvent;
use agent::{
    Clarification, Confidence, GroupBy, Locale, Money, ParseOutcome, Reason, SummaryResult, ToolCallPlan,
    ToolOutput, TransactionListResult, TransactionRow,
};
use leptos::either::Either;
use leptos::prelude::*;

use crate::i18n::{self, t, T};

/// Sends a message, with the plan the user picked if any.
pub type Send = Callback<(String, Option<ToolCallPlan>)>;

fn level_class(c: Confidence) -> &'static str {
    match c {
        Confidence::High => "level level-high",
        Confidence::Medium => "level level-medium",
        Confidence::Low => "level level-low",
    }
}

fn level_text(c: Confidence, locale: Locale) -> &'static str {
    match (c, locale) {
        (Confidence::High, Locale::Fr) => "élevée",
        (Confidence::High, Locale::En) => "high",
        (Confidence::Medium, Locale::Fr) => "moyenne",
        (Confidence::Medium, Locale::En) => "medium",
        (Confidence::Low, Locale::Fr) => "faible",
        (Confidence::Low, Locale::En) => "low",
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
/// JavaScript; hydrated, the click is sent over the stream instead.
#[component]
pub fn ClarifyCard(
    clarification: Clarification,
    conversation_id: Signal<Option<String>>,
    send: Send,
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
                        let label = s.label.clone();
                        let plan = s.plan.clone();
                        view! {
                            <form method="post" action="/chat" class="suggestion"
                                on:submit=move |ev| {
                                    ev.prevent_default();
                                    send.run((label.clone(), Some(plan.clone())));
                                }>
                                <input type="hidden" name="message" value=s.label.clone()/>
                                <input type="hidden" name="plan" value=plan_json/>
                                <input type="hidden" name="conversation_id"
                                    value=move || conversation_id.get().unwrap_or_default()/>
                                <button type="submit">{s.label}</button>
                            </form>
                        }
                    })
                    .collect_view()}
            </div>
        </div>
    }
}

fn money(m: Money, locale: Locale) -> impl IntoView {
    let class = if m.minor < 0 { "money neg" } else { "money" };
    view! { <span class=class>{m.format(locale)}</span> }
}

fn rows_table(rows: Vec<TransactionRow>, locale: Locale) -> AnyView {
    view! {
        <table class="rows" data-testid="transactions">
            <thead>
                <tr>
                    <th scope="col">{t(locale, T::Date)}</th>
                    <th scope="col">{t(locale, T::Label)}</th>
                    <th scope="col">{t(locale, T::Category)}</th>
                    <th scope="col" class="num">{t(locale, T::Amount)}</th>
                </tr>
            </thead>
            <tbody>
                {rows
                    .into_iter()
                    .map(|r| {
                        view! {
                            <tr data-id=r.id>
                                <td class="date">{i18n::date(r.date, locale)}</td>
                                <td>
                                    <span class="label">{r.label}</span>
                                    {r.merchant.map(|m| view! { <span class="merchant">{m}</span> })}
                                </td>
                                <td>{r.category.unwrap_or_default()}</td>
                                <td class="num">{money(r.amount, locale)}</td>
                            </tr>
                        }
                    })
                    .collect_view()}
            </tbody>
        </table>
    }
    .into_any()
}

/// Rows shown before "show all".
const FIRST_ROWS: usize = 8;

fn transactions_block(
    mut rows: Vec<TransactionRow>,
    count: u32,
    truncated: bool,
    locale: Locale,
) -> impl IntoView {
    if rows.is_empty() {
        return Either::Left(view! { <p class="empty">{t(locale, T::Empty)}</p> });
    }
    let rest = rows.split_off(rows.len().min(FIRST_ROWS));
    let more = (!rest.is_empty()).then(|| {
        let summary = match locale {
            Locale::Fr => format!("Voir les {} autres", rest.len()),
            Locale::En => format!("Show {} more", rest.len()),
        };
        view! {
            <details class="rows-block">
                <summary>{summary}</summary>
                {rows_table(rest, locale)}
                {truncated.then(|| view! { <p class="note">{t(locale, T::ShowingFirst)}</p> })}
            </details>
        }
    });
    Either::Right(view! {
        <div class="rows-wrap">
            <p class="rows-title">{format!("{} — {count}", t(locale, T::Transactions))}</p>
            {rows_table(rows, locale)}
            {more}
        </div>
    })
}

/// "Courses · janvier 2026".
fn heading(filter: Option<&agent::EntityRef>, period: &agent::Period) -> String {
    match filter {
        Some(f) => format!("{} · {}", f.label, period.label),
        None => period.label.clone(),
    }
}

fn summary(r: SummaryResult, tool: &'static str, locale: Locale) -> impl IntoView {
    let heading = heading(r.merchant.as_ref().or(r.category.as_ref()), &r.period);
    let max = r.groups.iter().map(|g| g.total.minor).max().unwrap_or(0).max(1);
    let groups = (r.group_by != GroupBy::None && !r.groups.is_empty()).then(|| {
        view! {
            <figure class="bars" data-testid="groups">
                <figcaption>{t(locale, T::Breakdown)}</figcaption>
                <ul>
                    {r.groups
                        .iter()
                        .map(|g| {
                            // Integer percentage of the largest group, for the bar width.
                            let pct = (g.total.minor.max(0) * 100 / max).clamp(0, 100);
                            view! {
                                <li>
                                    <span class="bar-label">{g.label.clone()}</span>
                                    <span class="bar" style=format!("--w:{pct}%")></span>
                                    <span class="bar-value">{g.total.format(locale)}</span>
                                </li>
                            }
                        })
                        .collect_view()}
                </ul>
            </figure>
        }
    });
    view! {
        <section class="result" data-testid="result" data-tool=tool>
            <p class="result-heading">{heading}</p>
            <p class="total" data-testid="total" data-minor=r.total.minor data-currency=r.total.currency.to_string()>
                {r.total.format(locale)}
            </p>
            {groups}
            {transactions_block(r.transactions, r.count, r.transactions_truncated, locale)}
        </section>
    }
}

fn listing(r: TransactionListResult, locale: Locale) -> impl IntoView {
    let heading = heading(r.merchant.as_ref().or(r.category.as_ref()), &r.period);
    view! {
        <section class="result" data-testid="result" data-tool="list_transactions">
            <p class="result-heading">{heading}</p>
            <p class="result-sub">
                {t(locale, T::Net)} " " {money(r.net, locale)}
            </p>
            {transactions_block(r.transactions, r.count, r.truncated, locale)}
        </section>
    }
}

fn comparison(r: agent::CompareResult, locale: Locale) -> impl IntoView {
    let heading = heading(r.merchant.as_ref().or(r.category.as_ref()), &r.current.period);
    let change = r.change_basis_points.map(|bp| agent::answer::percent(bp, locale));
    let diff = if r.difference.minor > 0 {
        format!("+{}", r.difference.format(locale))
    } else {
        r.difference.format(locale)
    };
    let trend = match r.difference.minor.signum() {
        1 => "trend up",
        -1 => "trend down",
        _ => "trend",
    };
    view! {
        <section class="result" data-testid="result" data-tool="compare_periods">
            <p class="result-heading">{heading}</p>
            <table class="compare">
                <tbody>
                    <tr>
                        <th scope="row">{r.current.period.label.clone()}</th>
                        <td class="num total-cell" data-testid="total" data-minor=r.current.total.minor>
                            {r.current.total.format(locale)}
                        </td>
                    </tr>
                    <tr>
                        <th scope="row">{r.reference.period.label.clone()}</th>
                        <td class="num" data-testid="reference-total" data-minor=r.reference.total.minor>
                            {r.reference.total.format(locale)}
                        </td>
                    </tr>
                    <tr class=trend>
                        <th scope="row">"Δ"</th>
                        <td class="num" data-testid="difference" data-minor=r.difference.minor>
                            {diff} {change.map(|c| format!(" ({c})"))}
                        </td>
                    </tr>
                </tbody>
            </table>
        </section>
    }
}

pub fn tool_output(output: ToolOutput, locale: Locale) -> AnyView {
    match output {
        ToolOutput::SpendingSummary(r) => summary(r, "spending_summary", locale).into_any(),
        ToolOutput::IncomeSummary(r) => summary(r, "income_summary", locale).into_any(),
        ToolOutput::ListTransactions(r) => listing(r, locale).into_any(),
        ToolOutput::ComparePeriods(r) => comparison(r, locale).into_any(),
    }
}

/// One assistant answer, event by event, as it streams or as it was stored.
pub fn events_view(
    events: Vec<ChatEvent>,
    pending: bool,
    locale: Locale,
    describe: impl Fn(&ToolCallPlan) -> String,
    conversation_id: Signal<Option<String>>,
    send: Send,
) -> impl IntoView {
    let mut out: Vec<AnyView> = Vec::new();
    let mut ended = false;
    // Results speak the language of the question, which the plan carries.
    let mut locale = locale;
    let mut had_plan = false;
    for e in events {
        let v = match e {
            ChatEvent::Plan { plan } => {
                let description = describe(&plan);
                locale = plan.meta.locale;
                had_plan = true;
                view! { <PlanBadge plan description locale/> }.into_any()
            }
            ChatEvent::Clarify { clarification } => {
                view! { <ClarifyCard clarification conversation_id send show_reasons=!had_plan/> }.into_any()
            }
            ChatEvent::ToolResult(output) => tool_output(output, locale),
            ChatEvent::Token { content } => {
                view! { <p class="answer" data-testid="answer">{content}</p> }.into_any()
            }
            ChatEvent::Error { message, code } => {
                view! { <p class="error" role="alert" data-code=code>{message}</p> }.into_any()
            }
            ChatEvent::Status { uncertainty, .. } => {
                ended = true;
                if uncertainty.plan_confidence.is_some()
                    && uncertainty.answer_confidence > 0.0
                    && uncertainty.answer_confidence < 0.8
                {
                    view! {
                        <div class="warning" role="note">
                            <strong>{t(locale, T::Warning)}</strong>
                            <ul>{uncertainty.warnings.into_iter().map(|w| view! { <li>{w}</li> }).collect_view()}</ul>
                        </div>
                    }
                    .into_any()
                } else {
                    ().into_any()
                }
            }
        };
        out.push(v);
    }
    if pending && !ended {
        out.push(view! { <p class="thinking" aria-live="polite">{t(locale, T::Thinking)}</p> }.into_any());
    } else if !pending && !ended {
        out.push(view! { <p class="error" role="alert">{t(locale, T::Interrupted)}</p> }.into_any());
    }
    out
}

//! Views of plans, clarifications and tool results. Pure functions of the data, so the
//! server-rendered page and the hydrated one are the same.

use agent::answer::share;
use agent::protocol::{ChatEvent, TextFormat};
use agent::{
    BalancesResult, BudgetState, BudgetStatusResult, Cadence, CashFlowResult, Clarification, Confidence,
    DatasetInfoResult, DatasetResult, Direction, EntityRef, GroupBy, Locale, Money, ParseOutcome, Reason,
    RecurringResult, SummaryResult, ToolCallPlan, ToolOutput, TransactionListResult, TransactionRow,
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

/// "Courses · Compte courant · janvier 2026": the filters that apply, then the period.
fn heading(filters: &[Option<&EntityRef>], period: &agent::Period) -> String {
    let mut parts: Vec<&str> = filters.iter().flatten().map(|f| f.label.as_str()).collect();
    parts.push(period.label.as_str());
    parts.join(" · ")
}

fn summary(r: SummaryResult, tool: &'static str, locale: Locale) -> impl IntoView {
    let heading = heading(&[r.merchant.as_ref().or(r.category.as_ref()), r.account.as_ref()], &r.period);
    let max = r.groups.iter().map(|g| g.total.minor).max().unwrap_or(0).max(1);
    // Months, weeks or days: the line first, then the values beside their labels.
    let chart = r.chart.map(|spec| view! { <crate::chart::Chart spec locale/> });
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
            {chart}
            {groups}
            {transactions_block(r.transactions, r.count, r.transactions_truncated, locale)}
        </section>
    }
}

fn listing(r: TransactionListResult, locale: Locale) -> impl IntoView {
    let mut heading = heading(&[r.merchant.as_ref().or(r.category.as_ref()), r.account.as_ref()], &r.period);
    if let Some(d) = r.direction {
        let side = match d {
            Direction::Debit => t(locale, T::Debits),
            Direction::Credit => t(locale, T::Credits),
        };
        heading = format!("{side} · {heading}");
    }
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
    let heading =
        heading(&[r.merchant.as_ref().or(r.category.as_ref()), r.account.as_ref()], &r.current.period);
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
        ToolOutput::CashFlow(r) => cash_flow(r, locale).into_any(),
        ToolOutput::Balances(r) => balances(r, locale).into_any(),
        ToolOutput::BudgetStatus(r) => budget_status(r, locale).into_any(),
        ToolOutput::RecurringPayments(r) => recurring(r, locale).into_any(),
        ToolOutput::QueryDataset(r) => dataset_result(r, "query_dataset", locale).into_any(),
        ToolOutput::RunSql(r) => dataset_result(r, "run_sql", locale).into_any(),
        ToolOutput::DatasetInfo(r) => dataset_info(r, locale).into_any(),
    }
}

/// A query over datasets: the table and its chart; for model-written SQL, the SQL.
fn dataset_result(r: DatasetResult, tool: &'static str, locale: Locale) -> impl IntoView {
    let sql = (tool == "run_sql").then(|| {
        view! {
            <details class="sql-used">
                <summary>{i18n::tr(locale, "Requête exécutée", "Query run")}</summary>
                <pre data-testid="sql">{r.result.sql.clone()}</pre>
            </details>
        }
    });
    view! {
        <section class="result dataset-result" data-testid="result" data-tool=tool>
            <p class="result-heading">{r.title}</p>
            {crate::table::result_table(r.result, r.chart, locale)}
            {sql}
        </section>
    }
}

/// The user's datasets and their columns.
fn dataset_info(r: DatasetInfoResult, locale: Locale) -> impl IntoView {
    view! {
        <section class="result" data-testid="result" data-tool="dataset_info">
            <p class="result-heading">{i18n::tr(locale, "Vos jeux de données", "Your datasets")}</p>
            <ul class="dataset-list">
                {r.datasets.into_iter().map(|d| {
                    let columns = crate::table::columns_text(&d);
                    let rows = i18n::count(locale, d.rows, ("ligne", "lignes"), ("row", "rows"));
                    view! {
                        <li>
                            <code class="dataset-name">{d.name}</code>
                            <span class="hint">{format!(" · {rows}")}</span>
                            <p class="dataset-columns">{columns}</p>
                        </li>
                    }
                }).collect_view()}
            </ul>
        </section>
    }
}

/// Integer width in percent of `part` against `max`, for a CSS bar.
fn width(part: i64, max: i64) -> i64 {
    if max <= 0 {
        return 0;
    }
    i64::try_from((i128::from(part.max(0)) * 100 / i128::from(max)).clamp(0, 100)).unwrap_or(0)
}

/// A money cell that tests and scripts can read exactly.
fn money_cell(m: Money, locale: Locale, testid: &'static str) -> impl IntoView {
    view! {
        <td class="num" data-testid=testid data-minor=m.minor data-currency=m.currency.to_string()>
            {money(m, locale)}
        </td>
    }
}

fn cash_flow(r: CashFlowResult, locale: Locale) -> impl IntoView {
    let heading = heading(&[r.account.as_ref()], &r.period);
    let net_class = if r.net.minor < 0 { "kpi kpi-net neg" } else { "kpi kpi-net" };
    let rate = r.savings_rate_basis_points;
    let max = r.rows.iter().map(|x| x.income.minor.max(x.spending.minor)).max().unwrap_or(0);
    let caption = match r.group_by {
        GroupBy::Week => t(locale, T::PerWeek),
        GroupBy::Day => t(locale, T::PerDay),
        _ => t(locale, T::PerMonth),
    };
    let table = (!r.rows.is_empty()).then(|| {
        view! {
            <table class="rows flow" data-testid="flow-rows">
                <caption>{caption}</caption>
                <thead>
                    <tr>
                        <th scope="col">{t(locale, T::Period)}</th>
                        <th scope="col" class="num">{t(locale, T::Income)}</th>
                        <th scope="col" class="num">{t(locale, T::Spending)}</th>
                        <th scope="col" class="num">{t(locale, T::Net)}</th>
                        <th scope="col" class="flow-chart-head"><span class="visually-hidden">{t(locale, T::Chart)}</span></th>
                    </tr>
                </thead>
                <tbody>
                    {r.rows
                        .into_iter()
                        .map(|x| {
                            let w_in = width(x.income.minor, max);
                            let w_out = width(x.spending.minor, max);
                            view! {
                                <tr data-key=x.key.clone()>
                                    <th scope="row">{x.label}</th>
                                    <td class="num">{money(x.income, locale)}</td>
                                    <td class="num">{money(x.spending, locale)}</td>
                                    <td class="num">{money(x.net, locale)}</td>
                                    <td class="flow-chart" aria-hidden="true">
                                        <span class="bar bar-in" style=format!("--w:{w_in}%")></span>
                                        <span class="bar bar-out" style=format!("--w:{w_out}%")></span>
                                    </td>
                                </tr>
                            }
                        })
                        .collect_view()}
                </tbody>
            </table>
        }
    });
    view! {
        <section class="result" data-testid="result" data-tool="cash_flow">
            <p class="result-heading">{heading}</p>
            <dl class="kpis">
                <div class="kpi">
                    <dt>{t(locale, T::Income)}</dt>
                    <dd data-testid="income" data-minor=r.income.minor>{r.income.format(locale)}</dd>
                </div>
                <div class="kpi">
                    <dt>{t(locale, T::Spending)}</dt>
                    <dd data-testid="spending" data-minor=r.spending.minor>{r.spending.format(locale)}</dd>
                </div>
                <div class=net_class>
                    <dt>{t(locale, T::Net)}</dt>
                    <dd class="total" data-testid="total" data-minor=r.net.minor
                        data-currency=r.net.currency.to_string()>
                        {r.net.format(locale)}
                    </dd>
                </div>
                <div class="kpi">
                    <dt>{t(locale, T::SavingsRate)}</dt>
                    <dd data-testid="savings-rate" data-basis-points=rate.map(|bp| bp.to_string())>
                        {rate.map(|bp| share(bp, locale)).unwrap_or_else(|| "—".to_string())}
                    </dd>
                </div>
            </dl>
            {table}
            <p class="note">{t(locale, T::CashFlowNote)}</p>
        </section>
    }
}

fn account_kind(kind: &str, locale: Locale) -> &'static str {
    match kind {
        "checking" => t(locale, T::Checking),
        "savings" => t(locale, T::SavingsAccount),
        "card" => t(locale, T::Card),
        _ => t(locale, T::OtherAccount),
    }
}

fn balances(r: BalancesResult, locale: Locale) -> impl IntoView {
    let heading = format!("{} {}", t(locale, T::BalancesOn), i18n::date(r.date, locale));
    let body = if r.accounts.is_empty() {
        Either::Left(view! { <p class="empty">{t(locale, T::NoAccount)}</p> })
    } else {
        Either::Right(view! {
            <table class="rows balances" data-testid="balances">
                <caption>{t(locale, T::Accounts)}</caption>
                <thead>
                    <tr>
                        <th scope="col">{t(locale, T::Account)}</th>
                        <th scope="col">{t(locale, T::AccountType)}</th>
                        <th scope="col" class="num">{t(locale, T::Balance)}</th>
                    </tr>
                </thead>
                <tbody>
                    {r.accounts
                        .into_iter()
                        .map(|a| {
                            view! {
                                <tr data-key=a.key.clone()>
                                    <th scope="row">{a.label}</th>
                                    <td>{account_kind(&a.kind, locale)}</td>
                                    {money_cell(a.balance, locale, "balance")}
                                </tr>
                            }
                        })
                        .collect_view()}
                </tbody>
                <tfoot>
                    <tr>
                        <th scope="row" colspan="2">{t(locale, T::Total)}</th>
                        <td class="num">{money(r.total, locale)}</td>
                    </tr>
                </tfoot>
            </table>
        })
    };
    view! {
        <section class="result" data-testid="result" data-tool="balances">
            <p class="result-heading">{heading}</p>
            <p class="total" data-testid="total" data-minor=r.total.minor data-currency=r.total.currency.to_string()>
                {r.total.format(locale)}
            </p>
            {body}
        </section>
    }
}

fn budget_state(state: BudgetState, locale: Locale) -> (&'static str, &'static str, &'static str) {
    match state {
        BudgetState::Ok => ("ok", "✓", t(locale, T::StateOk)),
        BudgetState::Warning => ("warning", "!", t(locale, T::StateWarning)),
        BudgetState::Over => ("over", "✕", t(locale, T::StateOver)),
    }
}

fn budget_status(r: BudgetStatusResult, locale: Locale) -> impl IntoView {
    let mut heading = r.period.label.clone();
    if r.months > 1 {
        heading = format!("{heading} · {}", i18n::months(r.months, locale));
    }
    let elapsed = r.elapsed_basis_points;
    let elapsed_note = elapsed.map(|bp| {
        view! { <p class="result-sub" data-testid="elapsed">{i18n::elapsed(&share(bp, locale), locale)}</p> }
    });
    let total_bp = if r.budget.minor > 0 {
        i64::try_from(i128::from(r.spent.minor) * 10_000 / i128::from(r.budget.minor)).unwrap_or(i64::MAX)
    } else {
        0
    };
    let body = if r.lines.is_empty() {
        Either::Left(view! { <p class="empty">{t(locale, T::NoBudget)}</p> })
    } else {
        Either::Right(view! {
            <table class="rows budgets" data-testid="budgets">
                <caption>{t(locale, T::Budgets)}</caption>
                <thead>
                    <tr>
                        <th scope="col">{t(locale, T::Category)}</th>
                        <th scope="col" class="meter-head">{t(locale, T::Used)}</th>
                        <th scope="col" class="num">{t(locale, T::Spent)}</th>
                        <th scope="col" class="num">{t(locale, T::Budget)}</th>
                        <th scope="col" class="num">{t(locale, T::Remaining)}</th>
                        <th scope="col">{t(locale, T::State)}</th>
                    </tr>
                </thead>
                <tbody>
                    {r.lines
                        .into_iter()
                        .map(|l| {
                            let (state, icon, text) = budget_state(l.state, locale);
                            // Whole percent for the bar and assistive technology; the
                            // precise share is written next to it.
                            let percent = (l.used_basis_points.max(0) + 50) / 100;
                            let fill = percent.min(100);
                            let label = format!("{} — {}", l.category.label, t(locale, T::Used));
                            let mark = elapsed.map(|bp| {
                                let x = (bp.clamp(0, 10_000) + 50) / 100;
                                view! { <span class="meter-mark" style=format!("--x:{x}%")></span> }
                            });
                            view! {
                                <tr data-key=l.category.key.clone() data-state=state>
                                    <th scope="row">{l.category.label.clone()}</th>
                                    <td class="meter-cell">
                                        <span class="meter" role="progressbar" aria-label=label
                                            aria-valuemin="0" aria-valuemax=percent.max(100) aria-valuenow=percent
                                            aria-valuetext=share(l.used_basis_points, locale)>
                                            <span class=format!("meter-fill state-{state}") style=format!("--w:{fill}%")></span>
                                            {mark}
                                        </span>
                                        <span class="meter-text" aria-hidden="true">{share(l.used_basis_points, locale)}</span>
                                    </td>
                                    {money_cell(l.spent, locale, "spent")}
                                    {money_cell(l.budget, locale, "budget")}
                                    {money_cell(l.remaining, locale, "remaining")}
                                    <td>
                                        <span class=format!("state state-{state}")>
                                            <span aria-hidden="true">{icon}</span> " " {text}
                                        </span>
                                    </td>
                                </tr>
                            }
                        })
                        .collect_view()}
                </tbody>
                <tfoot>
                    <tr>
                        <th scope="row">{t(locale, T::Total)}</th>
                        <td class="meter-cell">{share(total_bp, locale)}</td>
                        <td class="num">{money(r.spent, locale)}</td>
                        <td class="num">{money(r.budget, locale)}</td>
                        <td class="num">{money(Money::new(r.budget.minor - r.spent.minor, r.budget.currency), locale)}</td>
                        <td></td>
                    </tr>
                </tfoot>
            </table>
        })
    };
    view! {
        <section class="result" data-testid="result" data-tool="budget_status">
            <p class="result-heading">{heading}</p>
            <p class="total" data-testid="total" data-minor=r.spent.minor data-currency=r.spent.currency.to_string()>
                {r.spent.format(locale)}
                <span class="total-of">" / " {r.budget.format(locale)}</span>
            </p>
            {elapsed_note}
            {body}
        </section>
    }
}

fn cadence(c: Cadence, locale: Locale) -> &'static str {
    match c {
        Cadence::Weekly => t(locale, T::Weekly),
        Cadence::Monthly => t(locale, T::Monthly),
        Cadence::Quarterly => t(locale, T::Quarterly),
        Cadence::Yearly => t(locale, T::Yearly),
    }
}

fn recurring(r: RecurringResult, locale: Locale) -> impl IntoView {
    let heading = heading(&[r.merchant.as_ref().or(r.category.as_ref())], &r.period);
    let body = if r.items.is_empty() {
        Either::Left(view! { <p class="empty">{t(locale, T::NoRecurring)}</p> })
    } else {
        Either::Right(view! {
            <table class="rows recurring" data-testid="recurring">
                <caption>{t(locale, T::Recurring)}</caption>
                <thead>
                    <tr>
                        <th scope="col">{t(locale, T::Name)}</th>
                        <th scope="col">{t(locale, T::Cadence)}</th>
                        <th scope="col" class="num">{t(locale, T::TypicalAmount)}</th>
                        <th scope="col">{t(locale, T::Last)}</th>
                        <th scope="col">{t(locale, T::Next)}</th>
                        <th scope="col" class="num">{t(locale, T::PerYear)}</th>
                    </tr>
                </thead>
                <tbody>
                    {r.items
                        .into_iter()
                        .map(|i| {
                            let key = i.merchant.as_ref().map(|m| m.key.clone()).unwrap_or_default();
                            view! {
                                <tr data-key=key data-cadence=format!("{:?}", i.cadence).to_lowercase()>
                                    <th scope="row">
                                        <span class="label">{i.label}</span>
                                        {i.category.map(|c| view! { <span class="merchant">{c.label}</span> })}
                                    </th>
                                    <td>{cadence(i.cadence, locale)} <span class="count">{format!(" ×{}", i.count)}</span></td>
                                    {money_cell(i.amount, locale, "amount")}
                                    <td class="date">{i18n::date(i.last_date, locale)}</td>
                                    <td class="date">{i18n::date(i.next_date, locale)}</td>
                                    {money_cell(i.yearly_cost, locale, "yearly-cost")}
                                </tr>
                            }
                        })
                        .collect_view()}
                </tbody>
                <tfoot>
                    <tr>
                        <th scope="row" colspan="5">{t(locale, T::TotalPerYear)}</th>
                        <td class="num">{money(r.yearly_total, locale)}</td>
                    </tr>
                </tfoot>
            </table>
        })
    };
    view! {
        <section class="result" data-testid="result" data-tool="recurring_payments">
            <p class="result-heading">{heading}</p>
            <p class="total" data-testid="total" data-minor=r.monthly_total.minor
                data-currency=r.monthly_total.currency.to_string()>
                {r.monthly_total.format(locale)}
                <span class="total-of">{t(locale, T::PerMonthSuffix)}</span>
            </p>
            <p class="result-sub">
                {format!("{} {}", r.yearly_total.format(locale), t(locale, T::PerYearSuffix))}
            </p>
            {body}
        </section>
    }
}

/// Consecutive text pieces of one format, rendered as one block.
fn answer_text(text: String, format: TextFormat) -> AnyView {
    match format {
        // A model wrote the whole answer: its Markdown, sanitised by `markdown.rs`.
        TextFormat::Markdown => {
            let html = crate::markdown::to_html(&text);
            view! { <div class="answer" data-testid="answer" inner_html=html></div> }.into_any()
        }
        // Sou's own sentence quotes labels from a bank and cells from files: a text
        // child, escaped like every other, never read as Markdown.
        TextFormat::Text => view! { <div class="answer" data-testid="answer"><p>{text}</p></div> }.into_any(),
    }
}

/// What answering cost, under a model's answer.
fn usage_line(usage: &agent::protocol::Usage, locale: Locale) -> Option<AnyView> {
    let model = usage.model.clone()?;
    let mut parts = vec![
        model,
        format!(
            "{} {} / {} {}",
            usage.input_tokens,
            t(locale, T::TokensIn),
            usage.output_tokens,
            t(locale, T::TokensOut)
        ),
    ];
    // Micro-euros shown to a ten-thousandth of a euro, in integers like all money.
    let (euros, rest) = (usage.cost_eur_micros / 1_000_000, usage.cost_eur_micros % 1_000_000 / 100);
    let sep = if locale == Locale::Fr { "," } else { "." };
    parts.push(format!("{}{euros}{sep}{rest:04} €", if usage.unpriced { "≥ " } else { "≈ " }));
    if let Some(ms) = usage.first_token_ms {
        parts.push(format!("{} {ms} ms", t(locale, T::FirstToken)));
    }
    Some(
        view! {
            <p class="usage" data-testid="usage" data-route=usage.route.clone()
                data-cost-micros=usage.cost_eur_micros>
                {parts.join(" · ")}
            </p>
        }
        .into_any(),
    )
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
    // Text pieces not shown yet, all of `format`.
    let mut text = String::new();
    let mut format = TextFormat::Markdown;
    let mut stopped = false;
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
                view! { <ClarifyCard clarification conversation_id send show_reasons=!had_plan/> }.into_any()
            }
            ChatEvent::ToolResult(output) => tool_output(output, locale),
            ChatEvent::Token { .. } => ().into_any(),
            ChatEvent::EntitiesDetected { entities } => {
                let clarification = Clarification {
                    question: t(locale, T::Mentioned).to_string(),
                    reasons: Vec::new(),
                    suggestions: entities.into_iter().map(|e| e.suggestion).collect(),
                    locale,
                };
                view! {
                    <div class="entities" data-testid="entities">
                        <ClarifyCard clarification conversation_id send show_reasons=false/>
                    </div>
                }
                .into_any()
            }
            ChatEvent::Error { message, code } => {
                stopped |= code == "stopped";
                view! { <p class="error" role="alert" data-code=code>{message}</p> }.into_any()
            }
            ChatEvent::Status { uncertainty, usage, .. } => {
                ended = true;
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
                view! { {warning} {usage_line(&usage, locale)} }.into_any()
            }
        };
        out.push(v);
    }
    if !text.is_empty() {
        out.push(answer_text(text, format));
    }
    if pending && !ended {
        out.push(view! { <p class="thinking" aria-live="polite">{t(locale, T::Thinking)}</p> }.into_any());
    } else if !pending && !ended && !stopped {
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
            });
            let view = events_view(
                events,
                false,
                Locale::Fr,
                |_| String::new(),
                Signal::stored(None),
                Callback::new(|_| {}),
            );
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

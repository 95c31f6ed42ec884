//! Budgets on a shared page: the chat's table, with each meter drawn as a small inline
//! SVG whose widths are attributes. The page's policy allows no inline style, so the
//! chat's `style="--w:…"` bars would be empty there (beside "120 % over budget").

use agent::answer::share;
use agent::{BudgetState, BudgetStatusResult, Locale, Money, ToolOutput};
use leptos::prelude::*;

use crate::i18n::{self, t, T};
use crate::render::cells::{money, money_cell, table_or};
use crate::render::tool_output;
use crate::table::column_heads;

/// A result as the chat draws it, but budgets with meters the page's policy allows.
pub fn output(o: ToolOutput, locale: Locale) -> AnyView {
    match o {
        ToolOutput::BudgetStatus(r) => budget_status(r, locale).into_any(),
        o => tool_output(o, locale).into_any(),
    }
}

fn budget_state(state: BudgetState, locale: Locale) -> (&'static str, &'static str, &'static str) {
    match state {
        BudgetState::Ok => ("ok", "✓", t(locale, T::StateOk)),
        BudgetState::Warning => ("warning", "!", t(locale, T::StateWarning)),
        BudgetState::Over => ("over", "✕", t(locale, T::StateOver)),
    }
}

/// The meter: a 100 × 10 box, filled to `fill` percent, marked at `mark` percent.
fn meter(state: &'static str, fill: i64, mark: Option<i64>, aria: (String, i64, String)) -> impl IntoView {
    let (label, percent, text) = aria;
    let mark = mark.map(|x| {
        let x = (x as f64 - 0.6).clamp(0.0, 98.8);
        view! { <rect class="report-meter-mark" x=format!("{x:.1}") y="0" width="1.2" height="10"></rect> }
    });
    view! {
        <svg class="report-meter" role="progressbar" aria-label=label aria-valuemin="0"
            aria-valuemax=percent.max(100) aria-valuenow=percent aria-valuetext=text
            viewBox="0 0 100 10" preserveAspectRatio="none" width="96" height="10">
            <rect class="report-meter-track" x="0" y="0" width="100" height="10" rx="4"></rect>
            <rect class=format!("report-meter-fill state-{state}") data-testid="meter-fill" x="0" y="0"
                width=fill height="10" rx="4"></rect>
            {mark}
        </svg>
    }
}

pub fn budget_status(r: BudgetStatusResult, locale: Locale) -> impl IntoView {
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
    let body = table_or(r.lines.is_empty(), t(locale, T::NoBudget), move || {
        view! {
            <table class="rows budgets" data-testid="budgets">
                <caption>{t(locale, T::Budgets)}</caption>
                <thead>
                    <tr>
                        {column_heads([
                            (t(locale, T::Category), ""), (t(locale, T::Used), "meter-head"),
                            (t(locale, T::Spent), "num"), (t(locale, T::Budget), "num"),
                            (t(locale, T::Remaining), "num"), (t(locale, T::State), ""),
                        ])}
                    </tr>
                </thead>
                <tbody>
                    {r.lines
                        .into_iter()
                        .map(|l| {
                            let (state, icon, text) = budget_state(l.state, locale);
                            let percent = (l.used_basis_points.max(0) + 50) / 100;
                            let label = format!("{} — {}", l.category.label, t(locale, T::Used));
                            let mark = elapsed.map(|bp| (bp.clamp(0, 10_000) + 50) / 100);
                            let aria = (label, percent, share(l.used_basis_points, locale));
                            view! {
                                <tr data-key=l.category.key.clone() data-state=state>
                                    <th scope="row">{l.category.label.clone()}</th>
                                    <td class="meter-cell">
                                        {meter(state, percent.min(100), mark, aria)}
                                        <span class="meter-text" aria-hidden="true">{share(l.used_basis_points, locale)}</span>
                                    </td>
                                    {money_cell(l.spent, locale, "spent", t(locale, T::Spent))}
                                    {money_cell(l.budget, locale, "budget", t(locale, T::Budget))}
                                    {money_cell(l.remaining, locale, "remaining", t(locale, T::Remaining))}
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
        }
    });
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

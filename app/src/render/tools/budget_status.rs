//! `budget_status`' result: each category's spending against its budget, as a meter
//! and in numbers; as shares, each budget's part used.

use agent::answer::share;
use agent::{BudgetState, BudgetStatusResult, Locale, Money};
use leptos::prelude::*;

use super::ToolView;
use crate::i18n::{self, t, tr, T};
use crate::render::bars::{meter, MeterText};
use crate::render::cells::{money, money_cell, table_or};
use crate::render::cells::nothing;
use crate::table::column_heads;

pub(crate) struct View;

impl ToolView for View {
    type Output = BudgetStatusResult;
    const LABEL: (&'static str, &'static str) = ("Budgets", "Budgets");

    fn view(r: BudgetStatusResult, locale: Locale) -> AnyView {
        budget_status(r, locale).into_any()
    }

    fn shares(r: BudgetStatusResult, locale: Locale) -> Option<AnyView> {
        Some(shares(r, locale))
    }

    fn figure(r: &BudgetStatusResult, _: bool, locale: Locale) -> Option<String> {
        agent::reports::share_bp(r.spent.minor, r.budget.minor).map(|bp| share(bp, locale))
    }
}

fn budget_state(state: BudgetState, locale: Locale) -> (&'static str, &'static str, &'static str) {
    match state {
        BudgetState::Ok => ("ok", "✓", t(locale, T::StateOk)),
        BudgetState::Warning => ("warning", "!", t(locale, T::StateWarning)),
        BudgetState::Over => ("over", "✕", t(locale, T::StateOver)),
    }
}

pub(crate) fn budget_status(r: BudgetStatusResult, locale: Locale) -> impl IntoView {
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
                            // Whole percent for the bar and assistive technology; the
                            // precise share is written next to it.
                            let percent = (l.used_basis_points.max(0) + 50) / 100;
                            let label = format!("{} — {}", l.category.label, t(locale, T::Used));
                            let mark = elapsed.map(|bp| (bp.clamp(0, 10_000) + 50) / 100);
                            let aria = MeterText { label, percent, text: share(l.used_basis_points, locale) };
                            view! {
                                <tr data-key=l.category.key.clone() data-state=state>
                                    <th scope="row">{l.category.label.clone()}</th>
                                    <td class="meter-cell">
                                        {meter(state, mark, aria)}
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

fn shares(r: BudgetStatusResult, locale: Locale) -> AnyView {
    if r.lines.is_empty() {
        return nothing(locale);
    }
    let rows = r
        .lines
        .into_iter()
        .map(|l| {
            view! {
                <tr>
                    <th scope="row">{l.category.label}</th>
                    <td class="num">{agent::answer::share(l.used_basis_points, locale)}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <div class="table-wrap">
            <table class="rows" data-testid="budgets">
                <caption>{r.period.label.clone()}</caption>
                <thead>
                    <tr>
                        <th scope="col">{tr(locale, "Catégorie", "Category")}</th>
                        <th scope="col" class="num">{tr(locale, "Budget utilisé", "Budget used")}</th>
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
    .into_any()
}

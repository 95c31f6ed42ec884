//! A report's blocks as shares only: every figure is a percentage of its whole (a
//! category of the month's spending, spending of income, a budget used), and no amount
//! of money is written — not in a cell, a chart, a title or an attribute.

use agent::reports::{share_bp, Block, BlockKind, Figures};
use agent::{BudgetStatusResult, CashFlowResult, Locale, RecurringResult, SummaryResult, ToolOutput};
use leptos::prelude::*;

use super::parts::{categories, merchants, nothing, MAX_GROUPS};
use crate::i18n::tr;
use crate::render::recurring::cadence;

fn pct(part: i64, whole: i64, locale: Locale) -> String {
    share_bp(part, whole).map(|bp| agent::answer::share(bp, locale)).unwrap_or_else(|| "—".into())
}

pub fn block(b: Block, locale: Locale) -> AnyView {
    let mut outputs = b.outputs.into_iter();
    match b.kind {
        BlockKind::Answer => outputs.map(|o| output(o, locale)).collect_view().into_any(),
        BlockKind::Categories => match (outputs.next(), outputs.next()) {
            (Some(ToolOutput::SpendingSummary(now)), Some(ToolOutput::SpendingSummary(before))) => {
                categories(now, before, Figures::Shares, locale)
            }
            _ => nothing(locale),
        },
        BlockKind::Merchants => match outputs.next() {
            Some(ToolOutput::SpendingSummary(r)) => merchants(r, Figures::Shares, locale),
            _ => nothing(locale),
        },
        _ => match outputs.next() {
            Some(o) => output(o, locale),
            None => nothing(locale),
        },
    }
}

/// One result as shares.
fn output(o: ToolOutput, locale: Locale) -> AnyView {
    match o {
        ToolOutput::SpendingSummary(r) | ToolOutput::IncomeSummary(r) => summary(r, locale),
        ToolOutput::ComparePeriods(r) => {
            let change = match r.change_basis_points {
                Some(bp) => agent::answer::percent(bp, locale),
                None => "—".into(),
            };
            let filters = [r.merchant.as_ref().or(r.category.as_ref()), r.account.as_ref()];
            view! {
                <section class="result" data-testid="result" data-tool="compare_periods">
                    <p class="result-heading">{crate::render::cells::heading(&filters, &r.current.period)}</p>
                    <p class="total" data-testid="change">{change}</p>
                    <p class="result-sub">
                        {match locale {
                            Locale::Fr => format!("par rapport à {}", r.reference.period.label),
                            Locale::En => format!("compared with {}", r.reference.period.label),
                        }}
                    </p>
                </section>
            }
            .into_any()
        }
        ToolOutput::CashFlow(r) => cash_flow(r, locale),
        ToolOutput::BudgetStatus(r) => budgets(r, locale),
        ToolOutput::RecurringPayments(r) => recurring(r, locale),
        _ => view! {
            <p class="report-note" data-testid="hidden">
                {tr(locale,
                    "Ce résultat n'existe qu'en montants : il n'apparaît pas dans un rapport en parts.",
                    "This result only exists as amounts: a report of shares leaves it out.")}
            </p>
        }
        .into_any(),
    }
}

fn summary(r: SummaryResult, locale: Locale) -> AnyView {
    let filters = [r.merchant.as_ref().or(r.category.as_ref()), r.account.as_ref()];
    let heading = crate::render::cells::heading_excluding(&filters, &r.period, &r.excluded, locale);
    if r.groups.is_empty() {
        return view! {
            <section class="result" data-testid="result">
                <p class="result-heading">{heading}</p>
                <p class="report-note" data-testid="hidden">
                    {tr(locale, "Le montant n'est pas montré dans un rapport en parts.",
                        "The amount is not shown in a report of shares.")}
                </p>
            </section>
        }
        .into_any();
    }
    let groups: Vec<_> = r.groups.iter().take(MAX_GROUPS).cloned().collect();
    let y = tr(locale, "Part du total", "Share of the total");
    let chart = agent::chart::bars(&groups, Some(r.total.minor), &heading, "", y)
        .map(|spec| view! { <crate::chart::Chart spec locale/> });
    let rows = groups
        .into_iter()
        .map(|g| {
            view! {
                <tr>
                    <th scope="row">{g.label}</th>
                    <td class="num">{pct(g.total.minor, r.total.minor, locale)}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <section class="result" data-testid="result">
            <p class="result-heading">{heading.clone()}</p>
            {chart}
            <div class="table-wrap">
                <table class="rows" data-testid="shares">
                    <thead>
                        <tr>
                            <th scope="col">{agent::wording::group_label(r.group_by, locale)}</th>
                            <th scope="col" class="num">{y}</th>
                        </tr>
                    </thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
        </section>
    }
    .into_any()
}

fn cash_flow(r: CashFlowResult, locale: Locale) -> AnyView {
    let rate = r.savings_rate_basis_points.map(|bp| agent::answer::share(bp, locale));
    let rows = r
        .rows
        .iter()
        .map(|row| {
            view! {
                <tr>
                    <th scope="row">{row.label.clone()}</th>
                    <td class="num">{pct(row.spending.minor, row.income.minor, locale)}</td>
                    <td class="num">{pct(row.net.minor, row.income.minor, locale)}</td>
                </tr>
            }
        })
        .collect_view();
    let table = (!r.rows.is_empty()).then(|| {
        view! {
            <div class="table-wrap">
                <table class="rows">
                    <thead>
                        <tr>
                            <th scope="col">{tr(locale, "Période", "Period")}</th>
                            <th scope="col" class="num">{tr(locale, "Dépenses / revenus", "Spending / income")}</th>
                            <th scope="col" class="num">{tr(locale, "Épargne / revenus", "Savings / income")}</th>
                        </tr>
                    </thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
        }
    });
    view! {
        <section class="result" data-testid="result" data-tool="cash_flow">
            <p class="result-heading">{r.period.label.clone()}</p>
            <p class="total" data-testid="savings-rate">
                {tr(locale, "Taux d'épargne : ", "Savings rate: ")} {rate.unwrap_or_else(|| "—".into())}
            </p>
            <p class="result-sub">
                {tr(locale, "Dépenses : ", "Spending: ")} {pct(r.spending.minor, r.income.minor, locale)}
                {tr(locale, " des revenus", " of income")}
            </p>
            {table}
        </section>
    }
    .into_any()
}

fn budgets(r: BudgetStatusResult, locale: Locale) -> AnyView {
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

fn recurring(r: RecurringResult, locale: Locale) -> AnyView {
    if r.items.is_empty() {
        return nothing(locale);
    }
    let total = r.yearly_total.minor;
    let rows = r
        .items
        .into_iter()
        .map(|i| {
            view! {
                <tr>
                    <th scope="row">{i.label}</th>
                    <td>{cadence(i.cadence, locale)}</td>
                    <td class="num">{pct(i.yearly_cost.minor, total, locale)}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <div class="table-wrap">
            <table class="rows" data-testid="recurring">
                <caption>{r.period.label.clone()}</caption>
                <thead>
                    <tr>
                        <th scope="col">{tr(locale, "Paiement", "Payment")}</th>
                        <th scope="col">{tr(locale, "Fréquence", "Frequency")}</th>
                        <th scope="col" class="num">{tr(locale, "Part du coût annuel", "Share of the yearly cost")}</th>
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
    .into_any()
}

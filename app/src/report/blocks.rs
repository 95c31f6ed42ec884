//! A report's blocks with their amounts: an answer as the chat shows it (its sentence,
//! its result), and the parts of a monthly report — spending by category against the
//! period before, cash flow, budgets, top merchants, recurring payments.

use agent::protocol::TextFormat;
use agent::reports::{Block, BlockKind, Figures, Names, ReportPage};
use agent::{Locale, SummaryResult, ToolOutput};
use leptos::prelude::*;

use super::shares;
use crate::i18n::tr;
use crate::render::{accounts, answer_text, budgets, cells, recurring, tool_output};

/// Groups a report's charts and tables show, at most.
pub const MAX_GROUPS: usize = 12;

pub fn blocks(page: ReportPage) -> impl IntoView {
    let (locale, figures, names) = (page.locale, page.figures, page.names);
    // A shared answer's sentence is the page's summary already: not said twice.
    let said = page.kind == agent::reports::ReportKind::Answer;
    page.blocks
        .into_iter()
        .enumerate()
        .filter(|(_, b)| !(b.kind == BlockKind::Merchants && names == Names::Categories))
        .map(|(i, b)| block(b, figures, locale, said && i == 0))
        .collect_view()
}

fn section_title(kind: &BlockKind, locale: Locale) -> Option<&'static str> {
    Some(match kind {
        BlockKind::Answer => return None,
        BlockKind::Categories => tr(locale, "Dépenses par catégorie", "Spending by category"),
        BlockKind::CashFlow => tr(locale, "Revenus, dépenses et épargne", "Income, spending and savings"),
        BlockKind::Budgets => tr(locale, "Budgets", "Budgets"),
        BlockKind::Merchants => tr(locale, "Principaux commerçants", "Top merchants"),
        BlockKind::Recurring => tr(locale, "Paiements récurrents", "Recurring payments"),
    })
}

fn block(b: Block, figures: Figures, locale: Locale, said: bool) -> AnyView {
    let title = section_title(&b.kind, locale).map(|t| view! { <h2>{t}</h2> });
    let kind = match b.kind {
        BlockKind::Answer => "answer",
        BlockKind::Categories => "categories",
        BlockKind::CashFlow => "cash_flow",
        BlockKind::Budgets => "budgets",
        BlockKind::Merchants => "merchants",
        BlockKind::Recurring => "recurring",
    };
    let notes = (!b.notes.is_empty()).then(|| {
        let notes = b.notes.clone();
        view! {
            <div class="warning" role="note" data-testid="warning">
                <strong>{tr(locale, "Attention", "Note")}</strong>
                <ul>{notes.into_iter().map(|n| view! { <li>{n}</li> }).collect_view()}</ul>
            </div>
        }
    });
    let body = match figures {
        Figures::Amounts => amounts(b, locale, said),
        Figures::Shares => shares::block(b, locale),
    };
    view! {
        <section class="report-block" data-testid="report-block" data-block=kind>
            {title}
            {notes}
            {body}
        </section>
    }
    .into_any()
}

fn amounts(b: Block, locale: Locale, said: bool) -> AnyView {
    match b.kind {
        BlockKind::Answer => {
            let sentence = match (&b.markdown, b.outputs.first()) {
                (Some(md), _) => Some(answer_text(md.clone(), TextFormat::Markdown)),
                (None, Some(o)) if !said => Some(answer_text(agent::answer::summarize(o, locale), TextFormat::Text)),
                (None, Some(_)) => None,
                (None, None) => None,
            };
            let results = b.outputs.into_iter().map(|o| tool_output(o, locale)).collect_view();
            view! { {sentence} {results} }.into_any()
        }
        BlockKind::Categories => {
            let mut outputs = b.outputs.into_iter();
            match (outputs.next(), outputs.next()) {
                (Some(ToolOutput::SpendingSummary(now)), Some(ToolOutput::SpendingSummary(before))) => {
                    categories(now, before, Figures::Amounts, locale)
                }
                _ => nothing(locale),
            }
        }
        BlockKind::CashFlow => match b.outputs.into_iter().next() {
            Some(ToolOutput::CashFlow(r)) => accounts::cash_flow(r, locale).into_any(),
            _ => nothing(locale),
        },
        BlockKind::Budgets => match b.outputs.into_iter().next() {
            Some(ToolOutput::BudgetStatus(r)) => budgets::budget_status(r, locale).into_any(),
            _ => nothing(locale),
        },
        BlockKind::Merchants => match b.outputs.into_iter().next() {
            Some(ToolOutput::SpendingSummary(r)) => merchants(r, Figures::Amounts, locale),
            _ => nothing(locale),
        },
        BlockKind::Recurring => match b.outputs.into_iter().next() {
            Some(ToolOutput::RecurringPayments(r)) => recurring::recurring(r, locale).into_any(),
            _ => nothing(locale),
        },
    }
}

pub fn nothing(locale: Locale) -> AnyView {
    view! { <p class="empty">{tr(locale, "Rien à montrer pour cette période.", "Nothing to show for this period.")}</p> }
        .into_any()
}

/// "+12,5 %" from `before` to `now`, or "nouveau" when there was nothing before.
fn change(now: i64, before: i64, locale: Locale) -> String {
    match agent::reports::share_bp(now - before, before) {
        Some(bp) => agent::answer::percent(bp, locale),
        None if now == 0 => "—".into(),
        None => tr(locale, "nouveau", "new").into(),
    }
}

/// Spending by category this period and the one before: a bar chart of this period,
/// then a table with the change. With [`Figures::Shares`], each figure is its share of
/// its period's spending.
pub fn categories(now: SummaryResult, before: SummaryResult, figures: Figures, locale: Locale) -> AnyView {
    let groups: Vec<_> = now.groups.iter().take(MAX_GROUPS).cloned().collect();
    let whole = (figures == Figures::Shares).then_some(now.total.minor);
    let y = match figures {
        Figures::Amounts => tr(locale, "Dépenses", "Spending"),
        Figures::Shares => tr(locale, "Part des dépenses", "Share of spending"),
    };
    let chart_title = format!("{} — {}", tr(locale, "Dépenses par catégorie", "Spending by category"), now.period.label);
    let chart = agent::chart::bars(&groups, whole, &chart_title, tr(locale, "Catégorie", "Category"), y)
        .map(|spec| view! { <crate::chart::Chart spec locale/> });
    let cell = move |minor: i64, total: i64, currency| match figures {
        Figures::Amounts => agent::Money::new(minor, currency).format(locale),
        Figures::Shares => agent::reports::share_bp(minor, total)
            .map(|bp| agent::answer::share(bp, locale))
            .unwrap_or_else(|| "—".into()),
    };
    let currency = now.total.currency;
    let rows = now
        .groups
        .iter()
        .take(MAX_GROUPS)
        .map(|g| {
            let prev = before.groups.iter().find(|p| p.key == g.key).map(|p| p.total.minor).unwrap_or(0);
            let delta = change(g.total.minor, prev, locale);
            view! {
                <tr data-key=g.key.clone()>
                    <th scope="row">{g.label.clone()}</th>
                    <td class="num" data-testid="category-now">{cell(g.total.minor, now.total.minor, currency)}</td>
                    <td class="num">{cell(prev, before.total.minor, currency)}</td>
                    <td class="num">{delta}</td>
                </tr>
            }
        })
        .collect_view();
    let total_row = (figures == Figures::Amounts).then(|| {
        view! {
            <tr class="total-row">
                <th scope="row">{tr(locale, "Total", "Total")}</th>
                <td class="num" data-testid="total" data-minor=now.total.minor>{now.total.format(locale)}</td>
                <td class="num" data-testid="reference-total" data-minor=before.total.minor>{before.total.format(locale)}</td>
                <td class="num">{change(now.total.minor, before.total.minor, locale)}</td>
            </tr>
        }
    });
    if now.groups.is_empty() {
        return nothing(locale);
    }
    view! {
        {chart}
        <div class="table-wrap">
            <table class="rows report-categories" data-testid="categories">
                <thead>
                    <tr>
                        <th scope="col">{tr(locale, "Catégorie", "Category")}</th>
                        <th scope="col" class="num">{now.period.label.clone()}</th>
                        <th scope="col" class="num">{before.period.label.clone()}</th>
                        <th scope="col" class="num">{tr(locale, "Évolution", "Change")}</th>
                    </tr>
                </thead>
                <tbody>{rows} {total_row}</tbody>
            </table>
        </div>
    }
    .into_any()
}

/// The largest merchants of the period, with their share of its spending.
pub fn merchants(r: SummaryResult, figures: Figures, locale: Locale) -> AnyView {
    if r.groups.is_empty() {
        return nothing(locale);
    }
    let total = r.total.minor;
    let rows = r
        .groups
        .into_iter()
        .map(|g| {
            let share = agent::reports::share_bp(g.total.minor, total)
                .map(|bp| agent::answer::share(bp, locale))
                .unwrap_or_default();
            let amount = (figures == Figures::Amounts).then(|| view! { <td class="num">{cells::money(g.total, locale)}</td> });
            view! {
                <tr>
                    <th scope="row">{g.label}</th>
                    {amount}
                    <td class="num">{share}</td>
                </tr>
            }
        })
        .collect_view();
    let amount_head = (figures == Figures::Amounts)
        .then(|| view! { <th scope="col" class="num">{tr(locale, "Montant", "Amount")}</th> });
    view! {
        <div class="table-wrap">
            <table class="rows" data-testid="merchants">
                <thead>
                    <tr>
                        <th scope="col">{tr(locale, "Commerçant", "Merchant")}</th>
                        {amount_head}
                        <th scope="col" class="num">{tr(locale, "Part des dépenses", "Share of spending")}</th>
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
    .into_any()
}

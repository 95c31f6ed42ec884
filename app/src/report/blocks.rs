//! A report's blocks with their amounts: an answer as the chat shows it (its sentence,
//! its result), and the parts of a monthly report — spending by category against the
//! period before, cash flow, budgets, top merchants, recurring payments.

use agent::protocol::TextFormat;
use agent::reports::{Block, BlockKind, Figures, Names, ReportPage};
use agent::{Locale, ToolOutput};
use leptos::prelude::*;

use super::parts::{categories, merchants};
use super::shares;
use crate::i18n::tr;
use crate::render::cells::nothing;
use crate::render::tools::{budget_status, cash_flow, recurring_payments};
use crate::render::{answer_text, tool_output};

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
                (None, Some(o)) if !said => Some(answer_text(o.answer(locale), TextFormat::Text)),
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
            Some(ToolOutput::CashFlow(r)) => cash_flow::cash_flow(r, locale).into_any(),
            _ => nothing(locale),
        },
        BlockKind::Budgets => match b.outputs.into_iter().next() {
            Some(ToolOutput::BudgetStatus(r)) => budget_status::budget_status(r, locale).into_any(),
            _ => nothing(locale),
        },
        BlockKind::Merchants => match b.outputs.into_iter().next() {
            Some(ToolOutput::SpendingSummary(r)) => merchants(r, Figures::Amounts, locale),
            _ => nothing(locale),
        },
        BlockKind::Recurring => match b.outputs.into_iter().next() {
            Some(ToolOutput::RecurringPayments(r)) => recurring_payments::recurring(r, locale).into_any(),
            _ => nothing(locale),
        },
    }
}

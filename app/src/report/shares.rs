//! A report's blocks as shares only: every figure is a percentage of its whole (a
//! category of the month's spending, spending of income, a budget used), and no amount
//! of money is written — not in a cell, a chart, a title or an attribute.

use agent::reports::{Block, BlockKind, Figures};
use agent::{Locale, ToolOutput};
use leptos::prelude::*;

use super::parts::{categories, merchants};
use crate::i18n::tr;
use crate::render::cells::nothing;

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

/// One result as shares: each tool's (in `render::tools`), or a note that it only exists
/// as amounts.
fn output(o: ToolOutput, locale: Locale) -> AnyView {
    crate::render::tools::shares(o, locale).unwrap_or_else(|| {
        view! {
            <p class="report-note" data-testid="hidden">
                {tr(locale,
                    "Ce résultat n'existe qu'en montants : il n'apparaît pas dans un rapport en parts.",
                    "This result only exists as amounts: a report of shares leaves it out.")}
            </p>
        }
        .into_any()
    })
}

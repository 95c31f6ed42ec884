//! The transactions behind a ledger result: their table, and the block that shows the
//! first of them with a way to the rest (each tool's view is in `tools`).

use agent::{Locale, TransactionRow};
use leptos::either::Either;
use leptos::prelude::*;

use super::cells::money;
use crate::i18n::{self, t, T};
use crate::table::column_heads;

pub(super) fn rows_table(rows: Vec<TransactionRow>, locale: Locale) -> AnyView {
    view! {
        <table class="rows ledger" data-testid="transactions">
            <thead>
                <tr>
                    {column_heads([
                        (t(locale, T::Date), ""), (t(locale, T::Label), ""), (t(locale, T::Category), ""),
                        (t(locale, T::Amount), "num"),
                    ])}
                </tr>
            </thead>
            <tbody>
                {rows
                    .into_iter()
                    .map(|r| {
                        view! {
                            <tr data-id=(r.id != 0).then_some(r.id)>
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

pub(crate) fn transactions_block(
    mut rows: Vec<TransactionRow>,
    count: u32,
    truncated: bool,
    locale: Locale,
) -> impl IntoView {
    if rows.is_empty() {
        return Either::Left(view! { <p class="empty">{t(locale, T::Empty)}</p> });
    }
    // "Opérations — 154", or, when only the newest are sent, how many of them:
    // "Opérations — 100 affichées sur 154", so that the count and "show N more" agree.
    let title = match (truncated && (rows.len() as u64) < u64::from(count), locale) {
        (true, Locale::Fr) => {
            format!("{} — {} affichées sur {count}", t(locale, T::Transactions), rows.len())
        }
        (true, Locale::En) => format!("{} — {} shown of {count}", t(locale, T::Transactions), rows.len()),
        (false, _) => format!("{} — {count}", t(locale, T::Transactions)),
    };
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
            <p class="rows-title" data-testid="rows-title">{title}</p>
            {rows_table(rows, locale)}
            {more}
        </div>
    })
}

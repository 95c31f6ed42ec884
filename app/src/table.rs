//! Tables as pages and answers share them: column headers, a dataset's columns, and a
//! query's result as the Data page and the chat both show it.

use agent::chart::ChartSpec;
use agent::datasets::{Cell, DatasetInfo, QueryResult};
use agent::Locale;
use leptos::either::Either;
use leptos::prelude::*;

use crate::i18n::count;

/// A table's column headers: each a title and its class, "" for none ("num" for the
/// columns of numbers, aligned right).
pub fn column_heads<const N: usize>(columns: [(&'static str, &'static str); N]) -> [impl IntoView; N] {
    // Two views rather than an empty class, which would still be written as `class=""`.
    columns.map(|(title, class)| {
        if class.is_empty() {
            Either::Left(view! { <th scope="col">{title}</th> })
        } else {
            Either::Right(view! { <th scope="col" class=class>{title}</th> })
        }
    })
}

fn is_number(cell: &Cell) -> bool {
    matches!(cell, Cell::Int(_) | Cell::Num(_))
}

/// "region (text), montant (number)".
pub fn columns_text(d: &DatasetInfo) -> String {
    d.columns.iter().map(|c| format!("{} ({})", c.name, c.kind.as_str())).collect::<Vec<_>>().join(", ")
}

/// A query's rows as a table, after their chart when they have one.
pub fn result_table(r: QueryResult, chart: Option<ChartSpec>, locale: Locale) -> AnyView {
    let chart = chart.map(|spec| view! { <crate::chart::Chart spec locale/> });
    let shown = r.rows.len() as u64;
    let note = if r.truncated {
        match locale {
            Locale::Fr => format!("Les {shown} premières lignes seulement."),
            Locale::En => format!("The first {shown} rows only."),
        }
    } else {
        count(locale, shown, ("ligne", "lignes"), ("row", "rows"))
    };
    // A column of numbers (nulls aside) is aligned right, its header with it.
    let numeric: Vec<bool> = (0..r.columns.len())
        .map(|i| {
            let mut cells = r.rows.iter().filter_map(|row| row.get(i)).filter(|c| !matches!(c, Cell::Null));
            let first = cells.next();
            first.is_some_and(is_number) && cells.all(is_number)
        })
        .collect();
    let class = move |i: usize| if numeric.get(i).copied().unwrap_or(false) { "num" } else { "" };
    let heads = r
        .columns
        .into_iter()
        .enumerate()
        .map(|(i, c)| match class(i) {
            "" => Either::Left(view! { <th scope="col">{c}</th> }),
            class => Either::Right(view! { <th scope="col" class=class>{c}</th> }),
        })
        .collect_view();
    view! {
        {chart}
        <p class="hint" data-testid="result-count">{note}</p>
        <div class="table-scroll">
            <table class="rows" data-testid="query-result">
                <thead>
                    <tr>{heads}</tr>
                </thead>
                <tbody>
                    {r.rows.into_iter().map(|row| view! {
                        <tr>{row.into_iter().enumerate().map(|(i, cell)| match class(i) {
                            "" => Either::Left(view! { <td>{cell.display(locale)}</td> }),
                            class => Either::Right(view! { <td class=class>{cell.display(locale)}</td> }),
                        }).collect_view()}</tr>
                    }).collect_view()}
                </tbody>
            </table>
        </div>
    }
    .into_any()
}

//! Ledger results: a spending or income summary, a list of transactions, and two
//! periods compared.

use agent::{
    CompareResult, Direction, GroupBy, Locale, SummaryResult, TransactionListResult, TransactionRow,
};
use leptos::either::Either;
use leptos::prelude::*;

use super::bars::bar;
use super::cells::{heading, heading_excluding, money, width};
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

fn transactions_block(
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

pub fn summary(r: SummaryResult, tool: &'static str, locale: Locale) -> impl IntoView {
    let filters = [r.merchant.as_ref().or(r.category.as_ref()), r.account.as_ref()];
    let heading = heading_excluding(&filters, &r.period, &r.excluded, locale);
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
                            view! {
                                <li>
                                    <span class="bar-label">{g.label.clone()}</span>
                                    {bar("", width(g.total.minor, max))}
                                    <span class="bar-value">{g.total.format(locale)}</span>
                                </li>
                            }
                        })
                        .collect_view()}
                </ul>
            </figure>
        }
    });
    let total = r.total;
    let total_view = move || {
        view! {
            <span data-testid="total" data-minor=total.minor data-currency=total.currency.to_string()>
                {total.format(locale)}
            </span>
        }
    };
    // An average asked for is the figure; the total it divides stays beside it.
    let figure = match r.average {
        Some(a) => Either::Left(view! {
            <p class="total" data-testid="average" data-minor=a.amount.minor data-currency=a.amount.currency.to_string()>
                {a.amount.format(locale)} " " <span class="per">{agent::wording::per_label(a.per, locale)}</span>
            </p>
            <p class="result-sub">
                {t(locale, T::Total)} " " {total_view()} " · " {agent::answer::average_over(&a, locale)}
            </p>
        }),
        None => Either::Right(view! { <p class="total">{total_view()}</p> }),
    };
    view! {
        <section class="result" data-testid="result" data-tool=tool>
            <p class="result-heading">{heading}</p>
            {figure}
            {chart}
            {groups}
            {transactions_block(r.transactions, r.count, r.transactions_truncated, locale)}
        </section>
    }
}

pub fn listing(r: TransactionListResult, locale: Locale) -> impl IntoView {
    let filters = [r.merchant.as_ref().or(r.category.as_ref()), r.account.as_ref()];
    let mut heading = heading_excluding(&filters, &r.period, &r.excluded, locale);
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

pub fn comparison(r: CompareResult, locale: Locale) -> impl IntoView {
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

//! `spending_summary`'s result: the total (or the average asked for), the groups, and
//! the transactions behind it; shared with `income_summary`. As shares: each group's
//! part of the total.

use agent::{GroupBy, Locale, SummaryResult};
use leptos::either::Either;
use leptos::prelude::*;

use super::ToolView;
use crate::i18n::{t, tr, T};
use crate::render::bars::bar;
use crate::render::cells::{heading_excluding, width};
use crate::render::ledger::transactions_block;
use crate::render::cells::MAX_GROUPS;
use crate::render::cells::pct;

pub(crate) struct View;

impl ToolView for View {
    type Output = SummaryResult;
    const LABEL: (&'static str, &'static str) = ("Dépenses", "Spending");

    fn view(r: SummaryResult, locale: Locale) -> AnyView {
        summary(r, "spending_summary", locale).into_any()
    }

    fn shares(r: SummaryResult, locale: Locale) -> Option<AnyView> {
        Some(shares(r, locale))
    }

    fn figure(r: &SummaryResult, amounts: bool, locale: Locale) -> Option<String> {
        amounts.then(|| r.total.format(locale))
    }
}

pub(super) fn summary(r: SummaryResult, tool: &'static str, locale: Locale) -> impl IntoView {
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

pub(super) fn shares(r: SummaryResult, locale: Locale) -> AnyView {
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

//! What a report shows the same way with amounts or as shares: spending by category
//! against the period before, the top merchants, and "nothing to show".

use agent::reports::Figures;
use agent::{Locale, SummaryResult};
use leptos::prelude::*;

use crate::i18n::tr;
use crate::render::cells::{self, nothing, MAX_GROUPS};

/// Groups a report's charts and tables show, at most.
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
    let chart_title =
        format!("{} — {}", tr(locale, "Dépenses par catégorie", "Spending by category"), now.period.label);
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
            let amount = (figures == Figures::Amounts)
                .then(|| view! { <td class="num">{cells::money(g.total, locale)}</td> });
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

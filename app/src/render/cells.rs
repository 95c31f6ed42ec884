//! Pieces the result views share: amounts, money cells, headings, bar widths, and a
//! table that may be empty.

use agent::{EntityRef, Locale, Money, Period};
use leptos::either::Either;
use leptos::prelude::*;

/// An amount, marked when negative.
pub fn money(m: Money, locale: Locale) -> impl IntoView {
    let class = if m.minor < 0 { "money neg" } else { "money" };
    view! { <span class=class>{m.format(locale)}</span> }
}

/// "Courses · Compte courant · janvier 2026": the filters that apply, then the period.
pub fn heading(filters: &[Option<&EntityRef>], period: &Period) -> String {
    let mut parts: Vec<&str> = filters.iter().flatten().map(|f| f.label.as_str()).collect();
    parts.push(period.label.as_str());
    parts.join(" · ")
}

/// The heading of a result that leaves names out: "Restaurants · 2025 · hors Deliveroo".
pub fn heading_excluding(
    filters: &[Option<&EntityRef>],
    period: &Period,
    excluded: &[EntityRef],
    locale: agent::Locale,
) -> String {
    let base = heading(filters, period);
    let names: Vec<&str> = excluded.iter().map(|e| e.label.as_str()).collect();
    match agent::wording::excluding(&names, locale) {
        Some(but) => format!("{base} · {but}"),
        None => base,
    }
}

/// Integer width in percent of `part` against `max`, for a CSS bar.
pub fn width(part: i64, max: i64) -> i64 {
    if max <= 0 {
        return 0;
    }
    i64::try_from((i128::from(part.max(0)) * 100 / i128::from(max)).clamp(0, 100)).unwrap_or(0)
}

/// A money cell that tests and scripts can read exactly, with its column's name
/// (`data-label`) for the phone layout, where a row is a card without headers.
pub fn money_cell(m: Money, locale: Locale, testid: &'static str, label: &'static str) -> impl IntoView {
    view! {
        <td class="num" data-testid=testid data-label=label data-minor=m.minor data-currency=m.currency.to_string()>
            {money(m, locale)}
        </td>
    }
}

/// A result's table, or the line that says it has nothing to list.
pub fn table_or<V: IntoView>(empty: bool, nothing: &'static str, table: impl FnOnce() -> V) -> impl IntoView {
    if empty {
        Either::Left(view! { <p class="empty">{nothing}</p> })
    } else {
        Either::Right(table())
    }
}

/// The most groups a breakdown shows.
pub const MAX_GROUPS: usize = 12;

/// "Rien à montrer pour cette période." where a result has no rows.
pub fn nothing(locale: Locale) -> AnyView {
    view! { <p class="empty">{crate::i18n::tr(locale, "Rien à montrer pour cette période.", "Nothing to show for this period.")}</p> }
        .into_any()
}

/// `part` as a share of `whole` ("34,1 %"), or "—" when there is no whole.
pub(crate) fn pct(part: i64, whole: i64, locale: Locale) -> String {
    agent::reports::share_bp(part, whole)
        .map(|bp| agent::answer::share(bp, locale))
        .unwrap_or_else(|| "—".into())
}

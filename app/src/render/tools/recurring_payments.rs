//! `recurring_payments`' result: subscriptions and other regular debits, with their
//! yearly cost; as shares, each payment's part of the yearly cost.

use agent::{Cadence, Locale, RecurringResult};
use leptos::prelude::*;

use super::ToolView;
use crate::i18n::{self, t, tr, T};
use crate::render::cells::{heading, money, money_cell, table_or};
use crate::render::cells::nothing;
use crate::render::cells::pct;
use crate::table::column_heads;

pub(crate) struct View;

impl ToolView for View {
    type Output = RecurringResult;
    const LABEL: (&'static str, &'static str) = ("Paiements récurrents", "Recurring payments");

    fn view(r: RecurringResult, locale: Locale) -> AnyView {
        recurring(r, locale).into_any()
    }

    fn shares(r: RecurringResult, locale: Locale) -> Option<AnyView> {
        Some(shares(r, locale))
    }
}

fn cadence(c: Cadence, locale: Locale) -> &'static str {
    match c {
        Cadence::Weekly => t(locale, T::Weekly),
        Cadence::Monthly => t(locale, T::Monthly),
        Cadence::Quarterly => t(locale, T::Quarterly),
        Cadence::Yearly => t(locale, T::Yearly),
    }
}

pub(crate) fn recurring(r: RecurringResult, locale: Locale) -> impl IntoView {
    let heading = heading(&[r.merchant.as_ref().or(r.category.as_ref())], &r.period);
    let body = table_or(r.items.is_empty(), t(locale, T::NoRecurring), move || {
        view! {
            <table class="rows recurring" data-testid="recurring">
                <caption>{t(locale, T::Recurring)}</caption>
                <thead>
                    <tr>
                        {column_heads([
                            (t(locale, T::Name), ""), (t(locale, T::Cadence), ""),
                            (t(locale, T::TypicalAmount), "num"), (t(locale, T::Last), ""),
                            (t(locale, T::Next), ""), (t(locale, T::PerYear), "num"),
                        ])}
                    </tr>
                </thead>
                <tbody>
                    {r.items
                        .into_iter()
                        .map(|i| {
                            let key = i.merchant.as_ref().map(|m| m.key.clone()).unwrap_or_default();
                            view! {
                                <tr data-key=key data-cadence=format!("{:?}", i.cadence).to_lowercase()>
                                    <th scope="row">
                                        <span class="label">{i.label}</span>
                                        {i.category.map(|c| view! { <span class="merchant">{c.label}</span> })}
                                    </th>
                                    <td data-label=t(locale, T::Cadence)>{cadence(i.cadence, locale)} <span class="count">{format!(" ×{}", i.count)}</span></td>
                                    {money_cell(i.amount, locale, "amount", t(locale, T::TypicalAmount))}
                                    <td class="date">{i18n::date(i.last_date, locale)}</td>
                                    <td class="date" data-label=t(locale, T::Next)>{i18n::date(i.next_date, locale)}</td>
                                    {money_cell(i.yearly_cost, locale, "yearly-cost", t(locale, T::PerYear))}
                                </tr>
                            }
                        })
                        .collect_view()}
                </tbody>
                <tfoot>
                    <tr>
                        <th scope="row" colspan="5">{t(locale, T::TotalPerYear)}</th>
                        <td class="num">{money(r.yearly_total, locale)}</td>
                    </tr>
                </tfoot>
            </table>
        }
    });
    view! {
        <section class="result" data-testid="result" data-tool="recurring_payments">
            <p class="result-heading">{heading}</p>
            <p class="total" data-testid="total" data-minor=r.monthly_total.minor
                data-currency=r.monthly_total.currency.to_string()>
                {r.monthly_total.format(locale)}
                <span class="total-of">{t(locale, T::PerMonthSuffix)}</span>
            </p>
            <p class="result-sub">
                {format!("{} {}", r.yearly_total.format(locale), t(locale, T::PerYearSuffix))}
            </p>
            {body}
        </section>
    }
}

fn shares(r: RecurringResult, locale: Locale) -> AnyView {
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

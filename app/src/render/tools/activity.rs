//! `activity`'s result: how many transactions, their total and average, and the first,
//! the last and the largest of them. Amounts only: a report of shares leaves it out.

use agent::tool::activity::ActivityResult;
use agent::{Direction, Locale, TransactionRow};
use leptos::prelude::*;

use super::ToolView;
use crate::i18n::{self, count, tr};
use crate::render::cells::{heading, money};

pub(crate) struct View;

impl ToolView for View {
    type Output = ActivityResult;
    const LABEL: (&'static str, &'static str) = ("Activité", "Activity");

    fn view(r: ActivityResult, locale: Locale) -> AnyView {
        activity(r, locale).into_any()
    }

    fn figure(r: &ActivityResult, _: bool, locale: Locale) -> Option<String> {
        Some(counted(r, locale))
    }
}

/// "12 dépenses", "3 credits".
fn counted(r: &ActivityResult, locale: Locale) -> String {
    match r.direction {
        Direction::Debit => count(locale, u64::from(r.count), ("dépense", "dépenses"), ("payment", "payments")),
        Direction::Credit => {
            count(locale, u64::from(r.count), ("entrée d'argent", "entrées d'argent"), ("credit", "credits"))
        }
    }
}

fn activity(r: ActivityResult, locale: Locale) -> impl IntoView {
    let heading = heading(&[r.merchant.as_ref().or(r.category.as_ref()), r.account.as_ref()], &r.period);
    let figure = counted(&r, locale);
    let sub = r.average.map(|average| {
        view! {
            <p class="result-sub">
                {tr(locale, "Total ", "Total ")} {money(r.total, locale)}
                {tr(locale, " · en moyenne ", " · on average ")} {money(average, locale)}
            </p>
        }
    });
    let row = |which: &'static str, row: Option<Box<TransactionRow>>| {
        row.map(|t| {
            view! {
                <tr data-id=(t.id != 0).then_some(t.id)>
                    <th scope="row">{which}</th>
                    <td class="date">{i18n::date(t.date, locale)}</td>
                    <td>
                        <span class="label">{t.label}</span>
                        {t.merchant.map(|m| view! { <span class="merchant">{m}</span> })}
                    </td>
                    <td class="num">{money(t.amount, locale)}</td>
                </tr>
            }
        })
    };
    let rows = [
        row(tr(locale, "La première", "The first"), r.first),
        row(tr(locale, "La dernière", "The last"), r.last),
        row(tr(locale, "La plus grosse", "The largest"), r.largest),
    ];
    let table = (r.count > 0).then(|| {
        view! {
            <div class="table-wrap">
                <table class="rows ledger" data-testid="activity">
                    <tbody>{rows.into_iter().flatten().collect_view()}</tbody>
                </table>
            </div>
        }
    });
    view! {
        <section class="result" data-testid="result" data-tool="activity">
            <p class="result-heading">{heading}</p>
            <p class="total" data-testid="count" data-count=r.count>{figure}</p>
            {sub}
            {table}
        </section>
    }
}

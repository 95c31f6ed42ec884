//! `balances`' result: each account's balance on a day, and their total. Amounts only.

use agent::{BalancesResult, Locale};
use leptos::prelude::*;

use super::ToolView;
use crate::i18n::{self, t, T};
use crate::render::cells::{money, money_cell, table_or};
use crate::table::column_heads;

pub(crate) struct View;

impl ToolView for View {
    type Output = BalancesResult;
    const LABEL: (&'static str, &'static str) = ("Soldes", "Balances");

    fn view(r: BalancesResult, locale: Locale) -> AnyView {
        balances(r, locale).into_any()
    }

    fn figure(r: &BalancesResult, amounts: bool, locale: Locale) -> Option<String> {
        amounts.then(|| r.total.format(locale))
    }
}

fn account_kind(kind: &str, locale: Locale) -> &'static str {
    match kind {
        "checking" => t(locale, T::Checking),
        "savings" => t(locale, T::SavingsAccount),
        "card" => t(locale, T::Card),
        _ => t(locale, T::OtherAccount),
    }
}

fn balances(r: BalancesResult, locale: Locale) -> impl IntoView {
    let heading = format!("{} {}", t(locale, T::BalancesOn), i18n::date(r.date, locale));
    let body = table_or(r.accounts.is_empty(), t(locale, T::NoAccount), move || {
        view! {
            <table class="rows balances" data-testid="balances">
                <caption>{t(locale, T::Accounts)}</caption>
                <thead>
                    <tr>
                        {column_heads([
                            (t(locale, T::Account), ""), (t(locale, T::AccountType), ""),
                            (t(locale, T::Balance), "num"),
                        ])}
                    </tr>
                </thead>
                <tbody>
                    {r.accounts
                        .into_iter()
                        .map(|a| {
                            view! {
                                <tr data-key=a.key.clone()>
                                    <th scope="row">{a.label}</th>
                                    <td>{account_kind(&a.kind, locale)}</td>
                                    {money_cell(a.balance, locale, "balance", t(locale, T::Balance))}
                                </tr>
                            }
                        })
                        .collect_view()}
                </tbody>
                <tfoot>
                    <tr>
                        <th scope="row" colspan="2">{t(locale, T::Total)}</th>
                        <td class="num">{money(r.total, locale)}</td>
                    </tr>
                </tfoot>
            </table>
        }
    });
    view! {
        <section class="result" data-testid="result" data-tool="balances">
            <p class="result-heading">{heading}</p>
            <p class="total" data-testid="total" data-minor=r.total.minor data-currency=r.total.currency.to_string()>
                {r.total.format(locale)}
            </p>
            {body}
        </section>
    }
}

//! Money in and out of the accounts: cash flow over a period, and balances on a day.

use agent::answer::share;
use agent::{BalancesResult, CashFlowResult, GroupBy, Locale};
use leptos::prelude::*;

use super::bars::bar;
use super::cells::{heading, money, money_cell, table_or, width};
use crate::i18n::{self, t, T};
use crate::table::column_heads;

pub fn cash_flow(r: CashFlowResult, locale: Locale) -> impl IntoView {
    let heading = heading(&[r.account.as_ref()], &r.period);
    let net_class = if r.net.minor < 0 { "kpi kpi-net neg" } else { "kpi kpi-net" };
    let rate = r.savings_rate_basis_points;
    let max = r.rows.iter().map(|x| x.income.minor.max(x.spending.minor)).max().unwrap_or(0);
    let caption = match r.group_by {
        GroupBy::Week => t(locale, T::PerWeek),
        GroupBy::Day => t(locale, T::PerDay),
        _ => t(locale, T::PerMonth),
    };
    let table = (!r.rows.is_empty()).then(|| {
        view! {
            <table class="rows flow" data-testid="flow-rows">
                <caption>{caption}</caption>
                <thead>
                    <tr>
                        {column_heads([
                            (t(locale, T::Period), ""), (t(locale, T::Income), "num"),
                            (t(locale, T::Spending), "num"), (t(locale, T::Net), "num"),
                        ])}
                        <th scope="col" class="flow-chart-head"><span class="visually-hidden">{t(locale, T::Chart)}</span></th>
                    </tr>
                </thead>
                <tbody>
                    {r.rows
                        .into_iter()
                        .map(|x| {
                            let w_in = width(x.income.minor, max);
                            let w_out = width(x.spending.minor, max);
                            view! {
                                <tr data-key=x.key.clone()>
                                    <th scope="row">{x.label}</th>
                                    <td class="num">{money(x.income, locale)}</td>
                                    <td class="num">{money(x.spending, locale)}</td>
                                    <td class="num">{money(x.net, locale)}</td>
                                    <td class="flow-chart" aria-hidden="true">
                                        {bar("bar-in", w_in)}
                                        {bar("bar-out", w_out)}
                                    </td>
                                </tr>
                            }
                        })
                        .collect_view()}
                </tbody>
            </table>
        }
    });
    view! {
        <section class="result" data-testid="result" data-tool="cash_flow">
            <p class="result-heading">{heading}</p>
            <dl class="kpis">
                <div class="kpi">
                    <dt>{t(locale, T::Income)}</dt>
                    <dd data-testid="income" data-minor=r.income.minor>{r.income.format(locale)}</dd>
                </div>
                <div class="kpi">
                    <dt>{t(locale, T::Spending)}</dt>
                    <dd data-testid="spending" data-minor=r.spending.minor>{r.spending.format(locale)}</dd>
                </div>
                <div class=net_class>
                    <dt>{t(locale, T::Net)}</dt>
                    <dd class="total" data-testid="total" data-minor=r.net.minor
                        data-currency=r.net.currency.to_string()>
                        {r.net.format(locale)}
                    </dd>
                </div>
                <div class="kpi">
                    <dt>{t(locale, T::SavingsRate)}</dt>
                    <dd data-testid="savings-rate" data-basis-points=rate.map(|bp| bp.to_string())>
                        {rate.map(|bp| share(bp, locale)).unwrap_or_else(|| "—".to_string())}
                    </dd>
                </div>
            </dl>
            {table}
            <p class="note">{t(locale, T::CashFlowNote)}</p>
        </section>
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

pub fn balances(r: BalancesResult, locale: Locale) -> impl IntoView {
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

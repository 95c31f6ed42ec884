//! `cash_flow`'s result: money in and out, the net and the savings rate, by month, week
//! or day; as shares, each of income.

use agent::answer::share;
use agent::{CashFlowResult, GroupBy, Locale};
use leptos::prelude::*;

use super::ToolView;
use crate::i18n::{t, tr, T};
use crate::render::bars::bar;
use crate::render::cells::{heading, money, width};
use crate::render::cells::pct;
use crate::table::column_heads;

pub(crate) struct View;

impl ToolView for View {
    type Output = CashFlowResult;
    const LABEL: (&'static str, &'static str) = ("Flux de trésorerie", "Cash flow");

    fn view(r: CashFlowResult, locale: Locale) -> AnyView {
        cash_flow(r, locale).into_any()
    }

    fn shares(r: CashFlowResult, locale: Locale) -> Option<AnyView> {
        Some(shares(r, locale))
    }

    fn figure(r: &CashFlowResult, _: bool, locale: Locale) -> Option<String> {
        r.savings_rate_basis_points.map(|bp| share(bp, locale))
    }
}

pub(crate) fn cash_flow(r: CashFlowResult, locale: Locale) -> impl IntoView {
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

fn shares(r: CashFlowResult, locale: Locale) -> AnyView {
    let rate = r.savings_rate_basis_points.map(|bp| agent::answer::share(bp, locale));
    let rows = r
        .rows
        .iter()
        .map(|row| {
            view! {
                <tr>
                    <th scope="row">{row.label.clone()}</th>
                    <td class="num">{pct(row.spending.minor, row.income.minor, locale)}</td>
                    <td class="num">{pct(row.net.minor, row.income.minor, locale)}</td>
                </tr>
            }
        })
        .collect_view();
    let table = (!r.rows.is_empty()).then(|| {
        view! {
            <div class="table-wrap">
                <table class="rows">
                    <thead>
                        <tr>
                            <th scope="col">{tr(locale, "Période", "Period")}</th>
                            <th scope="col" class="num">{tr(locale, "Dépenses / revenus", "Spending / income")}</th>
                            <th scope="col" class="num">{tr(locale, "Épargne / revenus", "Savings / income")}</th>
                        </tr>
                    </thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
        }
    });
    view! {
        <section class="result" data-testid="result" data-tool="cash_flow">
            <p class="result-heading">{r.period.label.clone()}</p>
            <p class="total" data-testid="savings-rate">
                {tr(locale, "Taux d'épargne : ", "Savings rate: ")} {rate.unwrap_or_else(|| "—".into())}
            </p>
            <p class="result-sub">
                {tr(locale, "Dépenses : ", "Spending: ")} {pct(r.spending.minor, r.income.minor, locale)}
                {tr(locale, " des revenus", " of income")}
            </p>
            {table}
        </section>
    }
    .into_any()
}

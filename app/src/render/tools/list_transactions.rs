//! `list_transactions`' result: the transactions and their net. Amounts only: a report
//! of shares leaves it out.

use agent::{Direction, Locale, TransactionListResult};
use leptos::prelude::*;

use super::ToolView;
use crate::i18n::{t, T};
use crate::render::cells::{heading_excluding, money};
use crate::render::ledger::transactions_block;

pub(crate) struct View;

impl ToolView for View {
    type Output = TransactionListResult;
    const LABEL: (&'static str, &'static str) = ("Liste des opérations", "Transaction lists");

    fn view(r: TransactionListResult, locale: Locale) -> AnyView {
        listing(r, locale).into_any()
    }

    fn figure(r: &TransactionListResult, amounts: bool, locale: Locale) -> Option<String> {
        amounts.then(|| r.net.format(locale))
    }
}

fn listing(r: TransactionListResult, locale: Locale) -> impl IntoView {
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

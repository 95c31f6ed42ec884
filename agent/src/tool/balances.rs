//! `balances`: each account's balance at the close of a period's last day.

use serde::{Deserialize, Serialize};

use super::{Filters, FiltersMut, Heading};
use crate::json::{string, Fields, Json, R};
use crate::args::ledger_args;
use crate::plan_json::period as read_period;
use super::Hide;
use crate::date::Date;
use crate::locale::Locale;
use crate::money::Money;
use crate::args::Period;

ledger_args! {
    /// Arguments of `balances`: each account's balance at the close of the period's last
    /// day (`end - 1`). "What is my balance" is today's period.
    pub struct BalancesArgs {
        pub period: Period,
        pub account?: String,
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AccountBalance {
    pub key: String,
    pub label: String,
    /// `checking`, `savings`, `card` or `other`.
    pub kind: String,
    pub balance: Money,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BalancesResult {
    pub period: Period,
    /// The day whose closing balances these are (the period's last day, never after today).
    pub date: Date,
    pub accounts: Vec<AccountBalance>,
    /// Sum of the accounts in the ledger's main currency.
    pub total: Money,
}

/// What the tool does, as the registry gives it to models and API clients.
pub const DESCRIPTION: &str = "The balance of each account (or one) at the close of the period's last day, \
     never after today, and their total.";

pub type Args = BalancesArgs;
pub type Output = BalancesResult;

pub(crate) const EXPECT: (&str, &str) = ("Les soldes des comptes", "The accounts' balances");

pub(crate) fn read(json: &Json) -> R<BalancesArgs> {
    let f = Fields::of(json, Some(&["period", "account"]))?;
    Ok(BalancesArgs { period: f.req("period", read_period)?, account: f.opt("account", string)? })
}

pub(crate) fn filters(a: &BalancesArgs) -> Filters<'_> {
    Filters { period: Some(&a.period), account: a.account.as_deref(), ..Filters::default() }
}

pub(crate) fn filters_mut(a: &mut BalancesArgs) -> FiltersMut<'_> {
    FiltersMut { period: Some(&mut a.period), account: Some(&mut a.account), ..FiltersMut::default() }
}

pub(crate) fn title(_: &BalancesArgs, h: &Heading<'_>, locale: Locale) -> String {
    h.with(locale.pick("Solde des comptes", "Account balances"), locale)
}

pub(crate) fn answer(r: &BalancesResult, locale: Locale) -> String {
    let total = r.total.format(locale);
    let date = crate::wording::day_label(r.date, locale);
    match (locale, r.accounts.as_slice()) {
        (Locale::Fr, [one]) => format!("Solde de {} au {date} : {}.", one.label, one.balance.format(locale)),
        (Locale::En, [one]) => format!("{} balance on {date}: {}.", one.label, one.balance.format(locale)),
        (Locale::Fr, accounts) => {
            format!("Solde total au {date} : {total}, sur {} compte(s).", accounts.len())
        }
        (Locale::En, accounts) => {
            format!("Total balance on {date}: {total}, across {} account(s).", accounts.len())
        }
    }
}

pub(crate) fn period(r: &BalancesResult) -> &Period {
    &r.period
}

/// Nothing to hide: each account's balance names no merchant and carries no id.
pub(crate) fn redact(r: BalancesResult, _: &Hide) -> BalancesResult {
    r
}

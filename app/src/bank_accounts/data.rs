//! What the accounts page loads and changes: thin server functions (who asks, the
//! backend's `BankAccounts`, the error mapped once).

use agent::{Date, Locale, Money};
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

use crate::api::AccountView;
use crate::error::AppError;

/// One bank account as the page shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AccountRow {
    pub key: String,
    pub name: String,
    /// `checking`, `savings`, `card` or `other`.
    pub kind: String,
    /// At the close of today; `None` while it opens after today.
    pub balance: Option<Money>,
    pub opening: Option<(Date, Money)>,
    pub transactions: u64,
    pub span: Option<(Date, Date)>,
    pub aliases: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BankAccountsData {
    pub account: AccountView,
    pub locale: Locale,
    pub today: Date,
    pub accounts: Vec<AccountRow>,
    /// The accounts in the ledger's currency, added up (the `balances` tool's total).
    pub total: Option<Money>,
}

#[server(endpoint = "bank_accounts")]
pub async fn load_bank_accounts() -> Result<BankAccountsData, AppError> {
    use crate::api::ssr;
    ssr::answer(async move {
        let (sou, user) = ssr::session()?;
        let locale = ssr::accept_language();
        let today = sou.today();
        let listed = sou.bank_accounts().list(user, locale, today).await?;
        Ok(BankAccountsData {
            account: ssr::account_view()?,
            locale,
            today,
            accounts: listed
                .accounts
                .into_iter()
                .map(|a| AccountRow {
                    key: a.key,
                    name: a.name,
                    kind: a.kind,
                    balance: a.balance,
                    opening: a.opening,
                    transactions: a.transactions,
                    span: a.span,
                    aliases: a.aliases,
                })
                .collect(),
            total: listed.total,
        })
    })
    .await
}

/// Renames account `key`; its old name stays understood.
#[server(endpoint = "rename_account")]
pub async fn rename_account(key: String, name: String) -> Result<(), AppError> {
    use crate::api::ssr;
    ssr::answer(async move {
        let (sou, user) = ssr::session()?;
        Ok(sou.bank_accounts().rename(user, &key, &name).await?)
    })
    .await
}

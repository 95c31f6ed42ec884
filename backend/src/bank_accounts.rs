//! The user's bank accounts as Settings → Accounts lists them: each with its balance
//! today (the `balances` tool's, so the page and the chat say the same figure), its
//! opening balance, how many transactions it holds and their first and last days; and
//! renaming one. A renamed account keeps its key, and its old name as an alias, so
//! questions and plans that named it still find it.

use agent::{Currency, Date, Locale, Money, Period, ToolCall};
use thiserror::Error;

use crate::error::{BackendError, ErrorKind, UserError};
use crate::ids::UserId;
use crate::import::fold;
use crate::store::Store;
use crate::tools::flows::{account_columns, AccountRow};

/// The longest name an account may have, in characters.
pub const MAX_NAME_CHARS: usize = 60;

/// One account, as the page shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BankAccount {
    pub key: String,
    /// Its name in the page's language.
    pub name: String,
    /// `checking`, `savings`, `card` or `other`.
    pub kind: String,
    pub currency: Currency,
    /// Its balance at the close of today; `None` while it opens after today.
    pub balance: Option<Money>,
    /// The balance it was opened with, and the day.
    pub opening: Option<(Date, Money)>,
    pub transactions: u64,
    /// Its first and last transactions' days.
    pub span: Option<(Date, Date)>,
    /// Other names it answers to (an old name, among them).
    pub aliases: Vec<String>,
}

/// Every account and their total today (the accounts in the ledger's currency; the
/// others are in their own).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listed {
    pub accounts: Vec<BankAccount>,
    pub total: Option<Money>,
}

#[derive(Debug, Error)]
pub enum AccountError {
    #[error("an account's name may not be empty")]
    Empty,
    #[error("an account's name is at most {MAX_NAME_CHARS} characters")]
    TooLong,
    #[error("an account's name may not hold hidden characters")]
    Characters,
    #[error("another account is named {0:?}")]
    Taken(String),
    #[error(transparent)]
    Backend(#[from] BackendError),
}

impl From<sqlx::Error> for AccountError {
    fn from(e: sqlx::Error) -> Self {
        AccountError::Backend(e.into())
    }
}

impl UserError for AccountError {
    fn code(&self) -> &'static str {
        match self {
            AccountError::Empty => "name_empty",
            AccountError::TooLong => "name_too_long",
            AccountError::Characters => "name_characters",
            AccountError::Taken(_) => "name_taken",
            AccountError::Backend(e) => e.code(),
        }
    }

    fn message(&self, locale: Locale) -> String {
        match self {
            AccountError::Empty => locale.pick("Donnez un nom au compte.", "Give the account a name.").into(),
            AccountError::TooLong => locale
                .pick(
                    format!("Un nom de compte fait au plus {MAX_NAME_CHARS} caractères."),
                    format!("An account's name is at most {MAX_NAME_CHARS} characters."),
                )
                .to_string(),
            AccountError::Characters => locale
                .pick(
                    "Le nom contient des caractères invisibles ; retapez-le.",
                    "The name holds hidden characters; type it again.",
                )
                .into(),
            AccountError::Taken(name) => locale
                .pick(
                    format!("Un autre compte s'appelle déjà « {name} » ; rien n'a été modifié."),
                    format!("Another account is already called “{name}”; nothing changed."),
                )
                .to_string(),
            AccountError::Backend(e) => e.message(locale),
        }
    }

    fn kind(&self) -> ErrorKind {
        match self {
            AccountError::Backend(e) => e.kind(),
            _ => ErrorKind::Invalid,
        }
    }
}

/// An account's name as saved: its words separated by one space.
fn clean_name(name: &str) -> Result<String, AccountError> {
    let name = name.split_whitespace().collect::<Vec<_>>().join(" ");
    if agent::text::hidden_control(&name).is_some() {
        return Err(AccountError::Characters);
    }
    if name.is_empty() {
        return Err(AccountError::Empty);
    }
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(AccountError::TooLong);
    }
    Ok(name)
}

/// The user's bank accounts: listed, renamed.
#[derive(Clone)]
pub struct BankAccounts {
    store: Store,
}

/// An account as the list reads it: as stored, with how many transactions it holds and
/// their span.
#[derive(sqlx::FromRow)]
struct ListedRow {
    #[sqlx(flatten)]
    account: AccountRow,
    aliases: String,
    transactions: i64,
    first_date: Option<String>,
    last_date: Option<String>,
}

impl BankAccounts {
    pub fn new(store: Store) -> BankAccounts {
        BankAccounts { store }
    }

    /// Every account of `user`, in the order they were made, and their total.
    pub async fn list(&self, user: UserId, locale: Locale, today: Date) -> Result<Listed, BackendError> {
        let day = Period { start: today, end: today.add_days(1), label: String::new(), words: String::new() };
        let (balances, total) = match crate::tools::run(
            &self.store,
            user,
            &ToolCall::Balances(agent::BalancesArgs { period: day, account: None }),
            locale,
            today,
        )
        .await?
        {
            agent::ToolOutput::Balances(r) => (r.accounts, Some(r.total)),
            _ => (Vec::new(), None),
        };
        let mut db = self.store.tenant_read(user).await?;
        let rows: Vec<ListedRow> = sqlx::query_as(concat!(
            "SELECT ",
            account_columns!(),
            ", a.aliases,
                    (SELECT CAST(COUNT(*) AS BIGINT) FROM transactions t
                       WHERE t.user_id = a.user_id AND t.account_id = a.id) AS transactions,
                    (SELECT MIN(t.date) FROM transactions t WHERE t.user_id = a.user_id AND t.account_id = a.id) AS first_date,
                    (SELECT MAX(t.date) FROM transactions t WHERE t.user_id = a.user_id AND t.account_id = a.id) AS last_date
             FROM accounts a WHERE a.user_id = $1 AND a.key IS NOT NULL ORDER BY a.id"
        ))
        .bind(user.0)
        .fetch_all(&mut *db)
        .await?;
        db.commit().await?;
        let mut out = Vec::with_capacity(rows.len());
        for r in rows {
            let a = r.account;
            let key = a.key;
            let currency = Currency::new(&a.currency)
                .ok_or_else(|| BackendError::Corrupt(format!("account {key}: currency {:?}", a.currency)))?;
            let opening = a
                .opening_date
                .as_deref()
                .and_then(Date::parse_iso)
                .map(|d| (d, Money::new(a.opening_balance_minor, currency)));
            let aliases: Vec<String> = serde_json::from_str(&r.aliases)
                .map_err(|e| BackendError::Corrupt(format!("aliases of account {key}: {e}")))?;
            let first = r.first_date.as_deref().and_then(Date::parse_iso);
            let last = r.last_date.as_deref().and_then(Date::parse_iso);
            out.push(BankAccount {
                balance: balances.iter().find(|b| b.key == key).map(|b| b.balance),
                name: if locale == Locale::En { a.name_en } else { a.name },
                kind: a.kind,
                currency,
                opening,
                transactions: u64::try_from(r.transactions).unwrap_or(0),
                span: first.zip(last),
                aliases,
                key,
            });
        }
        Ok(Listed { accounts: out, total })
    }

    /// Renames account `key` to `name` in both languages; its old name becomes one of
    /// its aliases. Another account's name (accents and case aside) is refused.
    pub async fn rename(&self, user: UserId, key: &str, name: &str) -> Result<(), AccountError> {
        let name = clean_name(name)?;
        let mut tx = self.store.tenant(user).await?;
        let (id, old, stored): (i64, String, String) =
            sqlx::query_as("SELECT id, name, aliases FROM accounts WHERE user_id = $1 AND key = $2")
                .bind(user.0)
                .bind(key)
                .fetch_optional(&mut *tx)
                .await?
                .ok_or(AccountError::Backend(BackendError::NotFound))?;
        let others: Vec<String> =
            sqlx::query_scalar("SELECT name FROM accounts WHERE user_id = $1 AND id <> $2")
                .bind(user.0)
                .bind(id)
                .fetch_all(&mut *tx)
                .await?;
        if let Some(taken) = others.into_iter().find(|o| fold(o) == fold(&name)) {
            return Err(AccountError::Taken(taken));
        }
        let mut aliases: Vec<String> = serde_json::from_str(&stored)
            .map_err(|e| BackendError::Corrupt(format!("aliases of account {key}: {e}")))?;
        aliases.retain(|a| fold(a) != fold(&name));
        if fold(&old) != fold(&name) && !aliases.iter().any(|a| fold(a) == fold(&old)) {
            aliases.push(old);
        }
        let aliases = serde_json::to_string(&aliases).map_err(|e| BackendError::Corrupt(e.to_string()))?;
        sqlx::query(
            "UPDATE accounts SET name = $3, name_en = NULL, aliases = $4 WHERE user_id = $1 AND id = $2",
        )
        .bind(user.0)
        .bind(id)
        .bind(&name)
        .bind(aliases)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_cleaned_or_refused() {
        assert_eq!(clean_name("  Livret   A ").unwrap(), "Livret A");
        assert!(matches!(clean_name("   "), Err(AccountError::Empty)));
        assert!(matches!(clean_name(&"x".repeat(61)), Err(AccountError::TooLong)));
        assert_eq!(clean_name(&"é".repeat(60)).unwrap().chars().count(), 60);
        assert!(matches!(clean_name("Compte\u{202e}"), Err(AccountError::Characters)));
    }
}

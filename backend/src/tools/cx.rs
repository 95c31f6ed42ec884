//! What the ledger's tools run with: their transaction, whose data, what is known of
//! it, the answer's language and the plan's today; what their checks and their sources'
//! pages read with.

use agent::{Currency, Date, Locale};
use sqlx::AnyConnection;

use super::Known;
use crate::ids::UserId;

/// What a tool runs with: the transaction it reads in, whose data, what the caller
/// already read of them, the language of the answer and the plan's today.
pub(crate) struct RunCx<'a> {
    pub db: &'a mut AnyConnection,
    pub user: UserId,
    pub known: &'a Known,
    pub locale: Locale,
    pub today: Date,
}

/// What a tool's checks read with: the transaction that read its result, the first and
/// last dates of the user's transactions, the whole months found equal to their rows.
pub(crate) struct CheckCx<'a> {
    pub db: &'a mut AnyConnection,
    pub user: UserId,
    pub span: Option<(Date, Date)>,
    pub checked: Option<(Date, Date)>,
    pub locale: Locale,
    pub today: Date,
}

/// A page of the transactions a result rests on: `(limit, offset)`, in the main
/// currency and the answer's language.
pub(crate) struct PageCx<'a> {
    pub db: &'a mut AnyConnection,
    pub user: UserId,
    pub currency: Currency,
    pub locale: Locale,
    pub page: (usize, usize),
}

//! Tool results: the structured data a tool returns, shared by the server that
//! produces it and the browser that renders it.

use serde::{Deserialize, Serialize};

use crate::date::Date;
use crate::money::Money;

/// How many source transaction ids a result carries: a result's size does not grow
/// with the ledger; the rest are read a page at a time when someone asks.
pub const SOURCE_PAGE: usize = 100;

/// A category or merchant as shown to the user.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EntityRef {
    pub key: String,
    pub label: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TransactionRow {
    pub id: i64,
    pub date: Date,
    /// The bank's label: "CB CARREFOUR CITY 12/01".
    pub label: String,
    pub merchant: Option<String>,
    pub category: Option<String>,
    pub account: String,
    /// Signed: negative is money going out.
    pub amount: Money,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Group {
    pub key: String,
    pub label: String,
    /// Money spent in this group (positive).
    pub total: Money,
    pub count: u32,
}

/// A total divided by months, weeks, days or transactions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Average {
    pub per: crate::args::AveragePer,
    /// The total ÷ `over`, rounded half away from zero to the minor unit.
    pub amount: Money,
    /// What the total was divided by, in hundredths: 1200 is 12 months, 1070 is 10.7.
    pub over_hundredths: u64,
}

//! Tool results: the structured data a tool returns, shared by the server that
//! produces it and the browser that renders it.

use serde::{Deserialize, Serialize};

use crate::{Date, GroupBy, Money, Period};

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

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SummaryResult {
    pub period: Period,
    pub category: Option<EntityRef>,
    pub merchant: Option<EntityRef>,
    pub group_by: GroupBy,
    /// Money spent (spending_summary) or received (income_summary), as a positive
    /// amount in the ledger's main currency.
    pub total: Money,
    /// Transactions counted in `total`.
    pub count: u32,
    /// Amounts in other currencies, not converted and not in `total`.
    pub other_currencies: Vec<Money>,
    /// Largest first; empty unless `group_by` is set.
    pub groups: Vec<Group>,
    /// The matching transactions, newest first, at most `transactions_limit`.
    pub transactions: Vec<TransactionRow>,
    pub transactions_truncated: bool,
    /// Ids of every transaction counted, for audit and drill-down.
    pub source_ids: Vec<i64>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TransactionListResult {
    pub period: Period,
    pub category: Option<EntityRef>,
    pub merchant: Option<EntityRef>,
    pub text: Option<String>,
    /// Number of matching transactions, even beyond `limit`.
    pub count: u32,
    pub transactions: Vec<TransactionRow>,
    pub truncated: bool,
    /// Net sum of the matching transactions (signed), in the main currency.
    pub net: Money,
    pub source_ids: Vec<i64>,
}

/// One side of a comparison.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PeriodTotal {
    pub period: Period,
    pub total: Money,
    pub count: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CompareResult {
    pub flow: crate::Flow,
    pub category: Option<EntityRef>,
    pub merchant: Option<EntityRef>,
    pub current: PeriodTotal,
    pub reference: PeriodTotal,
    /// `current - reference`.
    pub difference: Money,
    /// The change relative to `reference` in hundredths of a percent (1234 = +12.34 %);
    /// absent when the reference is zero.
    pub change_basis_points: Option<i64>,
}

/// The output of one tool run; the tag is the tool's registry name.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "tool_name", content = "result", rename_all = "snake_case")]
pub enum ToolOutput {
    SpendingSummary(SummaryResult),
    IncomeSummary(SummaryResult),
    ListTransactions(TransactionListResult),
    ComparePeriods(CompareResult),
}

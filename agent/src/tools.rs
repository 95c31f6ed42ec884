//! Tool results: the structured data a tool returns, shared by the server that
//! produces it and the browser that renders it.

use serde::{Deserialize, Serialize};

use crate::chart::spec::ChartSpec;
use crate::{Date, GroupBy, Money, Period};

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

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SummaryResult {
    pub period: Period,
    pub category: Option<EntityRef>,
    pub merchant: Option<EntityRef>,
    #[serde(default)]
    pub account: Option<EntityRef>,
    /// The merchant and the category left out ("hors Deliveroo").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub excluded: Vec<EntityRef>,
    pub group_by: GroupBy,
    /// Money spent (spending_summary) or received (income_summary), as a positive
    /// amount in the ledger's main currency.
    pub total: Money,
    /// Transactions counted in `total`.
    pub count: u32,
    /// Amounts in other currencies, not converted and not in `total`.
    pub other_currencies: Vec<Money>,
    /// Largest first, or in date order for months, weeks and days; empty unless
    /// `group_by` is set.
    pub groups: Vec<Group>,
    /// The average asked for (`average` in the arguments).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub average: Option<Average>,
    /// "top 5 merchants" (1..=50): `groups` holds the N largest, and `transactions`
    /// only theirs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub top: Option<u8>,
    /// For months, weeks or days (two or more): the groups as a line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chart: Option<ChartSpec>,
    /// The matching transactions, newest first, at most `transactions_limit`.
    pub transactions: Vec<TransactionRow>,
    pub transactions_truncated: bool,
    /// Ids of the transactions counted, newest first: the first [`SOURCE_PAGE`] of
    /// them (the rest are paged on demand, `/runs/{id}/sources`).
    pub source_ids: Vec<i64>,
    /// How many transactions the result counted, in every currency.
    #[serde(default)]
    pub source_count: u64,
}

/// A total divided by months, weeks, days or transactions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Average {
    pub per: crate::AveragePer,
    /// The total ÷ `over`, rounded half away from zero to the minor unit.
    pub amount: Money,
    /// What the total was divided by, in hundredths: 1200 is 12 months, 1070 is 10.7.
    pub over_hundredths: u64,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TransactionListResult {
    pub period: Period,
    pub category: Option<EntityRef>,
    pub merchant: Option<EntityRef>,
    #[serde(default)]
    pub account: Option<EntityRef>,
    /// The merchant and the category left out.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub excluded: Vec<EntityRef>,
    #[serde(default)]
    pub direction: Option<crate::Direction>,
    /// Newest first, or largest amounts first.
    #[serde(default)]
    pub order: crate::ListOrder,
    pub text: Option<String>,
    /// Number of matching transactions, even beyond `limit`.
    pub count: u32,
    pub transactions: Vec<TransactionRow>,
    pub truncated: bool,
    /// Net sum of the matching transactions (signed), in the main currency.
    pub net: Money,
    /// The first [`SOURCE_PAGE`] matching transactions' ids, in the list's order.
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
    #[serde(default)]
    pub account: Option<EntityRef>,
    pub current: PeriodTotal,
    pub reference: PeriodTotal,
    /// `current - reference`.
    pub difference: Money,
    /// The change relative to `reference` in hundredths of a percent (1234 = +12.34 %);
    /// absent when the reference is zero.
    pub change_basis_points: Option<i64>,
}

/// Money in, money out and the net for one month, week or day.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CashFlowRow {
    /// The group's first day, ISO ("2026-01-01").
    pub key: String,
    pub label: String,
    pub income: Money,
    pub spending: Money,
    /// `income - spending`.
    pub net: Money,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CashFlowResult {
    pub period: Period,
    pub account: Option<EntityRef>,
    pub group_by: GroupBy,
    /// Money received (positive), transfers between own accounts excluded.
    pub income: Money,
    /// Money spent (positive), transfers between own accounts excluded.
    pub spending: Money,
    /// `income - spending`.
    pub net: Money,
    /// `net / income` in hundredths of a percent; absent when there was no income.
    pub savings_rate_basis_points: Option<i64>,
    /// In date order; empty unless `group_by` is a time group.
    pub rows: Vec<CashFlowRow>,
    /// The first [`SOURCE_PAGE`] transactions' ids, newest first.
    pub source_ids: Vec<i64>,
    /// How many transactions (in the main currency) the result counted.
    #[serde(default)]
    pub source_count: u64,
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

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BudgetState {
    /// Under 80 % of the budget used.
    Ok,
    /// 80 % to 100 %.
    Warning,
    /// Over the budget.
    Over,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BudgetLine {
    pub category: EntityRef,
    /// The budget for the whole period (monthly amount × months).
    pub budget: Money,
    pub spent: Money,
    /// `budget - spent`; negative when over.
    pub remaining: Money,
    /// `spent / budget` in hundredths of a percent.
    pub used_basis_points: i64,
    pub state: BudgetState,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BudgetStatusResult {
    pub period: Period,
    /// Whole months the period covers (each month's budget counts once).
    pub months: u32,
    /// Most used first.
    pub lines: Vec<BudgetLine>,
    pub budget: Money,
    pub spent: Money,
    /// For a period that contains today: the share of it already elapsed, in
    /// hundredths of a percent, to compare with `used_basis_points`.
    pub elapsed_basis_points: Option<i64>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Cadence {
    Weekly,
    Monthly,
    Quarterly,
    Yearly,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecurringItem {
    /// The merchant, when the payments have one.
    pub merchant: Option<EntityRef>,
    /// What the user sees: the merchant's name or the bank label.
    pub label: String,
    pub category: Option<EntityRef>,
    pub cadence: Cadence,
    /// The typical (median) payment, positive.
    pub amount: Money,
    pub count: u32,
    pub first_date: Date,
    pub last_date: Date,
    /// When the next payment is expected.
    pub next_date: Date,
    /// `amount` over a year at this cadence.
    pub yearly_cost: Money,
    pub source_ids: Vec<i64>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecurringResult {
    pub period: Period,
    pub category: Option<EntityRef>,
    pub merchant: Option<EntityRef>,
    /// Largest yearly cost first.
    pub items: Vec<RecurringItem>,
    /// Sum of the items' cost per month (yearly cost / 12).
    pub monthly_total: Money,
    pub yearly_total: Money,
}

/// What `query_dataset` and `run_sql` return: the rows, and a chart when the rows
/// have the shape of one (labels then numbers).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DatasetResult {
    /// The dataset asked about (`query_dataset`); `run_sql` may read several.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dataset: Option<String>,
    /// What was asked, in words: "Somme de montant par region — ventes".
    pub title: String,
    pub result: crate::datasets::QueryResult,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chart: Option<ChartSpec>,
}

/// What `dataset_info` returns: the user's datasets and the SQL dialect to write.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DatasetInfoResult {
    pub datasets: Vec<crate::datasets::DatasetInfo>,
    /// `sqlite` or `postgresql`.
    pub dialect: String,
}

/// The output of one tool run; the tag is the tool's registry name.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "tool_name", content = "result", rename_all = "snake_case")]
pub enum ToolOutput {
    SpendingSummary(SummaryResult),
    IncomeSummary(SummaryResult),
    ListTransactions(TransactionListResult),
    ComparePeriods(CompareResult),
    CashFlow(CashFlowResult),
    Balances(BalancesResult),
    BudgetStatus(BudgetStatusResult),
    RecurringPayments(RecurringResult),
    QueryDataset(DatasetResult),
    RunSql(DatasetResult),
    DatasetInfo(DatasetInfoResult),
}

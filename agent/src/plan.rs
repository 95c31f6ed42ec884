//! The typed tool-call plan and its JSON shape:
//! `{"tool": "<name>", "args": {...}, "meta": {"confidence": ..., "confidence_reasons": [...]}}`.

use serde::{Deserialize, Serialize};

use crate::{Date, Locale, Money, Reason};

/// Declares the arguments of a tool over the ledger: a struct that refuses unknown
/// fields and, with the `schema` feature, has a JSON Schema. In its body, `name?: T` is
/// an optional field left out of the JSON when absent; `[keys]` stands for the optional
/// category, merchant and account keys, `[amounts]` for the optional bounds on
/// amounts, and `[exclude]` for a category and a merchant to leave out — the fields
/// several tools share.
macro_rules! ledger_args {
    ($(#[$attr:meta])* pub struct $name:ident { $($body:tt)* }) => {
        ledger_args!(@fields [$(#[$attr])*] $name [] $($body)*);
    };
    (@fields $attrs:tt $name:ident $done:tt [keys] $($rest:tt)*) => {
        ledger_args!(@fields $attrs $name $done
            pub category?: String,
            pub merchant?: String,
            pub account?: String,
            $($rest)*);
    };
    (@fields $attrs:tt $name:ident $done:tt [amounts] $($rest:tt)*) => {
        ledger_args!(@fields $attrs $name $done
            /// Only transactions at least this large (absolute amount, inclusive).
            pub amount_min?: Money,
            /// Only transactions at most this large (absolute amount, inclusive).
            pub amount_max?: Money,
            $($rest)*);
    };
    (@fields $attrs:tt $name:ident $done:tt [exclude] $($rest:tt)*) => {
        ledger_args!(@fields $attrs $name $done
            /// A category key to leave out.
            pub exclude_category?: String,
            /// A merchant key to leave out.
            pub exclude_merchant?: String,
            $($rest)*);
    };
    // `name?: T`: an `Option<T>`, left out of the JSON when `None`.
    (@fields $attrs:tt $name:ident [$($done:tt)*] $(#[$f:meta])* pub $field:ident?: $ty:ty, $($rest:tt)*) => {
        ledger_args!(@fields $attrs $name [$($done)*
            $(#[$f])*
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub $field: Option<$ty>,
        ] $($rest)*);
    };
    (@fields $attrs:tt $name:ident [$($done:tt)*] $(#[$f:meta])* pub $field:ident: $ty:ty, $($rest:tt)*) => {
        ledger_args!(@fields $attrs $name [$($done)* $(#[$f])* pub $field: $ty,] $($rest)*);
    };
    (@fields [$($attr:tt)*] $name:ident [$($done:tt)*]) => {
        $($attr)*
        #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
        #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
        #[serde(deny_unknown_fields)]
        pub struct $name { $($done)* }
    };
}

pub(crate) use ledger_args;

/// A resolved, half-open date range `[start, end)` with the user's words and a label.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Period {
    pub start: Date,
    pub end: Date,
    /// How Sou names the range: "janvier 2026", "January 2026".
    pub label: String,
    /// What the user wrote ("le mois dernier"); empty when Sou chose the period.
    #[serde(default)]
    pub words: String,
}

#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GroupBy {
    #[default]
    None,
    Category,
    Merchant,
    /// The user's bank accounts ("compte courant", "Livret A").
    Account,
    Month,
    /// Weeks starting on Monday.
    Week,
    Day,
}

impl GroupBy {
    /// Time groups are shown in date order, the others largest first.
    pub fn is_time(self) -> bool {
        matches!(self, GroupBy::Month | GroupBy::Week | GroupBy::Day)
    }
}

/// What an average divides a total by.
// Plain comments on the variants: the schema goes to models in every request, and the
// rules are in docs/tools.md.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AveragePer {
    // The months of the period: whole months count 1, a part of one its share of days;
    // a month with no transaction counts as zero.
    Month,
    // The period's days ÷ 7.
    Week,
    // The period's days.
    Day,
    // The transactions counted.
    Transaction,
}

ledger_args! {
    /// Arguments of `spending_summary` (money going out) and `income_summary` (money
    /// coming in) over a period, optionally filtered by category or merchant, optionally
    /// broken down.
    pub struct SummaryArgs {
        pub period: Period,
        /// A category key of the user's vocabulary ("groceries").
        pub category?: String,
        /// A merchant key of the user's vocabulary ("carrefour").
        pub merchant?: String,
        /// An account key of the user's vocabulary ("compte_courant").
        pub account?: String,
        [amounts]
        [exclude]
        #[serde(default)]
        pub group_by: GroupBy,
        /// With `group_by`: keep only the N largest groups ("top 5 merchants").
        pub top?: u32,
        /// Also the average per month, week, day or transaction.
        pub average?: AveragePer,
    }
}

ledger_args! {
    /// Arguments of `list_transactions`: the transactions of a period, newest first.
    pub struct ListTransactionsArgs {
        pub period: Period,
        [keys]
        /// Only money going out (`debit`) or coming in (`credit`: refunds, salary…).
        pub direction?: Direction,
        [amounts]
        [exclude]
        /// Case- and accent-insensitive substring of the bank label.
        pub text?: String,
        /// `newest` first (the default) or `largest` amounts first ("my biggest expenses").
        #[serde(default, skip_serializing_if = "ListOrder::is_newest")]
        pub order: ListOrder,
        #[serde(default = "default_limit")]
        pub limit: u32,
    }
}

/// The order of a transaction list.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ListOrder {
    /// Newest first.
    #[default]
    Newest,
    /// Largest absolute amount first, then newest.
    Largest,
}

impl ListOrder {
    pub fn is_newest(&self) -> bool {
        *self == ListOrder::Newest
    }
}

/// Which money a comparison adds up.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Flow {
    #[default]
    Spending,
    Income,
}

ledger_args! {
    /// Arguments of `compare_periods`: the same total over two periods.
    pub struct CompareArgs {
        #[serde(default)]
        pub flow: Flow,
        /// The period asked about.
        pub current: Period,
        /// The period it is compared with.
        pub reference: Period,
        [keys]
    }
}

/// Which side of the ledger a transaction is on.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    /// Money going out (negative amounts).
    Debit,
    /// Money coming in (positive amounts): salary, refunds, transfers received.
    Credit,
}

ledger_args! {
    /// Arguments of `cash_flow`: money in, money out, the net and the savings rate over a
    /// period, optionally per month, week or day. Transfers between the user's own
    /// accounts count as neither.
    pub struct CashFlowArgs {
        pub period: Period,
        pub account?: String,
        /// `none`, `month`, `week` or `day`.
        #[serde(default)]
        pub group_by: GroupBy,
    }
}

ledger_args! {
    /// Arguments of `balances`: each account's balance at the close of the period's last
    /// day (`end - 1`). "What is my balance" is today's period.
    pub struct BalancesArgs {
        pub period: Period,
        pub account?: String,
    }
}

ledger_args! {
    /// Arguments of `budget_status`: each monthly budget against what was spent in its
    /// category over the period (whole months; a budget counts once per month).
    pub struct BudgetArgs {
        pub period: Period,
        pub category?: String,
    }
}

ledger_args! {
    /// Arguments of `recurring_payments`: payments that repeat at a regular interval with
    /// a stable amount (subscriptions, rent, bills), detected over the period.
    pub struct RecurringArgs {
        pub period: Period,
        pub category?: String,
        pub merchant?: String,
    }
}

/// How `query_dataset` combines a column's values.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Aggregate {
    #[default]
    Sum,
    Avg,
    /// Rows (no `measure`).
    Count,
    Min,
    Max,
}

impl Aggregate {
    pub fn as_str(self) -> &'static str {
        match self {
            Aggregate::Sum => "sum",
            Aggregate::Avg => "avg",
            Aggregate::Count => "count",
            Aggregate::Min => "min",
            Aggregate::Max => "max",
        }
    }
}

/// The order of `query_dataset`'s groups.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DatasetOrder {
    /// Largest value first (the default).
    #[default]
    ValueDesc,
    /// Smallest value first ("the 3 regions that sold least").
    ValueAsc,
    /// In the grouping column's order: dates and months in time order.
    Group,
}

impl DatasetOrder {
    pub fn is_default(&self) -> bool {
        *self == DatasetOrder::ValueDesc
    }
}

/// How `query_dataset` groups a date column: by its month ("2026-01"), quarter
/// ("2026-T1", "2026-Q1") or year ("2026") rather than by day.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DateBucket {
    Month,
    Quarter,
    Year,
}

/// How a `query_dataset` filter compares a column with its value.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FilterOp {
    Eq,
    Ne,
    Lt,
    Lte,
    Gt,
    Gte,
}

impl FilterOp {
    pub fn symbol(self) -> &'static str {
        match self {
            FilterOp::Eq => "=",
            FilterOp::Ne => "≠",
            FilterOp::Lt => "<",
            FilterOp::Lte => "≤",
            FilterOp::Gt => ">",
            FilterOp::Gte => "≥",
        }
    }
}

/// One condition on a dataset's rows: `region = Nord`, `quantite > 10`.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DatasetFilter {
    pub column: String,
    pub op: FilterOp,
    /// A number for a numeric column, `YYYY-MM-DD` for a date column, otherwise text
    /// (compared ignoring case).
    pub value: String,
}

/// The rows of a dataset whose date column falls in a period ("en 2025").
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DatasetPeriod {
    /// A date column of the dataset.
    pub column: String,
    /// First day included.
    pub start: Date,
    /// First day after the period.
    pub end: Date,
    /// How Sou names the range: "2025", "janvier 2026".
    #[serde(default)]
    pub label: String,
}

/// Arguments of `query_dataset`: one aggregate over a dataset (a CSV file the user
/// uploaded), optionally per value of one of its columns and over some of its rows.
/// Structured, not SQL: Sou writes the SELECT, which runs in the same sandbox as
/// `run_sql`.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QueryDatasetArgs {
    /// The dataset's name, as `dataset_info` lists it ("ventes").
    pub dataset: String,
    #[serde(default)]
    pub aggregate: Aggregate,
    /// The numeric column aggregated; absent for `count`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub measure: Option<String>,
    /// One value of the result per value of this column ("by region").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group_by: Option<String>,
    /// When `group_by` is a date column: one value per month, quarter or year.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bucket: Option<DateBucket>,
    /// Only the rows every filter keeps ("where region is Nord").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub filters: Vec<DatasetFilter>,
    /// Only the rows whose date column falls in this period.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub period: Option<DatasetPeriod>,
    #[serde(default, skip_serializing_if = "DatasetOrder::is_default")]
    pub order: DatasetOrder,
    /// Keep only the first N groups ("top 5").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<u32>,
    /// The chart asked for ("répartition" → `pie`, "évolution" → `line`); otherwise the
    /// result's shape decides.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chart: Option<crate::chart::ChartKind>,
}

/// Arguments of `run_sql`: one read-only SELECT over the user's datasets.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunSqlArgs {
    /// One SELECT in the dialect `dataset_info` names, over the datasets it lists.
    pub sql: String,
}

/// Arguments of `dataset_info`: none.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DatasetInfoArgs {}

pub const DEFAULT_LIST_LIMIT: u32 = 50;
pub const MAX_LIST_LIMIT: u32 = 500;

fn default_limit() -> u32 {
    DEFAULT_LIST_LIMIT
}

/// One call of one tool of the registry. The serde tag is the tool's registry name.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "tool", content = "args", rename_all = "snake_case")]
pub enum ToolCall {
    SpendingSummary(SummaryArgs),
    IncomeSummary(SummaryArgs),
    ListTransactions(ListTransactionsArgs),
    ComparePeriods(CompareArgs),
    CashFlow(CashFlowArgs),
    Balances(BalancesArgs),
    BudgetStatus(BudgetArgs),
    RecurringPayments(RecurringArgs),
    QueryDataset(QueryDatasetArgs),
    RunSql(RunSqlArgs),
    DatasetInfo(DatasetInfoArgs),
    SetBudget(crate::SetBudgetArgs),
    CreateRule(crate::CreateRuleArgs),
    Recategorise(crate::RecategoriseArgs),
    MergeMerchants(crate::MergeMerchantsArgs),
    MarkTransfers(crate::MarkTransfersArgs),
}

impl ToolCall {
    /// The tools that only read, in registry order.
    pub const READ_NAMES: [&'static str; 11] = [
        "spending_summary",
        "income_summary",
        "list_transactions",
        "compare_periods",
        "cash_flow",
        "balances",
        "budget_status",
        "recurring_payments",
        "query_dataset",
        "run_sql",
        "dataset_info",
    ];

    /// The tools that change the user's data, in registry order: they run only once
    /// the user approved their effect.
    pub const WRITE_NAMES: [&'static str; 5] =
        ["set_budget", "create_rule", "recategorise", "merge_merchants", "mark_transfers"];

    pub fn name(&self) -> &'static str {
        match self {
            ToolCall::SpendingSummary(_) => "spending_summary",
            ToolCall::IncomeSummary(_) => "income_summary",
            ToolCall::ListTransactions(_) => "list_transactions",
            ToolCall::ComparePeriods(_) => "compare_periods",
            ToolCall::CashFlow(_) => "cash_flow",
            ToolCall::Balances(_) => "balances",
            ToolCall::BudgetStatus(_) => "budget_status",
            ToolCall::RecurringPayments(_) => "recurring_payments",
            ToolCall::QueryDataset(_) => "query_dataset",
            ToolCall::RunSql(_) => "run_sql",
            ToolCall::DatasetInfo(_) => "dataset_info",
            ToolCall::SetBudget(_) => "set_budget",
            ToolCall::CreateRule(_) => "create_rule",
            ToolCall::Recategorise(_) => "recategorise",
            ToolCall::MergeMerchants(_) => "merge_merchants",
            ToolCall::MarkTransfers(_) => "mark_transfers",
        }
    }

    /// Whether the call changes the user's data (and so waits for their approval).
    pub fn is_write(&self) -> bool {
        matches!(
            self,
            ToolCall::SetBudget(_)
                | ToolCall::CreateRule(_)
                | ToolCall::Recategorise(_)
                | ToolCall::MergeMerchants(_)
                | ToolCall::MarkTransfers(_)
        )
    }

    /// Whether the tool reads datasets rather than the ledger.
    pub fn is_dataset(&self) -> bool {
        matches!(self, ToolCall::QueryDataset(_) | ToolCall::RunSql(_) | ToolCall::DatasetInfo(_))
    }

    /// The period asked about; ledger tools have one, dataset tools none.
    pub fn period(&self) -> Option<&Period> {
        match self {
            ToolCall::SpendingSummary(a) | ToolCall::IncomeSummary(a) => Some(&a.period),
            ToolCall::ListTransactions(a) => Some(&a.period),
            ToolCall::ComparePeriods(a) => Some(&a.current),
            ToolCall::CashFlow(a) => Some(&a.period),
            ToolCall::Balances(a) => Some(&a.period),
            ToolCall::BudgetStatus(a) => Some(&a.period),
            ToolCall::RecurringPayments(a) => Some(&a.period),
            ToolCall::Recategorise(a) => a.period.as_ref(),
            ToolCall::MarkTransfers(a) => a.period.as_ref(),
            ToolCall::QueryDataset(_)
            | ToolCall::RunSql(_)
            | ToolCall::DatasetInfo(_)
            | ToolCall::SetBudget(_)
            | ToolCall::CreateRule(_)
            | ToolCall::MergeMerchants(_) => None,
        }
    }

    pub fn period_mut(&mut self) -> Option<&mut Period> {
        match self {
            ToolCall::SpendingSummary(a) | ToolCall::IncomeSummary(a) => Some(&mut a.period),
            ToolCall::ListTransactions(a) => Some(&mut a.period),
            ToolCall::ComparePeriods(a) => Some(&mut a.current),
            ToolCall::CashFlow(a) => Some(&mut a.period),
            ToolCall::Balances(a) => Some(&mut a.period),
            ToolCall::BudgetStatus(a) => Some(&mut a.period),
            ToolCall::RecurringPayments(a) => Some(&mut a.period),
            ToolCall::Recategorise(a) => a.period.as_mut(),
            ToolCall::MarkTransfers(a) => a.period.as_mut(),
            ToolCall::QueryDataset(_)
            | ToolCall::RunSql(_)
            | ToolCall::DatasetInfo(_)
            | ToolCall::SetBudget(_)
            | ToolCall::CreateRule(_)
            | ToolCall::MergeMerchants(_) => None,
        }
    }

    pub fn category(&self) -> Option<&str> {
        match self {
            ToolCall::SpendingSummary(a) | ToolCall::IncomeSummary(a) => a.category.as_deref(),
            ToolCall::ListTransactions(a) => a.category.as_deref(),
            ToolCall::ComparePeriods(a) => a.category.as_deref(),
            ToolCall::BudgetStatus(a) => a.category.as_deref(),
            ToolCall::RecurringPayments(a) => a.category.as_deref(),
            ToolCall::SetBudget(a) => Some(&a.category),
            ToolCall::CreateRule(a) => Some(&a.category),
            ToolCall::Recategorise(a) => a.category.as_deref(),
            _ => None,
        }
    }

    /// The category a write puts transactions or a budget in: a budget's, a rule's, a
    /// recategorisation's target.
    pub fn written_category_mut(&mut self) -> Option<&mut String> {
        match self {
            ToolCall::SetBudget(a) => Some(&mut a.category),
            ToolCall::CreateRule(a) => Some(&mut a.category),
            ToolCall::Recategorise(a) => Some(&mut a.to),
            _ => None,
        }
    }

    pub fn merchant(&self) -> Option<&str> {
        match self {
            ToolCall::SpendingSummary(a) | ToolCall::IncomeSummary(a) => a.merchant.as_deref(),
            ToolCall::ListTransactions(a) => a.merchant.as_deref(),
            ToolCall::ComparePeriods(a) => a.merchant.as_deref(),
            ToolCall::RecurringPayments(a) => a.merchant.as_deref(),
            ToolCall::Recategorise(a) => a.merchant.as_deref(),
            ToolCall::MarkTransfers(a) => a.merchant.as_deref(),
            _ => None,
        }
    }

    pub fn account(&self) -> Option<&str> {
        match self {
            ToolCall::SpendingSummary(a) | ToolCall::IncomeSummary(a) => a.account.as_deref(),
            ToolCall::ListTransactions(a) => a.account.as_deref(),
            ToolCall::ComparePeriods(a) => a.account.as_deref(),
            ToolCall::CashFlow(a) => a.account.as_deref(),
            ToolCall::Balances(a) => a.account.as_deref(),
            _ => None,
        }
    }

    /// The category and the merchant the call leaves out, where the tool has them.
    pub fn excluded(&self) -> (Option<&str>, Option<&str>) {
        match self {
            ToolCall::SpendingSummary(a) | ToolCall::IncomeSummary(a) => {
                (a.exclude_category.as_deref(), a.exclude_merchant.as_deref())
            }
            ToolCall::ListTransactions(a) => (a.exclude_category.as_deref(), a.exclude_merchant.as_deref()),
            _ => (None, None),
        }
    }

    pub fn amounts(&self) -> (Option<Money>, Option<Money>) {
        match self {
            ToolCall::SpendingSummary(a) | ToolCall::IncomeSummary(a) => (a.amount_min, a.amount_max),
            ToolCall::ListTransactions(a) => (a.amount_min, a.amount_max),
            ToolCall::Recategorise(a) => (a.amount_min, a.amount_max),
            ToolCall::MarkTransfers(a) => (a.amount_min, a.amount_max),
            _ => (None, None),
        }
    }

    /// Sets the amount bounds where the tool has them; other tools ignore them.
    pub fn set_amounts(&mut self, min: Option<Money>, max: Option<Money>) {
        match self {
            ToolCall::SpendingSummary(a) | ToolCall::IncomeSummary(a) => {
                a.amount_min = min;
                a.amount_max = max;
            }
            ToolCall::ListTransactions(a) => {
                a.amount_min = min;
                a.amount_max = max;
            }
            _ => {}
        }
    }

    /// Sets the category and merchant filters where the tool has them.
    pub fn set_filters(&mut self, category: Option<String>, merchant: Option<String>) {
        match self {
            ToolCall::SpendingSummary(a) | ToolCall::IncomeSummary(a) => {
                a.category = category;
                a.merchant = merchant;
            }
            ToolCall::ListTransactions(a) => {
                a.category = category;
                a.merchant = merchant;
            }
            ToolCall::ComparePeriods(a) => {
                a.category = category;
                a.merchant = merchant;
            }
            ToolCall::RecurringPayments(a) => {
                a.category = category;
                a.merchant = merchant;
            }
            ToolCall::BudgetStatus(a) => a.category = category,
            _ => {}
        }
    }

    /// Sets the category and merchant to leave out where the tool has them; returns
    /// whether it has them.
    pub fn set_excluded(&mut self, category: Option<String>, merchant: Option<String>) -> bool {
        match self {
            ToolCall::SpendingSummary(a) | ToolCall::IncomeSummary(a) => {
                a.exclude_category = category;
                a.exclude_merchant = merchant;
                true
            }
            ToolCall::ListTransactions(a) => {
                a.exclude_category = category;
                a.exclude_merchant = merchant;
                true
            }
            _ => false,
        }
    }

    /// Sets the account filter where the tool has one.
    pub fn set_account(&mut self, account: Option<String>) {
        match self {
            ToolCall::SpendingSummary(a) | ToolCall::IncomeSummary(a) => a.account = account,
            ToolCall::ListTransactions(a) => a.account = account,
            ToolCall::ComparePeriods(a) => a.account = account,
            ToolCall::CashFlow(a) => a.account = account,
            ToolCall::Balances(a) => a.account = account,
            _ => {}
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Confidence {
    Low,
    Medium,
    High,
}

impl Confidence {
    pub fn as_str(self) -> &'static str {
        match self {
            Confidence::Low => "low",
            Confidence::Medium => "medium",
            Confidence::High => "high",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlanMeta {
    pub confidence: Confidence,
    pub confidence_reasons: Vec<Reason>,
    /// The language the message was read in; answers use it.
    pub locale: Locale,
    /// The date relative words were resolved against, in the user's time zone.
    pub today: Date,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolCallPlan {
    #[serde(flatten)]
    pub call: ToolCall,
    pub meta: PlanMeta,
}

impl ToolCallPlan {
    /// Whether a follow-up may continue from this plan: not when words went unread
    /// (its filters may be the opposite of what was asked).
    pub fn carries_context(&self) -> bool {
        !self.meta.confidence_reasons.iter().any(|r| {
            matches!(r.code, crate::ReasonCode::UnplacedMeaning | crate::ReasonCode::UnrecognizedWords)
        })
    }
}

/// What Sou asks when it will not guess: a question, why, and plans one click away.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clarification {
    pub question: String,
    pub reasons: Vec<Reason>,
    pub suggestions: Vec<Suggestion>,
    pub locale: Locale,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Suggestion {
    /// A sentence the user would recognise: "Dépenses en courses — février 2026".
    pub label: String,
    pub plan: ToolCallPlan,
}

/// Parsing never fails: it returns a plan or a clarification.
// One per message, moved a handful of times: a box would cost more than the bytes.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ParseOutcome {
    Plan(ToolCallPlan),
    Clarification(Clarification),
}

impl ParseOutcome {
    pub fn plan(&self) -> Option<&ToolCallPlan> {
        match self {
            ParseOutcome::Plan(p) => Some(p),
            ParseOutcome::Clarification(_) => None,
        }
    }
}

//! The arguments tools share: the period, the breakdowns and orders, the bounds on a
//! list, and the conditions of a dataset question. Each tool's own arguments are in its
//! file under `tool/`.

use serde::{Deserialize, Serialize};

use crate::date::Date;

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
            pub amount_min?: $crate::money::Money,
            /// Only transactions at most this large (absolute amount, inclusive).
            pub amount_max?: $crate::money::Money,
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
        #[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
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

pub const DEFAULT_LIST_LIMIT: u32 = 50;
pub const MAX_LIST_LIMIT: u32 = 500;

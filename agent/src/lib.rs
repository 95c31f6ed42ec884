//! Sou's agent: a deterministic intent parser that turns a message into a typed
//! tool-call plan with a confidence level and its reasons — or a clarifying question.
//!
//! It does no I/O and knows nothing of the web or the database, so the same code runs
//! natively on the server (`/api/v1/plan`, re-validation) and as WebAssembly in the
//! browser, on every keystroke. It uses no `regex`: matching is over normalised tokens,
//! which keeps the browser bundle small and parsing time proportional to the message.

pub mod amount;
pub mod answer;
mod args;
pub mod average;
pub mod chart;
pub mod datasets;
mod date;
pub mod imports;
pub mod json;
mod locale;
mod money;
pub mod parser;
pub mod period;
mod plan;
mod plan_json;
pub mod protocol;
mod reason;
pub mod reports;
pub mod runs;
#[cfg(feature = "shorthand")]
mod shorthand;
pub mod text;
mod token;
pub mod tool;
mod tools;
mod vocab;
pub mod widgets;
pub mod wording;
pub mod writes;

pub use args::{
    Aggregate, AveragePer, DatasetFilter, DatasetOrder, DatasetPeriod, DateBucket, Direction, FilterOp, Flow,
    GroupBy, ListOrder, Period, DEFAULT_LIST_LIMIT, MAX_LIST_LIMIT,
};
pub use date::{days_in_month, Date};
pub use locale::Locale;
pub use money::{Currency, Money};
pub use parser::analyst;
pub use parser::{is_exclusion_word, is_negation_word, is_write_word, negates_at, Context, Parser};
pub use plan::{Clarification, ParseOutcome, PlanMeta, Suggestion, ToolCall, ToolCallPlan, ToolOutput};
pub use reason::{confidence_of, Confidence, Reason, ReasonCode};
pub use tool::balances::{AccountBalance, BalancesArgs, BalancesResult};
pub use tool::budget_status::{BudgetArgs, BudgetLine, BudgetState, BudgetStatusResult};
pub use tool::cash_flow::{CashFlowArgs, CashFlowResult, CashFlowRow};
pub use tool::compare_periods::{CompareArgs, CompareResult, PeriodTotal};
pub use tool::create_rule::CreateRuleArgs;
pub use tool::dataset_info::{DatasetInfoArgs, DatasetInfoResult};
pub use tool::list_transactions::{ListTransactionsArgs, TransactionListResult};
pub use tool::mark_transfers::MarkTransfersArgs;
pub use tool::merge_merchants::MergeMerchantsArgs;
pub use tool::query_dataset::{DatasetResult, QueryDatasetArgs};
pub use tool::recategorise::RecategoriseArgs;
pub use tool::recurring_payments::{Cadence, RecurringArgs, RecurringItem, RecurringResult};
pub use tool::run_sql::RunSqlArgs;
pub use tool::set_budget::SetBudgetArgs;
pub use tool::spending_summary::{SummaryArgs, SummaryResult};
pub use tools::{Average, EntityRef, Group, TransactionRow, SOURCE_PAGE};
pub use vocab::{Term, Vocabulary};
pub use writes::{Approval, ApprovalState, BudgetEffect, Change, Effect};

//! Accounts, directions, cash flow, balances, budgets and recurring payments, on SQLite:
//! against the demo ledger with expected values from plain SQL, and against small
//! ledgers built here by hand with expected values worked out on paper.

mod demo_ledger;
mod hand_built;

use agent::{Date, ToolCall, ToolOutput};
use backend::testing::tools;
use backend::{BackendError, Store, UserId};
use serde_json::{json, Value};

pub(super) fn d(s: &str) -> Date {
    Date::parse_iso(s).unwrap()
}

/// The day the demo tests pretend it is: two days after the ledger's last line.
pub(super) fn demo_today() -> Date {
    d("2026-11-22")
}

pub(super) fn period(start: &str, end: &str) -> Value {
    json!({"start": start, "end": end, "label": format!("{start}..{end}")})
}

pub(super) fn call(tool: &str, args: Value) -> ToolCall {
    serde_json::from_value(json!({"tool": tool, "args": args})).unwrap()
}

pub(super) async fn run_at(
    store: &Store,
    user: UserId,
    c: &ToolCall,
    today: Date,
) -> Result<ToolOutput, BackendError> {
    tools::run(store, user, c, agent::Locale::En, today).await
}

pub(super) async fn demo_store() -> (tempfile::TempDir, Store, UserId) {
    let dir = tempfile::tempdir().unwrap();
    let (store, user) = crate::support::demo_store(dir.path()).await;
    (dir, store, user)
}

pub(super) async fn scalar(store: &Store, sql: &str, user: UserId) -> i64 {
    sqlx::query_scalar(sql).bind(user.0).fetch_one(store.pool()).await.unwrap()
}

//! The same features on both databases: the demo ledger seeded in SQLite and in a
//! fresh PostgreSQL database, then every tool — each grouping, filter and order —
//! must answer exactly the same, errors included.

use agent::{Date, Locale};
use backend::Registry;
use backend::{Sou, Store, UserId};
use serde_json::{json, Value};

use crate::support;

fn p(start: &str, end: &str) -> Value {
    json!({"start": start, "end": end, "label": format!("{start}..{end}")})
}

fn plans() -> Vec<Value> {
    let year = p("2025-01-01", "2026-01-01");
    let jan = p("2026-01-01", "2026-02-01");
    let mut plans = Vec::new();
    for group_by in ["none", "category", "merchant", "month", "week", "day", "account"] {
        plans.push(json!({"tool": "spending_summary", "args": {"period": jan, "group_by": group_by}}));
    }
    plans.extend([
        json!({"tool": "spending_summary", "args": {"period": year, "category": "groceries", "group_by": "merchant"}}),
        json!({"tool": "spending_summary", "args": {"period": year, "merchant": "monoprix"}}),
        json!({"tool": "spending_summary", "args": {"period": year, "category": "unicorns"}}),
        json!({"tool": "income_summary", "args": {"period": year, "group_by": "month"}}),
        json!({"tool": "income_summary", "args": {"period": year, "group_by": "account"}}),
        json!({"tool": "compare_periods", "args": {"flow": "spending", "current": jan, "reference": p("2025-01-01", "2025-02-01"), "category": "groceries"}}),
        json!({"tool": "list_transactions", "args": {"period": jan, "limit": 500}}),
        json!({"tool": "list_transactions", "args": {"period": year, "text": "carrefour", "limit": 20}}),
        json!({"tool": "list_transactions", "args": {"period": year, "text": "100%_\\", "limit": 5}}),
        json!({"tool": "list_transactions", "args": {"period": year, "direction": "credit", "order": "largest", "limit": 10}}),
        json!({"tool": "list_transactions", "args": {"period": year, "amount_min": {"minor": 10000, "currency": "EUR"}, "amount_max": {"minor": 50000, "currency": "EUR"}}}),
        json!({"tool": "list_transactions", "args": {"period": year, "account": "livret_a"}}),
        json!({"tool": "cash_flow", "args": {"period": year, "group_by": "month"}}),
        json!({"tool": "cash_flow", "args": {"period": jan, "group_by": "day"}}),
        json!({"tool": "cash_flow", "args": {"period": year, "account": "livret_a"}}),
        json!({"tool": "balances", "args": {"period": jan}}),
        json!({"tool": "balances", "args": {"period": p("2026-11-01", "2026-12-01"), "account": "compte_courant"}}),
        json!({"tool": "budget_status", "args": {"period": p("2026-11-01", "2026-12-01")}}),
        json!({"tool": "budget_status", "args": {"period": year, "category": "groceries"}}),
        json!({"tool": "recurring_payments", "args": {"period": p("2024-11-01", "2026-11-21")}}),
        json!({"tool": "recurring_payments", "args": {"period": year, "category": "subscriptions"}}),
    ]);
    plans
}

/// Every plan's answer (or error) as JSON text, in order.
async fn answers(store: &Store, user: UserId) -> Vec<String> {
    let today = Date::new(2026, 11, 21).unwrap();
    let mut out = Vec::new();
    for plan in plans() {
        let call = Registry::get().validate(&plan).unwrap_or_else(|e| panic!("{plan}: {e}"));
        let answer = match backend::testing::tools::run(store, user, &call, Locale::Fr, today).await {
            Ok(output) => serde_json::to_string(&output).unwrap(),
            Err(e) => format!("error: {e}"),
        };
        out.push(answer);
    }
    out
}

#[tokio::test]
async fn every_tool_answers_the_same_on_sqlite_and_postgres() {
    let dir = tempfile::tempdir().unwrap();
    let sqlite = Store::open_in(dir.path()).await.unwrap();
    let (postgres, fresh) = support::postgres().await;
    let mut results = Vec::new();
    for store in [&sqlite, &postgres] {
        let sou = Sou::new(store.clone(), chrono_tz::Europe::Paris);
        let who = support::sign_up(&sou, "same").await;
        results.push(answers(store, who.user).await);
    }
    let (a, b) = (&results[0], &results[1]);
    let plans = plans();
    let mut differ = Vec::new();
    for ((plan, x), y) in plans.iter().zip(a).zip(b) {
        if x != y {
            differ.push(format!(
                "{plan}\n  sqlite:   {}\n  postgres: {}",
                &x[..x.len().min(300)],
                &y[..y.len().min(300)]
            ));
        }
    }
    let errors = a.iter().filter(|x| x.starts_with("error")).count();
    println!(
        "{} plans, {} answered with an error on both (on purpose), {} differ",
        plans.len(),
        errors,
        differ.len()
    );
    postgres.pool().close().await;
    fresh.drop().await;
    assert_eq!(errors, 1, "only the unknown category fails: {a:?}");
    let search = plans.iter().position(|p| p["args"]["text"] == "carrefour").unwrap();
    assert!(a[search].contains("CB CARREFOUR"), "a lowercase search finds the uppercase labels");
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}

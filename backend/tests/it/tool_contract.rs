//! What every tool of the registry promises, whoever adds one: an example plan of it is
//! valid, reads the same through the browser's JSON reader and through serde, has a
//! title and a step's expectation in both languages; and a read tool's result on the
//! demo ledger, shared as categories only, names no merchant and carries no
//! transaction id. A tool added to the registry without an example here fails.

use agent::reports::{redact, Names};
use agent::{Locale, ToolCall, ToolCallPlan, Vocabulary};
use backend::{Registry, ToolClass};
use serde_json::{json, Value};

use crate::finance_tools::{call, demo_store, demo_today, period, run_at};

const VOCABULARY: &str = include_str!("../../demo/vocabulary.json");

/// One example of each tool's arguments, the most telling for the checks below: a
/// read tool's that shows merchants when it can.
fn examples() -> Vec<(&'static str, Value)> {
    let october = period("2026-10-01", "2026-11-01");
    let year = period("2025-11-01", "2026-11-01");
    vec![
        (
            "spending_summary",
            json!({"period": october, "group_by": "merchant", "exclude_merchant": "amazon"}),
        ),
        ("income_summary", json!({"period": year, "group_by": "merchant"})),
        (
            "compare_periods",
            json!({"current": october, "reference": period("2026-09-01", "2026-10-01"), "merchant": "carrefour"}),
        ),
        ("list_transactions", json!({"period": october, "limit": 50})),
        ("cash_flow", json!({"period": year, "group_by": "month"})),
        ("balances", json!({"period": october})),
        ("budget_status", json!({"period": october})),
        ("recurring_payments", json!({"period": year})),
        ("activity", json!({"period": year, "merchant": "carrefour"})),
        ("dataset_info", json!({})),
        ("query_dataset", json!({"dataset": "sales", "measure": "amount", "aggregate": "sum"})),
        ("run_sql", json!({"sql": "SELECT region, SUM(amount) FROM sales GROUP BY region"})),
        (
            "set_budget",
            json!({"category": "restaurants", "amount": {"minor": 25000, "currency": "EUR"}, "from": "2026-12-01"}),
        ),
        ("create_rule", json!({"pattern": "UBER EATS", "category": "restaurants"})),
        ("recategorise", json!({"merchant": "uber", "to": "transport"})),
        ("merge_merchants", json!({"into": "amazon", "aliases": ["AMZN MKTP"]})),
        ("mark_transfers", json!({"text": "VIR REVOLUT"})),
    ]
}

fn plan(tool: &str, args: &Value) -> Value {
    json!({"tool": tool, "args": args,
           "meta": {"confidence": "high", "confidence_reasons": [], "locale": "fr", "today": "2026-11-22"}})
}

#[test]
fn every_tool_has_an_example_that_reads_the_same_everywhere() {
    let registry = Registry::get();
    let examples = examples();
    let named: Vec<&str> = examples.iter().map(|(n, _)| *n).collect();
    let listed: Vec<&str> = registry.tools().iter().map(|t| t.name).collect();
    assert_eq!(named, listed, "one example per tool, in the registry's order");
    let parser = agent::Parser::new(serde_json::from_str::<Vocabulary>(VOCABULARY).unwrap());
    for (tool, args) in &examples {
        let whole = plan(tool, args);
        let call = registry.validate(&whole).unwrap_or_else(|e| panic!("{tool}: {e}"));
        let served: ToolCallPlan = serde_json::from_value(whole.clone()).unwrap();
        let browser = ToolCallPlan::from_json(&whole.to_string()).unwrap_or_else(|e| panic!("{tool}: {e}"));
        assert_eq!(served, browser, "{tool}: the browser's reader and serde differ");
        assert_eq!(served.call, call, "{tool}");
        assert_eq!(call.name(), *tool);
        let class = registry.tools().iter().find(|t| t.name == *tool).map(|t| t.class);
        assert_eq!(class == Some(ToolClass::Write), call.is_write(), "{tool}: its class");
        for locale in [Locale::Fr, Locale::En] {
            assert!(!parser.describe(&call, locale).trim().is_empty(), "{tool}: no title");
            assert!(!agent::parser::steps::expected(&call, locale).trim().is_empty(), "{tool}");
        }
    }
}

/// Every merchant's name (of four letters or more) found in `text`.
fn merchants_in(text: &str, vocabulary: &Value) -> Vec<String> {
    let text = text.to_lowercase();
    let mut found = Vec::new();
    for m in vocabulary["merchants"].as_array().into_iter().flatten() {
        for name in [&m["name_fr"], &m["name_en"]].into_iter().filter_map(Value::as_str) {
            if name.chars().count() >= 4 && text.contains(&name.to_lowercase()) {
                found.push(name.to_string());
            }
        }
    }
    found
}

/// Every non-empty list of ids in `v`, by its key.
fn ids_in(v: &Value, at: &str, found: &mut Vec<String>) {
    match v {
        Value::Object(map) => {
            for (k, v) in map {
                let ids = k == "source_ids" || k == "ids";
                if ids && v.as_array().is_some_and(|a| !a.is_empty()) {
                    found.push(format!("{at}.{k}"));
                }
                ids_in(v, &format!("{at}.{k}"), found);
            }
        }
        Value::Array(items) => items.iter().for_each(|v| ids_in(v, at, found)),
        _ => {}
    }
}

#[tokio::test]
async fn every_read_tool_shared_as_categories_only_names_no_merchant_and_no_id() {
    let (_dir, store, user) = demo_store().await;
    let vocabulary: Value = serde_json::from_str(VOCABULARY).unwrap();
    let mut ran = 0;
    for (tool, args) in examples() {
        let call: ToolCall = call(tool, args);
        // Writes never run as a read; a dataset's cells are its owner's own table.
        if call.is_write() || call.is_dataset() {
            continue;
        }
        let output =
            run_at(&store, user, &call, demo_today()).await.unwrap_or_else(|e| panic!("{tool}: {e}"));
        let shown = serde_json::to_string(&output).unwrap();
        let merchants_before = merchants_in(&shown, &vocabulary);
        let hidden = redact(output, Some(&call), Names::Categories, Locale::Fr);
        let json = serde_json::to_value(&hidden).unwrap();
        let left = merchants_in(&json.to_string(), &vocabulary);
        assert!(left.is_empty(), "{tool} shared as categories only still names {left:?}");
        let mut ids = Vec::new();
        ids_in(&json, tool, &mut ids);
        assert!(ids.is_empty(), "{tool} shared still carries ids: {ids:?}");
        // The example shows merchants before it is redacted, or the check proves nothing.
        if matches!(tool, "spending_summary" | "list_transactions" | "recurring_payments" | "activity") {
            assert!(!merchants_before.is_empty(), "{tool}: the example names no merchant to hide");
        }
        ran += 1;
    }
    assert_eq!(ran, ToolCall::LEDGER_NAMES.len(), "every read tool of the ledger ran");
}

//! The one allowlist of tools: name, description, read/write class and the JSON
//! Schema of the arguments. Every plan — from the browser, the API or a model — is
//! checked here before anything runs.

use std::sync::OnceLock;

pub use crate::error::PlanError;
use agent::{GroupBy, ToolCall, MAX_LIST_LIMIT};
use serde::Serialize;
use serde_json::Value;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ToolClass {
    /// Reads the user's data; runs without approval.
    Read,
    /// Changes the user's data; needs the user's approval first.
    Write,
}

#[derive(Debug, Serialize)]
pub struct ToolSpec {
    pub name: &'static str,
    pub description: &'static str,
    pub class: ToolClass,
    /// JSON Schema (draft 2020-12) of `args`.
    pub schema: Value,
}

/// The `group_by` values `cash_flow` accepts.
const CASH_FLOW_GROUPS: [&str; 4] = ["none", "month", "week", "day"];

/// Longest period a `cash_flow` may be split by day.
const MAX_DAY_ROWS: i64 = 366;

pub struct Registry {
    tools: Vec<ToolSpec>,
    validators: Vec<jsonschema::Validator>,
}

fn schema_of<T: schemars::JsonSchema>() -> Value {
    serde_json::to_value(schemars::schema_for!(T)).unwrap_or(Value::Null)
}

/// Every tool, in the order of `agent::for_each_tool!`: its name, class, description
/// (what a model and the API read, in its file in `agent::tool`) and the JSON Schema of
/// its arguments, from their Rust type.
type Entry = (&'static str, ToolClass, &'static str, fn() -> Value);

macro_rules! registry_rows {
    (
        ledger: [$($l:ident $L:ident,)*]
        dataset: [$($d:ident $D:ident,)*]
        write: [$($w:ident $W:ident,)*]
    ) => {
        const TOOLS: &[Entry] = &[
            $((stringify!($l), ToolClass::Read, agent::tool::$l::DESCRIPTION, schema_of::<agent::tool::$l::Args>),)*
            $((stringify!($d), ToolClass::Read, agent::tool::$d::DESCRIPTION, schema_of::<agent::tool::$d::Args>),)*
            $((stringify!($w), ToolClass::Write, agent::tool::$w::DESCRIPTION, schema_of::<agent::tool::$w::Args>),)*
        ];
    };
}

agent::for_each_tool!(registry_rows);

/// Bounds the Rust types cannot express.
fn bound(t: &mut ToolSpec) {
    if let Some(limit) = t.schema.pointer_mut("/properties/limit") {
        limit["minimum"] = 1.into();
        limit["maximum"] = MAX_LIST_LIMIT.into();
    }
    if let Some(top) = t.schema.pointer_mut("/properties/top") {
        top["minimum"] = 1.into();
        top["maximum"] = 50.into();
    }
    if t.name == "query_dataset" {
        if let Some(limit) = t.schema.pointer_mut("/properties/limit") {
            limit["minimum"] = 1.into();
            limit["maximum"] = agent::analyst::MAX_TOP.into();
        }
    }
    if let Some(sql) = t.schema.pointer_mut("/properties/sql") {
        sql["minLength"] = 1.into();
        sql["maxLength"] = crate::datasets::sandbox::MAX_SQL.into();
    }
    if let Some(ids) = t.schema.pointer_mut("/properties/ids") {
        ids["maxItems"] = agent::writes::MAX_WRITE_ROWS.into();
    }
    for key in ["merge", "aliases"] {
        if let Some(list) = t.schema.pointer_mut(&format!("/properties/{key}")) {
            list["maxItems"] = 20.into();
        }
    }
    for key in ["pattern", "name", "to", "into"] {
        if let Some(p) = t.schema.pointer_mut(&format!("/properties/{key}")) {
            p["maxLength"] = 100.into();
        }
    }
    for key in ["category", "merchant", "account", "text", "dataset", "measure", "group_by"] {
        if let Some(p) = t.schema.pointer_mut(&format!("/properties/{key}")) {
            p["maxLength"] = 100.into();
        }
    }
    // Cash flow is shown over time or as one total, never per category or merchant.
    if t.name == "cash_flow" {
        if let Some(g) = t.schema.pointer_mut("/properties/group_by") {
            *g = serde_json::json!({
                "description": "`none`, or rows per `month`, `week` (from Monday) or `day`.",
                "enum": CASH_FLOW_GROUPS,
                "default": "none"
            });
        }
    }
}

impl Registry {
    fn build() -> Registry {
        let mut tools: Vec<ToolSpec> = TOOLS
            .iter()
            .map(|&(name, class, description, schema)| ToolSpec {
                name,
                description,
                class,
                schema: schema(),
            })
            .collect();
        tools.iter_mut().for_each(bound);
        let validators = tools.iter().filter_map(|t| jsonschema::validator_for(&t.schema).ok()).collect();
        Registry { tools, validators }
    }

    /// The registry, built once.
    pub fn get() -> &'static Registry {
        static REGISTRY: OnceLock<Registry> = OnceLock::new();
        REGISTRY.get_or_init(Registry::build)
    }

    /// The tools a model may call on its own: those that only read.
    pub fn read_tools(&self) -> impl Iterator<Item = &ToolSpec> {
        self.tools.iter().filter(|t| t.class == ToolClass::Read)
    }

    pub fn tools(&self) -> &[ToolSpec] {
        &self.tools
    }

    /// Checks a plan's `tool` and `args` against the allowlist and schema, then types it.
    pub fn validate(&self, plan: &Value) -> Result<ToolCall, PlanError> {
        let obj = plan.as_object().ok_or(PlanError::Shape)?;
        let name = obj.get("tool").and_then(Value::as_str).ok_or(PlanError::Shape)?;
        let args = obj.get("args").ok_or(PlanError::Shape)?;
        let index = self
            .tools
            .iter()
            .position(|t| t.name == name)
            .ok_or_else(|| PlanError::UnknownTool(name.chars().take(64).collect()))?;
        let spec = &self.tools[index];
        let validator = self
            .validators
            .get(index)
            .ok_or(PlanError::Schema { tool: spec.name, details: "schema unavailable".into() })?;
        let errors: Vec<String> =
            validator.iter_errors(args).take(5).map(|e| format!("{} at {}", e, e.instance_path)).collect();
        if !errors.is_empty() {
            return Err(PlanError::Schema { tool: spec.name, details: errors.join("; ") });
        }
        let call: ToolCall = serde_json::from_value(serde_json::json!({"tool": name, "args": args}))
            .map_err(|e| PlanError::Args { tool: spec.name, details: e.to_string() })?;
        check(&call)?;
        Ok(call)
    }
}

/// The most conditions a `query_dataset` plan carries.
const MAX_DATASET_FILTERS: usize = 10;

/// What a schema cannot say, for a call built in Rust (a form's) rather than read
/// from JSON.
pub fn check_call(call: &ToolCall) -> Result<(), PlanError> {
    check(call)
}

/// What a schema cannot say.
fn check(call: &ToolCall) -> Result<(), PlanError> {
    let mut periods: Vec<&agent::Period> = call.period().into_iter().collect();
    if let ToolCall::ComparePeriods(a) = call {
        periods.push(&a.reference);
    }
    for p in periods {
        if p.start >= p.end {
            return Err(PlanError::Semantic(format!("the period {}..{} is empty", p.start, p.end)));
        }
        if p.end.to_days() - p.start.to_days() > 366 * 30 {
            return Err(PlanError::Semantic("the period is longer than 30 years".into()));
        }
    }
    if let ToolCall::QueryDataset(a) = call {
        // A dataset's dates may span any length of time.
        if let Some(p) = a.period.as_ref().filter(|p| p.start >= p.end) {
            return Err(PlanError::Semantic(format!("the period {}..{} is empty", p.start, p.end)));
        }
        if a.filters.len() > MAX_DATASET_FILTERS {
            return Err(PlanError::Semantic(format!("at most {MAX_DATASET_FILTERS} filters")));
        }
    }
    let (min, max) = call.amounts();
    if min.is_some_and(|m| m.minor < 0) || max.is_some_and(|m| m.minor < 0) {
        return Err(PlanError::Semantic("amount bounds are sizes and cannot be negative".into()));
    }
    if let (Some(a), Some(b)) = (min, max) {
        if a.currency != b.currency || a.minor > b.minor {
            return Err(PlanError::Semantic(
                "amount_min must not exceed amount_max, in the same currency".into(),
            ));
        }
    }
    match call {
        ToolCall::SetBudget(a) => {
            if a.from.day() != 1 {
                return Err(PlanError::Semantic("a budget starts on a month's first day".into()));
            }
            if a.amount.is_some_and(|m| m.minor <= 0) {
                return Err(PlanError::Semantic(
                    "a budget is more than zero; remove it with no amount".into(),
                ));
            }
        }
        ToolCall::Recategorise(_) | ToolCall::MarkTransfers(_) => {
            let (text, ids) = match call {
                ToolCall::Recategorise(a) => (a.text.is_some(), !a.ids.is_empty()),
                ToolCall::MarkTransfers(a) => (a.text.is_some(), !a.ids.is_empty()),
                _ => (false, false),
            };
            let (min, max) = call.amounts();
            let named = call.period().is_some() || call.category().is_some() || call.merchant().is_some();
            if !(named || text || ids || min.is_some() || max.is_some()) {
                return Err(PlanError::Semantic("say which transactions: a filter or ids".into()));
            }
        }
        ToolCall::MergeMerchants(a) if a.merge.is_empty() && a.aliases.is_empty() && a.name.is_none() => {
            return Err(PlanError::Semantic("say what to merge into it, or its new name".into()));
        }
        _ => {}
    }
    if let ToolCall::ListTransactions(a) = call {
        if a.limit == 0 || a.limit > MAX_LIST_LIMIT {
            return Err(PlanError::Semantic(format!("limit must be 1..={MAX_LIST_LIMIT}")));
        }
    }
    if let ToolCall::CashFlow(a) = call {
        if !(a.group_by == GroupBy::None || a.group_by.is_time()) {
            return Err(PlanError::Semantic(format!(
                "cash_flow groups by {} only",
                CASH_FLOW_GROUPS.join(", ")
            )));
        }
        let days = a.period.end.to_days() - a.period.start.to_days();
        if a.group_by == GroupBy::Day && days > MAX_DAY_ROWS {
            return Err(PlanError::Semantic(format!(
                "a cash flow by day covers at most {MAX_DAY_ROWS} days; group by week or month"
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn period() -> Value {
        json!({"start": "2026-01-01", "end": "2026-02-01", "label": "January 2026"})
    }

    #[test]
    fn semantic_checks_hold_without_the_schema() {
        // A plan typed in Rust skips the schema; the semantic checks still refuse it.
        let mut call: ToolCall =
            serde_json::from_value(json!({"tool": "cash_flow", "args": {"period": period()}})).unwrap();
        if let ToolCall::CashFlow(a) = &mut call {
            a.group_by = GroupBy::Merchant;
        }
        assert!(matches!(check(&call), Err(PlanError::Semantic(m)) if m.contains("cash_flow")));
    }

    #[test]
    fn every_tool_is_documented_in_the_registrys_order() {
        let doc = include_str!("../../docs/tools.md");
        let mut from = 0;
        for t in Registry::get().tools() {
            let at = doc.find(&format!("## `{}`", t.name));
            assert!(at.is_some(), "docs/tools.md lacks {}", t.name);
            assert!(at >= Some(from), "docs/tools.md has {} out of the registry's order", t.name);
            from = at.unwrap_or(from);
        }
    }

    #[test]
    fn accepts_parser_plans_and_rejects_the_rest() {
        let r = Registry::get();
        assert_eq!(r.tools().len(), ToolCall::READ_NAMES.len() + ToolCall::WRITE_NAMES.len());
        let mut names: Vec<&str> = r.tools().iter().map(|t| t.name).collect();
        let mut expected = [ToolCall::READ_NAMES, ToolCall::WRITE_NAMES].concat();
        names.sort_unstable();
        expected.sort_unstable();
        assert_eq!(names, expected, "the registry and the agent's tool calls agree");
        let ok = [
            json!({"tool": "spending_summary", "args": {"period": period(), "category": "groceries"}}),
            json!({"tool": "spending_summary", "args": {"period": period(), "account": "livret_a", "group_by": "account"}}),
            json!({"tool": "list_transactions", "args": {"period": period(), "direction": "credit", "account": "compte_courant"}}),
            json!({"tool": "compare_periods", "args": {"current": period(), "reference": period(), "account": "livret_a"}}),
            json!({"tool": "cash_flow", "args": {"period": period(), "group_by": "week"}}),
            json!({"tool": "cash_flow", "args": {"period": period(), "account": "livret_a"}}),
            json!({"tool": "balances", "args": {"period": period()}}),
            json!({"tool": "budget_status", "args": {"period": period(), "category": "groceries"}}),
            json!({"tool": "recurring_payments", "args": {"period": period(), "merchant": "netflix"}}),
            json!({"tool": "dataset_info", "args": {}}),
            json!({"tool": "query_dataset", "args": {"dataset": "ventes", "measure": "montant", "group_by": "region", "limit": 5}}),
            json!({"tool": "query_dataset", "args": {"dataset": "ventes", "aggregate": "count"}}),
            json!({"tool": "query_dataset", "args": {"dataset": "ventes", "measure": "montant", "group_by": "jour", "bucket": "quarter",
                "filters": [{"column": "region", "op": "ne", "value": "Sud"}, {"column": "quantite", "op": "gte", "value": "3"}],
                "period": {"column": "jour", "start": "2025-01-01", "end": "2026-01-01", "label": "2025"}}}),
            json!({"tool": "run_sql", "args": {"sql": "SELECT 1"}}),
        ];
        for plan in ok {
            let call = r.validate(&plan).unwrap_or_else(|e| panic!("{plan}: {e}"));
            assert_eq!(serde_json::to_value(&call).unwrap()["tool"], plan["tool"]);
        }
        let cases = [
            (json!([1]), "JSON object"),
            (json!({"tool": "drop_table", "args": {}}), "unknown tool"),
            (json!({"tool": "spending_summary", "args": {}}), "schema"),
            (json!({"tool": "spending_summary", "args": {"period": period(), "sql": "x"}}), "schema"),
            (
                json!({"tool": "spending_summary", "args": {"period": {"start": "2026-13-01", "end": "2026-02-01", "label": ""}}}),
                "2026-13-01",
            ),
            (
                json!({"tool": "spending_summary", "args": {"period": {"start": "2026-02-01", "end": "2026-01-01", "label": ""}}}),
                "empty",
            ),
            (
                json!({"tool": "spending_summary", "args": {"period": period(), "group_by": "weekday"}}),
                "schema",
            ),
            (json!({"tool": "list_transactions", "args": {"period": period(), "limit": 100000}}), "schema"),
            (json!({"tool": "list_transactions", "args": {"period": period(), "limit": 0}}), "schema"),
            (
                json!({"tool": "spending_summary", "args": {"period": period(), "group_by": "merchant", "top": 500}}),
                "schema",
            ),
            (
                json!({"tool": "compare_periods", "args": {"current": period(), "reference": {"start": "2025-02-01", "end": "2025-01-01", "label": ""}}}),
                "empty",
            ),
            (json!({"tool": "compare_periods", "args": {"current": period()}}), "schema"),
            (
                json!({"tool": "list_transactions", "args": {"period": period(), "amount_min": {"minor": -5, "currency": "EUR"}}}),
                "negative",
            ),
            (
                json!({"tool": "list_transactions", "args": {"period": period(), "amount_min": {"minor": 500, "currency": "EUR"}, "amount_max": {"minor": 5, "currency": "EUR"}}}),
                "exceed",
            ),
            (
                json!({"tool": "list_transactions", "args": {"period": period(), "amount_min": {"minor": 5, "currency": "euro"}}}),
                "schema",
            ),
            (
                json!({"tool": "list_transactions", "args": {"period": period(), "direction": "both"}}),
                "schema",
            ),
            (json!({"tool": "cash_flow", "args": {"period": period(), "group_by": "category"}}), "schema"),
            (json!({"tool": "dataset_info", "args": {"sql": "x"}}), "schema"),
            (
                json!({"tool": "query_dataset", "args": {"dataset": "ventes", "aggregate": "median"}}),
                "schema",
            ),
            (json!({"tool": "query_dataset", "args": {"dataset": "ventes", "limit": 1000}}), "schema"),
            (json!({"tool": "query_dataset", "args": {"dataset": "ventes", "period": period()}}), "schema"),
            (json!({"tool": "query_dataset", "args": {"dataset": "ventes", "bucket": "week"}}), "schema"),
            (
                json!({"tool": "query_dataset", "args": {"dataset": "ventes", "filters": [{"column": "region", "op": "like", "value": "%"}]}}),
                "schema",
            ),
            (
                json!({"tool": "query_dataset", "args": {"dataset": "ventes", "filters": [{"column": "region", "value": "Sud"}]}}),
                "schema",
            ),
            (
                json!({"tool": "query_dataset", "args": {"dataset": "ventes", "period": {"column": "jour", "start": "2026-01-01", "end": "2025-01-01"}}}),
                "empty",
            ),
            (
                json!({"tool": "query_dataset", "args": {"dataset": "ventes", "filters": vec![json!({"column": "a", "op": "eq", "value": "1"}); 11]}}),
                "at most 10 filters",
            ),
            (json!({"tool": "run_sql", "args": {"sql": "x".repeat(9000)}}), "schema"),
            (json!({"tool": "run_sql", "args": {}}), "schema"),
            (json!({"tool": "cash_flow", "args": {"period": period(), "group_by": "merchant"}}), "schema"),
            (json!({"tool": "cash_flow", "args": {"period": period(), "category": "groceries"}}), "schema"),
            (
                json!({"tool": "cash_flow", "args": {"period": {"start": "2024-01-01", "end": "2026-01-01", "label": ""}, "group_by": "day"}}),
                "366 days",
            ),
            (
                json!({"tool": "balances", "args": {"period": {"start": "2026-02-01", "end": "2026-02-01", "label": ""}}}),
                "empty",
            ),
            (json!({"tool": "balances", "args": {"period": period(), "account": "x".repeat(101)}}), "schema"),
            (json!({"tool": "budget_status", "args": {"period": period(), "merchant": "netflix"}}), "schema"),
            (json!({"tool": "budget_status", "args": {}}), "schema"),
            (json!({"tool": "recurring_payments", "args": {"period": period(), "limit": 5}}), "schema"),
        ];
        for (plan, needle) in cases {
            let err = r.validate(&plan).expect_err(&plan.to_string()).to_string();
            assert!(err.contains(needle), "{plan}: {err}");
        }
    }
}

//! [`ToolCallPlan::from_json`]: a plan read from its JSON by hand, for the browser.
//!
//! The browser reads plans the server wrote (the stream's `plan` events, the previous
//! plan a follow-up continues). Serde's derived code for the plan's dozen types, and its
//! buffering of `#[serde(flatten)]` and tagged enums, weighed a good part of the
//! browser bundle; this reads the JSON once into a small tree, then each field from it.
//! It reads what the derived `Deserialize` reads (the tests compare them on every plan of
//! the corpus) and refuses what it refuses, but for two things no server writes: a key
//! given twice is refused even where serde would ignore it, and an enum's variant must
//! be a string (serde also takes `{"month": null}`). Its error messages are shorter.

use crate::chart::ChartKind;
use crate::json::{fail, i64_, list, string, u32_, unit, Fields, Json, R};
use crate::plan::*;
use crate::{Currency, Date, Money, Reason};

fn date(json: &Json) -> R<Date> {
    match json {
        Json::Str(s) => Date::parse_iso(s).map_or_else(|| fail("invalid date"), Ok),
        _ => fail("expected a date"),
    }
}

fn money(json: &Json) -> R<Money> {
    let f = Fields::of(json, None)?;
    let currency = |json: &Json| match json {
        Json::Str(s) => Currency::new(s).map_or_else(|| fail("invalid currency"), Ok),
        _ => fail("expected a currency"),
    };
    Ok(Money { minor: f.req("minor", i64_)?, currency: f.req("currency", currency)? })
}

fn period(json: &Json) -> R<Period> {
    let f = Fields::of(json, Some(&["start", "end", "label", "words"]))?;
    Ok(Period {
        start: f.req("start", date)?,
        end: f.req("end", date)?,
        label: f.req("label", string)?,
        words: f.or("words", string, String::new)?,
    })
}

const SUMMARY: &[&str] = &[
    "period",
    "category",
    "merchant",
    "account",
    "amount_min",
    "amount_max",
    "exclude_category",
    "exclude_merchant",
    "group_by",
    "top",
    "average",
];

fn summary(json: &Json) -> R<SummaryArgs> {
    let f = Fields::of(json, Some(SUMMARY))?;
    Ok(SummaryArgs {
        period: f.req("period", period)?,
        category: f.opt("category", string)?,
        merchant: f.opt("merchant", string)?,
        account: f.opt("account", string)?,
        amount_min: f.opt("amount_min", money)?,
        amount_max: f.opt("amount_max", money)?,
        exclude_category: f.opt("exclude_category", string)?,
        exclude_merchant: f.opt("exclude_merchant", string)?,
        group_by: f.or("group_by", unit, GroupBy::default)?,
        top: f.opt("top", u32_)?,
        average: f.opt("average", unit)?,
    })
}

const LIST: &[&str] = &[
    "period",
    "category",
    "merchant",
    "account",
    "direction",
    "amount_min",
    "amount_max",
    "exclude_category",
    "exclude_merchant",
    "text",
    "order",
    "limit",
];

fn list_transactions(json: &Json) -> R<ListTransactionsArgs> {
    let f = Fields::of(json, Some(LIST))?;
    Ok(ListTransactionsArgs {
        period: f.req("period", period)?,
        category: f.opt("category", string)?,
        merchant: f.opt("merchant", string)?,
        account: f.opt("account", string)?,
        direction: f.opt("direction", unit)?,
        amount_min: f.opt("amount_min", money)?,
        amount_max: f.opt("amount_max", money)?,
        exclude_category: f.opt("exclude_category", string)?,
        exclude_merchant: f.opt("exclude_merchant", string)?,
        text: f.opt("text", string)?,
        order: f.or("order", unit, ListOrder::default)?,
        limit: f.or("limit", u32_, || DEFAULT_LIST_LIMIT)?,
    })
}

fn compare(json: &Json) -> R<CompareArgs> {
    let f = Fields::of(json, Some(&["flow", "current", "reference", "category", "merchant", "account"]))?;
    Ok(CompareArgs {
        flow: f.or("flow", unit, Flow::default)?,
        current: f.req("current", period)?,
        reference: f.req("reference", period)?,
        category: f.opt("category", string)?,
        merchant: f.opt("merchant", string)?,
        account: f.opt("account", string)?,
    })
}

fn cash_flow(json: &Json) -> R<CashFlowArgs> {
    let f = Fields::of(json, Some(&["period", "account", "group_by"]))?;
    Ok(CashFlowArgs {
        period: f.req("period", period)?,
        account: f.opt("account", string)?,
        group_by: f.or("group_by", unit, GroupBy::default)?,
    })
}

fn balances(json: &Json) -> R<BalancesArgs> {
    let f = Fields::of(json, Some(&["period", "account"]))?;
    Ok(BalancesArgs { period: f.req("period", period)?, account: f.opt("account", string)? })
}

fn budget(json: &Json) -> R<BudgetArgs> {
    let f = Fields::of(json, Some(&["period", "category"]))?;
    Ok(BudgetArgs { period: f.req("period", period)?, category: f.opt("category", string)? })
}

fn recurring(json: &Json) -> R<RecurringArgs> {
    let f = Fields::of(json, Some(&["period", "category", "merchant"]))?;
    Ok(RecurringArgs {
        period: f.req("period", period)?,
        category: f.opt("category", string)?,
        merchant: f.opt("merchant", string)?,
    })
}

fn filter(json: &Json) -> R<DatasetFilter> {
    let f = Fields::of(json, Some(&["column", "op", "value"]))?;
    Ok(DatasetFilter {
        column: f.req("column", string)?,
        op: f.req("op", unit)?,
        value: f.req("value", string)?,
    })
}

fn dataset_period(json: &Json) -> R<DatasetPeriod> {
    let f = Fields::of(json, Some(&["column", "start", "end", "label"]))?;
    Ok(DatasetPeriod {
        column: f.req("column", string)?,
        start: f.req("start", date)?,
        end: f.req("end", date)?,
        label: f.or("label", string, String::new)?,
    })
}

const QUERY: &[&str] = &[
    "dataset",
    "aggregate",
    "measure",
    "group_by",
    "bucket",
    "filters",
    "period",
    "order",
    "limit",
    "chart",
];

fn query_dataset(json: &Json) -> R<QueryDatasetArgs> {
    let f = Fields::of(json, Some(QUERY))?;
    Ok(QueryDatasetArgs {
        dataset: f.req("dataset", string)?,
        aggregate: f.or("aggregate", unit, Aggregate::default)?,
        measure: f.opt("measure", string)?,
        group_by: f.opt("group_by", string)?,
        bucket: f.opt("bucket", unit)?,
        filters: f.or("filters", |j| list(j, filter), Vec::new)?,
        period: f.opt("period", dataset_period)?,
        order: f.or("order", unit, DatasetOrder::default)?,
        limit: f.opt("limit", u32_)?,
        chart: f.opt::<ChartKind>("chart", unit)?,
    })
}

fn run_sql(json: &Json) -> R<RunSqlArgs> {
    let f = Fields::of(json, Some(&["sql"]))?;
    Ok(RunSqlArgs { sql: f.req("sql", string)? })
}

fn dataset_info(json: &Json) -> R<DatasetInfoArgs> {
    Fields::of(json, Some(&[]))?;
    Ok(DatasetInfoArgs {})
}

/// The write tools' arguments: the server's only (see `writes` in Cargo.toml).
#[cfg(feature = "writes")]
mod write_args {
    use super::{date, money, period};
    use crate::json::{bool_, i64_, list, string, Fields, Json, R};
    use crate::{CreateRuleArgs, MarkTransfersArgs, MergeMerchantsArgs, RecategoriseArgs, SetBudgetArgs};

    pub(super) fn set_budget(json: &Json) -> R<SetBudgetArgs> {
        let f = Fields::of(json, Some(&["category", "amount", "from"]))?;
        Ok(SetBudgetArgs {
            category: f.req("category", string)?,
            amount: f.opt("amount", money)?,
            from: f.req("from", date)?,
        })
    }

    pub(super) fn create_rule(json: &Json) -> R<CreateRuleArgs> {
        let f = Fields::of(json, Some(&["pattern", "category", "apply_to_past"]))?;
        Ok(CreateRuleArgs {
            pattern: f.req("pattern", string)?,
            category: f.req("category", string)?,
            apply_to_past: f.or("apply_to_past", bool_, || false)?,
        })
    }

    fn ids(json: &Json) -> R<Vec<i64>> {
        list(json, i64_)
    }

    pub(super) fn recategorise(json: &Json) -> R<RecategoriseArgs> {
        let f = Fields::of(
            json,
            Some(&["to", "period", "category", "merchant", "text", "amount_min", "amount_max", "ids"]),
        )?;
        Ok(RecategoriseArgs {
            to: f.req("to", string)?,
            period: f.opt("period", period)?,
            category: f.opt("category", string)?,
            merchant: f.opt("merchant", string)?,
            text: f.opt("text", string)?,
            amount_min: f.opt("amount_min", money)?,
            amount_max: f.opt("amount_max", money)?,
            ids: f.or("ids", ids, Vec::new)?,
        })
    }

    pub(super) fn merge_merchants(json: &Json) -> R<MergeMerchantsArgs> {
        let f = Fields::of(json, Some(&["into", "merge", "aliases", "name"]))?;
        let strings = |j: &Json| list(j, string);
        Ok(MergeMerchantsArgs {
            into: f.req("into", string)?,
            merge: f.or("merge", strings, Vec::new)?,
            aliases: f.or("aliases", strings, Vec::new)?,
            name: f.opt("name", string)?,
        })
    }

    pub(super) fn mark_transfers(json: &Json) -> R<MarkTransfersArgs> {
        let f = Fields::of(json, Some(&["period", "merchant", "text", "amount_min", "amount_max", "ids"]))?;
        Ok(MarkTransfersArgs {
            period: f.opt("period", period)?,
            merchant: f.opt("merchant", string)?,
            text: f.opt("text", string)?,
            amount_min: f.opt("amount_min", money)?,
            amount_max: f.opt("amount_max", money)?,
            ids: f.or("ids", ids, Vec::new)?,
        })
    }
}

fn reason(json: &Json) -> R<Reason> {
    let f = Fields::of(json, None)?;
    Ok(Reason { code: f.req("code", unit)?, text: f.req("text", string)? })
}

fn meta(json: &Json) -> R<PlanMeta> {
    let f = Fields::of(json, None)?;
    Ok(PlanMeta {
        confidence: f.req("confidence", unit)?,
        confidence_reasons: f.req("confidence_reasons", |j| list(j, reason))?,
        locale: f.req("locale", unit)?,
        today: f.req("today", date)?,
    })
}

impl ToolCallPlan {
    /// Reads a plan from its JSON as its `Deserialize` does, with less code: the
    /// browser's reader (see the module `plan_json`).
    pub fn from_json(json: &str) -> Result<ToolCallPlan, serde_json::Error> {
        ToolCallPlan::from_value(&serde_json::from_str(json)?)
    }

    /// [`ToolCallPlan::from_json`] from JSON already read (a plan inside an event).
    pub fn from_value(json: &Json) -> Result<ToolCallPlan, serde_json::Error> {
        let f = Fields::of(json, None)?;
        let tool = f.req("tool", string)?;
        let Some(args) = f.get("args") else { return fail("missing field") };
        let call = match tool.as_str() {
            "spending_summary" => ToolCall::SpendingSummary(summary(args)?),
            "income_summary" => ToolCall::IncomeSummary(summary(args)?),
            "list_transactions" => ToolCall::ListTransactions(list_transactions(args)?),
            "compare_periods" => ToolCall::ComparePeriods(compare(args)?),
            "cash_flow" => ToolCall::CashFlow(cash_flow(args)?),
            "balances" => ToolCall::Balances(balances(args)?),
            "budget_status" => ToolCall::BudgetStatus(budget(args)?),
            "recurring_payments" => ToolCall::RecurringPayments(recurring(args)?),
            "query_dataset" => ToolCall::QueryDataset(query_dataset(args)?),
            "run_sql" => ToolCall::RunSql(run_sql(args)?),
            "dataset_info" => ToolCall::DatasetInfo(dataset_info(args)?),
            // The browser's bundle reads no write plan (see `writes` in Cargo.toml).
            #[cfg(feature = "writes")]
            "set_budget" => ToolCall::SetBudget(write_args::set_budget(args)?),
            #[cfg(feature = "writes")]
            "create_rule" => ToolCall::CreateRule(write_args::create_rule(args)?),
            #[cfg(feature = "writes")]
            "recategorise" => ToolCall::Recategorise(write_args::recategorise(args)?),
            #[cfg(feature = "writes")]
            "merge_merchants" => ToolCall::MergeMerchants(write_args::merge_merchants(args)?),
            #[cfg(feature = "writes")]
            "mark_transfers" => ToolCall::MarkTransfers(write_args::mark_transfers(args)?),
            _ => return fail("unknown tool"),
        };
        Ok(ToolCallPlan { call, meta: f.req("meta", meta)? })
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use crate::plan::*;

    /// `from_json` reads what `Deserialize` reads, whatever the order of the keys (a
    /// model's plan may put `args` first), and refuses what it refuses.
    #[test]
    // Its plans include writes, which only a parser that reads writes knows.
    #[cfg(feature = "writes")]
    fn from_json_reads_as_deserialize_does() {
        let plans = [
            r#"{"tool":"spending_summary","args":{"period":{"start":"2026-01-01","end":"2026-02-01","label":"janvier 2026","words":"janvier"},"category":"groceries","amount_min":{"minor":1000,"currency":"EUR"},"group_by":"merchant","top":5,"average":"month"},"meta":{"confidence":"high","confidence_reasons":[{"code":"explicit_intent","text":"a"}],"locale":"fr","today":"2026-03-14"}}"#,
            r#"{"meta":{"confidence":"low","confidence_reasons":[],"locale":"en","today":"2026-03-14"},"args":{"period":{"start":"2026-01-01","end":"2026-02-01","label":"January 2026"},"direction":"debit","order":"largest","limit":10},"tool":"list_transactions"}"#,
            r#"{"args":{},"tool":"dataset_info","extra":1,"meta":{"confidence":"medium","confidence_reasons":[],"locale":"en","today":"2026-03-14"}}"#,
            r#"{"tool":"balances","args":{"period":{"start":"2026-01-01","end":"2026-02-01","label":"x"},"account":null},"meta":{"confidence":"low","confidence_reasons":[{"code":"guardian_repaired","text":"b","more":[1.5,-2,true,null,{}]}],"locale":"en","today":"2026-03-14","x":"y"}}"#,
            r#"{"tool":"income_summary","args":{"period":{"start":"2026-01-01","end":"2026-02-01","label":"x"},"amount_max":{"minor":-45,"currency":"USD"}},"meta":{"confidence":"low","confidence_reasons":[],"locale":"en","today":"2026-03-14"}}"#,
            r#"{"tool":"compare_periods","args":{"flow":"income","current":{"start":"2026-01-01","end":"2026-02-01","label":"x"},"reference":{"start":"2025-01-01","end":"2025-02-01","label":"y","words":"z"},"merchant":"m"},"meta":{"confidence":"low","confidence_reasons":[],"locale":"en","today":"2026-03-14"}}"#,
            r#"{"tool":"run_sql","args":{"sql":"select 1"},"meta":{"confidence":"low","confidence_reasons":[],"locale":"en","today":"2026-03-14"}}"#,
            r#"{"tool":"query_dataset","args":{"dataset":"ventes","aggregate":"sum","measure":"montant","group_by":"mois","bucket":"quarter","filters":[{"column":"region","op":"gte","value":"Nord"}],"period":{"column":"mois","start":"2025-01-01","end":"2026-01-01"},"order":"group","limit":3,"chart":"line"},"meta":{"confidence":"high","confidence_reasons":[],"locale":"fr","today":"2026-03-14"}}"#,
            // The writes, as the parser plans them.
            r#"{"tool":"set_budget","args":{"category":"restaurants","amount":{"minor":30000,"currency":"EUR"},"from":"2026-12-01"},"meta":{"confidence":"high","confidence_reasons":[{"code":"write_request","text":"w"},{"code":"explicit_amount","text":"a"}],"locale":"fr","today":"2026-11-21"}}"#,
            r#"{"meta":{"confidence":"medium","confidence_reasons":[{"code":"default_month","text":"d"}],"locale":"en","today":"2026-11-21"},"args":{"from":"2026-11-01","category":"shopping"},"tool":"set_budget"}"#,
            r#"{"tool":"create_rule","args":{"pattern":"Uber Eats","category":"restaurants","apply_to_past":true},"meta":{"confidence":"high","confidence_reasons":[],"locale":"en","today":"2026-11-21"}}"#,
            r#"{"tool":"create_rule","args":{"category":"leisure","pattern":"LIBRAIRIE"},"meta":{"confidence":"low","confidence_reasons":[{"code":"unplaced_meaning","text":"u"}],"locale":"fr","today":"2026-11-21"}}"#,
            r#"{"tool":"recategorise","args":{"to":"leisure","period":{"start":"2026-03-01","end":"2026-04-01","label":"mars 2026","words":"mars"},"category":"shopping","merchant":"amazon","text":"PRIME","amount_min":{"minor":10000,"currency":"EUR"},"amount_max":{"minor":20000,"currency":"EUR"},"ids":[1,-2,3]},"meta":{"confidence":"high","confidence_reasons":[],"locale":"fr","today":"2026-11-21"}}"#,
            r#"{"tool":"recategorise","args":{"to":"groceries","merchant":"boulangerie_paul"},"meta":{"confidence":"high","confidence_reasons":[{"code":"exact_merchant","text":"m"}],"locale":"fr","today":"2026-11-21"}}"#,
            r#"{"tool":"merge_merchants","args":{"into":"amazon","merge":["amzn"],"aliases":["Amazon Marketplace"],"name":"Amazon"},"meta":{"confidence":"high","confidence_reasons":[],"locale":"en","today":"2026-11-21"}}"#,
            r#"{"tool":"merge_merchants","args":{"into":"basic_fit","name":"Basic-Fit"},"meta":{"confidence":"high","confidence_reasons":[],"locale":"en","today":"2026-11-21"}}"#,
            r#"{"tool":"mark_transfers","args":{"text":"livret","period":{"start":"2026-10-01","end":"2026-11-01","label":"October 2026"},"merchant":"boursorama","amount_max":{"minor":5,"currency":"EUR"},"ids":[]},"meta":{"confidence":"medium","confidence_reasons":[{"code":"name_as_text","text":"n"},{"code":"missing_value","text":"v"},{"code":"unknown_name","text":"u"}],"locale":"fr","today":"2026-11-21"}}"#,
        ];
        for json in plans {
            let derived: ToolCallPlan = serde_json::from_str(json).unwrap();
            assert_eq!(ToolCallPlan::from_json(json).unwrap(), derived, "{json}");
            let again = serde_json::to_string(&derived).unwrap();
            assert_eq!(ToolCallPlan::from_json(&again).unwrap(), derived);
        }
        let meta =
            r#""meta":{"confidence":"high","confidence_reasons":[],"locale":"fr","today":"2026-03-14"}"#;
        for bad in [
            format!(r#"{{"tool":"nope","args":{{}},{meta}}}"#),
            format!(r#"{{"tool":"dataset_info","args":{{"x":1}},{meta}}}"#),
            format!(r#"{{"tool":"dataset_info",{meta}}}"#),
            r#"{"tool":"dataset_info","args":{}}"#.to_string(),
            format!(r#"{{"tool":"balances","args":{{"period":{{"start":"2026-01-01","end":"2026-02-01"}}}},{meta}}}"#),
            format!(r#"{{"tool":"balances","args":{{"period":{{"start":"2026-01-01","end":"2026-02-31","label":""}}}},{meta}}}"#),
            format!(r#"{{"tool":"cash_flow","args":{{"period":{{"start":"2026-01-01","end":"2026-02-01","label":""}},"group_by":"year"}},{meta}}}"#),
            format!(r#"{{"tool":"cash_flow","args":{{"period":{{"start":"2026-01-01","end":"2026-02-01","label":""}},"group_by":null}},{meta}}}"#),
            format!(r#"{{"tool":"query_dataset","args":{{"dataset":"v","limit":-1}},{meta}}}"#),
            format!(r#"{{"tool":"query_dataset","args":{{"dataset":"v","limit":1.5}},{meta}}}"#),
            format!(r#"{{"tool":"query_dataset","args":{{"dataset":"v","limit":4294967296}},{meta}}}"#),
            format!(r#"{{"tool":"query_dataset","args":{{"dataset":"v","filters":[{{"column":"c","op":"like","value":"x"}}]}},{meta}}}"#),
            format!(r#"{{"tool":"income_summary","args":{{"period":{{"start":"2026-01-01","end":"2026-02-01","label":""}},"amount_min":{{"minor":1,"currency":"eur"}}}},{meta}}}"#),
            format!(r#"{{"tool":"run_sql","args":{{"sql":1}},{meta}}}"#),
            format!(r#"{{"tool":"set_budget","args":{{"category":"c"}},{meta}}}"#),
            format!(r#"{{"tool":"set_budget","args":{{"category":"c","from":"2026-12-01","to":"x"}},{meta}}}"#),
            format!(r#"{{"tool":"create_rule","args":{{"pattern":"p","category":"c","apply_to_past":"yes"}},{meta}}}"#),
            format!(r#"{{"tool":"recategorise","args":{{"merchant":"m"}},{meta}}}"#),
            format!(r#"{{"tool":"recategorise","args":{{"to":"c","ids":[1.5]}},{meta}}}"#),
            format!(r#"{{"tool":"merge_merchants","args":{{"into":"a","merge":"b"}},{meta}}}"#),
            format!(r#"{{"tool":"mark_transfers","args":{{"account":"livret_a"}},{meta}}}"#),
            r#"{"tool":"run_sql","args":{"sql":""},"meta":{"confidence":"sure","confidence_reasons":[],"locale":"en","today":"2026-03-14"}}"#.to_string(),
            r#"{"tool":"run_sql","args":{"sql":""},"meta":{"confidence":"low","confidence_reasons":[{"code":"nope","text":""}],"locale":"en","today":"2026-03-14"}}"#.to_string(),
        ] {
            assert!(serde_json::from_str::<ToolCallPlan>(&bad).is_err(), "{bad}");
            assert!(ToolCallPlan::from_json(&bad).is_err(), "{bad}");
        }
    }
}

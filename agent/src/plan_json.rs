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

use serde::de::{self, Deserialize, DeserializeOwned, Deserializer, MapAccess, SeqAccess, Visitor};

use crate::chart::ChartKind;
use crate::plan::*;
use crate::{Currency, Date, Money, Reason};

type R<T> = Result<T, serde_json::Error>;

fn fail<T>(what: &'static str) -> R<T> {
    Err(de::Error::custom(what))
}

/// A JSON value, numbers as plans use them (whole numbers).
enum Json {
    Null,
    Bool,
    Unsigned(u64),
    Negative(i64),
    Float,
    Str(String),
    Array(Vec<Json>),
    Object(Vec<(String, Json)>),
}

impl<'de> Deserialize<'de> for Json {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Json, D::Error> {
        struct JsonVisitor;
        impl<'de> Visitor<'de> for JsonVisitor {
            type Value = Json;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("JSON")
            }
            fn visit_unit<E>(self) -> Result<Json, E> {
                Ok(Json::Null)
            }
            fn visit_bool<E>(self, _: bool) -> Result<Json, E> {
                Ok(Json::Bool)
            }
            fn visit_u64<E>(self, n: u64) -> Result<Json, E> {
                Ok(Json::Unsigned(n))
            }
            fn visit_i64<E>(self, n: i64) -> Result<Json, E> {
                Ok(Json::Negative(n))
            }
            fn visit_f64<E>(self, _: f64) -> Result<Json, E> {
                Ok(Json::Float)
            }
            fn visit_str<E>(self, s: &str) -> Result<Json, E> {
                Ok(Json::Str(s.to_string()))
            }
            fn visit_string<E>(self, s: String) -> Result<Json, E> {
                Ok(Json::Str(s))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
                let mut items = Vec::new();
                while let Some(item) = seq.next_element()? {
                    items.push(item);
                }
                Ok(Json::Array(items))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
                let mut entries = Vec::new();
                while let Some(entry) = map.next_entry()? {
                    entries.push(entry);
                }
                Ok(Json::Object(entries))
            }
        }
        deserializer.deserialize_any(JsonVisitor)
    }
}

/// An object's fields.
struct Fields<'a>(&'a [(String, Json)]);

impl<'a> Fields<'a> {
    /// The fields of `json`, an object; with `only`, none but those (`deny_unknown_fields`).
    fn of(json: &'a Json, only: Option<&[&str]>) -> R<Fields<'a>> {
        let Json::Object(entries) = json else { return fail("expected an object") };
        for (i, (key, _)) in entries.iter().enumerate() {
            if entries[..i].iter().any(|(k, _)| k == key) {
                return fail("duplicate field");
            }
            if only.is_some_and(|only| !only.contains(&key.as_str())) {
                return fail("unknown field");
            }
        }
        Ok(Fields(entries))
    }

    fn get(&self, key: &str) -> Option<&'a Json> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// A field that must be there.
    fn req<T>(&self, key: &str, read: fn(&Json) -> R<T>) -> R<T> {
        match self.get(key) {
            Some(value) => read(value),
            None => fail("missing field"),
        }
    }

    /// An `Option` field: absent or `null` is `None`.
    fn opt<T>(&self, key: &str, read: fn(&Json) -> R<T>) -> R<Option<T>> {
        match self.get(key) {
            None | Some(Json::Null) => Ok(None),
            Some(value) => read(value).map(Some),
        }
    }

    /// A `#[serde(default)]` field.
    fn or<T>(&self, key: &str, read: fn(&Json) -> R<T>, default: fn() -> T) -> R<T> {
        match self.get(key) {
            None => Ok(default()),
            Some(value) => read(value),
        }
    }
}

fn string(json: &Json) -> R<String> {
    match json {
        Json::Str(s) => Ok(s.clone()),
        _ => fail("expected a string"),
    }
}

fn date(json: &Json) -> R<Date> {
    match json {
        Json::Str(s) => Date::parse_iso(s).map_or_else(|| fail("invalid date"), Ok),
        _ => fail("expected a date"),
    }
}

fn u32_(json: &Json) -> R<u32> {
    match json {
        Json::Unsigned(n) => u32::try_from(*n).map_or_else(|_| fail("invalid number"), Ok),
        _ => fail("expected a number"),
    }
}

fn i64_(json: &Json) -> R<i64> {
    match json {
        Json::Unsigned(n) => i64::try_from(*n).map_or_else(|_| fail("invalid number"), Ok),
        Json::Negative(n) => Ok(*n),
        _ => fail("expected a number"),
    }
}

/// A unit variant of an enum, by its derived `Deserialize` from its name.
fn unit<T: DeserializeOwned>(json: &Json) -> R<T> {
    match json {
        Json::Str(s) => T::deserialize(de::value::StrDeserializer::<serde_json::Error>::new(s)),
        _ => fail("expected a string"),
    }
}

fn list<T>(json: &Json, read: fn(&Json) -> R<T>) -> R<Vec<T>> {
    match json {
        Json::Array(items) => items.iter().map(read).collect(),
        _ => fail("expected a list"),
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
        let json: Json = serde_json::from_str(json)?;
        let f = Fields::of(&json, None)?;
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
            _ => return fail("unknown tool"),
        };
        Ok(ToolCallPlan { call, meta: f.req("meta", meta)? })
    }
}

//! The typed tool-call plan and its JSON shape:
//! `{"tool": "<name>", "args": {...}, "meta": {"confidence": ..., "confidence_reasons": [...]}}`.

use serde::{Deserialize, Serialize};

use crate::date::Date;
use crate::json::{fail, list, string, unit, Fields, Json, R};
use crate::locale::Locale;
use crate::plan_json::date;
use crate::reason::{Confidence, Reason};
pub use crate::tool::{ToolCall, ToolOutput};

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
            matches!(
                r.code,
                crate::reason::ReasonCode::UnplacedMeaning | crate::reason::ReasonCode::UnrecognizedWords
            )
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

// A plan read from its JSON by hand, for the browser ([`ToolCallPlan::from_json`]).
// The browser reads plans the server wrote (the stream's `plan` events, the previous
// plan a follow-up continues). Serde's derived code for the plan's dozen types, and its
// buffering of `#[serde(flatten)]` and tagged enums, weighed a good part of the
// browser bundle; this reads the JSON once into a small tree, then each field from it.
// It reads what the derived `Deserialize` reads (the tests compare them on every plan of
// the corpus) and refuses what it refuses, but for two things no server writes: a key
// given twice is refused even where serde would ignore it, and an enum's variant must
// be a string (serde also takes `{"month": null}`). Its error messages are shorter.

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
        let call = ToolCall::read(&tool, args)?;
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

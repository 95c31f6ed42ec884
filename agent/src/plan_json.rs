//! The readers of a plan's arguments from JSON, by hand (dates, amounts, periods,
//! transaction ids), which each tool's file uses to read its arguments: see
//! [`crate::plan::ToolCallPlan::from_json`] for why the browser reads plans by hand.

use crate::args::*;
use crate::date::Date;
use crate::json::{fail, i64_, string, Fields, Json, R};
use crate::money::{Currency, Money};

pub(crate) fn date(json: &Json) -> R<Date> {
    match json {
        Json::Str(s) => Date::parse_iso(s).map_or_else(|| fail("invalid date"), Ok),
        _ => fail("expected a date"),
    }
}

pub(crate) fn money(json: &Json) -> R<Money> {
    let f = Fields::of(json, None)?;
    let currency = |json: &Json| match json {
        Json::Str(s) => Currency::new(s).map_or_else(|| fail("invalid currency"), Ok),
        _ => fail("expected a currency"),
    };
    Ok(Money { minor: f.req("minor", i64_)?, currency: f.req("currency", currency)? })
}

pub(crate) fn period(json: &Json) -> R<Period> {
    let f = Fields::of(json, Some(&["start", "end", "label", "words"]))?;
    Ok(Period {
        start: f.req("start", date)?,
        end: f.req("end", date)?,
        label: f.req("label", string)?,
        words: f.or("words", string, String::new)?,
    })
}

/// A write's transaction ids.
#[cfg(feature = "writes")]
pub(crate) fn ids(json: &Json) -> R<Vec<i64>> {
    crate::json::list(json, i64_)
}

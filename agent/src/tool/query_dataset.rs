//! `query_dataset`: one aggregate over a dataset the user uploaded, written as a
//! structure (Sou writes the SELECT). Its result is shared with `run_sql`.

use serde::{Deserialize, Serialize};

use super::Heading;
use crate::chart::spec::ChartSpec;
use crate::chart::ChartKind;
use crate::json::{list, string, u32_, unit, Fields, Json, R};
use crate::plan_json::date;
use super::Hide;
use crate::{Aggregate, DatasetFilter, DatasetOrder, DatasetPeriod, DateBucket, Locale};

/// Arguments of `query_dataset`: one aggregate over a dataset (a CSV file the user
/// uploaded), optionally per value of one of its columns and over some of its rows.
/// Structured, not SQL: Sou writes the SELECT, which runs in the same sandbox as
/// `run_sql`.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QueryDatasetArgs {
    /// The dataset's name, as `dataset_info` lists it ("ventes").
    pub dataset: String,
    #[serde(default)]
    pub aggregate: Aggregate,
    /// The numeric column aggregated; absent for `count`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub measure: Option<String>,
    /// One value of the result per value of this column ("by region").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group_by: Option<String>,
    /// When `group_by` is a date column: one value per month, quarter or year.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bucket: Option<DateBucket>,
    /// Only the rows every filter keeps ("where region is Nord").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub filters: Vec<DatasetFilter>,
    /// Only the rows whose date column falls in this period.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub period: Option<DatasetPeriod>,
    #[serde(default, skip_serializing_if = "DatasetOrder::is_default")]
    pub order: DatasetOrder,
    /// Keep only the first N groups ("top 5").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<u32>,
    /// The chart asked for ("répartition" → `pie`, "évolution" → `line`); otherwise the
    /// result's shape decides.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chart: Option<ChartKind>,
}

/// What `query_dataset` and `run_sql` return: the rows, and a chart when the rows
/// have the shape of one (labels then numbers).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DatasetResult {
    /// The dataset asked about (`query_dataset`); `run_sql` may read several.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dataset: Option<String>,
    /// What was asked, in words: "Somme de montant par region — ventes".
    pub title: String,
    pub result: crate::datasets::QueryResult,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chart: Option<ChartSpec>,
}

/// What the tool does, as the registry gives it to models and API clients.
pub const DESCRIPTION: &str = "One aggregate (sum, avg, count, min, max) of a dataset's column, optionally per \
     value of another column (a date column per month, quarter or year), over the \
     rows that filters and a period keep, ordered and limited. Returns the rows and \
     a chart.";

pub type Args = QueryDatasetArgs;
pub type Output = DatasetResult;

pub(crate) const EXPECT: (&str, &str) = ("Un tableau", "A table");

const FIELDS: &[&str] = &[
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

pub(crate) fn read(json: &Json) -> R<QueryDatasetArgs> {
    let f = Fields::of(json, Some(FIELDS))?;
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

pub(crate) fn title(a: &QueryDatasetArgs, _: &Heading<'_>, locale: Locale) -> String {
    crate::wording::dataset_title(a, locale)
}

/// A query's result in a sentence: the one value, or the number of rows and the first.
pub(crate) fn answer(r: &DatasetResult, locale: Locale) -> String {
    let rows = &r.result.rows;
    let title = &r.title;
    match (rows.as_slice(), locale) {
        ([], Locale::Fr) => format!("{title} : aucune ligne."),
        ([], Locale::En) => format!("{title}: no rows."),
        ([only], Locale::Fr) if only.len() == 1 => format!("{title} : {}.", only[0].display(locale)),
        ([only], Locale::En) if only.len() == 1 => format!("{title}: {}.", only[0].display(locale)),
        ([first, ..], _) => {
            let n = rows.len();
            let more = if r.result.truncated { "+" } else { "" };
            let lead = match first.as_slice() {
                [label, value] => Some((label.display(locale), value.display(locale))),
                _ => None,
            };
            match (locale, lead) {
                (Locale::Fr, Some((l, v))) => {
                    format!("{title} : {n}{more} ligne(s) ; en premier, {l} ({v}).")
                }
                (Locale::En, Some((l, v))) => format!("{title}: {n}{more} row(s); first, {l} ({v})."),
                (Locale::Fr, None) => format!("{title} : {n}{more} ligne(s)."),
                (Locale::En, None) => format!("{title}: {n}{more} row(s)."),
            }
        }
    }
}

/// Nothing to hide: a dataset's own table, which the person chose to share.
pub(crate) fn redact(r: DatasetResult, _: &Hide) -> DatasetResult {
    r
}

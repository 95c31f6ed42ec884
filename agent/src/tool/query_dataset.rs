//! `query_dataset`: one aggregate over a dataset the user uploaded, written as a
//! structure (Sou writes the SELECT). Its result is shared with `run_sql`.

use serde::{Deserialize, Serialize};

use super::Heading;
use crate::chart::spec::ChartSpec;
use crate::chart::ChartKind;
use crate::json::{list, string, u32_, unit, Fields, Json, R};
use crate::plan_json::date;
use super::Hide;
use crate::args::{Aggregate, DatasetFilter, DatasetOrder, DatasetPeriod, DateBucket};
use crate::locale::Locale;

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
    dataset_title(a, locale)
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

/// "ventes (montant, region; vendeur = Alice)" — the dataset, the columns a plan
/// reads and its conditions.
pub fn shape_text(a: &QueryDatasetArgs, locale: Locale) -> String {
    let columns: Vec<&str> = a.measure.iter().chain(a.group_by.iter()).map(String::as_str).collect();
    let conditions = conditions_text(a, locale);
    match (columns.is_empty(), conditions.is_empty()) {
        (true, true) => a.dataset.clone(),
        (false, true) => format!("{} ({})", a.dataset, columns.join(", ")),
        (true, false) => format!("{} ({conditions})", a.dataset),
        (false, false) => format!("{} ({}; {conditions})", a.dataset, columns.join(", ")),
    }
}

/// A plan's conditions in words: "vendeur = Alice, quantite > 10, day : 2025".
fn conditions_text(a: &QueryDatasetArgs, locale: Locale) -> String {
    let mut parts: Vec<String> =
        a.filters.iter().map(|f| format!("{} {} {}", f.column, f.op.symbol(), f.value)).collect();
    if let Some(p) = &a.period {
        let label = if p.label.is_empty() { format!("{} → {}", p.start, p.end) } else { p.label.clone() };
        let colon = if locale == Locale::Fr { " :" } else { ":" };
        parts.push(format!("{}{colon} {label}", p.column));
    }
    parts.join(", ")
}

/// The aggregate in words: "somme", "average", "nombre de lignes".
pub fn aggregate_label(a: Aggregate, locale: Locale) -> &'static str {
    match (a, locale) {
        (Aggregate::Sum, Locale::Fr) => "somme",
        (Aggregate::Sum, Locale::En) => "sum",
        (Aggregate::Avg, Locale::Fr) => "moyenne",
        (Aggregate::Avg, Locale::En) => "average",
        (Aggregate::Count, Locale::Fr) => "nombre de lignes",
        (Aggregate::Count, Locale::En) => "number of rows",
        (Aggregate::Min, _) => "minimum",
        (Aggregate::Max, _) => "maximum",
    }
}

/// The column name of the aggregate in the result: `somme_montant`, `average_amount`,
/// `maximum_amount`, `nombre`, `count`.
pub fn value_column(a: &QueryDatasetArgs, locale: Locale) -> String {
    match (&a.measure, a.aggregate, locale) {
        (_, Aggregate::Count, Locale::Fr) => "nombre".into(),
        (_, Aggregate::Count, Locale::En) => "count".into(),
        (Some(m), agg, _) => format!("{}_{m}", aggregate_label(agg, locale)),
        (None, agg, _) => aggregate_label(agg, locale).into(),
    }
}

/// What a plan asks, in words: "Somme de montant par region — ventes",
/// "Top 5 region : somme de montant — ventes".
pub fn dataset_title(a: &QueryDatasetArgs, locale: Locale) -> String {
    let what = match (&a.measure, a.aggregate) {
        (Some(m), agg) if agg != Aggregate::Count => match locale {
            Locale::Fr => format!("{} de {m}", aggregate_label(agg, locale)),
            Locale::En => format!("{} of {m}", aggregate_label(agg, locale)),
        },
        (_, agg) => aggregate_label(agg, locale).to_string(),
    };
    let group = match (&a.group_by, a.bucket) {
        (Some(g), Some(b)) => Some(format!("{} ({g})", bucket_label(b, locale))),
        (g, _) => g.clone(),
    };
    let body = match (&group, a.limit, locale) {
        (Some(g), Some(n), Locale::Fr) => format!("Top {n} {g} : {what}"),
        (Some(g), Some(n), Locale::En) => format!("Top {n} {g} by {what}"),
        (Some(g), None, Locale::Fr) => format!("{} par {g}", capitalise(&what)),
        (Some(g), None, Locale::En) => format!("{} by {g}", capitalise(&what)),
        (None, _, _) => capitalise(&what),
    };
    let body = match (a.order, a.limit, locale) {
        (DatasetOrder::ValueAsc, Some(_), Locale::Fr) => {
            body.replacen("Top", "Les", 1) + " (les plus faibles)"
        }
        (DatasetOrder::ValueAsc, Some(_), Locale::En) => body.replacen("Top", "Bottom", 1),
        _ => body,
    };
    let conditions = conditions_text(a, locale);
    if conditions.is_empty() {
        format!("{body} — {}", a.dataset)
    } else {
        format!("{body} — {}, {conditions}", a.dataset)
    }
}

/// What a bucket is called in a result's header: "mois", "quarter".
pub fn bucket_label(b: DateBucket, locale: Locale) -> &'static str {
    match (b, locale) {
        (DateBucket::Month, Locale::Fr) => "mois",
        (DateBucket::Month, Locale::En) => "month",
        (DateBucket::Quarter, Locale::Fr) => "trimestre",
        (DateBucket::Quarter, Locale::En) => "quarter",
        (DateBucket::Year, Locale::Fr) => "année",
        (DateBucket::Year, Locale::En) => "year",
    }
}

/// `s` with its first letter in upper case. Only for Sou's own words, which start with
/// an ASCII letter ([`aggregate_label`]): no Unicode case table in the browser bundle.
fn capitalise(s: &str) -> String {
    let mut s = s.to_string();
    if let Some(first) = s.get_mut(..1) {
        first.make_ascii_uppercase();
    }
    s
}

//! What a chart is: its kind, its labelled points and how its values read. Plain
//! data that tool results carry; `chart` builds it.

use serde::{Deserialize, Serialize};

use crate::money::Currency;

#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ChartKind {
    Bar,
    Line,
    Pie,
}

/// One labelled value. Values are for drawing (geometry), not money.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Point {
    pub label: String,
    pub value: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChartSpec {
    pub kind: ChartKind,
    pub title: String,
    /// What the labels are (a column's name).
    pub x: String,
    /// What the values are.
    pub y: String,
    pub points: Vec<Point>,
    /// Set when the values are money in this currency (major units), so that they are
    /// written as money ("1 234,56 €").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub currency: Option<Currency>,
    /// Set when the values are percentages (a report that shares shares only).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub percent: bool,
}

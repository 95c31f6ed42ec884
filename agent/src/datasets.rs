//! Analyst mode's wire types: datasets (CSV files uploaded as tables) and the result of
//! a query over them. Shared by the server and the browser.

use serde::{Deserialize, Serialize};

/// A dataset column's type, inferred from its values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ColumnType {
    /// Whole numbers.
    Integer,
    /// Decimal numbers (`12.5`, `12,5`).
    Number,
    /// Dates, stored as `YYYY-MM-DD` text.
    Date,
    Text,
}

impl ColumnType {
    /// Whether sums and averages make sense.
    pub fn is_numeric(self) -> bool {
        matches!(self, ColumnType::Integer | ColumnType::Number)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            ColumnType::Integer => "integer",
            ColumnType::Number => "number",
            ColumnType::Date => "date",
            ColumnType::Text => "text",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DatasetColumn {
    pub name: String,
    #[serde(rename = "type")]
    pub kind: ColumnType,
}

/// A dataset as the parser knows it (part of the user's vocabulary): its name and
/// typed columns.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DatasetShape {
    pub name: String,
    pub columns: Vec<DatasetColumn>,
}

impl DatasetShape {
    pub fn column(&self, name: &str) -> Option<&DatasetColumn> {
        self.columns.iter().find(|c| c.name == name)
    }

    /// A dataset from its outline, `ventes: region text, montant number` (the parser
    /// corpus's `dataset` lines); `None` if it is not one.
    pub fn from_outline(outline: &str) -> Option<DatasetShape> {
        let (name, columns) = outline.split_once(':')?;
        let columns = columns
            .split(',')
            .map(|c| {
                let (name, kind) = c.trim().split_once(' ')?;
                let kind = match kind.trim() {
                    "integer" => ColumnType::Integer,
                    "number" => ColumnType::Number,
                    "date" => ColumnType::Date,
                    "text" => ColumnType::Text,
                    _ => return None,
                };
                Some(DatasetColumn { name: name.to_string(), kind })
            })
            .collect::<Option<Vec<_>>>()?;
        Some(DatasetShape { name: name.trim().to_string(), columns })
    }

    /// The datasets a corpus declares in its `dataset …` lines.
    pub fn declared_in(corpus: &str) -> Vec<DatasetShape> {
        corpus
            .lines()
            .filter_map(|l| DatasetShape::from_outline(l.trim().strip_prefix("dataset ")?))
            .collect()
    }
}

/// A dataset as `dataset_info` describes it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DatasetInfo {
    /// The table name queries use.
    pub name: String,
    pub file_name: String,
    pub rows: u64,
    pub columns: Vec<DatasetColumn>,
    pub created_at: String,
}

/// One value of a query's result. Numbers keep the text the database gave, so no
/// precision is lost on the way.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Cell {
    Int(i64),
    Num(NumText),
    Text(String),
    Null,
}

/// A decimal number as text (`"1234.5"`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NumText {
    pub num: String,
}

impl Cell {
    /// The value as a number, for charts (geometry, not money).
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Cell::Int(i) => Some(*i as f64),
            Cell::Num(n) => n.num.parse().ok(),
            Cell::Text(_) | Cell::Null => None,
        }
    }

    /// The value as people of `locale` read it: "12 500,75", "12,500.75". Numbers of
    /// four digits keep no separator ("2026", "1500,75"), as both languages allow.
    pub fn display(&self, locale: crate::locale::Locale) -> String {
        let number = |s: &str| {
            let (sign, digits) = s.strip_prefix('-').map_or(("", s), |d| ("-", d));
            let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
            let Ok(n) = whole.parse::<u64>() else { return s.to_string() };
            if !fraction.bytes().all(|b| b.is_ascii_digit()) {
                return s.to_string();
            }
            let whole = if n < 10_000 { n.to_string() } else { crate::money::group_thousands(n, locale) };
            match (fraction.is_empty(), locale) {
                (true, _) => format!("{sign}{whole}"),
                (false, crate::locale::Locale::Fr) => format!("{sign}{whole},{fraction}"),
                (false, crate::locale::Locale::En) => format!("{sign}{whole}.{fraction}"),
            }
        };
        match self {
            Cell::Int(i) => number(&i.to_string()),
            Cell::Num(n) => number(&n.num),
            Cell::Text(t) => t.clone(),
            Cell::Null => String::new(),
        }
    }

    /// The value as people read it.
    pub fn text(&self) -> String {
        match self {
            Cell::Int(i) => i.to_string(),
            Cell::Num(n) => n.num.clone(),
            Cell::Text(t) => t.clone(),
            Cell::Null => String::new(),
        }
    }
}

/// What a query over datasets returned.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct QueryResult {
    /// The SQL as written (before Sou rewrote its table names).
    pub sql: String,
    pub columns: Vec<String>,
    pub rows: Vec<Vec<Cell>>,
    /// More rows than the cap were found; the first ones are here.
    pub truncated: bool,
}

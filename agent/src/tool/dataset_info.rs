//! `dataset_info`: the user's datasets, their columns, and the SQL dialect to write.

use serde::{Deserialize, Serialize};

use super::Heading;
use crate::json::{Fields, Json, R};
use super::Hide;
use crate::locale::Locale;

/// Arguments of `dataset_info`: none.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DatasetInfoArgs {}

/// What `dataset_info` returns: the user's datasets and the SQL dialect to write.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DatasetInfoResult {
    pub datasets: Vec<crate::datasets::DatasetInfo>,
    /// `sqlite` or `postgresql`.
    pub dialect: String,
}

/// What the tool does, as the registry gives it to models and API clients.
pub const DESCRIPTION: &str = "The user's datasets (CSV files uploaded for analysis): each table's name, row \
     count and typed columns, and the SQL dialect to query them with.";

pub type Args = DatasetInfoArgs;
pub type Output = DatasetInfoResult;

pub(crate) const EXPECT: (&str, &str) = ("Les jeux de données", "The datasets");

pub(crate) fn read(json: &Json) -> R<DatasetInfoArgs> {
    Fields::of(json, Some(&[]))?;
    Ok(DatasetInfoArgs {})
}

pub(crate) fn title(_: &DatasetInfoArgs, _: &Heading<'_>, locale: Locale) -> String {
    locale.pick("Vos jeux de données", "Your datasets").to_string()
}

pub(crate) fn answer(r: &DatasetInfoResult, locale: Locale) -> String {
    let names: Vec<String> = r
        .datasets
        .iter()
        .map(|d| match locale {
            Locale::Fr => format!("{} ({} lignes)", d.name, d.rows),
            Locale::En => format!("{} ({} rows)", d.name, d.rows),
        })
        .collect();
    match (locale, names.len()) {
        (Locale::Fr, 0) => "Aucun jeu de données : importez un fichier CSV dans « Données ».".into(),
        (Locale::En, 0) => "No dataset yet: upload a CSV file under “Data”.".into(),
        (Locale::Fr, n) => format!("{n} jeu(x) de données : {}.", names.join(", ")),
        (Locale::En, n) => format!("{n} dataset(s): {}.", names.join(", ")),
    }
}

/// Nothing to hide: the datasets' names and sizes.
pub(crate) fn redact(r: DatasetInfoResult, _: &Hide) -> DatasetInfoResult {
    r
}

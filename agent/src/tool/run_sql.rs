//! `run_sql`: one read-only SELECT over the user's datasets, in the sandbox; its result
//! is `query_dataset`'s.

use serde::{Deserialize, Serialize};

use super::query_dataset::DatasetResult;
use super::Heading;
use crate::json::{string, Fields, Json, R};
use crate::locale::Locale;

pub(crate) use super::query_dataset::{answer, redact};

/// Arguments of `run_sql`: one read-only SELECT over the user's datasets.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunSqlArgs {
    /// One SELECT in the dialect `dataset_info` names, over the datasets it lists.
    pub sql: String,
}

/// What the tool does, as the registry gives it to models and API clients.
pub const DESCRIPTION: &str = "Runs one read-only SELECT over the user's datasets (the tables dataset_info \
     lists, nothing else), within 2 seconds, at most 1000 rows. Returns the rows \
     and a chart when they are labels then numbers.";

pub type Args = RunSqlArgs;
pub type Output = DatasetResult;

pub(crate) const EXPECT: (&str, &str) = ("Un tableau", "A table");

pub(crate) fn read(json: &Json) -> R<RunSqlArgs> {
    let f = Fields::of(json, Some(&["sql"]))?;
    Ok(RunSqlArgs { sql: f.req("sql", string)? })
}

pub(crate) fn title(_: &RunSqlArgs, _: &Heading<'_>, locale: Locale) -> String {
    locale.pick("Requête SQL sur vos jeux de données", "SQL query over your datasets").to_string()
}

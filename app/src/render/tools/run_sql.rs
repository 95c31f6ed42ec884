//! `run_sql`'s result: `query_dataset`'s table, with the SQL that ran.

use agent::{DatasetResult, Locale};
use leptos::prelude::*;

use super::query_dataset::dataset_result;
use super::ToolView;

pub(crate) struct View;

impl ToolView for View {
    type Output = DatasetResult;
    const LABEL: (&'static str, &'static str) = ("Requêtes SQL", "SQL queries");

    fn view(r: DatasetResult, locale: Locale) -> AnyView {
        dataset_result(r, "run_sql", locale).into_any()
    }
}

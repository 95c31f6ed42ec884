//! `query_dataset`'s result: the table and its chart (shared with `run_sql`, which also
//! shows the SQL it ran).

use agent::{DatasetResult, Locale};
use leptos::prelude::*;

use super::ToolView;
use crate::i18n::tr;
use crate::table::result_table;

pub(crate) struct View;

impl ToolView for View {
    type Output = DatasetResult;
    const LABEL: (&'static str, &'static str) = ("Requêtes sur un jeu de données", "Dataset queries");

    fn view(r: DatasetResult, locale: Locale) -> AnyView {
        dataset_result(r, "query_dataset", locale).into_any()
    }
}

/// A query over datasets: the table and its chart; for model-written SQL, the SQL.
pub(super) fn dataset_result(r: DatasetResult, tool: &'static str, locale: Locale) -> impl IntoView {
    let sql = (tool == "run_sql").then(|| {
        view! {
            <details class="sql-used">
                <summary>{tr(locale, "Requête exécutée", "Query run")}</summary>
                <pre data-testid="sql">{r.result.sql.clone()}</pre>
            </details>
        }
    });
    view! {
        <section class="result dataset-result" data-testid="result" data-tool=tool>
            <p class="result-heading">{r.title}</p>
            {result_table(r.result, r.chart, locale)}
            {sql}
        </section>
    }
}

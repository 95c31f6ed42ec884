//! Results over the user's own datasets: a query's table (and the SQL a model wrote),
//! and the list of datasets with their columns.

use agent::{DatasetInfoResult, DatasetResult, Locale};
use leptos::prelude::*;

use crate::i18n::{count, tr};
use crate::table::{columns_text, result_table};

/// A query over datasets: the table and its chart; for model-written SQL, the SQL.
pub fn dataset_result(r: DatasetResult, tool: &'static str, locale: Locale) -> impl IntoView {
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

/// The user's datasets and their columns.
pub fn dataset_info(r: DatasetInfoResult, locale: Locale) -> impl IntoView {
    view! {
        <section class="result" data-testid="result" data-tool="dataset_info">
            <p class="result-heading">{tr(locale, "Vos jeux de données", "Your datasets")}</p>
            <ul class="dataset-list">
                {r.datasets.into_iter().map(|d| {
                    let columns = columns_text(&d);
                    let rows = count(locale, d.rows, ("ligne", "lignes"), ("row", "rows"));
                    view! {
                        <li>
                            <code class="dataset-name">{d.name}</code>
                            <span class="hint">{format!(" · {rows}")}</span>
                            <p class="dataset-columns">{columns}</p>
                        </li>
                    }
                }).collect_view()}
            </ul>
        </section>
    }
}

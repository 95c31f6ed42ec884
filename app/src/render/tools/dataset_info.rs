//! `dataset_info`'s result: the user's datasets and their columns.

use agent::{DatasetInfoResult, Locale};
use leptos::prelude::*;

use super::ToolView;
use crate::i18n::{count, tr};
use crate::table::columns_text;

pub(crate) struct View;

impl ToolView for View {
    type Output = DatasetInfoResult;
    const LABEL: (&'static str, &'static str) = ("Jeux de données", "Datasets");

    fn view(r: DatasetInfoResult, locale: Locale) -> AnyView {
        dataset_info(r, locale).into_any()
    }
}

/// The user's datasets and their columns.
fn dataset_info(r: DatasetInfoResult, locale: Locale) -> impl IntoView {
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

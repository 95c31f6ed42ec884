//! `/datasets`: analyst mode's data. Any CSV file uploaded becomes a table of its own,
//! with typed columns; the page lists them as the model sees them, and runs read-only
//! SQL typed in it through the same sandbox the model uses. Plain forms: a multipart
//! POST for the upload, a GET for the query.

use crate::post::key;
use agent::datasets::DatasetInfo;
use agent::Locale;
use leptos::prelude::*;

use crate::api::{load_datasets, DatasetsData};
use crate::fields::TextArea;
use crate::i18n::{count, tr};
use crate::layout::{Frame, Here, Loaded, TopBar};
use crate::post;
use crate::table::{columns_text, result_table};

#[component]
pub fn DatasetsPage() -> impl IntoView {
    // Router hooks are read here, outside the Suspense (see ARCHITECTURE.md).
    let (refused, sql, added) = leptos_router::hooks::use_query_map()
        .with_untracked(|q| (q.get(key::REFUSED), q.get(key::SQL), q.get(key::ADDED)));
    let data = Resource::new_blocking(|| (), move |_| load_datasets(refused.clone(), sql.clone()));
    view! {
        <Loaded data frame=Frame::Page("settings") let:data>
            <Datasets data added=added.clone()/>
        </Loaded>
    }
}

#[component]
fn Datasets(data: DatasetsData, added: Option<String>) -> impl IntoView {
    let locale = data.locale;
    let hint = match locale {
        Locale::Fr => format!(
            "N'importe quel fichier CSV avec une ligne d'en-tête, jusqu'à {} Mo. Chaque fichier devient une table ; le type de chaque colonne (entier, nombre, date, texte) est déduit de ses valeurs.",
            data.max_mb
        ),
        Locale::En => format!(
            "Any CSV file with a header row, up to {} MB. Each file becomes a table; each column's type (integer, number, date, text) is inferred from its values.",
            data.max_mb
        ),
    };
    let (rows, at_once) = (data.row_cap, data.per_user);
    let cap = match locale {
        Locale::Fr => format!(
            "Une seule requête SELECT, en lecture seule, limitée à 2 s et à {rows} lignes ; {at_once} à la fois au plus."
        ),
        Locale::En => {
            format!("One SELECT query, read-only, limited to 2 s and {rows} rows; {at_once} at once at most.")
        }
    };
    // Too many queries at once: the page says so, and answers 429 (try again later).
    if data.query_busy {
        if let Some(r) = use_context::<leptos_axum::ResponseOptions>() {
            r.set_status(http::StatusCode::TOO_MANY_REQUESTS);
            r.insert_header(http::header::RETRY_AFTER, http::HeaderValue::from_static("1"));
        }
    }
    let placeholder = data
        .datasets
        .first()
        .map(|d| format!("SELECT * FROM {} LIMIT 10", d.name))
        .unwrap_or_else(|| "SELECT …".into());
    let has_any = !data.datasets.is_empty();
    view! {
        <div class="app">
            <TopBar account=data.account locale title=tr(locale, "Données", "Data") here=Here::Data/>
            <main class="settings datasets" data-testid="datasets">
                <section class="card">
                    <h2>{tr(locale, "Ajouter un jeu de données", "Add a dataset")}</h2>
                    <p class="hint">{hint}</p>
                    {added.map(|name| view! {
                        <p class="saved" role="status" data-testid="dataset-added">{match locale {
                            Locale::Fr => format!("Table « {name} » créée."),
                            Locale::En => format!("Table “{name}” created."),
                        }}</p>
                    })}
                    {data.refused.map(|m| view! { <p class="error" role="alert" data-testid="refused">{m}</p> })}
                    <form method="post" action=post::datasets::UPLOAD.route() enctype="multipart/form-data" data-testid="dataset-form">
                        <label for="dataset-file">{tr(locale, "Fichier CSV", "CSV file")}</label>
                        <input id="dataset-file" type="file" name="file" required accept=".csv,.txt,.tsv"/>
                        <button type="submit">{tr(locale, "Créer la table", "Create the table")}</button>
                    </form>
                </section>
                <section class="card">
                    <h2>{tr(locale, "Vos tables", "Your tables")}</h2>
                    {if has_any {
                        dataset_list(data.datasets, locale)
                    } else {
                        view! { <p class="hint">{tr(locale, "Aucune table pour l'instant.", "No table yet.")}</p> }.into_any()
                    }}
                    <details class="described">
                        <summary>{tr(locale, "Ce que le modèle en sait", "What the model is told")}</summary>
                        <pre data-testid="described">{data.described}</pre>
                    </details>
                </section>
                <section class="card">
                    <h2>{tr(locale, "Requête SQL", "SQL query")}</h2>
                    <p class="hint">{cap}</p>
                    <form method="get" action="/datasets" class="sql-form" data-testid="sql-form">
                        <label for="sql" class="visually-hidden">"SQL"</label>
                        <TextArea id="sql" name="sql" rows=4 maxlength=8000 placeholder value=data.sql.clone()/>
                        <button type="submit" disabled=!has_any>{tr(locale, "Exécuter", "Run")}</button>
                    </form>
                    {data.query_error.map(|m| view! { <p class="error" role="alert" data-testid="query-error">{m}</p> })}
                    {data.result.map(|r| {
                        let chart = agent::chart::suggest(&r, &r.sql);
                        result_table(r, chart, locale)
                    })}
                </section>
            </main>
        </div>
    }
}

fn dataset_list(datasets: Vec<DatasetInfo>, locale: Locale) -> AnyView {
    view! {
        <ul class="dataset-list" data-testid="dataset-list">
            {datasets.into_iter().map(|d| {
                let columns = columns_text(&d);
                let rows = count(locale, d.rows, ("ligne", "lignes"), ("row", "rows"));
                view! {
                    <li data-name=d.name.clone()>
                        <div class="dataset-head">
                            <code class="dataset-name">{d.name.clone()}</code>
                            <span class="hint">{format!("{} · {rows}", d.file_name)}</span>
                            <form method="post" action=post::datasets::DELETE.to(&[&d.name])>
                                <button type="submit" class="link">{tr(locale, "Supprimer", "Delete")}</button>
                            </form>
                        </div>
                        <p class="dataset-columns">{columns}</p>
                    </li>
                }
            }).collect_view()}
        </ul>
    }
    .into_any()
}

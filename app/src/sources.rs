//! `/runs/{id}/sources?step=N&page=K`: every transaction a step of an answer rests on,
//! a hundred a page, each with an anchor (`#tx-<id>`) the trace panel links to.

use agent::{Locale, TransactionRow};
use leptos::prelude::*;
use leptos_router::hooks::{use_params_map, use_query_map};
use serde::{Deserialize, Serialize};

use crate::api::AccountView;
use crate::error::AppError;
use crate::i18n::{self, tr};
use crate::layout::{Frame, Here, Loaded, TopBar};

/// Transactions a page shows.
pub const PER_PAGE: u32 = 100;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SourcesData {
    pub account: AccountView,
    pub locale: Locale,
    pub run: String,
    pub conversation_id: String,
    pub step: u32,
    pub title: String,
    pub tool: Option<String>,
    pub total: u64,
    pub page: u32,
    pub rows: Vec<TransactionRow>,
}

#[server(endpoint = "sources", input = leptos::server_fn::codec::GetUrl)]
pub async fn load_sources(run: String, step: u32, page: u32) -> Result<SourcesData, AppError> {
    use crate::api::ssr;
    ssr::answer(async move {
        let (sou, user) = ssr::session()?;
        let locale = ssr::accept_language();
        let page = page.max(1);
        let s = sou.runs().sources(user, &run, step, (page, PER_PAGE), locale).await?;
        Ok(SourcesData {
            account: ssr::account_view()?,
            locale,
            run,
            conversation_id: s.conversation_id,
            step,
            title: s.step.title,
            tool: s.step.tool,
            total: s.total,
            page,
            rows: s.rows,
        })
    })
    .await
}

#[component]
pub fn SourcesPage() -> impl IntoView {
    // Router hooks are read here, outside the Suspense (see ARCHITECTURE.md).
    let run = use_params_map().with_untracked(|p| p.get("id").unwrap_or_default());
    let (step, page) = use_query_map().with_untracked(|q| {
        let n = |k: &str| q.get(k).and_then(|v| v.parse::<u32>().ok());
        (n("step").unwrap_or(1), n("page").unwrap_or(1))
    });
    let data = Resource::new_blocking(move || (run.clone(), step, page), |(r, s, p)| load_sources(r, s, p));
    view! {
        <Loaded data frame=Frame::Page("settings") let:data>
            <Sources data/>
        </Loaded>
    }
}

#[component]
fn Sources(data: SourcesData) -> impl IntoView {
    let locale = data.locale;
    let pages = data.total.div_ceil(u64::from(PER_PAGE)).max(1) as u32;
    let link = |page: u32| format!("/runs/{}/sources?step={}&page={page}", data.run, data.step);
    let previous = (data.page > 1).then(
        || view! { <a href=link(data.page - 1) rel="prev">{tr(locale, "← Précédentes", "← Previous")}</a> },
    );
    let next = (data.page < pages)
        .then(|| view! { <a href=link(data.page + 1) rel="next">{tr(locale, "Suivantes →", "Next →")}</a> });
    let heading = match locale {
        Locale::Fr => format!("Étape {} : {}", data.step, data.title),
        Locale::En => format!("Step {}: {}", data.step, data.title),
    };
    let count = match locale {
        Locale::Fr => {
            format!("{} opérations derrière ce résultat — page {} sur {pages}.", data.total, data.page)
        }
        Locale::En => {
            format!("{} transactions behind this result — page {} of {pages}.", data.total, data.page)
        }
    };
    let rows = data
        .rows
        .into_iter()
        .map(|r| {
            view! {
                <tr id=format!("tx-{}", r.id) data-id=r.id.to_string() data-testid="source-row">
                    <td class="date">{i18n::date(r.date, locale)}</td>
                    <td>{r.label}</td>
                    <td>{r.merchant.unwrap_or_default()}</td>
                    <td>{r.category.unwrap_or_default()}</td>
                    <td>{r.account}</td>
                    <td class="num">{r.amount.format(locale)}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <div class="app">
            <TopBar account=data.account locale title=tr(locale, "Sources d'une réponse", "An answer's sources") here=Here::Settings/>
            <main class="settings sources-page" data-testid="sources-page">
                <p><a href=format!("/c/{}#trace-{}", data.conversation_id, data.run)>{tr(locale, "← Retour à la réponse", "← Back to the answer")}</a></p>
                <section class="card">
                    <h2>{heading}</h2>
                    <p class="hint">{count}</p>
                    // Scrolls sideways on a phone: reachable with the keyboard.
                    <div class="table-scroll" tabindex="0" role="region" aria-label=tr(locale, "Opérations", "Transactions")>
                        <table class="rows">
                            <thead>
                                <tr>
                                    <th scope="col">{tr(locale, "Date", "Date")}</th>
                                    <th scope="col">{tr(locale, "Libellé", "Label")}</th>
                                    <th scope="col">{tr(locale, "Marchand", "Merchant")}</th>
                                    <th scope="col">{tr(locale, "Catégorie", "Category")}</th>
                                    <th scope="col">{tr(locale, "Compte", "Account")}</th>
                                    <th scope="col" class="num">{tr(locale, "Montant", "Amount")}</th>
                                </tr>
                            </thead>
                            <tbody>{rows}</tbody>
                        </table>
                    </div>
                    <nav class="pages" aria-label=tr(locale, "Pages", "Pages")>{previous}" "{next}</nav>
                </section>
            </main>
        </div>
    }
}

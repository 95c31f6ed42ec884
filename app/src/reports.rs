//! `/settings/reports`: the user's shared reports — each link with its title, kind,
//! creation and expiry dates, views and a "Revoke" button — and the form that composes
//! a monthly report. Answers are shared from the chat ("Share" under an answer).

use crate::post::key;
use agent::reports::{Figures, Freshness, Names, ReportKind, ReportSummary};
use agent::Locale;
use leptos::prelude::*;

use crate::api::{load_reports, ReportsData};
use crate::i18n::{self, tr};
use crate::layout::{Card, CardLink, Frame, Here, Loaded, TopBar};
use crate::post;
use crate::render::share::share_options;

/// Its card on Settings.
pub const CARD: Card = Card {
    id: "shares",
    title: ("Rapports partagés", "Shared reports"),
    hint: (
        "Les liens que vous avez partagés : qui les a lus combien de fois, leur expiration, et les révoquer. Composez aussi un bilan mensuel à partager.",
        "The links you shared: how often they were read, when they expire, and revoking them. Compose a monthly report to share, too.",
    ),
    links: &[CardLink { page: "reports", id: "shares", text: ("Gérer les partages", "Manage shares") }],
};

#[component]
pub fn ReportsPage() -> impl IntoView {
    // Router hooks are read here, outside the Suspense (see ARCHITECTURE.md).
    let (error, created, revoked) = leptos_router::hooks::use_query_map()
        .with_untracked(|q| (q.get(key::ERROR), q.get(key::CREATED), q.get(key::REVOKED).is_some()));
    let data = Resource::new_blocking(|| (), move |_| load_reports(error.clone()));
    view! {
        <Loaded data frame=Frame::Page("settings") let:data>
            <Reports data created=created.clone() revoked/>
        </Loaded>
    }
}

fn kind_text(r: &ReportSummary, locale: Locale) -> String {
    let kind = match r.kind {
        ReportKind::Answer => tr(locale, "Réponse", "Answer"),
        ReportKind::Monthly => tr(locale, "Bilan", "Report"),
    };
    let mode = match r.mode {
        Freshness::Snapshot => tr(locale, "figé", "snapshot"),
        Freshness::Live => tr(locale, "à jour", "live"),
    };
    let figures = match r.figures {
        Figures::Amounts => tr(locale, "montants", "amounts"),
        Figures::Shares => tr(locale, "parts", "shares"),
    };
    let names = match r.names {
        Names::Merchants => tr(locale, "commerçants", "merchants"),
        Names::Categories => tr(locale, "catégories", "categories"),
    };
    format!("{kind} · {mode} · {figures} · {names}")
}

fn created_on(r: &ReportSummary, locale: Locale) -> String {
    r.created_at.get(..10).and_then(agent::Date::parse_iso).map(|d| i18n::date(d, locale)).unwrap_or_default()
}

#[component]
fn Reports(data: ReportsData, created: Option<String>, revoked: bool) -> impl IntoView {
    let locale = data.locale;
    let fresh = created.and_then(|id| data.reports.iter().find(|r| r.id == id).cloned());
    let banner = fresh.map(|r| {
        view! {
            <section class="card saved" role="status" data-testid="created">
                <p>{tr(locale, "Lien créé. Quiconque l'a peut lire ce rapport, sans compte :",
                    "Link created. Anyone who has it can read this report, without an account:")}</p>
                <p class="share-link">
                    <label class="visually-hidden" for="new-link">{tr(locale, "Lien", "Link")}</label>
                    <input id="new-link" type="text" readonly value=r.url.clone() data-testid="new-link"/>
                    <a href=r.url.clone() rel="external noopener" target="_blank">{tr(locale, "Ouvrir", "Open")}</a>
                </p>
            </section>
        }
    });
    let revoked = revoked.then(|| {
        view! {
            <p class="saved" role="status" data-testid="revoked">
                {tr(locale, "Lien révoqué : il ne mène plus nulle part.", "Link revoked: it leads nowhere now.")}
            </p>
        }
    });
    let error =
        data.error.map(|e| view! { <p class="error" role="alert" data-testid="report-error">{e}</p> });
    let pins = (!data.answers.is_empty()).then(|| {
        let boxes = data
            .answers
            .into_iter()
            .enumerate()
            .map(|(i, (id, question))| {
                let input = format!("pin-{i}");
                view! {
                    <li>
                        <input type="checkbox" id=input.clone() name="pins" value=id/>
                        <label for=input>{question}</label>
                    </li>
                }
            })
            .collect_view();
        view! {
            <fieldset class="pins">
                <legend>{tr(locale, "Épingler des réponses (facultatif)", "Pin answers (optional)")}</legend>
                <ul>{boxes}</ul>
            </fieldset>
        }
    });
    view! {
        <div class="app">
            <TopBar account=data.account locale title=tr(locale, "Rapports partagés", "Shared reports") here=Here::Settings/>
            <main class="settings reports" data-testid="reports">
                {banner}
                {revoked}
                {error}
                <section class="card">
                    <h2>{tr(locale, "Vos partages", "Your shares")}</h2>
                    <p class="hint">{tr(locale,
                        "Une réponse se partage depuis la conversation (« Partager » sous la réponse). Un lien révoqué ou expiré ne mène plus nulle part.",
                        "An answer is shared from its conversation (“Share” under the answer). A revoked or expired link leads nowhere.")}</p>
                    {shares_list(data.reports, locale)}
                </section>
                <section class="card">
                    <h2>{tr(locale, "Nouveau bilan mensuel", "New monthly report")}</h2>
                    <p class="hint">{tr(locale,
                        "Dépenses par catégorie comparées à la période précédente, revenus et épargne, budgets, principaux commerçants, paiements récurrents.",
                        "Spending by category against the period before, income and savings, budgets, top merchants, recurring payments.")}</p>
                    <form method="post" action=post::reports::CREATE.route() class="share-form" data-testid="monthly-form">
                        <input type="hidden" name="kind" value="monthly"/>
                        <label for="monthly-period">{tr(locale, "Mois", "Month")}</label>
                        <input id="monthly-period" type="month" name="period" required value=data.last_month
                            pattern="[0-9]{4}-[0-9]{2}"/>
                        {share_options(locale, "monthly")}
                        {pins}
                        <button type="submit">{tr(locale, "Créer le lien", "Create the link")}</button>
                    </form>
                </section>
            </main>
        </div>
    }
}

fn shares_list(reports: Vec<ReportSummary>, locale: Locale) -> AnyView {
    if reports.is_empty() {
        return view! { <p class="empty" data-testid="no-shares">{tr(locale, "Aucun partage pour l'instant.", "Nothing shared yet.")}</p> }
            .into_any();
    }
    let rows = reports
        .into_iter()
        .map(|r| {
            let expires = r
                .expires_on
                .map(|d| i18n::date(d, locale))
                .unwrap_or_else(|| tr(locale, "jamais", "never").to_string());
            let kind = kind_text(&r, locale);
            let created = created_on(&r, locale);
            let revoke = post::reports::REVOKE.to(&[&r.id]);
            view! {
                <tr data-testid="share-row" data-id=r.id.clone()>
                    <td><a href=r.url.clone() rel="external" data-testid="share-link">{r.title.clone()}</a></td>
                    <td>{kind}</td>
                    <td class="date">{created}</td>
                    <td class="date">{expires}</td>
                    <td class="num" data-testid="views">{r.views}</td>
                    <td>
                        <form method="post" action=revoke>
                            <button type="submit" class="danger" data-testid="revoke">{tr(locale, "Révoquer", "Revoke")}</button>
                        </form>
                    </td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <div class="table-wrap">
            <table class="rows shares" data-testid="shares">
                <thead>
                    <tr>
                        <th scope="col">{tr(locale, "Titre", "Title")}</th>
                        <th scope="col">{tr(locale, "Type", "Kind")}</th>
                        <th scope="col">{tr(locale, "Créé le", "Created")}</th>
                        <th scope="col">{tr(locale, "Expire", "Expires")}</th>
                        <th scope="col" class="num">{tr(locale, "Vues", "Views")}</th>
                        <th scope="col"><span class="visually-hidden">{tr(locale, "Action", "Action")}</span></th>
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
    .into_any()
}

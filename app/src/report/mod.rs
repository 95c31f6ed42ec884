//! `/r/{id}`: a shared report as one whole HTML document, rendered on the server from
//! Sou's own result views and never hydrated — no script, no WASM, every text escaped
//! by the view macro like on every other page. The server serves it with a policy that
//! allows no script at all (`server/src/reports.rs`).
//!
//! What a page shows was decided before it gets here (`backend::reports`): results
//! without internal ids, without merchants when the owner shares categories only. A
//! report that shares shares only is drawn by [`shares`], which writes no money.

mod blocks;
#[cfg(test)]
mod golden;
pub mod og;
pub(crate) mod parts;
pub(crate) mod shares;

use agent::reports::{Figures, Freshness, ReportPage};
use agent::Locale;
use leptos::prelude::*;

use crate::i18n::{self, tr};

/// Where the page lives, for its link preview tags.
pub struct Links {
    /// The page's own absolute URL.
    pub page: String,
    /// Its preview image's absolute URL.
    pub image: String,
}

/// `<meta property="og:…" content="…">`: Open Graph names its tags by `property`.
fn og_tag(property: &'static str, content: impl Into<String>) -> impl IntoView {
    use leptos::tachys::html::attribute::custom::custom_attribute;
    leptos::html::meta().add_any_attr(custom_attribute("property", property)).content(content.into())
}

/// The page's HTML document.
pub fn html(page: ReportPage, links: &Links) -> String {
    let owner = Owner::new();
    let html = owner.with(|| document(page, links).to_html());
    owner.unset();
    html
}

/// "Chiffres au 12/11/2026" or "Calculé le 12/11/2026": when the figures were made.
fn as_of(page: &ReportPage) -> String {
    let day = i18n::date(page.as_of, page.locale);
    match (page.mode, page.locale) {
        (Freshness::Snapshot, Locale::Fr) => format!("Chiffres figés au {day}"),
        (Freshness::Snapshot, Locale::En) => format!("Figures as of {day}"),
        (Freshness::Live, Locale::Fr) => format!("Calculé le {day}, à l'ouverture de cette page"),
        (Freshness::Live, Locale::En) => format!("Computed {day}, when this page was opened"),
    }
}

fn document(page: ReportPage, links: &Links) -> impl IntoView {
    let locale = page.locale;
    let title = page.title.clone();
    let summary = page.summary.clone();
    let og_locale = locale.pick("fr_FR", "en_GB");
    let image_alt = match locale {
        Locale::Fr => format!("Graphique du rapport « {title} »"),
        Locale::En => format!("Chart of the report “{title}”"),
    };
    let shares_note = (page.figures == Figures::Shares).then(|| {
        view! {
            <p class="report-note" data-testid="shares-note">
                {tr(locale, "Ce rapport montre des parts (en %), aucun montant.",
                    "This report shows shares (in %), no amounts.")}
            </p>
        }
    });
    let stamp = as_of(&page);
    let kind = page.kind.as_str();
    let mode = page.mode.as_str();
    let figures = page.figures.as_str();
    let names = page.names.as_str();
    let body = blocks::blocks(page);
    view! {
        <!DOCTYPE html>
        <html lang=locale.as_str()>
            <head>
                <meta charset="utf-8"/>
                <meta name="viewport" content="width=device-width, initial-scale=1"/>
                <title>{title.clone()}</title>
                <meta name="description" content=summary.clone()/>
                <meta name="robots" content="noindex, nofollow"/>
                <meta name="referrer" content="no-referrer"/>
                <meta name="color-scheme" content="light dark"/>
                {og_tag("og:type", "article".to_string())}
                {og_tag("og:site_name", "Sou".to_string())}
                {og_tag("og:title", title.clone())}
                {og_tag("og:description", summary.clone())}
                {og_tag("og:url", links.page.clone())}
                {og_tag("og:locale", og_locale)}
                {og_tag("og:image", links.image.clone())}
                {og_tag("og:image:type", "image/png".to_string())}
                {og_tag("og:image:width", og::WIDTH.to_string())}
                {og_tag("og:image:height", og::HEIGHT.to_string())}
                {og_tag("og:image:alt", image_alt.clone())}
                <meta name="twitter:card" content="summary_large_image"/>
                <meta name="twitter:title" content=title.clone()/>
                <meta name="twitter:description" content=summary.clone()/>
                <meta name="twitter:image" content=links.image.clone()/>
                <meta name="twitter:image:alt" content=image_alt/>
                <link rel="stylesheet" href=crate::site::files().css.as_str()/>
                <link rel="icon" href="/favicon.svg" type="image/svg+xml"/>
            </head>
            <body class="report-page">
                <header class="report-brand">
                    <span class="brand">"Sou"</span>
                    <span class="report-kind">{tr(locale, "Rapport partagé", "Shared report")}</span>
                </header>
                <main class="report" data-testid="report" data-kind=kind data-mode=mode
                    data-figures=figures data-names=names>
                    <h1>{title}</h1>
                    <p class="report-summary" data-testid="report-summary">{summary}</p>
                    <p class="report-stamp" data-testid="as-of">{stamp}</p>
                    {shares_note}
                    {body}
                </main>
                <footer class="report-footer">
                    <p>{tr(locale,
                        "Partagé depuis Sou par la personne à qui appartiennent ces comptes. Ce lien peut être révoqué à tout moment.",
                        "Shared from Sou by the owner of these accounts. This link can be revoked at any time.")}</p>
                </footer>
            </body>
        </html>
    }
}

/// The page a link that does not exist, was revoked or has expired gets: the same for
/// all three, so that a revoked link tells nothing more than an unknown one.
pub fn not_found_html(locale: Locale) -> String {
    notice(
        locale,
        tr(locale, "Rapport introuvable — Sou", "Report not found — Sou"),
        "report-not-found",
        tr(locale, "Ce rapport n'existe pas", "This report does not exist"),
        tr(
            locale,
            "Le lien est peut-être incomplet, ou la personne qui l'a partagé l'a révoqué ou l'a laissé expirer.",
            "The link may be incomplete, or whoever shared it revoked it or let it expire.",
        )
        .to_string(),
    )
}

/// The page a link answers past its request limit (`429`): nothing about the report,
/// nothing computed, only when to try again (`retry` whole seconds).
pub fn busy_html(locale: Locale, retry: u64) -> String {
    let text = match locale {
        Locale::Fr => format!("Il a été ouvert trop de fois en une minute. Réessayez dans {retry} s."),
        Locale::En => format!("It was opened too many times in a minute. Try again in {retry} s."),
    };
    notice(
        locale,
        tr(locale, "Trop de visites — Sou", "Too many views — Sou"),
        "report-busy",
        tr(locale, "Ce rapport est très demandé", "This report is being viewed a lot"),
        text,
    )
}

/// A small page of the report's look that says one thing and shows no report.
fn notice(
    locale: Locale,
    title: &'static str,
    testid: &'static str,
    heading: &'static str,
    text: String,
) -> String {
    let owner = Owner::new();
    let html = owner.with(|| {
        view! {
            <!DOCTYPE html>
            <html lang=locale.as_str()>
                <head>
                    <meta charset="utf-8"/>
                    <meta name="viewport" content="width=device-width, initial-scale=1"/>
                    <title>{title}</title>
                    <meta name="robots" content="noindex, nofollow"/>
                    <meta name="color-scheme" content="light dark"/>
                    <link rel="stylesheet" href=crate::site::files().css.as_str()/>
                </head>
                <body class="report-page">
                    <header class="report-brand"><span class="brand">"Sou"</span></header>
                    <main class="report" data-testid=testid>
                        <h1>{heading}</h1>
                        <p>{text}</p>
                    </main>
                </body>
            </html>
        }
        .to_html()
    });
    owner.unset();
    html
}

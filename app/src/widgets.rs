//! `/settings/widgets`: Sou on the user's other web sites. Each site with its snippet,
//! origins, scope and state, turned off or revoked in one click; and the form that
//! creates one. A refused form comes back with every field as it was typed and the
//! reason beside it.

use crate::post::key;
use agent::widgets::{origin, WidgetSite, WidgetTheme, LEDGER_TOOLS, MAX_GREETING_CHARS, MAX_NAME_CHARS};
use agent::Locale;
use leptos::prelude::*;

use crate::api::{load_widgets, WidgetsData};
use crate::fields::TextArea;
use crate::i18n::{self, t, tr, T};
use crate::layout::{Card, CardLink, Frame, Here, Loaded, TopBar};
use crate::post;

/// What the last form sent back: why it was refused, and what it held.
#[derive(Clone, Debug, Default)]
struct Typed {
    error: Option<String>,
    name: String,
    origins: String,
    tools: Vec<String>,
    datasets: Vec<String>,
    greeting: String,
    theme: String,
    rate: String,
}

/// Its card on Settings.
pub const CARD: Card = Card {
    id: "widgets",
    title: ("Widgets", "Widgets"),
    hint: (
        "Sou sur vos autres sites : un bouton qui ouvre l'assistant, limité aux questions et aux données que vous choisissez.",
        "Sou on your other sites: a button that opens the assistant, limited to the questions and data you choose.",
    ),
    links: &[CardLink { page: "widgets", id: "widgets", text: ("Gérer les widgets", "Manage widgets") }],
};

#[component]
pub fn WidgetsPage() -> impl IntoView {
    // Router hooks are read here, outside the Suspense (see ARCHITECTURE.md).
    let (typed, created, revoked) = leptos_router::hooks::use_query_map().with_untracked(|q| {
        let all = |k: &str| q.get_all(k).unwrap_or_default();
        let typed = Typed {
            error: q.get(key::ERROR),
            name: q.get(key::NAME).unwrap_or_default(),
            origins: q.get(key::ORIGINS).unwrap_or_default(),
            tools: all("tools"),
            datasets: all("datasets"),
            greeting: q.get(key::GREETING).unwrap_or_default(),
            theme: q.get(key::THEME).unwrap_or_default(),
            rate: q.get(key::RATE_PER_HOUR).unwrap_or_default(),
        };
        (typed, q.get(key::CREATED), q.get(key::REVOKED).is_some())
    });
    let data = Resource::new_blocking(|| (), |_| load_widgets());
    view! {
        <Loaded data frame=Frame::Page("settings") let:data>
            <Widgets data typed=typed.clone() created=created.clone() revoked/>
        </Loaded>
    }
}

/// A ledger tool as the form names it.
fn tool_label(name: &str, locale: Locale) -> &'static str {
    crate::render::tools::label(name, locale)
}

/// Why the form was refused, in words; for an origin, which line.
fn refusal(code: &str, typed: &Typed, locale: Locale) -> String {
    match code {
        "widget_name" => format!(
            "{} {MAX_NAME_CHARS}.",
            tr(locale, "Donnez au site un nom, sans caractère de contrôle ; au plus", "Give the site a name, with no control character; at most")
        ),
        "widget_origin" => match typed.origins.lines().map(str::trim).find(|l| !l.is_empty() && origin(l).is_none()) {
            Some(bad) => match locale {
                Locale::Fr => format!("« {bad} » n'est pas une origine : écrivez https://exemple.fr (sans chemin), une par ligne."),
                Locale::En => format!("“{bad}” is not an origin: write https://example.com (no path), one per line."),
            },
            None => tr(locale, "Indiquez de 1 à 10 origines autorisées, une par ligne.", "List 1 to 10 allowed origins, one per line.").into(),
        },
        "widget_scope" => tr(locale,
            "Choisissez au moins une question du compte ou un de vos jeux de données.",
            "Choose at least one ledger question or one of your datasets.").into(),
        "widget_greeting" => format!(
            "{} {MAX_GREETING_CHARS}.",
            tr(locale, "Message d'accueil sans caractère de contrôle, en caractères au plus :", "A greeting with no control character, in characters at most:")
        ),
        "widget_rate" => tr(locale, "La limite est de 1 à 10 000 questions par heure.", "The limit is 1 to 10,000 questions per hour.").into(),
        "widget_limit" => tr(locale, "Vous avez déjà 20 sites : révoquez-en un d'abord.", "You already have 20 sites: revoke one first.").into(),
        "not_found" => tr(locale, "Ce site n'existe plus.", "This site no longer exists.").into(),
        _ => tr(locale, "Le site n'a pas pu être enregistré. Réessayez.", "The site could not be saved. Try again.").into(),
    }
}

/// The code a host page pastes. It is shown as a field's value (escaped), never as
/// markup; `\u{3c}` is `<`.
fn snippet(origin: &str, site: &WidgetSite) -> String {
    format!("\u{3c}script src=\"{origin}/widget.js\" data-site=\"{}\" async>\u{3c}/script>", site.id)
}

#[component]
fn Widgets(data: WidgetsData, typed: Typed, created: Option<String>, revoked: bool) -> impl IntoView {
    let locale = data.locale;
    let fresh = created.and_then(|id| data.sites.iter().find(|s| s.id == id).cloned());
    let banner = fresh.map(|s| {
        let code = snippet(&data.origin, &s);
        view! {
            <section class="card saved" role="status" data-testid="created">
                <p>{tr(locale, "Site créé. Collez ce code dans les pages du site, avant </body> :",
                    "Site created. Paste this code into the site's pages, before </body>:")}</p>
                <label class="visually-hidden" for="new-snippet">{tr(locale, "Code à coller", "Code to paste")}</label>
                <input id="new-snippet" type="text" readonly value=code data-testid="new-snippet" class="snippet"/>
            </section>
        }
    });
    let revoked = revoked.then(|| {
        view! {
            <p class="saved" role="status" data-testid="revoked">
                {tr(locale, "Site révoqué : son widget ne répond plus.", "Site revoked: its widget no longer answers.")}
            </p>
        }
    });
    let error = typed
        .error
        .as_deref()
        .map(|code| view! { <p class="error" role="alert" data-testid="widget-error">{refusal(code, &typed, locale)}</p> });
    let tools = LEDGER_TOOLS
        .iter()
        .map(|t| {
            let id = format!("tool-{t}");
            let checked = typed.tools.iter().any(|x| x == t);
            view! {
                <li>
                    <input type="checkbox" id=id.clone() name="tools" value=*t checked=checked/>
                    <label for=id>{tool_label(t, locale)}</label>
                </li>
            }
        })
        .collect_view();
    let datasets = if data.datasets.is_empty() {
        view! { <p class="hint">{tr(locale, "Aucun jeu de données : importez-en dans Données.", "No dataset: add one in Data.")}</p> }.into_any()
    } else {
        let boxes = data
            .datasets
            .iter()
            .enumerate()
            .map(|(i, d)| {
                let id = format!("dataset-{i}");
                let checked = typed.datasets.iter().any(|x| x == d);
                view! {
                    <li>
                        <input type="checkbox" id=id.clone() name="datasets" value=d.clone() checked=checked/>
                        <label for=id>{d.clone()}</label>
                    </li>
                }
            })
            .collect_view();
        view! { <ul class="choices">{boxes}</ul> }.into_any()
    };
    let dark = typed.theme == WidgetTheme::Dark.as_str();
    let rate = if typed.rate.is_empty() { "60".to_string() } else { typed.rate.clone() };
    view! {
        <div class="app">
            <TopBar account=data.account locale title=tr(locale, "Widgets", "Widgets") here=Here::Settings/>
            <main class="settings widgets" data-testid="widgets">
                {banner}
                {revoked}
                <section class="card">
                    <h2>{tr(locale, "Vos sites", "Your sites")}</h2>
                    <p class="hint">{tr(locale,
                        "Le widget répond aux visiteurs d'un site avec vos données, dans ce que vous choisissez, sans modèle de langage et sans jamais rien modifier. Chaque visiteur a ses conversations, effacées au bout d'un jour.",
                        "The widget answers a site's visitors from your data, within what you choose, without a language model and never changing anything. Each visitor has their own conversations, deleted after a day.")}</p>
                    {sites_list(data.sites, &data.origin, locale)}
                </section>
                <section class="card">
                    <h2>{tr(locale, "Nouveau site", "New site")}</h2>
                    {error}
                    <form method="post" action=post::widgets::CREATE.route() class="widget-form" data-testid="widget-form">
                        <label for="widget-name">{tr(locale, "Nom", "Name")}</label>
                        <input id="widget-name" type="text" name="name" required maxlength=MAX_NAME_CHARS value=typed.name.clone()/>
                        <label for="widget-origins">{tr(locale, "Origines autorisées (une par ligne)", "Allowed origins (one per line)")}</label>
                        <TextArea id="widget-origins" name="origins" required=true rows=3 maxlength=1200
                            placeholder="https://www.example.com" value=typed.origins.clone()/>
                        <p class="hint" data-testid="widget-origins-note">{t(locale, T::WidgetOriginsNote)}</p>
                        <fieldset>
                            <legend>{tr(locale, "Questions sur vos comptes", "Questions about your accounts")}</legend>
                            <ul class="choices">{tools}</ul>
                        </fieldset>
                        <fieldset>
                            <legend>{tr(locale, "Jeux de données", "Datasets")}</legend>
                            {datasets}
                        </fieldset>
                        <label for="widget-greeting">{tr(locale, "Message d'accueil", "Greeting")}</label>
                        <TextArea id="widget-greeting" name="greeting" rows=2 maxlength=MAX_GREETING_CHARS as u32
                            placeholder="" value=typed.greeting.clone()/>
                        <fieldset>
                            <legend>{tr(locale, "Thème", "Theme")}</legend>
                            <input type="radio" id="theme-light" name="theme" value="light" checked=!dark/>
                            <label for="theme-light">{tr(locale, "Clair", "Light")}</label>
                            <input type="radio" id="theme-dark" name="theme" value="dark" checked=dark/>
                            <label for="theme-dark">{tr(locale, "Sombre", "Dark")}</label>
                        </fieldset>
                        <label for="widget-rate">{tr(locale, "Questions par heure, tous visiteurs confondus", "Questions per hour, all visitors together")}</label>
                        <input id="widget-rate" type="number" name="rate_per_hour" min="1" max="10000" required value=rate/>
                        <p class="hint">{t(locale, T::WidgetRateNote)}</p>
                        <button type="submit">{tr(locale, "Créer le site", "Create the site")}</button>
                    </form>
                </section>
            </main>
        </div>
    }
}

fn sites_list(sites: Vec<WidgetSite>, origin: &str, locale: Locale) -> AnyView {
    if sites.is_empty() {
        return view! { <p class="empty" data-testid="no-sites">{tr(locale, "Aucun site pour l'instant.", "No site yet.")}</p> }
            .into_any();
    }
    sites
        .into_iter()
        .map(|s| {
            let code = snippet(origin, &s);
            let snippet_id = format!("snippet-{}", s.id);
            let scope: Vec<String> = s
                .scope
                .tools
                .iter()
                .map(|t| tool_label(t, locale).to_string())
                .chain(s.scope.datasets.iter().map(|d| format!("« {d} »")))
                .collect();
            let created = s
                .created_at
                .get(..10)
                .and_then(agent::Date::parse_iso)
                .map(|d| i18n::date(d, locale))
                .unwrap_or_default();
            let (state, toggle_to, toggle_text) = if s.enabled {
                (tr(locale, "Actif", "On"), "0", tr(locale, "Désactiver", "Turn off"))
            } else {
                (tr(locale, "Désactivé", "Off"), "1", tr(locale, "Réactiver", "Turn on"))
            };
            view! {
                <article class="site" data-testid="site" data-id=s.id.clone()>
                    <h3>{s.name.clone()} " " <span class="state" data-testid="site-state">{state}</span></h3>
                    <dl>
                        <dt>{tr(locale, "Origines", "Origins")}</dt>
                        <dd>{s.origins.join(", ")}</dd>
                        <dt>{tr(locale, "Répond sur", "Answers about")}</dt>
                        <dd>{scope.join(", ")}</dd>
                        <dt>{tr(locale, "Limite", "Limit")}</dt>
                        <dd>{match locale {
                            Locale::Fr => format!("{} questions par heure · créé le {created}", s.rate_per_hour),
                            Locale::En => format!("{} questions per hour · created {created}", s.rate_per_hour),
                        }}</dd>
                    </dl>
                    <label for=snippet_id.clone()>{tr(locale, "Code à coller", "Code to paste")}</label>
                    <input id=snippet_id type="text" readonly value=code class="snippet" data-testid="snippet"/>
                    <div class="actions">
                        <form method="post" action=post::widgets::ENABLED.to(&[&s.id])>
                            <input type="hidden" name="enabled" value=toggle_to/>
                            <button type="submit" class="secondary" data-testid="toggle">{toggle_text}</button>
                        </form>
                        <form method="post" action=post::widgets::REVOKE.to(&[&s.id])>
                            <button type="submit" class="danger" data-testid="revoke">{tr(locale, "Révoquer", "Revoke")}</button>
                        </form>
                    </div>
                </article>
            }
        })
        .collect_view()
        .into_any()
}

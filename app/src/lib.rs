//! Sou's user interface, rendered on the server. Pages are server HTML and plain forms;
//! the chat's composer is the one island the browser runs (`chat/composer.rs`), where
//! the `agent` parser runs on every keystroke.
//!
//! Server functions live in [`api`] and stay thin: who is asking, call `backend`, map
//! the error. Server-only code is behind the `ssr` feature; `hydrate` builds the
//! browser bundle (the composer and what it draws), which must not contain `backend`,
//! `sqlx`, `tokio` or `axum`.

// Leptos views are deeply nested types; release builds need more room to lay them out.
#![recursion_limit = "256"]

#[cfg(all(feature = "ssr", feature = "hydrate"))]
compile_error!(
    "features `ssr` and `hydrate` are exclusive: build the server and the browser bundle separately"
);

#[cfg(feature = "ssr")]
mod account;
#[cfg(feature = "ssr")]
mod account_settings;
pub mod api;
#[cfg(feature = "ssr")]
mod auth_text;
#[cfg(feature = "ssr")]
mod bank_accounts;
#[cfg(feature = "ssr")]
mod budgets;
#[cfg(feature = "ssr")]
mod chart;
mod chat;
#[cfg(feature = "ssr")]
mod datasets;
#[cfg(feature = "ssr")]
pub mod embed;
mod error;
#[cfg(feature = "ssr")]
mod fields;
mod i18n;
#[cfg(feature = "ssr")]
mod imports;
#[cfg(feature = "ssr")]
mod layout;
mod live;
#[cfg(feature = "ssr")]
mod markdown;
pub mod post;
mod render;
#[cfg(feature = "ssr")]
pub mod report;
#[cfg(feature = "ssr")]
mod reports;
#[cfg(feature = "ssr")]
mod rules;
#[cfg(feature = "ssr")]
mod settings;
#[cfg(feature = "ssr")]
pub mod site;
#[cfg(feature = "ssr")]
mod sources;
#[cfg(feature = "hydrate")]
mod stream;
#[cfg(feature = "ssr")]
mod table;
#[cfg(feature = "ssr")]
mod usage;
#[cfg(feature = "ssr")]
mod widgets;

#[cfg(feature = "ssr")]
use leptos::prelude::*;
#[cfg(feature = "ssr")]
use leptos_meta::{provide_meta_context, Html, Link, Meta, MetaTags, Title};
#[cfg(feature = "ssr")]
use leptos_router::components::{Route, Router, Routes};
#[cfg(feature = "ssr")]
use leptos_router::{ParamSegment, SsrMode, StaticSegment};

pub use error::AppError;

/// The page around every route. Only the chat pages load the browser bundle: every
/// other page is server HTML and plain forms, and downloads no WASM at all.
#[cfg(feature = "ssr")]
pub fn shell(options: LeptosOptions) -> impl IntoView {
    // No page hydrates but an island: what is not one is drawn without hydration's
    // markers, on every page alike (so a widget that does not exist is drawn as any
    // page that does not).
    fields::no_hydration_markers();
    let scripts = has_island().then(|| fields::island_loader(true));
    let css = site::files().css.as_str();
    view! {
        <!DOCTYPE html>
        // `lang` is the page's language, set by `App` (see `layout::request_locale`).
        <html>
            <head>
                <meta charset="utf-8"/>
                <meta name="viewport" content="width=device-width, initial-scale=1, interactive-widget=resizes-content"/>
                <AutoReload options/>
                {scripts}
                <link rel="stylesheet" id="leptos" href=css/>
                // Installable: the manifest (in the browser's language) and the bars'
                // colour in either theme.
                <link rel="manifest" href="/manifest.webmanifest"/>
                <link rel="apple-touch-icon" href="/icons/192.png"/>
                <meta name="theme-color" content="#f7f6f2" media="(prefers-color-scheme: light)"/>
                <meta name="theme-color" content="#121614" media="(prefers-color-scheme: dark)"/>
                <MetaTags/>
            </head>
            <body>
                <App/>
            </body>
        </html>
    }
}

/// Whether the page asked for holds an island: the chat (`/`, `/c/{id}`, and its
/// offline shell `/offline`).
#[cfg(feature = "ssr")]
fn has_island() -> bool {
    use_context::<http::request::Parts>().is_some_and(|parts| {
        let path = parts.uri.path();
        path == "/" || path == "/offline" || path.starts_with("/c/")
    })
}

#[cfg(feature = "ssr")]
#[component]
pub fn App() -> impl IntoView {
    provide_meta_context();
    let locale = layout::request_locale();
    provide_context(layout::PageLocale(locale));
    view! {
        <Html {..} lang=locale.as_str()/>
        <Title text="Sou"/>
        <Meta name="description" content="Sou — your money, answered."/>
        <Meta name="color-scheme" content="light dark"/>
        <Link rel="icon" href="/favicon.svg" type_="image/svg+xml"/>
        <Router>
            <Routes fallback=|| view! { <layout::NotFound/> }>
                <Route path=StaticSegment("") view=chat::ChatPage ssr=SsrMode::Async/>
                <Route path=(StaticSegment("c"), ParamSegment("id")) view=chat::ChatPage ssr=SsrMode::Async/>
                <Route path=StaticSegment("offline") view=chat::OfflinePage/>
                <Route path=StaticSegment("settings") view=settings::SettingsPage ssr=SsrMode::Async/>
                <Route path=(StaticSegment("settings"), ParamSegment("page")) view=settings::SettingsSubPage ssr=SsrMode::Async/>
                <Route path=(StaticSegment("runs"), ParamSegment("id"), StaticSegment("sources")) view=sources::SourcesPage ssr=SsrMode::Async/>
                <Route path=(StaticSegment("embed"), ParamSegment("site")) view=embed::EmbedPage ssr=SsrMode::Async/>
                <Route path=StaticSegment("import") view=imports::ImportsPage ssr=SsrMode::Async/>
                <Route path=(StaticSegment("import"), ParamSegment("id")) view=imports::ImportPage ssr=SsrMode::Async/>
                <Route path=StaticSegment("rules") view=rules::RulesPage ssr=SsrMode::Async/>
                <Route path=StaticSegment("datasets") view=datasets::DatasetsPage ssr=SsrMode::Async/>
                <Route path=StaticSegment("login") view=|| view! { <account::SignInPage signup=false/> } ssr=SsrMode::Async/>
                <Route path=StaticSegment("signup") view=|| view! { <account::SignInPage signup=true/> } ssr=SsrMode::Async/>
            </Routes>
        </Router>
    }
}

/// Called by the page's loader before it wakes the islands (the composer, which marks
/// the page `data-hydrated` once live).
#[cfg(feature = "hydrate")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    console_error_panic_hook::set_once();
    leptos::mount::hydrate_islands();
}

//! Sou's user interface: the chat page, rendered on the server and hydrated in the
//! browser, where the `agent` parser runs on every keystroke.
//!
//! Server functions live in [`api`] and stay thin: who is asking, call `backend`, map
//! the error. Server-only code is behind the `ssr` feature; `hydrate` builds the
//! browser bundle, which must not contain `backend`, `sqlx`, `tokio` or `axum`.

// Leptos views are deeply nested types; release builds need more room to lay them out.
#![recursion_limit = "256"]

#[cfg(all(feature = "ssr", feature = "hydrate"))]
compile_error!(
    "features `ssr` and `hydrate` are exclusive: build the server and the browser bundle separately"
);

mod account;
pub mod api;
mod chart;
mod chat;
mod datasets;
mod error;
mod fields;
mod i18n;
mod imports;
mod layout;
mod markdown;
mod render;
#[cfg(feature = "ssr")]
pub mod report;
mod reports;
mod rules;
mod settings;
#[cfg(feature = "hydrate")]
mod stream;
mod table;

use leptos::prelude::*;
use leptos_meta::{provide_meta_context, Html, Link, Meta, MetaTags, Stylesheet, Title};
use leptos_router::components::{Route, Router, Routes};
use leptos_router::{ParamSegment, SsrMode, StaticSegment};

pub use error::AppError;

pub fn shell(options: LeptosOptions) -> impl IntoView {
    view! {
        <!DOCTYPE html>
        // `lang` is the page's language, set by `App` (see `layout::request_locale`).
        <html>
            <head>
                <meta charset="utf-8"/>
                <meta name="viewport" content="width=device-width, initial-scale=1, interactive-widget=resizes-content"/>
                <AutoReload options=options.clone()/>
                <HydrationScripts options/>
                <MetaTags/>
            </head>
            <body>
                <App/>
            </body>
        </html>
    }
}

#[component]
pub fn App() -> impl IntoView {
    provide_meta_context();
    let locale = layout::request_locale();
    provide_context(layout::PageLocale(locale));
    view! {
        <Html {..} lang=locale.as_str()/>
        <Stylesheet id="leptos" href="/pkg/sou.css"/>
        <Title text="Sou"/>
        <Meta name="description" content="Sou — your money, answered."/>
        <Meta name="color-scheme" content="light dark"/>
        <Link rel="icon" href="/favicon.svg" type_="image/svg+xml"/>
        <Router>
            <Routes fallback=|| view! { <layout::NotFound/> }>
                <Route path=StaticSegment("") view=chat::ChatPage ssr=SsrMode::Async/>
                <Route path=(StaticSegment("c"), ParamSegment("id")) view=chat::ChatPage ssr=SsrMode::Async/>
                <Route path=StaticSegment("settings") view=settings::SettingsPage ssr=SsrMode::Async/>
                <Route path=(StaticSegment("settings"), StaticSegment("reports")) view=reports::ReportsPage ssr=SsrMode::Async/>
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

#[cfg(feature = "hydrate")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    console_error_panic_hook::set_once();
    leptos::mount::hydrate_body(App);
    // Lets tests (and styles) tell a hydrated page from server HTML alone.
    if let Some(body) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.body()) {
        let _ = body.set_attribute("data-hydrated", "");
    }
}

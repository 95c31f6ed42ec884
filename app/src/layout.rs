//! What every page shares around its content: the header of the settings-like pages,
//! and the pages shown instead of one whose data could not be loaded (not found, the
//! session ended, an error). Feature pages import this module, never each other.

use agent::Locale;
use leptos::prelude::*;

use crate::account::AccountMenu;
use crate::api::AccountView;
use crate::i18n::{t, tr, T};
use crate::AppError;

/// The header of the import, rules and data pages.
#[component]
pub fn TopBar(account: AccountView, locale: Locale, title: &'static str) -> impl IntoView {
    view! {
        <header class="top">
            <a class="brand" href="/" rel="external">"Sou"</a>
            <span class="tagline">{title}</span>
            <nav class="top-links">
                <a href="/" rel="external">{tr(locale, "Chat", "Chat")}</a>
                <a href="/import" rel="external">{tr(locale, "Importer", "Import")}</a>
                <a href="/rules" rel="external">{tr(locale, "Règles", "Rules")}</a>
                <a href="/datasets" rel="external">{tr(locale, "Données", "Data")}</a>
                <a href="/settings" rel="external">{tr(locale, "Réglages", "Settings")}</a>
            </nav>
            <AccountMenu account locale/>
        </header>
    }
}

#[component]
pub fn NotFound() -> impl IntoView {
    #[cfg(feature = "ssr")]
    set_status(http::StatusCode::NOT_FOUND);
    let locale = Locale::Fr;
    view! {
        <main class="chat notfound">
            <h1>{t(locale, T::NotFound)}</h1>
            <p>{t(locale, T::NotFoundBody)}</p>
            <p><a href="/" rel="external">{t(locale, T::BackHome)}</a></p>
        </main>
    }
}

/// A session that ended while the page was open.
#[component]
pub fn SignInAgain() -> impl IntoView {
    #[cfg(feature = "ssr")]
    set_status(http::StatusCode::UNAUTHORIZED);
    view! {
        <main class="chat notfound">
            <h1>"Sou"</h1>
            <p class="error" role="alert">"Votre session a pris fin. · Your session has ended."</p>
            <p><a href="/login" rel="external">"Se reconnecter · Sign in again"</a></p>
        </main>
    }
}

/// The page for a page's data that could not be loaded.
pub fn failed_page(error: AppError) -> AnyView {
    match error {
        AppError::NotFound => view! { <NotFound/> }.into_any(),
        AppError::Unauthorized => view! { <SignInAgain/> }.into_any(),
        e => view! { <ErrorPage error=e/> }.into_any(),
    }
}

#[component]
fn ErrorPage(error: AppError) -> impl IntoView {
    #[cfg(feature = "ssr")]
    set_status(match error {
        AppError::BadRequest(_) => http::StatusCode::BAD_REQUEST,
        _ => http::StatusCode::INTERNAL_SERVER_ERROR,
    });
    view! {
        <main class="chat notfound">
            <h1>"Sou"</h1>
            <p class="error" role="alert">{error.to_string()}</p>
            <p><a href="/" rel="external">"↩"</a></p>
        </main>
    }
}

/// The HTTP status of the page being rendered on the server.
#[cfg(feature = "ssr")]
fn set_status(status: http::StatusCode) {
    if let Some(r) = use_context::<leptos_axum::ResponseOptions>() {
        r.set_status(status);
    }
}

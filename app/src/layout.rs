//! What every page shares around its content: the page's language, the loading of its
//! data ([`Loaded`]), the header and its account menu, and the pages shown instead of
//! one whose data could not be loaded (not found, the session ended, an error).
//! Feature pages import this module, never each other.

use agent::Locale;
use leptos::prelude::*;

use crate::api::AccountView;
use crate::error::AppError;
use crate::fields::PageTitle;
use crate::i18n::{t, tr, T};
use crate::post;

/// The language of the page being shown, as [`App`](crate::App) provides it.
#[derive(Clone, Copy, Debug)]
pub struct PageLocale(pub Locale);

/// The interface's language for this request: its `Accept-Language`, as the server
/// functions read it, read once on the server and carried into the page, so that the
/// hydrated page says the same.
pub fn request_locale() -> Locale {
    SharedValue::new(accept_language).into_inner()
}

#[cfg(feature = "ssr")]
fn accept_language() -> Locale {
    crate::api::ssr::accept_language()
}

/// Only for a page the server did not render: French, the server's default too.
#[cfg(not(feature = "ssr"))]
fn accept_language() -> Locale {
    Locale::Fr
}

/// The page's language, for views that have no data of their own to carry it.
pub fn page_locale() -> Locale {
    use_context::<PageLocale>().map_or(Locale::Fr, |l| l.0)
}

/// How [`Loaded`] shows its data loading, and a failure to load it.
#[derive(Clone, Copy, Debug)]
pub enum Frame {
    /// A whole page in `<main class=…>`: "…" while loading; a failure is the
    /// not-found, signed-out or error page, with its HTTP status.
    Page(&'static str),
    /// A whole page that tells a failure in its own `<main class=…>`, except an
    /// ended session, which is the signed-out page.
    Inline(&'static str),
    /// Part of a page: nothing while loading, the last content while reloading, a
    /// failure in one line.
    Part,
}

impl Frame {
    fn failed(self, error: AppError) -> AnyView {
        match (self, error) {
            (Frame::Page(_), e) => failed_page(e),
            (Frame::Inline(_), AppError::Unauthorized) => view! { <SignInAgain/> }.into_any(),
            (Frame::Inline(class), e) => {
                view! { <main class=class><p class="error" role="alert">{e.to_string()}</p></main> }
                    .into_any()
            }
            (Frame::Part, e) => view! { <p class="error" role="alert">{e.to_string()}</p> }.into_any(),
        }
    }
}

/// `children` drawn from `data` once it has loaded, framed as `frame` says while it
/// loads and when it fails: under a `<Suspense>` for a page, so the server sends the
/// page whole (and with its status), or a `<Transition>` for a part of one.
#[component]
pub fn Loaded<T, F, V>(data: Resource<Result<T, AppError>>, frame: Frame, children: F) -> impl IntoView
where
    T: Clone + Send + Sync + 'static,
    F: Fn(T) -> V + Clone + Send + Sync + 'static,
    V: IntoView + 'static,
{
    let content = move || {
        let children = children.clone();
        Suspend::new(async move {
            match data.await {
                Ok(d) => children(d).into_any(),
                Err(e) => frame.failed(e),
            }
        })
    };
    match frame {
        Frame::Page(class) | Frame::Inline(class) => view! {
            <Suspense fallback=move || view! { <main class=class><p class="thinking">"…"</p></main> }>
                {content}
            </Suspense>
        }
        .into_any(),
        Frame::Part => view! { <Transition fallback=|| ()>{content}</Transition> }.into_any(),
    }
}

/// The one header of every signed-in page: the brand, what the page is (its `<h1>`
/// and its title, except on the chat, which names its conversation itself), the same
/// links everywhere (the current page marked) and the account corner. On a phone the
/// links sit on a row of their own that scrolls sideways, never the page.
#[component]
pub fn TopBar(account: AccountView, locale: Locale, title: &'static str, here: Here) -> impl IntoView {
    let what = if here == Here::Chat {
        view! { <span class="tagline">{title}</span> }.into_any()
    } else {
        view! {
            <PageTitle text=title.to_string()/>
            <h1 class="tagline">{title}</h1>
        }
        .into_any()
    };
    let link = move |to: Here, href: &'static str, text: &'static str| {
        let current = (to == here).then_some("page");
        view! { <a href=href rel="external" aria-current=current>{text}</a> }
    };
    // "New chat" is an action, never the page one is on. On a phone "Nouvelle conversation" is "Nouveau", so that the five links fit on one
    // row of a 390 px screen (narrower ones scroll the row, never the page). One of the
    // two texts is `display: none`, so a screen reader reads one.
    let new_chat = view! {
        <a href="/" rel="external">
            <span class="wide-only">{t(locale, T::NewChat)}</span>
            <span class="phone-only">{tr(locale, "Nouveau", "New")}</span>
        </a>
    };
    view! {
        <header class="top">
            <a class="brand" href="/" rel="external">"Sou"</a>
            {what}
            <nav class="top-links" aria-label=tr(locale, "Navigation", "Navigation")>
                {new_chat}
                {link(Here::Import, "/import", tr(locale, "Importer", "Import"))}
                {link(Here::Rules, "/rules", tr(locale, "Règles", "Rules"))}
                {link(Here::Data, "/datasets", tr(locale, "Données", "Data"))}
                {link(Here::Settings, "/settings", t(locale, T::Settings))}
            </nav>
            <AccountMenu account locale/>
        </header>
    }
}

/// Which page the header is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Here {
    Chat,
    Import,
    Rules,
    Data,
    Settings,
}

/// The header's account corner: who is signed in (and, for a demo, when it goes)
/// and the sign-out button.
#[component]
pub fn AccountMenu(account: AccountView, locale: Locale) -> impl IntoView {
    let label = match account.demo_hours_left {
        Some(h) => match locale {
            Locale::Fr => format!("Démo · supprimée dans {h} h"),
            Locale::En => format!("Demo · deleted in {h} h"),
        },
        None => account.name.clone(),
    };
    view! {
        <div class="account" data-testid="account">
            <span class="account-name" title=account.name>{label}</span>
            <form method="post" action=post::auth::LOG_OUT.route()>
                <button type="submit" class="link">{tr(locale, "Se déconnecter", "Sign out")}</button>
            </form>
        </div>
    }
}

/// A page that does not exist (or is not the user's), in the page's language.
#[component]
pub fn NotFound() -> impl IntoView {
    #[cfg(feature = "ssr")]
    set_status(http::StatusCode::NOT_FOUND);
    let locale = page_locale();
    view! {
        <PageTitle text=t(locale, T::NotFound).to_string()/>
        <main class="notfound">
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
        <main class="notfound">
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
    let locale = page_locale();
    view! {
        <main class="notfound">
            <h1>"Sou"</h1>
            <p class="error" role="alert">{error.to_string()}</p>
            <p><a href="/" rel="external">{t(locale, T::BackHome)}</a></p>
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

/// A card on Settings that leads to one or more of its pages (`/settings/{page}`).
pub struct Card {
    /// The card's test id is `{id}-card`.
    pub id: &'static str,
    /// French, English.
    pub title: (&'static str, &'static str),
    pub hint: (&'static str, &'static str),
    pub links: &'static [CardLink],
}

/// A link of a [`Card`] to `/settings/{page}`; its test id is `{id}-link`.
pub struct CardLink {
    pub page: &'static str,
    pub id: &'static str,
    pub text: (&'static str, &'static str),
}

impl Card {
    pub fn view(&self, locale: Locale) -> impl IntoView {
        let link = |l: &CardLink| {
            view! { <a href=format!("/settings/{}", l.page) data-testid=format!("{}-link", l.id)>{tr(locale, l.text.0, l.text.1)}</a> }
        };
        // Drawn without a list's markers: a card leads to one page or two.
        let links = match self.links {
            [one] => link(one).into_any(),
            [one, two] => view! { {link(one)} " · " {link(two)} }.into_any(),
            more => more
                .iter()
                .enumerate()
                .map(|(i, l)| view! { {(i > 0).then_some(" · ")} {link(l)} })
                .collect_view()
                .into_any(),
        };
        view! {
            <section class="card" data-testid=format!("{}-card", self.id)>
                <h2>{tr(locale, self.title.0, self.title.1)}</h2>
                <p class="hint">{tr(locale, self.hint.0, self.hint.1)}</p>
                {links}
            </section>
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn not_found_speaks_the_page_s_language() {
        let owner = Owner::new();
        owner.with(|| {
            provide_context(PageLocale(Locale::En));
            let html = view! { <NotFound/> }.to_html();
            assert!(html.contains("Page not found") && html.contains("Back to the chat"), "{html}");
        });
        let owner = Owner::new();
        owner.with(|| {
            let html = view! { <NotFound/> }.to_html();
            assert!(html.contains("Page introuvable"), "French without a language: {html}");
        });
    }
}

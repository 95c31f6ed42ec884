//! `/embed/{site}`: the widget's page, in an iframe of another site (opened by
//! `/widget.js`). The chat's composer with the site's name, greeting and theme, and
//! the owner's names within the site's scope only; a visitor's token drawn for this
//! page, which its requests carry. An unknown, disabled or revoked site is the
//! not-found page, with the not-found page's headers. A found one asks
//! `security::headers` for a `frame-ancestors` of the site's origins
//! ([`FRAME_ANCESTORS`]) and is never stored by a cache (it holds the token).

use agent::protocol::ConversationView;
use agent::widgets::WidgetTheme;
use agent::{Date, Locale, Parser, Vocabulary};
use leptos::prelude::*;
use leptos_router::hooks::use_params_map;

use crate::chat::{Composer, ComposerData};
use crate::error::AppError;
use crate::fields::PageTitle;
use crate::i18n::tr;
use crate::layout::{Frame, Loaded};
use crate::live::VisitorPass;

/// The response header by which the embed page names the origins that may frame it.
/// `security::headers` reads it into the page's policy and removes it.
pub const FRAME_ANCESTORS: &str = "x-sou-frame-ancestors";

/// What the page needs: the site as its visitors see it, and a new visitor's token.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
struct EmbedData {
    locale: Locale,
    today: Date,
    vocabulary: Vocabulary,
    site: String,
    name: String,
    greeting: String,
    theme: WidgetTheme,
    origins: Vec<String>,
    token: String,
}

async fn load(site: String) -> Result<EmbedData, AppError> {
    let Some(sou) = use_context::<backend::Sou>() else { return Err(AppError::Internal) };
    let token = backend::visitor_token();
    let visitor = sou.widgets().visitor(&site, &token).await?;
    let vocabulary = sou.widgets().visitor_vocabulary(&visitor).await?;
    let site = visitor.site;
    Ok(EmbedData {
        locale: crate::api::ssr::accept_language(),
        today: sou.today(),
        vocabulary,
        site: site.id,
        name: site.name,
        greeting: site.greeting,
        theme: site.theme,
        origins: site.origins,
        token,
    })
}

#[component]
pub fn EmbedPage() -> impl IntoView {
    let site = use_params_map().with_untracked(|p| p.get("site")).unwrap_or_default();
    let data = Resource::new_blocking(move || site.clone(), load);
    view! {
        <Loaded data frame=Frame::Page("notfound") let:data>
            <Embed data/>
        </Loaded>
    }
}

#[component]
fn Embed(data: EmbedData) -> impl IntoView {
    if let Some(r) = use_context::<leptos_axum::ResponseOptions>() {
        if let Ok(v) = http::HeaderValue::from_str(&data.origins.join(" ")) {
            r.insert_header(http::HeaderName::from_static(FRAME_ANCESTORS), v);
        }
        r.insert_header(http::header::CACHE_CONTROL, http::HeaderValue::from_static("no-store"));
    }
    let locale = data.locale;
    let greeting = if data.greeting.is_empty() {
        tr(locale, "Bonjour ! Posez votre question.", "Hello! Ask your question.").to_string()
    } else {
        data.greeting
    };
    let props = ComposerData {
        locale,
        today: data.today,
        vocabulary: data.vocabulary,
        conversation_id: None,
        previous: None,
        draft: String::new(),
        visitor: Some(VisitorPass { site: data.site, token: data.token }),
        live: None,
    };
    let script: &'static str = include_str!("embed.js");
    view! {
        <div class="app embed start" data-theme=data.theme.as_str()>
            <header class="top embed-top">
                <span class="brand">{data.name.clone()}</span>
                <button type="button" class="embed-close" id="embed-close" hidden
                    aria-label=tr(locale, "Fermer l'assistant", "Close the assistant")>
                    <span aria-hidden="true">"×"</span>
                </button>
            </header>
            <PageTitle text=data.name.clone()/>
            <main class="chat" data-testid="chat" id="embed" data-origins=data.origins.join(" ")>
                <h1 class="visually-hidden">{data.name}</h1>
                <section class="welcome" data-testid="greeting"><p>{greeting}</p></section>
                <ol class="turns" id="turns" aria-live="polite"></ol>
            </main>
            <Composer props/>
            {crate::fields::island_loader(false)}
            {crate::fields::inline_script(script)}
        </div>
    }
}

/// A visitor's answer as the widget draws it: as the chat page does, without what is
/// the owner's to do (sharing).
pub fn answer_html(
    conversation: ConversationView,
    message_id: &str,
    parser: &Parser,
    locale: Locale,
) -> Option<String> {
    crate::chat::answer_html(conversation, message_id, parser, locale, false).map(|(html, _)| html)
}

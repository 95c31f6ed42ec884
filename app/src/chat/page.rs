//! The chat page as the server draws it, and an answer drawn alone.

use crate::post::key;
use agent::protocol::{ChatEvent, ConversationView, Role, MAX_CHAT_MESSAGE_CHARS};
use agent::{Locale, Parser, ToolCallPlan};
use leptos::prelude::*;
use leptos_router::hooks::{use_params_map, use_query_map};

use super::composer::{Composer, ComposerData};
use super::history::History;
use crate::api::{load_page, AnswerView, PageData};
use crate::fields::PageTitle;
use crate::i18n::{self, t, tr, T};
use crate::layout::{Frame, Here, Loaded, TopBar};
use crate::render;

/// One exchange: what the user wrote and the events of the answer.
#[derive(Clone, Debug, PartialEq)]
struct Turn {
    user: String,
    events: Vec<ChatEvent>,
    trace: Option<Box<agent::runs::RunTrace>>,
}

fn turns_of(conversation: Option<ConversationView>) -> Vec<Turn> {
    let mut turns: Vec<Turn> = Vec::new();
    for m in conversation.map(|c| c.messages).unwrap_or_default() {
        match m.role {
            Role::User => turns.push(Turn { user: m.content, events: Vec::new(), trace: None }),
            Role::Assistant => {
                if let Some(last) = turns.last_mut() {
                    last.events = with_message_id(m.events, m.id.as_deref());
                    last.trace = m.trace;
                }
            }
        }
    }
    turns
}

/// Answers stored before they carried their id: it is the message's.
fn with_message_id(mut events: Vec<ChatEvent>, id: Option<&str>) -> Vec<ChatEvent> {
    for e in events.iter_mut() {
        if let ChatEvent::Status { message_id: message_id @ None, .. } = e {
            *message_id = id.map(str::to_string);
        }
    }
    events
}

/// The last turn's plan, as the context of a follow-up (as the server reads it): none
/// when words that would change it went unread.
fn last_plan(turns: &[Turn]) -> Option<ToolCallPlan> {
    // A write is never continued by a follow-up (nor read by the browser's bundle).
    turns.iter().rev().find_map(plan_of).filter(|p| p.carries_context() && !p.call.is_write())
}

fn plan_of(turn: &Turn) -> Option<ToolCallPlan> {
    turn.events.iter().find_map(|e| match e {
        ChatEvent::Plan { plan } => Some(plan.clone()),
        _ => None,
    })
}

/// The plan of the last answer that ran (it has a result), which names the page.
fn last_answered(turns: &[Turn]) -> Option<ToolCallPlan> {
    turns
        .iter()
        .rev()
        .filter(|t| t.events.iter().any(|e| matches!(e, ChatEvent::ToolResult(_))))
        .find_map(plan_of)
}

#[component]
pub fn ChatPage() -> impl IntoView {
    let params = use_params_map();
    let id = move || params.read().get("id");
    let page = Resource::new_blocking(id, load_page);
    view! {
        <Loaded data=page frame=Frame::Page("chat") let:data>
            <Chat data/>
        </Loaded>
    }
}

#[component]
fn Chat(data: PageData) -> impl IntoView {
    let locale = data.locale;
    provide_context(render::approval::CategoryChoices::of(&data.vocabulary, locale));
    let parser = std::sync::Arc::new(Parser::new(data.vocabulary.clone()));
    let describe = |plan: &ToolCallPlan| parser.describe(&plan.call, plan.meta.locale);
    let conversation_id = data.conversation.as_ref().map(|c| c.id.clone());
    let stored_title = data.conversation.as_ref().map(|c| c.title.clone()).filter(|t| !t.trim().is_empty());
    let turns = turns_of(data.conversation);
    let start = turns.is_empty();
    // The page's name: what the latest answer computed ("Dépenses en Courses — janvier
    // 2026"), else the conversation's title, else "new conversation".
    let heading = match last_answered(&turns) {
        Some(plan) => describe(&plan),
        None if start => t(locale, T::NewChat).to_string(),
        None => stored_title.unwrap_or_else(|| turns.first().map(|t| t.user.clone()).unwrap_or_default()),
    };
    // An example chosen without JavaScript comes back as `/?q=…`, ready to send.
    let (example, write_error) =
        use_query_map().with_untracked(|q| (q.get(key::Q).unwrap_or_default(), q.get(key::WRITE_ERROR)));
    // An approval card's form that was refused comes back with why.
    let refused = write_error.map(|code| {
        view! { <p class="error" role="alert" data-testid="write-error">{crate::budgets::refusal(&code, locale)}</p> }
    });
    // An answer still being written (the page reloaded during it): the composer follows
    // it; without JavaScript the page says so.
    let live = turns.last().and_then(|t| {
        t.trace
            .as_ref()
            .filter(|r| r.status == agent::runs::RunStatus::Running)
            .map(|r| (r.id.clone(), t.user.clone()))
    });
    let live_run = live.as_ref().map(|(run, _)| run.clone());
    let props = ComposerData {
        locale,
        today: data.today,
        vocabulary: data.vocabulary,
        conversation_id: conversation_id.clone(),
        previous: last_plan(&turns),
        draft: example.chars().take(MAX_CHAT_MESSAGE_CHARS).collect(),
        visitor: None,
        live,
    };
    let count = turns.len();
    let turns = turns
        .into_iter()
        .enumerate()
        .map(|(i, turn)| {
            // A form's redirect lands on the newest turn's first line (`#latest`).
            let latest = (i + 1 == count).then_some("latest");
            let live = live_run.clone().filter(|_| i + 1 == count);
            let writing = live.is_some();
            let parser = parser.clone();
            let describe = move |plan: &ToolCallPlan| parser.describe(&plan.call, plan.meta.locale);
            // An answer Sou's stop cut short: the question, ready to send again.
            let again = turn
                .events
                .iter()
                .any(|e| matches!(e, ChatEvent::Error { code, .. } if code == "interrupted"))
                .then(|| format!("?{}={}#message", key::Q, query_escape(&turn.user)));
            view! {
                <li class="turn" data-testid="turn" id=latest data-live-run=live>
                    <p class="bubble user">{turn.user}</p>
                    <div class="bubble assistant">
                        {render::events_view(turn.events, locale, describe, conversation_id.clone(), turn.trace)}
                        {again.map(|href| view! {
                            <a class="ask-again" href=href data-testid="ask-again">{tr(locale, "Reposer la question", "Ask again")}</a>
                        })}
                        {writing.then(|| view! {
                            <p class="hint" role="status" data-testid="still-writing">{tr(locale,
                                "Sou écrit encore cette réponse : rechargez la page pour voir la suite.",
                                "Sou is still writing this answer: reload the page to see the rest.")}</p>
                        })}
                    </div>
                </li>
            }
        })
        .collect_view();

    view! {
        <div class="app" class:start=start>
            <TopBar account=data.account locale title=t(locale, T::Tagline) here=Here::Chat/>
            <PageTitle text=heading.clone()/>
            <main class="chat" data-testid="chat">
                // Named for screen readers once there is a conversation (the start page's
                // heading is the greeting's); the composer renames it as answers come.
                {(!start).then(|| view! { <h1 class="visually-hidden" id="chat-heading">{heading}</h1> })}
                {start.then(|| welcome(locale))}
                {refused}
                <ol class="turns" id="turns" aria-live="polite">{turns}</ol>
                <History current=conversation_id locale/>
            </main>
            {update_bar(locale)}
            <Composer props/>
        </div>
    }
}

/// The chat's offline shell, which the service worker keeps and shows for any page
/// when the network is gone: the composer with no one's data (no conversation, no
/// history, no vocabulary of categories and merchants), so that the parser still reads
/// a question. It is the same for everyone and needs no account.
#[component]
pub fn OfflinePage() -> impl IntoView {
    let locale = crate::layout::request_locale();
    let Some(today) = use_context::<backend::Sou>().map(|sou| sou.today()) else {
        return crate::layout::failed_page(crate::error::AppError::Internal);
    };
    let props = ComposerData {
        locale,
        today,
        vocabulary: agent::Vocabulary::default(),
        conversation_id: None,
        previous: None,
        draft: String::new(),
        visitor: None,
        live: None,
    };
    view! {
        <div class="app start">
            <header class="top">
                <a class="brand" href="/" rel="external">"Sou"</a>
                <span class="tagline">{t(locale, T::Tagline)}</span>
            </header>
            <PageTitle text=tr(locale, "Hors ligne", "Offline").to_string()/>
            <main class="chat" data-testid="chat">
                <section class="welcome" data-testid="offline">
                    <h1>"Sou"</h1>
                    <p>{tr(locale,
                        "Hors ligne. Sou comprend déjà votre question ; il y répondra quand le réseau sera revenu.",
                        "Offline. Sou already reads your question; it will answer once the network is back.")}</p>
                </section>
                <ol class="turns" id="turns" aria-live="polite"></ol>
            </main>
            {update_bar(locale)}
            <Composer props/>
        </div>
    }
    .into_any()
}

/// "A new version is ready": shown by the page's loader when a new build's worker
/// waits; reloading is the user's choice, and waits for an answer being written.
fn update_bar(locale: Locale) -> impl IntoView {
    view! {
        <div class="update" id="update" role="status" hidden>
            <span>{tr(locale, "Une nouvelle version de Sou est prête.", "A new version of Sou is ready.")}</span>
            <button type="button" id="update-now">{tr(locale, "Recharger", "Reload")}</button>
        </div>
    }
}

/// The start page's greeting and examples. Each example is a link, so it works
/// without JavaScript (the page comes back with it in the message box); the composer
/// catches the click and puts it there itself.
fn welcome(locale: Locale) -> impl IntoView {
    view! {
        <section class="welcome">
            <h1>"Sou"</h1>
            <p>{t(locale, T::Tagline)}</p>
            <p class="examples-title">{t(locale, T::Examples)}</p>
            <ul class="examples">
                {i18n::examples(locale)
                    .into_iter()
                    .map(|ex| view! {
                        <li><a class="example" href=format!("/?{}={}", key::Q, query_escape(ex))>{ex}</a></li>
                    })
                    .collect_view()}
            </ul>
        </section>
    }
}

/// `text` as a URL query value: every byte but the unreserved ones percent-encoded.
fn query_escape(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// An answer of a conversation as the page draws it, as HTML, and what it computed if
/// it ran a plan (the page's name after it): what the composer puts in place of the
/// streamed answer once it has ended. `None` when the conversation has no such answer.
/// Without `shareable` (a widget's visitor) it offers no share.
pub fn answer_html(
    conversation: ConversationView,
    message_id: &str,
    parser: &Parser,
    locale: Locale,
    shareable: bool,
) -> Option<(String, Option<String>)> {
    let conversation_id = conversation.id.clone();
    let message = conversation
        .messages
        .into_iter()
        .find(|m| m.role == Role::Assistant && m.id.as_deref() == Some(message_id))?;
    let mut events = with_message_id(message.events, Some(message_id));
    if !shareable {
        for e in events.iter_mut() {
            if let ChatEvent::Status { message_id, .. } = e {
                *message_id = None;
            }
        }
    }
    let turn = Turn { user: String::new(), events, trace: message.trace };
    let describe = |plan: &ToolCallPlan| parser.describe(&plan.call, plan.meta.locale);
    let heading = last_answered(std::slice::from_ref(&turn)).map(|plan| describe(&plan));
    let choices = render::approval::CategoryChoices::of(parser.vocabulary(), locale);
    let html = Owner::new().with(|| {
        provide_context(choices);
        render::events_view(turn.events, locale, describe, Some(conversation_id), turn.trace).to_html()
    });
    Some((html, heading))
}

/// A plain GET (`/api/answer?conversation_id=…&message_id=…`): the composer asks with
/// `gloo-net`, without Leptos' server-function client in the browser bundle.
#[server(endpoint = "answer", input = leptos::server_fn::codec::GetUrl)]
pub async fn answer_parts(
    conversation_id: String,
    message_id: String,
) -> Result<AnswerView, crate::error::AppError> {
    crate::api::ssr::answer(async move {
        let (sou, user) = crate::api::ssr::session()?;
        let locale = crate::api::ssr::accept_language();
        let parser = sou.parser(user).await?;
        let conversation = sou.conversations().get(user, &conversation_id, locale).await?;
        let (answer, heading) = answer_html(conversation, &message_id, &parser, locale, true)
            .ok_or(crate::error::AppError::NotFound)?;
        let history = sou.conversations().list(user, crate::api::HISTORY_LENGTH).await?;
        let history = super::history_html(history, Some(conversation_id), locale);
        Ok(AnswerView { answer, history, heading })
    })
    .await
}

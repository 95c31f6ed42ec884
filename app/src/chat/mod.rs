//! The chat page: the conversation, the composer and the live plan badge, with the
//! history of conversations beside them.

mod history;

use agent::protocol::{ChatEvent, ConversationView, Role, MAX_CHAT_MESSAGE_CHARS};
use agent::{Context, Locale, ParseOutcome, Parser, ToolCallPlan};
use leptos::prelude::*;
use leptos_router::hooks::{use_params_map, use_query_map};

use crate::api::{load_page, PageData};
use crate::fields::PageTitle;
use crate::i18n::{self, t, T};
use crate::layout::{Frame, Here, Loaded, TopBar};
use crate::render;
use history::History;

/// One exchange: what the user wrote and the events of the answer.
#[derive(Clone, Debug, PartialEq)]
struct Turn {
    user: String,
    events: Vec<ChatEvent>,
    pending: bool,
}

fn turns_of(conversation: Option<ConversationView>) -> Vec<Turn> {
    let mut turns: Vec<Turn> = Vec::new();
    for m in conversation.map(|c| c.messages).unwrap_or_default() {
        match m.role {
            Role::User => turns.push(Turn { user: m.content, events: Vec::new(), pending: false }),
            Role::Assistant => {
                if let Some(last) = turns.last_mut() {
                    last.events = m.events;
                    // Answers stored before they carried their id: it is the message's.
                    for e in last.events.iter_mut() {
                        if let ChatEvent::Status { message_id: id @ None, .. } = e {
                            id.clone_from(&m.id);
                        }
                    }
                }
            }
        }
    }
    turns
}

/// The last turn's plan, as the context of a follow-up (as the server reads it): none
/// when words that would change it went unread.
fn last_plan(turns: &[Turn]) -> Option<ToolCallPlan> {
    turns.iter().rev().find_map(plan_of).filter(ToolCallPlan::carries_context)
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
    let today = data.today;
    let parser = StoredValue::new(Parser::new(data.vocabulary));
    let conversation_id = RwSignal::new(data.conversation.as_ref().map(|c| c.id.clone()));
    let stored_title = data.conversation.as_ref().map(|c| c.title.clone()).filter(|t| !t.trim().is_empty());
    let turns = RwSignal::new(turns_of(data.conversation));
    // An example chosen without JavaScript comes back as `/?q=…`, ready to send.
    let example = use_query_map().with_untracked(|q| q.get("q")).unwrap_or_default();
    let draft = RwSignal::new(example.chars().take(MAX_CHAT_MESSAGE_CHARS).collect::<String>());
    let busy = RwSignal::new(false);

    let previous = Memo::new(move |_| turns.with(|t| last_plan(t)));
    // Re-parsed on every keystroke, in the browser: microseconds, no request.
    let outcome = Memo::new(move |_| {
        let text = draft.get();
        if text.trim().is_empty() {
            return None;
        }
        let previous = previous.get();
        Some(parser.with_value(|p| {
            p.parse(&text, &Context { today, locale: Some(locale), previous: previous.as_ref() })
        }))
    });
    let describe = move |plan: &ToolCallPlan| parser.with_value(|p| p.describe(&plan.call, plan.meta.locale));
    // The page's name: what the latest answer computed ("Dépenses en Courses — janvier
    // 2026"), else the conversation's title, else "new conversation".
    let heading = Memo::new(move |_| match turns.with(|t| last_answered(t)) {
        Some(plan) => describe(&plan),
        None if turns.with(Vec::is_empty) => t(locale, T::NewChat).to_string(),
        None => stored_title
            .clone()
            .unwrap_or_else(|| turns.with(|t| t.first().map(|t| t.user.clone()).unwrap_or_default())),
    });

    let send = Callback::new(move |(message, plan): (String, Option<ToolCallPlan>)| {
        if busy.get_untracked() || message.trim().is_empty() {
            return;
        }
        start(message, plan, Live { turns, busy, draft, conversation_id, locale });
        // After a suggestion as after Enter: the caret is back in the message box.
        focus_message();
    });

    let on_submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        // A typed message goes without a plan: the server parses it itself.
        send.run((draft.get_untracked(), None));
    };
    let conversation_signal: Signal<Option<String>> = conversation_id.into();

    view! {
        <div class="app" class:start=move || turns.with(Vec::is_empty)>
            <TopBar account=data.account locale title=t(locale, T::Tagline) here=Here::Chat/>
            <PageTitle text=heading/>
            <main class="chat" data-testid="chat">
                <Show when=move || !turns.with(Vec::is_empty)>
                    <h1 class="visually-hidden">{move || heading.get()}</h1>
                </Show>
                <Show when=move || turns.with(Vec::is_empty)>
                    <section class="welcome">
                        <h1>"Sou"</h1>
                        <p>{t(locale, T::Tagline)}</p>
                        <p class="examples-title">{t(locale, T::Examples)}</p>
                        <ul class="examples">
                            {i18n::examples(locale)
                                .into_iter()
                                .map(|ex| view! {
                                    // A link, so it works without JavaScript: the page
                                    // comes back with the example in the message box.
                                    <li>
                                        <a class="example" href=format!("/?q={}", query_escape(ex))
                                            on:click=move |ev| {
                                                ev.prevent_default();
                                                draft.set(ex.to_string());
                                                focus_message();
                                            }>{ex}</a>
                                    </li>
                                })
                                .collect_view()}
                        </ul>
                    </section>
                </Show>
                <ol class="turns" aria-live="polite">
                    <For
                        each=move || turns.get().into_iter().enumerate()
                        key=|(i, turn)| (*i, turn.events.len(), turn.pending)
                        children=move |(i, turn)| {
                            // Without JavaScript, the form's redirect lands on the newest
                            // turn's first line (`#latest`); the hydrated page scrolls there
                            // itself and adds no id, so no two turns ever share it.
                            let latest = (cfg!(not(feature = "hydrate"))
                                && i + 1 == turns.with_untracked(Vec::len))
                                .then_some("latest");
                            view! {
                                <li class="turn" data-testid="turn" id=latest>
                                    <p class="bubble user">{turn.user}</p>
                                    <div class="bubble assistant">
                                        {render::events_view(
                                            turn.events,
                                            turn.pending,
                                            locale,
                                            describe,
                                            conversation_signal,
                                            send,
                                        )}
                                    </div>
                                </li>
                            }
                        }
                    />
                </ol>
                <History current=conversation_signal locale/>
            </main>
            <footer class="composer">
                <form method="post" action="/chat" on:submit=on_submit data-testid="composer">
                    <input type="hidden" name="conversation_id"
                        value=move || conversation_id.get().unwrap_or_default()/>
                    <label class="visually-hidden" for="message">{t(locale, T::Placeholder)}</label>
                    <input id="message" name="message" type="text" autocomplete="off" required autofocus
                        maxlength=MAX_CHAT_MESSAGE_CHARS placeholder=t(locale, T::Placeholder)
                        value=draft.get_untracked()
                        prop:value=move || draft.get()
                        on:input=move |ev| draft.set(event_target_value(&ev))/>
                    <button type="submit" disabled=move || busy.get()>{t(locale, T::Send)}</button>
                    <Show when=move || busy.get()>
                        <button type="button" class="stop" data-testid="stop"
                            on:click=move |_| {
                                stop_answer();
                                // The button goes with the answer: the caret goes back to the box.
                                focus_message();
                            }>
                            {t(locale, T::Stop)}
                        </button>
                    </Show>
                </form>
                <div class="draft" data-testid="draft">
                    {move || outcome.with(|o| o.as_ref().map(|o: &ParseOutcome| render::draft_badge(o, describe, locale)))}
                </div>
            </footer>
        </div>
    }
}

/// The signals a send updates.
#[derive(Clone, Copy)]
#[cfg_attr(not(feature = "hydrate"), allow(dead_code))]
struct Live {
    turns: RwSignal<Vec<Turn>>,
    busy: RwSignal<bool>,
    draft: RwSignal<String>,
    conversation_id: RwSignal<Option<String>>,
    locale: Locale,
}

/// Streams the answer to `message` into a new turn.
#[cfg(feature = "hydrate")]
fn start(message: String, plan: Option<ToolCallPlan>, live: Live) {
    let Live { turns, busy, draft, conversation_id, locale } = live;
    busy.set(true);
    draft.set(String::new());
    let index = turns.with_untracked(Vec::len);
    turns.update(|t| t.push(Turn { user: message.clone(), events: Vec::new(), pending: true }));
    request_animation_frame(scroll_to_end);
    let request = agent::protocol::ChatRequest {
        message,
        conversation_id: conversation_id.get_untracked(),
        // A plan is plain data: turning it into JSON cannot fail.
        plan: plan.and_then(|p| serde_json::to_value(p).ok()),
        locale: Some(locale.as_str().to_string()),
    };
    let body = serde_json::to_string(&request).unwrap_or_default();
    leptos::task::spawn_local(async move {
        let result = crate::stream::chat(body, move |event| {
            if let ChatEvent::Status { conversation_id: Some(id), .. } = &event {
                if conversation_id.get_untracked().as_deref() != Some(id.as_str()) {
                    crate::stream::show_conversation_url(id);
                    conversation_id.set(Some(id.clone()));
                }
            }
            turns.update(|t| {
                if let Some(turn) = t.get_mut(index) {
                    turn.events.push(event);
                }
            });
            request_animation_frame(scroll_to_end);
        })
        .await;
        turns.update(|all| {
            if let Some(turn) = all.get_mut(index) {
                turn.pending = false;
                let ended = turn.events.last().is_some_and(ChatEvent::is_terminal);
                match result {
                    Ok(()) => {}
                    Err(crate::stream::Ended::Stopped) => {
                        if !ended {
                            let message = t(locale, T::Stopped).to_string();
                            turn.events.push(ChatEvent::Error { code: "stopped".into(), message });
                        }
                    }
                    Err(crate::stream::Ended::Failed(message)) => {
                        turn.events.push(ChatEvent::Error { code: "network".into(), message });
                    }
                }
            }
        });
        busy.set(false);
    });
}

/// Shows the newest turn from its first line: the question, the plan badge and the
/// headline figure, just under the sticky header (`scroll-margin-top` in the style).
/// Called as the answer grows, it scrolls only while that line is still below the
/// header: once there, or once the reader scrolled on, the view is theirs.
#[cfg(feature = "hydrate")]
fn scroll_to_end() {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else { return };
    let Some(turn) = document.query_selector(".turns > li:last-child").ok().flatten() else { return };
    let header = document.query_selector("header.top").ok().flatten();
    let under_header = header.map_or(0.0, |h| h.get_bounding_client_rect().bottom());
    if turn.get_bounding_client_rect().top() > under_header + 1.0 {
        turn.scroll_into_view();
    }
}

#[cfg(not(feature = "hydrate"))]
fn start(_message: String, _plan: Option<ToolCallPlan>, _live: Live) {}

/// Puts the caret in the message box, without scrolling (it is fixed at the bottom).
/// Not on a touch screen, where focus opens the keyboard over the answer.
fn focus_message() {
    #[cfg(feature = "hydrate")]
    {
        use wasm_bindgen::JsCast;
        let touch = web_sys::window()
            .and_then(|w| w.match_media("(pointer: coarse)").ok().flatten())
            .is_some_and(|m| m.matches());
        if touch {
            return;
        }
        let input = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.get_element_by_id("message"))
            .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok());
        if let Some(input) = input {
            let options = web_sys::FocusOptions::new();
            options.set_prevent_scroll(true);
            let _ = input.focus_with_options(&options);
        }
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

/// The stop button: aborts the request; the server sees the client go and drops its
/// call to the model.
fn stop_answer() {
    #[cfg(feature = "hydrate")]
    crate::stream::stop();
}

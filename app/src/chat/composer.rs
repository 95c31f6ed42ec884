//! The chat's one island: the composer. The only code of Sou that runs in the browser.
//!
//! It parses the message on every keystroke (the plan badge), sends it, streams the
//! answer into the conversation's list of turns, and once the answer has ended puts
//! in its place the server's rendering of it (`answer_parts`): the same views as a
//! page load, so results, charts and Markdown are drawn by the server only. Links and
//! forms the server drew (the examples, the one-click suggestions) are caught here by
//! delegation; without JavaScript they work as they are.

use agent::protocol::MAX_CHAT_MESSAGE_CHARS;
use agent::{Context, Date, Locale, ParseOutcome, Parser, ToolCallPlan, Vocabulary};
use leptos::prelude::*;

use crate::i18n::{t, tr, T};
use crate::live::{LiveEvent, VisitorPass};
use crate::post;
use crate::render::plan::{draft_badge, PlanBadge};

/// What the server gives the composer: the page's language and day, the user's words
/// for the parser, the conversation, the plan a follow-up continues, the draft. Its
/// (de)serialisation, compact for the browser's sake, is in `props.rs`.
#[derive(Clone, Debug, PartialEq)]
pub struct ComposerData {
    pub locale: Locale,
    pub today: Date,
    pub vocabulary: Vocabulary,
    pub conversation_id: Option<String>,
    /// The last stored answer's plan, when a follow-up may continue it.
    pub previous: Option<ToolCallPlan>,
    pub draft: String,
    /// On a widget's page: the site and the visitor's token, which its requests carry.
    pub visitor: Option<VisitorPass>,
    /// An answer still being written when the page was drawn (a reload during it): its
    /// run and its question. The composer follows it to its end.
    pub live: Option<(String, String)>,
}

/// One exchange sent from this page.
#[derive(Clone, Debug, PartialEq)]
struct LiveTurn {
    user: String,
    events: Vec<LiveEvent>,
    /// Until the answer's stream has ended and its rendering arrived.
    pending: bool,
    /// The server's rendering of the stored answer, once it arrived.
    html: Option<String>,
    /// Sent offline: kept, and sent when the network is back (with a suggestion's plan).
    waiting: Option<Option<String>>,
}

impl LiveTurn {
    fn plan(&self) -> Option<ToolCallPlan> {
        self.events.iter().find_map(|e| match e {
            LiveEvent::Plan(plan) => Some((**plan).clone()),
            _ => None,
        })
    }
}

/// The composer: its data in the page (`data-props` of `#composer-props`, see
/// `props.rs`), and the island, which reads them there when it wakes. The island takes
/// no props: Leptos would read them with serde's derived code for a struct, whose error
/// messages carry the formatting of floats into the browser bundle (with the raw JSON
/// reader `request_body` replaces, about 15 KB compressed).
// The browser draws no page.
#[cfg(not(feature = "hydrate"))]
#[component]
pub fn Composer(props: ComposerData) -> impl IntoView {
    let json = serde_json::to_string(&props).unwrap_or_default();
    provide_context(props);
    view! {
        <div hidden id="composer-props" data-props=json></div>
        <ComposerIsland/>
    }
}

/// The page's composer data: the server's context, or in the browser the page's
/// `data-props`. None only if the page holds no composer data (a bug): then no composer.
fn page_props() -> Option<ComposerData> {
    #[cfg(feature = "hydrate")]
    {
        let json = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.get_element_by_id("composer-props"))
            .and_then(|e| e.get_attribute("data-props"))?;
        serde_json::from_str(&json).ok()
    }
    #[cfg(not(feature = "hydrate"))]
    use_context::<ComposerData>()
}

#[island]
fn ComposerIsland() -> impl IntoView {
    page_props().map(composer)
}

fn composer(props: ComposerData) -> impl IntoView {
    let ComposerData {
        locale,
        today,
        vocabulary,
        conversation_id,
        previous: stored_previous,
        draft,
        visitor,
        live: following,
    } = props;
    #[cfg(not(feature = "hydrate"))]
    let _ = following;
    // A widget's box names no example: the site may answer about anything but the ledger.
    let label = if visitor.is_some() {
        tr(locale, "Votre question", "Your question")
    } else {
        t(locale, T::Placeholder)
    };
    let visitor = StoredValue::new(visitor);
    let parser = StoredValue::new(Parser::new(vocabulary));
    let conversation_id = RwSignal::new(conversation_id);
    let turns = RwSignal::new(Vec::<LiveTurn>::new());
    let draft = RwSignal::new(draft);
    let busy = RwSignal::new(false);

    // A follow-up continues the last plan, if its words were all read.
    let previous = Memo::new(move |_| match turns.with(|t| t.iter().rev().find_map(LiveTurn::plan)) {
        Some(plan) => Some(plan).filter(ToolCallPlan::carries_context),
        None => stored_previous.clone(),
    });
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

    // A suggestion's plan goes as the server wrote it (JSON), never read here.
    let live = Live { turns, busy, draft, conversation_id, locale, visitor };
    let send = Callback::new(move |(message, plan): (String, Option<String>)| {
        if busy.get_untracked() || message.trim().is_empty() {
            return;
        }
        if offline() {
            keep(message, plan, live);
        } else {
            start(message, plan, live, None, None);
        }
        // After a suggestion as after Enter: the caret is back in the message box.
        focus_message();
    });
    let on_submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        // A typed message goes without a plan: the server parses it itself.
        send.run((draft.get_untracked(), None));
    };

    // What was typed before the page's code woke (it loads once the page is idle) is
    // kept: read before hydration, which sets the box to the server's draft.
    #[cfg(feature = "hydrate")]
    let typed = browser::typed();
    // Once the page is live: new turns go at the end of the page's list, and the
    // server's links and forms are caught.
    #[cfg(feature = "hydrate")]
    Effect::new(move |_| {
        if let Some(typed) = typed.clone().filter(|t| !t.is_empty() && *t != draft.get_untracked()) {
            draft.set(typed);
        }
        // An answer being written when the page was drawn: followed here, in place of
        // what the page drew of it so far (which the style hides once the page is live).
        if let Some((run, question)) = following.clone() {
            start(question, None, live, None, Some(run));
        }
        browser::mount_turns(move || {
            view! {
                <For
                    each=move || turns.get().into_iter().enumerate()
                    key=|(i, turn)| (*i, turn.events.len(), turn.pending, turn.html.is_some(), turn.waiting.is_some())
                    children=move |(_, turn)| {
                        view! {
                            <li class="turn" data-testid="turn">
                                <p class="bubble user">{turn.user.clone()}</p>
                                {live_answer(turn, locale, describe)}
                            </li>
                        }
                    }
                />
            }
        });
        browser::catch_examples(draft);
        browser::catch_suggestions(send);
        browser::when_online(move || resume(live));
        browser::mark_hydrated();
    });
    #[cfg(not(feature = "hydrate"))]
    let _ = turns;

    view! {
        <footer class="composer">
            <form method="post" action=post::chat::SEND.route() on:submit=on_submit data-testid="composer">
                <input type="hidden" name="conversation_id"
                    value=move || conversation_id.get().unwrap_or_default()/>
                <label class="visually-hidden" for="message">{label}</label>
                <input id="message" name="message" type="text" autocomplete="off" required autofocus
                    maxlength=MAX_CHAT_MESSAGE_CHARS placeholder=label
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
                {move || outcome.with(|o| o.as_ref().map(|o: &ParseOutcome| draft_badge(o, describe, locale)))}
            </div>
        </footer>
    }
}

/// A turn's answer while it streams: the plan, the words as plain text, errors. Once
/// the server's rendering of the stored answer has arrived, that.
#[cfg_attr(not(feature = "hydrate"), allow(dead_code))]
fn live_answer(turn: LiveTurn, locale: Locale, describe: impl Fn(&ToolCallPlan) -> String) -> AnyView {
    if let Some(html) = turn.html {
        // Sou's server drew this, from the stored answer, with the page's own views:
        // every text in it escaped there (see `chat::answer_html`).
        return view! { <div class="bubble assistant" inner_html=html></div> }.into_any();
    }
    if turn.waiting.is_some() {
        return view! {
            <div class="bubble assistant">
                <p class="waiting" role="status" data-testid="waiting">
                    {tr(locale, "Hors ligne : votre question partira dès le retour du réseau.",
                        "Offline: your question will be sent as soon as the network is back.")}
                </p>
            </div>
        }
        .into_any();
    }
    let mut out: Vec<AnyView> = Vec::new();
    // Words speak the language of the question, which the plan carries.
    let mut locale = locale;
    let (mut ended, mut stopped, mut results, mut failed) = (false, false, false, false);
    let mut text = String::new();
    let words = |text: String| {
        view! { <div class="answer streaming" data-testid="answer"><p>{text}</p></div> }.into_any()
    };
    for e in turn.events {
        if let LiveEvent::Token(content) = &e {
            text.push_str(content);
            continue;
        }
        if !text.is_empty() {
            out.push(words(std::mem::take(&mut text)));
        }
        match e {
            LiveEvent::Plan(plan) => {
                let plan = *plan;
                let description = describe(&plan);
                locale = plan.meta.locale;
                out.push(view! { <PlanBadge plan description locale/> }.into_any());
            }
            LiveEvent::Error { code, message } => {
                stopped |= code == "stopped";
                failed = true;
                out.push(view! { <p class="error" role="alert" data-code=code>{message}</p> }.into_any());
            }
            LiveEvent::Status { .. } => ended = true,
            LiveEvent::Other => results = true,
            LiveEvent::Token(_) => {}
        }
    }
    if !text.is_empty() {
        out.push(words(text));
    }
    if turn.pending {
        out.push(view! { <p class="thinking" aria-live="polite">{t(locale, T::Thinking)}</p> }.into_any());
    } else if !ended && !stopped && !failed {
        // Cut before its end with no reason given (a reason given, such as the site's
        // widget being gone, is said once, above).
        out.push(view! { <p class="error" role="alert">{t(locale, T::Interrupted)}</p> }.into_any());
    } else if ended && results {
        // The answer was stored, but its rendering did not come (the network went).
        out.push(
            view! {
                <p class="hint" role="status">
                    {tr(locale, "Réponse enregistrée : rechargez la page pour la voir.", "Answer saved: reload the page to see it.")}
                </p>
            }
            .into_any(),
        );
    }
    view! { <div class="bubble assistant">{out}</div> }.into_any()
}

/// The signals a send updates.
#[derive(Clone, Copy)]
#[cfg_attr(not(feature = "hydrate"), allow(dead_code))]
struct Live {
    turns: RwSignal<Vec<LiveTurn>>,
    busy: RwSignal<bool>,
    draft: RwSignal<String>,
    conversation_id: RwSignal<Option<String>>,
    locale: Locale,
    visitor: StoredValue<Option<VisitorPass>>,
}

/// Streams the answer to `message` into a new turn, then puts the server's rendering
/// of the stored answer in its place, and the history as it is now beside it.
#[cfg(feature = "hydrate")]
fn start(message: String, plan: Option<String>, live: Live, at: Option<usize>, follow: Option<String>) {
    let Live { turns, busy, draft, conversation_id, locale, visitor } = live;
    // A widget's page keeps its address, and has no history or page name to change.
    let visitor = visitor.get_value();
    busy.set(true);
    browser::leave_start_page();
    // A new turn, or one that was waiting for the network.
    let index = match at {
        Some(index) => {
            turns.update(|t| {
                if let Some(turn) = t.get_mut(index) {
                    turn.waiting = None;
                    turn.pending = true;
                }
            });
            index
        }
        None => {
            draft.set(String::new());
            let index = turns.with_untracked(Vec::len);
            let turn = LiveTurn {
                user: message.clone(),
                events: Vec::new(),
                pending: true,
                html: None,
                waiting: None,
            };
            turns.update(|t| t.push(turn));
            index
        }
    };
    request_animation_frame(browser::scroll_to_end);
    let kept_plan = plan.clone();
    let body = request_body(&message, conversation_id.get_untracked().as_deref(), plan.as_deref(), locale);
    leptos::task::spawn_local(async move {
        let mut message_id = None;
        let on_event = |event| {
            if let LiveEvent::Status { conversation_id: id, message_id: answer, .. } = &event {
                if let Some(id) =
                    id.as_ref().filter(|id| conversation_id.get_untracked().as_ref() != Some(*id))
                {
                    if visitor.is_none() {
                        crate::stream::show_conversation_url(id);
                    }
                    conversation_id.set(Some(id.clone()));
                }
                message_id.clone_from(answer);
            }
            turns.update(|t| {
                if let Some(turn) = t.get_mut(index) {
                    turn.events.push(event);
                }
            });
            request_animation_frame(browser::scroll_to_end);
        };
        let result = crate::stream::chat(visitor.as_ref(), body, follow.as_deref(), on_event).await;
        // The stored answer as the server draws it. Without it (the answer was not
        // stored, or the request failed) the streamed parts stay, and a reload shows it.
        let parts = match (conversation_id.get_untracked(), message_id) {
            (Some(c), Some(m)) => crate::stream::answer(visitor.as_ref(), &c, &m).await,
            _ => None,
        };
        if let Some(parts) = parts.as_ref().filter(|_| visitor.is_none()) {
            browser::show_history(&parts.history);
            if let Some(heading) = &parts.heading {
                browser::name_page(heading);
            }
        }
        // Not reached at all: kept, and tried again when the network is back (the
        // browser's `online`, or in a few seconds: it does not always know).
        let unreachable = matches!(result, Err(crate::stream::Ended::Unreachable));
        turns.update(|all| {
            if let Some(turn) = all.get_mut(index) {
                turn.pending = false;
                if unreachable {
                    turn.waiting = Some(kept_plan);
                    return;
                }
                turn.html = parts.map(|p| p.answer);
                let ended = turn.events.iter().any(|e| matches!(e, LiveEvent::Status { .. }));
                match result {
                    Ok(()) => {}
                    Err(crate::stream::Ended::Stopped) => {
                        if !ended {
                            let message = t(locale, T::Stopped).to_string();
                            turn.events.push(LiveEvent::Error { code: "stopped".into(), message });
                        }
                    }
                    Err(crate::stream::Ended::Failed(message)) => {
                        turn.events.push(LiveEvent::Error { code: "network".into(), message });
                    }
                    Err(crate::stream::Ended::Unreachable) => {}
                }
            }
        });
        busy.set(false);
        request_animation_frame(browser::scroll_to_end);
        // The next question kept offline, if the network is back.
        if unreachable {
            set_timeout(move || resume(live), std::time::Duration::from_secs(3));
        } else {
            resume(live);
        }
    });
}

/// Keeps a question sent offline, on screen, until the network is back.
fn keep(message: String, plan: Option<String>, live: Live) {
    live.draft.set(String::new());
    #[cfg(feature = "hydrate")]
    browser::leave_start_page();
    let turn =
        LiveTurn { user: message, events: Vec::new(), pending: false, html: None, waiting: Some(plan) };
    live.turns.update(|t| t.push(turn));
}

/// Sends the first question kept offline, once online and no answer is streaming.
#[cfg_attr(not(feature = "hydrate"), allow(dead_code))]
fn resume(live: Live) {
    if live.busy.get_untracked() || offline() {
        return;
    }
    let next = live.turns.with_untracked(|t| {
        t.iter().position(|turn| turn.waiting.is_some()).map(|i| (i, t[i].user.clone(), t[i].waiting.clone()))
    });
    if let Some((index, message, plan)) = next {
        start(message, plan.flatten(), live, Some(index), None);
    }
}

/// Whether the browser says it has no network.
#[cfg(feature = "hydrate")]
fn offline() -> bool {
    web_sys::window().is_some_and(|w| !w.navigator().on_line())
}

#[cfg(not(feature = "hydrate"))]
fn offline() -> bool {
    false
}

#[cfg(not(feature = "hydrate"))]
fn start(_message: String, _plan: Option<String>, _live: Live, _at: Option<usize>, _follow: Option<String>) {}

/// Puts the caret in the message box, without scrolling (it is fixed at the bottom).
/// Not on a touch screen, where focus opens the keyboard over the answer.
fn focus_message() {
    #[cfg(feature = "hydrate")]
    browser::focus_message();
}

/// The stop button: asks the server to stop the answer (it drops its call to the
/// model) and stops reading it.
fn stop_answer() {
    #[cfg(feature = "hydrate")]
    crate::stream::stop();
}

/// What the composer does to the page around it.
#[cfg(feature = "hydrate")]
mod browser {
    use leptos::prelude::*;
    use wasm_bindgen::JsCast;
    use web_sys::{Element, HtmlElement, HtmlInputElement};

    fn document() -> Option<web_sys::Document> {
        web_sys::window().and_then(|w| w.document())
    }

    /// Draws `view` at the end of the page's list of turns, for good.
    pub fn mount_turns<V: IntoView + 'static>(view: impl FnOnce() -> V + 'static) {
        let list = document()
            .and_then(|d| d.get_element_by_id("turns"))
            .and_then(|e| e.dyn_into::<HtmlElement>().ok());
        if let Some(list) = list {
            leptos::mount::mount_to(list, view).forget();
        }
    }

    /// What the message box holds now.
    pub fn typed() -> Option<String> {
        document()
            .and_then(|d| d.get_element_by_id("message"))
            .and_then(|e| e.dyn_into::<HtmlInputElement>().ok())
            .map(|input| input.value())
    }

    /// Tells tests (and styles) the page is live.
    pub fn mark_hydrated() {
        if let Some(body) = document().and_then(|d| d.body()) {
            let _ = body.set_attribute("data-hydrated", "");
        }
    }

    /// The element `selector` matches that the event happened in, if any.
    fn closest(ev: &web_sys::Event, selector: &str) -> Option<Element> {
        ev.target()?.dyn_into::<Element>().ok()?.closest(selector).ok()?
    }

    /// An example of the start page goes into the message box instead of reloading it.
    pub fn catch_examples(draft: RwSignal<String>) {
        // Listeners stay for the page's life.
        let _ = window_event_listener(leptos::ev::click, move |ev| {
            let Some(link) = closest(&ev, "a.example") else { return };
            ev.prevent_default();
            draft.set(link.text_content().unwrap_or_default());
            focus_message();
        });
    }

    /// A one-click suggestion (a form) is sent over the stream, with its plan.
    pub fn catch_suggestions(send: Callback<(String, Option<String>)>) {
        let _ = window_event_listener(leptos::ev::submit, move |ev| {
            let Some(form) = closest(&ev, "form.suggestion") else { return };
            ev.prevent_default();
            let field = |name: &str| {
                form.query_selector(&format!("input[name={name}]"))
                    .ok()
                    .flatten()
                    .and_then(|e| e.dyn_into::<HtmlInputElement>().ok())
                    .map(|i| i.value())
                    .unwrap_or_default()
            };
            let plan = Some(field("plan")).filter(|p| !p.is_empty());
            send.run((field("message"), plan));
        });
    }

    /// Calls `then` each time the browser says the network is back.
    pub fn when_online(then: impl Fn() + 'static) {
        let _ = window_event_listener(leptos::ev::online, move |_| then());
    }

    /// The first message of the start page: the greeting goes, the list shows.
    pub fn leave_start_page() {
        if let Some(app) = document().and_then(|d| d.query_selector(".app.start").ok().flatten()) {
            let _ = app.class_list().remove_1("start");
        }
    }

    /// The history as the server draws it now (a new conversation, a new order).
    pub fn show_history(html: &str) {
        if let Some(nav) = document().and_then(|d| d.query_selector("nav.history").ok().flatten()) {
            // Sou's server drew it, with the page's own view (`chat::history_html`).
            nav.set_inner_html(html);
        }
    }

    /// Names the page after the latest answer, as a page load would.
    pub fn name_page(heading: &str) {
        let Some(document) = document() else { return };
        document.set_title(&format!("{heading} · Sou"));
        // The start page has none yet: its heading was the greeting, gone with it.
        let h1 = document.get_element_by_id("chat-heading").or_else(|| {
            let h1 = document.create_element("h1").ok()?;
            h1.set_id("chat-heading");
            h1.set_class_name("visually-hidden");
            let main = document.query_selector("main.chat").ok().flatten()?;
            main.prepend_with_node_1(&h1).ok()?;
            Some(h1)
        });
        if let Some(h1) = h1 {
            h1.set_text_content(Some(heading));
        }
    }

    /// Shows the newest turn from its first line: the question, the plan badge and the
    /// headline figure, just under the sticky header (`scroll-margin-top` in the style).
    /// Called as the answer grows, it scrolls only while that line is still below the
    /// header: once there, or once the reader scrolled on, the view is theirs.
    pub fn scroll_to_end() {
        let Some(document) = document() else { return };
        let Some(turn) = document.query_selector(".turns > li:last-child").ok().flatten() else { return };
        let header = document.query_selector("header.top").ok().flatten();
        let under_header = header.map_or(0.0, |h| h.get_bounding_client_rect().bottom());
        if turn.get_bounding_client_rect().top() > under_header + 1.0 {
            turn.scroll_into_view();
        }
    }

    pub fn focus_message() {
        let touch = web_sys::window()
            .and_then(|w| w.match_media("(pointer: coarse)").ok().flatten())
            .is_some_and(|m| m.matches());
        if touch {
            return;
        }
        let input = document()
            .and_then(|d| d.get_element_by_id("message"))
            .and_then(|e| e.dyn_into::<HtmlElement>().ok());
        if let Some(input) = input {
            let options = web_sys::FocusOptions::new();
            options.set_prevent_scroll(true);
            let _ = input.focus_with_options(&options);
        }
    }
}

/// A chat request's JSON (`ChatRequest`, docs/api.md), with the plan as the server's form
/// wrote it: the server reads and checks it, the composer only checks it is JSON (and
/// drops it otherwise). Written by hand: serde's raw JSON reader would bring its error
/// messages, and with them the formatting of floats, into the browser bundle.
#[cfg(any(feature = "hydrate", test))]
fn request_body(message: &str, conversation_id: Option<&str>, plan: Option<&str>, locale: Locale) -> String {
    let text = |s: &str| serde_json::to_string(s).unwrap_or_default();
    let mut body = format!("{{\"message\":{}", text(message));
    if let Some(id) = conversation_id {
        body.push_str(",\"conversation_id\":");
        body.push_str(&text(id));
    }
    if let Some(plan) = plan.filter(|p| serde_json::from_str::<agent::json::Json>(p).is_ok()) {
        body.push_str(",\"plan\":");
        body.push_str(plan);
    }
    body.push_str(",\"locale\":");
    body.push_str(&text(locale.as_str()));
    body.push('}');
    body
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;
    use agent::protocol::{ChatEvent, StreamStatus, Uncertainty, Usage};

    /// Every event the server streams reads as one the composer knows, results and
    /// unknown ones as `Other`: an event newer than the page never breaks the stream.
    #[test]
    fn every_streamed_event_reads_as_a_live_event() {
        let status = ChatEvent::Status {
            content: StreamStatus::Done,
            usage: Usage { route: "parser".into(), ..Usage::default() },
            uncertainty: Uncertainty { plan_confidence: None, answer_confidence: 1.0, warnings: vec![] },
            conversation_id: Some("c1".into()),
            message_id: Some("m1".into()),
        };
        let read = |json: &str| LiveEvent::from_json(json).unwrap();
        assert_eq!(
            read(&status.to_json()),
            LiveEvent::Status { conversation_id: Some("c1".into()), message_id: Some("m1".into()) }
        );
        assert_eq!(read(&ChatEvent::text("12,00 €").to_json()), LiveEvent::Token("12,00 €".into()));
        assert_eq!(read(&ChatEvent::markdown("**a**").to_json()), LiveEvent::Token("**a**".into()));
        let error = ChatEvent::Error { code: "rate_limited".into(), message: "Trop de requêtes".into() };
        assert!(matches!(read(&error.to_json()), LiveEvent::Error { code, .. } if code == "rate_limited"));
        let result = r#"{"type":"tool_result","tool":"balances","accounts":[{"name":"A","balance":{"minor":1,"currency":"EUR"}}]}"#;
        assert_eq!(read(result), LiveEvent::Other);
        assert_eq!(read(r#"{"type":"approval_required","id":"x","effect":{"rows":3}}"#), LiveEvent::Other);
        assert!(LiveEvent::from_json(r#"{"content":"no type"}"#).is_err());
        assert!(LiveEvent::from_json(r#"{"type":"token"}"#).is_err(), "a token without its content");
    }

    /// The request's JSON is what serde would write: strings escaped, the plan as it
    /// came, absent fields left out, a plan that is no JSON dropped.
    #[test]
    fn a_request_body_is_the_json_serde_writes() {
        use serde_json::{json, Value};
        let read = |s: String| serde_json::from_str::<Value>(&s).unwrap();
        let message = "quote \" backslash \\ line\n </script> é";
        assert_eq!(
            read(request_body(message, Some("c\"1"), Some(r#"{"tool":"balances","n":[1,2.5]}"#), Locale::En)),
            json!({"message": message, "conversation_id": "c\"1", "plan": {"tool": "balances", "n": [1, 2.5]}, "locale": "en"})
        );
        assert_eq!(
            read(request_body("hi", None, None, Locale::Fr)),
            json!({"message": "hi", "locale": "fr"})
        );
        assert_eq!(
            read(request_body("hi", None, Some("{not json"), Locale::Fr)),
            json!({"message": "hi", "locale": "fr"})
        );
    }

    /// A plan the parser made, sent and streamed back, reads as the same plan.
    #[test]
    fn a_plan_event_reads_back_whole() {
        let parser = Parser::new(Vocabulary::default());
        let today = Date::new(2026, 3, 14).unwrap();
        let cx = Context { today, locale: Some(Locale::Fr), previous: None };
        let ParseOutcome::Plan(plan) = parser.parse("combien en courses en janvier 2026 ?", &cx) else {
            panic!("no plan")
        };
        let event = ChatEvent::Plan { plan: plan.clone() };
        assert_eq!(LiveEvent::from_json(&event.to_json()).unwrap(), LiveEvent::Plan(Box::new(plan)));
    }
}

//! The conversation history: the user's conversations, most recent first, each a link
//! with a menu to rename or delete it. A sidebar on wide screens; on narrow ones the
//! start page lists them. Every form works without JavaScript.

use agent::protocol::ConversationSummary;
use agent::Locale;
use leptos::form::ActionForm;
use leptos::prelude::*;

use crate::api::{load_history, DeleteConversation, RenameConversation};
use crate::i18n::tr;
use crate::layout::{Frame, Loaded};

/// `current`: the conversation on screen.
#[component]
pub fn History(current: Signal<Option<String>>, locale: Locale) -> impl IntoView {
    let rename = ServerAction::<RenameConversation>::new();
    let delete = ServerAction::<DeleteConversation>::new();
    // Reloaded after a rename or delete, and when a new conversation starts.
    let list = Resource::new(
        move || (rename.version().get(), delete.version().get(), current.get()),
        |_| load_history(),
    );
    let failure = move || {
        let error =
            rename.value().get().and_then(Result::err).or_else(|| delete.value().get().and_then(Result::err));
        error.map(|e| view! { <p class="error" role="alert">{e.to_string()}</p> })
    };
    view! {
        <nav class="history" aria-label=tr(locale, "Conversations", "Conversations") data-testid="history">
            <h2>{tr(locale, "Conversations", "Conversations")}</h2>
            {failure}
            <Loaded data=list frame=Frame::Part let:items>
                {if items.is_empty() {
                    view! {
                        <p class="hint">{tr(locale, "Aucune conversation pour l'instant.", "No conversations yet.")}</p>
                    }.into_any()
                } else {
                    view! {
                        <ul>
                            {items.into_iter().map(|c| view! { <Item c current locale rename delete/> }).collect_view()}
                        </ul>
                    }.into_any()
                }}
            </Loaded>
        </nav>
    }
}

#[component]
fn Item(
    c: ConversationSummary,
    current: Signal<Option<String>>,
    locale: Locale,
    rename: ServerAction<RenameConversation>,
    delete: ServerAction<DeleteConversation>,
) -> impl IntoView {
    let id = c.id.clone();
    let is_current = {
        let id = id.clone();
        Memo::new(move |_| current.with(|cur| cur.as_deref() == Some(id.as_str())))
    };
    // Deleting the conversation on screen goes back to the start page; any other stays.
    let back = move || match current.get() {
        Some(cur) if !is_current.get() => format!("/c/{cur}"),
        _ => "/".to_string(),
    };
    let href = format!("/c/{id}");
    let (rename_id, delete_id) = (id.clone(), id.clone());
    let title_id = format!("title-{id}");
    view! {
        <li class:current=is_current data-conversation=id>
            <a href=href rel="external" aria-current=move || is_current.get().then_some("page")>{c.title.clone()}</a>
            <details class="item-menu">
                <summary aria-label=tr(locale, "Options de la conversation", "Conversation options")>"⋯"</summary>
                <ActionForm action=rename>
                    <input type="hidden" name="id" value=rename_id/>
                    <label for=title_id.clone()>{tr(locale, "Titre", "Title")}</label>
                    <input id=title_id type="text" name="title" value=c.title.clone() required maxlength="120"/>
                    <button type="submit">{tr(locale, "Renommer", "Rename")}</button>
                </ActionForm>
                <ActionForm action=delete>
                    <input type="hidden" name="id" value=delete_id/>
                    <input type="hidden" name="back" value=back/>
                    <button type="submit" class="danger">{tr(locale, "Supprimer", "Delete")}</button>
                </ActionForm>
            </details>
        </li>
    }
}

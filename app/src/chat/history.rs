//! The conversation history: the user's conversations, most recent first, each a link
//! with a menu to rename or delete it. A sidebar on wide screens; on narrow ones the
//! start page lists them. Every form is a plain form: the server renames or deletes,
//! then sends the browser back to the page.

use agent::protocol::ConversationSummary;
use agent::Locale;
use leptos::form::ActionForm;
use leptos::prelude::*;

use crate::api::{load_history, DeleteConversation, RenameConversation};
use crate::i18n::tr;
use crate::layout::{Frame, Loaded};

/// `current`: the conversation on screen.
#[component]
pub fn History(current: Option<String>, locale: Locale) -> impl IntoView {
    let list = Resource::new(|| (), |_| load_history());
    view! {
        <nav class="history" aria-label=tr(locale, "Conversations", "Conversations") data-testid="history">
            <Loaded data=list frame=Frame::Part let:items>
                {contents(items, current.clone(), locale)}
            </Loaded>
        </nav>
    }
}

/// What the history shows inside its `<nav>`, as HTML: what the composer puts there
/// after an answer, when the list changed (a new conversation, a new order).
pub fn history_html(items: Vec<ConversationSummary>, current: Option<String>, locale: Locale) -> String {
    Owner::new().with(|| contents(items, current, locale).to_html())
}

fn contents(items: Vec<ConversationSummary>, current: Option<String>, locale: Locale) -> impl IntoView {
    let rename = ServerAction::<RenameConversation>::new();
    let delete = ServerAction::<DeleteConversation>::new();
    // A form posted without JavaScript comes back with its error in the address.
    let failure = move || {
        let error =
            rename.value().get().and_then(Result::err).or_else(|| delete.value().get().and_then(Result::err));
        error.map(|e| view! { <p class="error" role="alert">{e.to_string()}</p> })
    };
    let list = if items.is_empty() {
        view! { <p class="hint">{tr(locale, "Aucune conversation pour l'instant.", "No conversations yet.")}</p> }
            .into_any()
    } else {
        view! {
            <ul>
                {items
                    .into_iter()
                    .map(|c| view! { <Item c current=current.clone() locale rename delete/> })
                    .collect_view()}
            </ul>
        }
        .into_any()
    };
    view! {
        <h2>{tr(locale, "Conversations", "Conversations")}</h2>
        {failure}
        {list}
    }
}

#[component]
fn Item(
    c: ConversationSummary,
    current: Option<String>,
    locale: Locale,
    rename: ServerAction<RenameConversation>,
    delete: ServerAction<DeleteConversation>,
) -> impl IntoView {
    let id = c.id.clone();
    let is_current = current.as_deref() == Some(id.as_str());
    // Deleting the conversation on screen goes back to the start page; any other stays.
    let back = match current {
        Some(cur) if !is_current => format!("/c/{cur}"),
        _ => "/".to_string(),
    };
    let href = format!("/c/{id}");
    let (rename_id, delete_id) = (id.clone(), id.clone());
    let title_id = format!("title-{id}");
    view! {
        <li class:current=is_current data-conversation=id>
            <a href=href rel="external" aria-current=is_current.then_some("page")>{c.title.clone()}</a>
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

//! Server functions: who is asking, call `backend`, map the error. Nothing else.

use agent::protocol::ConversationView;
use agent::{Date, Locale, Vocabulary};
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

use crate::AppError;

/// Everything the chat page needs, in one request, serialised into the page so the
/// browser's parser has the user's vocabulary without a round trip.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PageData {
    pub vocabulary: Vocabulary,
    pub conversation: Option<ConversationView>,
    /// Interface language, from the browser's Accept-Language.
    pub locale: Locale,
    /// Today in the user's time zone: the browser's parser resolves "last month" with it.
    pub today: Date,
}

#[server(endpoint = "page")]
pub async fn load_page(conversation_id: Option<String>) -> Result<PageData, AppError> {
    let (sou, user) = ssr::session()?;
    let vocabulary = sou.store().vocabulary(user).await?;
    let conversation = match conversation_id {
        Some(id) => Some(sou.conversation(user, &id).await?),
        None => None,
    };
    Ok(PageData { vocabulary, conversation, locale: ssr::accept_language(), today: sou.today() })
}

#[cfg(feature = "ssr")]
pub mod ssr {
    use agent::Locale;
    use backend::{Sou, UserId};
    use leptos::prelude::*;

    use crate::AppError;

    /// The backend and the user this request is for (until sign-in exists, the
    /// instance's local user).
    pub fn session() -> Result<(Sou, UserId), AppError> {
        match (use_context::<Sou>(), use_context::<UserId>()) {
            (Some(sou), Some(user)) => Ok((sou, user)),
            _ => {
                tracing::error!("server function called without the backend in context");
                Err(AppError::Internal)
            }
        }
    }

    /// The first supported language of the request's Accept-Language, else French.
    pub fn accept_language() -> Locale {
        use_context::<http::request::Parts>()
            .and_then(|parts| {
                let header = parts.headers.get(http::header::ACCEPT_LANGUAGE)?.to_str().ok()?.to_string();
                header.split(',').find_map(|tag| Locale::from_tag(tag.split(';').next()?.trim()))
            })
            .unwrap_or(Locale::Fr)
    }
}

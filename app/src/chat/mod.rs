//! The chat page: the conversation, the composer and the live plan badge, with the
//! history of conversations beside them.
//!
//! The page is drawn on the server, answers included, and stays server HTML: only the
//! composer is an island ([`composer`]), the one part of Sou the browser runs. It
//! parses every keystroke, streams a new answer into the list of turns, and then puts
//! in the server's own rendering of that answer, so tables, charts and Markdown never
//! weigh on the browser bundle.

mod composer;
#[cfg(feature = "ssr")]
mod history;
#[cfg(feature = "ssr")]
mod page;
mod props;

#[cfg(feature = "ssr")]
pub use composer::{Composer, ComposerData};
#[cfg(feature = "ssr")]
pub use history::history_html;
#[cfg(feature = "ssr")]
pub use page::{answer_html, ChatPage, OfflinePage};

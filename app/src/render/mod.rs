//! Views of plans, clarifications and tool results, one file for each kind of thing
//! drawn. Pure functions of the data, drawn by the server: the page, the answer the
//! composer puts in after streaming it, shared reports. The browser draws only
//! [`plan`]: the badge and the clarifying question, while an answer streams.

#[cfg(feature = "ssr")]
mod answer;
#[cfg(feature = "ssr")]
pub mod approval;
#[cfg(feature = "ssr")]
pub(crate) mod bars;
#[cfg(feature = "ssr")]
pub mod cells;
#[cfg(feature = "ssr")]
mod events;
#[cfg(feature = "ssr")]
mod ledger;
pub mod plan;
#[cfg(feature = "ssr")]
pub mod runs;
#[cfg(feature = "ssr")]
pub mod share;
#[cfg(feature = "ssr")]
pub mod tools;

#[cfg(feature = "ssr")]
pub use answer::answer_text;
#[cfg(feature = "ssr")]
pub use events::events_view;
#[cfg(feature = "ssr")]
pub use tools::tool_output;

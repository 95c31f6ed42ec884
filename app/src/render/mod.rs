//! Views of plans, clarifications and tool results, one file for each kind of thing
//! drawn. Pure functions of the data, so the server-rendered page and the hydrated one
//! are the same.

pub mod accounts;
mod answer;
pub mod budgets;
pub mod cells;
mod events;
mod ledger;
mod plan;
pub mod recurring;
pub mod share;
mod tables;

#[cfg(feature = "ssr")]
pub use answer::answer_text;
pub use events::events_view;
#[cfg(feature = "ssr")]
pub use events::tool_output;
pub use plan::draft_badge;

//! Views of plans, clarifications and tool results, one file for each kind of thing
//! drawn. Pure functions of the data, so the server-rendered page and the hydrated one
//! are the same.

mod accounts;
mod answer;
mod budgets;
mod cells;
mod events;
mod ledger;
mod plan;
mod recurring;
mod tables;

pub use events::events_view;
pub use plan::draft_badge;

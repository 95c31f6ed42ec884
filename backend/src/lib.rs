//! Sou's server side: the store (SQLite or PostgreSQL), the demo ledger, accounts, the
//! tool registry and tools, bank imports, datasets, the language-model providers, and
//! the chat pipeline every surface (API, chat page, plain form) goes through. It knows
//! nothing of Leptos or HTTP.

pub mod approvals;
pub mod auth;
pub mod bank_accounts;
mod budgets;
mod calendar;
mod chat;
mod conversations;
pub mod datasets;
pub mod demo;
mod error;
mod ids;
pub mod import;
pub mod imports;
pub mod llm;
mod messages;
pub mod providers;
pub mod registry;
pub mod reports;
pub mod rules;
pub mod runs;
pub mod slots;
mod sou;
mod statements;
mod store;
#[cfg(feature = "test-support")]
pub mod testing;
mod tools;
pub mod trace;
pub mod vault;
mod vocabulary;
pub mod widgets;

pub use budgets::Budgets;
pub use chat::{ChatRequest, ChatStream, PlanRequest};
pub use error::{BackendError, ErrorKind, StoreError, UserError};
pub use ids::{Dialect, UserId};
pub use sou::Sou;
pub use store::Store;

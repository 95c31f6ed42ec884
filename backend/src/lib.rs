//! Sou's server side: the SQLite store, the demo ledger, the tool registry and tools,
//! and the chat pipeline every surface (API, chat page, plain form) goes through.
//! It knows nothing of Leptos or HTTP.

pub mod assistant;
pub mod auth;
pub mod chat;
pub mod datasets;
pub mod demo;
mod emitter;
mod error;
pub mod guardian;
pub mod ids;
pub mod import;
pub mod imports;
pub mod llm;
pub mod providers;
pub mod registry;
pub mod router;
pub mod rules;
pub mod store;
#[cfg(feature = "test-support")]
pub mod testing;
pub mod tools;
pub mod trace;
pub mod vault;

pub use chat::{ChatRequest, ChatStream, PlanRequest, Sou};
pub use error::{BackendError, StoreError};
pub use ids::{Dialect, UserId};
pub use store::Store;

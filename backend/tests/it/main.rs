//! The backend's integration tests, in one binary: linking the backend (and its
//! dependencies) once instead of once per test file. Each module is one subject; what
//! they share is in `tests/support` (and `backend::testing`, with the crate's
//! `test-support` feature, for what the server's tests share too).
//!
//! The modules run in one process, in parallel: no test may rely on process-wide state
//! of its own (environment variables, a global `tracing` subscriber, fixed ports, paths
//! or database names). The one global subscriber is `support::logs`'s.
//!
//! `cargo test -p backend --test it MODULE::` runs one module's tests.

// (A test scenario reads top to bottom, however long.)
#![allow(clippy::too_many_lines)]
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../support/mod.rs"]
mod support;

mod auth;
mod bank_accounts;
mod concurrent_writes;
mod conversations;
mod datasets_fair;
mod finance_tools;
mod hidden_controls;
mod import_into_ledger;
mod import_layouts;
mod import_parsers;
mod import_roundtrip;
mod ledger_months;
mod llm_chat;
mod llm_matrix;
mod llm_providers;
mod llm_retry;
mod migrations;
mod postgres;
mod question_first;
mod reports;
mod runs;
mod sandbox;
mod schema;
mod sessions;
mod store_and_tools;
mod tool_contract;
mod vocabulary;
mod widgets;

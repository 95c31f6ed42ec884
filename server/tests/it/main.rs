//! The server's integration tests, in one binary: linking the server, the app and the
//! backend once instead of once per test file. Each module is one subject; what they
//! share is in `tests/support` (and `backend::testing`, for what the backend's tests
//! share too).
//!
//! The modules run in one process, in parallel: no test may rely on process-wide state
//! of its own (environment variables, a global `tracing` subscriber, fixed ports, paths
//! or database names). Logs are captured per test (`support::capture_logs`).
//!
//! `cargo test -p server --test it MODULE::` runs one module's tests.

// (A test scenario reads top to bottom, however long.)
#![allow(clippy::too_many_lines)]
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../support/mod.rs"]
mod support;

mod account;
mod answers;
mod auth;
mod client_plans;
mod datasets;
mod datasets_fair;
mod dialects;
mod imports;
mod imports_api;
mod instances;
mod isolation;
mod keep_alive;
mod keys;
mod logs;
mod postgres;
mod real_server;
mod reports;
mod routes;
mod runs;
mod runs_crash;
mod security;
mod widgets;
mod writes;
mod writes_crash;

//! Sou's server side: the store (SQLite or PostgreSQL), the demo ledger, accounts, the
//! tool registry and tools, bank imports, datasets, the language-model providers, and
//! the chat pipeline every surface (API, chat page, plain form) goes through. It knows
//! nothing of Leptos or HTTP.

mod approvals;
mod auth;
mod bank_accounts;
mod budgets;
mod calendar;
mod chat;
mod conversations;
mod datasets;
pub mod demo;
mod error;
mod ids;
pub mod import;
mod imports;
pub mod llm;
mod messages;
mod providers;
mod registry;
mod reports;
mod rules;
mod runs;
mod slots;
mod sou;
mod statements;
mod store;
#[cfg(feature = "test-support")]
pub mod testing;
mod tools;
mod trace;
mod vault;
mod vocabulary;
mod widgets;

pub use budgets::Budgets;
pub use chat::{ChatRequest, ChatStream, PlanRequest};
pub use conversations::Conversations;
pub use error::{BackendError, ErrorKind, StoreError, UserError};
pub use ids::{Dialect, UserId};
pub use sou::Sou;
pub use store::Store;

// What the surfaces (app, server) and the tests name: the facade, its services, and the
// wire, error and configuration types they take or give. The modules stay private.
pub use approvals::{Approvals, ApprovalsOf, Decision, WriteConfig, WriteError};
pub use auth::{
    local_minute, session_in_cookies, Account, Auth, AuthConfig, AuthError, Client, NewSession,
    SESSION_COOKIE, TOKEN_PREFIX,
};
pub use bank_accounts::{AccountError, BankAccounts};
pub use datasets::{DatasetError, Datasets, DATASET_ROW_CAP, MAX_DATASET_BYTES};
pub use imports::{Chosen, ImportError, Imports, Layout, Target, MAX_IMPORT_BYTES};
pub use providers::{Choice, KeyState, LlmConfig, ModelSettings, ProviderConfig, Providers};
pub use registry::{check_call, Registry, ToolClass};
pub use reports::{
    well_formed, NewReport, Refusal, ReportChange, ReportError, ReportOptions, Reports, VIEWS_PER_MINUTE,
};
pub use rules::{RuleError, Rules};
pub use runs::plans::{RunAction, RunError};
pub use runs::usage::MAX_OWN_LIMIT_EUR_MICROS;
pub use runs::{Drained, RunConfig, Runs, RunsOf, UsageLimits};
pub use slots::{Full, QueryLimits};
pub use trace::user as trace_user;
pub use vault::Vault;
pub use widgets::{visitor_token, Visitor, WidgetError, Widgets, DEFAULT_VISITOR_PERCENT};

//! Why a decision, an edit or an undo was refused, and how each reaches the user.

use agent::{ApprovalState, Locale};

use crate::error::{BackendError, ErrorKind, UserError};
use crate::tools::writes::ApplyError;

/// Why a decision or an undo was refused. Every one leaves the data as it was.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    #[error("the approval expired")]
    Expired,
    /// Approved, rejected, replaced or run already: an approval counts once.
    #[error("the approval is {}", .0.as_str())]
    Decided(ApprovalState),
    /// What would run is not what was approved (the digest differs).
    #[error("the approval does not match what was shown")]
    Changed,
    /// A row is no longer as the dry run (or the write) left it.
    #[error("the data changed since: {0}")]
    Conflict(String),
    #[error("nothing would change")]
    Nothing,
    #[error("the change was undone already")]
    Undone,
    /// An edit changed an argument its card does not show (`agent::writes::editable_fields`).
    #[error("an edit may not change {0}")]
    NotEditable(String),
    #[error(transparent)]
    Backend(#[from] BackendError),
}

impl From<sqlx::Error> for WriteError {
    fn from(e: sqlx::Error) -> WriteError {
        WriteError::Backend(e.into())
    }
}

impl From<ApplyError> for WriteError {
    fn from(e: ApplyError) -> WriteError {
        match e {
            ApplyError::Conflict(what) => WriteError::Conflict(what),
            ApplyError::Db(e) => e.into(),
        }
    }
}

impl UserError for WriteError {
    fn code(&self) -> &'static str {
        match self {
            WriteError::Expired => "approval_expired",
            WriteError::Decided(ApprovalState::Executed | ApprovalState::Approved) => "approval_done",
            WriteError::Decided(ApprovalState::Superseded) => "approval_superseded",
            WriteError::Decided(_) => "approval_decided",
            WriteError::Changed => "approval_changed",
            WriteError::Conflict(_) => "conflict",
            WriteError::Nothing => "nothing_to_change",
            WriteError::Undone => "already_undone",
            WriteError::NotEditable(_) => "not_editable",
            WriteError::Backend(e) => e.code(),
        }
    }

    fn message(&self, locale: Locale) -> String {
        match self {
            WriteError::Backend(e) => e.message(locale),
            WriteError::NotEditable(key) => {
                format!("{} ({key})", agent::writes::refusal_text("not_editable", locale).unwrap_or_default())
            }
            refused => agent::writes::refusal_text(refused.code(), locale).unwrap_or_default().to_string(),
        }
    }

    fn kind(&self) -> ErrorKind {
        match self {
            WriteError::Backend(e) => e.kind(),
            WriteError::Nothing | WriteError::NotEditable(_) => ErrorKind::Invalid,
            _ => ErrorKind::Conflict,
        }
    }
}

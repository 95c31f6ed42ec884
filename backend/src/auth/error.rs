//! Why an account operation was refused: a stable code the sign-in pages translate,
//! how long to wait when the refusal passes with time, and what a user is told.

use std::time::Duration;

use thiserror::Error;

use crate::error::{ErrorKind, UserError};

/// Why an account operation was refused. Texts are safe to show.
#[derive(Debug, Error)]
pub enum AuthError {
    #[error("wrong name or password")]
    InvalidCredentials,
    #[error("this is not the current password")]
    WrongPassword,
    #[error("a demo account has no password")]
    NoPassword,
    #[error("this name is already taken")]
    NameTaken,
    #[error("a name has 3 to 64 characters")]
    NameLength,
    #[error("a name uses letters, digits and . _ - @ + only")]
    NameCharacters,
    #[error("this name is reserved")]
    NameReserved,
    #[error("a password has at least 10 characters")]
    PasswordShort,
    #[error("a password has at most 1024 bytes")]
    PasswordLong,
    #[error("a token needs a label of 1 to 100 characters")]
    TokenLabel,
    #[error("a token label may not contain control or text-direction characters")]
    TokenLabelCharacters,
    #[error("too many failed attempts; try again in {} s", seconds(*.retry_after))]
    RateLimited { retry_after: Duration },
    #[error("too many demos were started from this address; try again in {} s", seconds(*.retry_after))]
    DemoLimited { retry_after: Duration },
    #[error("this server does not accept new accounts")]
    Closed,
    #[error("too many demos are running; try again later")]
    DemoFull,
    #[error("password hashing failed")]
    Hash,
    #[error("the demo ledger could not be created")]
    Seed,
    #[error("database: {0}")]
    Db(#[from] sqlx::Error),
}

impl AuthError {
    /// A stable code for the error, which clients (and the sign-in page) translate.
    pub fn code(&self) -> &'static str {
        match self {
            AuthError::InvalidCredentials => "invalid_credentials",
            AuthError::WrongPassword => "wrong_password",
            AuthError::NoPassword => "no_password",
            AuthError::NameTaken => "name_taken",
            AuthError::NameLength => "name_length",
            AuthError::NameCharacters => "name_characters",
            AuthError::NameReserved => "name_reserved",
            AuthError::PasswordShort => "password_short",
            AuthError::PasswordLong => "password_long",
            AuthError::TokenLabel => "token_label",
            AuthError::TokenLabelCharacters => "token_label_characters",
            AuthError::RateLimited { .. } => "rate_limited",
            AuthError::DemoLimited { .. } => "demo_limited",
            AuthError::Closed => "closed",
            AuthError::DemoFull => "demo_full",
            AuthError::Hash | AuthError::Seed | AuthError::Db(_) => "internal",
        }
    }

    /// How long to wait before trying again, for a refusal that passes with time.
    pub fn retry_after(&self) -> Option<Duration> {
        match self {
            AuthError::RateLimited { retry_after } | AuthError::DemoLimited { retry_after } => {
                Some(*retry_after)
            }
            _ => None,
        }
    }

    /// [`AuthError::retry_after`] in whole seconds, rounded up: waiting that long is
    /// always enough (`Retry-After`, the sign-in page's hint).
    pub fn retry_after_secs(&self) -> Option<u64> {
        self.retry_after().map(seconds)
    }
}

/// A wait in whole seconds, rounded up, at least one.
fn seconds(wait: Duration) -> u64 {
    let millis = u64::try_from(wait.as_millis()).unwrap_or(u64::MAX);
    millis.div_ceil(1000).max(1)
}

impl UserError for AuthError {
    fn code(&self) -> &'static str {
        AuthError::code(self)
    }

    /// The sign-in pages translate the code themselves; elsewhere a refusal is shown
    /// as its own (English) text, but for the token label's length.
    fn message(&self, locale: agent::Locale) -> String {
        let fr = locale == agent::Locale::Fr;
        match self {
            AuthError::TokenLabel => if fr {
                "Donnez au jeton un nom de 1 à 100 caractères."
            } else {
                "Give the token a name of 1 to 100 characters."
            }
            .into(),
            AuthError::Hash | AuthError::Seed | AuthError::Db(_) => if fr {
                "Une erreur est survenue sur le serveur. Réessayez."
            } else {
                "Something went wrong on the server. Try again."
            }
            .into(),
            other => other.to_string(),
        }
    }

    fn kind(&self) -> ErrorKind {
        match self {
            AuthError::InvalidCredentials => ErrorKind::Unauthenticated,
            AuthError::Closed | AuthError::NoPassword => ErrorKind::Forbidden,
            AuthError::NameTaken => ErrorKind::Conflict,
            AuthError::RateLimited { .. } | AuthError::DemoLimited { .. } | AuthError::DemoFull => {
                ErrorKind::Limited
            }
            AuthError::Hash | AuthError::Seed | AuthError::Db(_) => ErrorKind::Internal,
            _ => ErrorKind::Invalid,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wait_is_said_in_seconds_rounded_up() {
        let limited = |ms| AuthError::RateLimited { retry_after: Duration::from_millis(ms) };
        assert_eq!(limited(1_999).retry_after_secs(), Some(2));
        assert_eq!(limited(2_000).retry_after_secs(), Some(2));
        assert_eq!(limited(2_001).retry_after_secs(), Some(3));
        assert_eq!(limited(0).retry_after_secs(), Some(1));
        assert_eq!(limited(3_999).to_string(), "too many failed attempts; try again in 4 s");
        assert_eq!(AuthError::InvalidCredentials.retry_after_secs(), None);
    }
}

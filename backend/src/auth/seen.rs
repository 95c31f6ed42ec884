//! The sessions this server looked up in the last second: a burst of requests from one
//! browser (plans as the user types, a page and its requests) reads the database once.
//!
//! What an entry may hide, for at most [`FOR`] after its lookup: a session ended on
//! another server (one ended on this server is forgotten when it ends), a session that
//! expired meanwhile, and a vocabulary changed meanwhile, which only `/api/v1/plan`'s
//! preview reads from here (an answer reads the vocabulary itself). A demo's end is
//! checked on every use. API tokens are not kept: each request reads its token.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::Account;

/// How long a looked-up session is used without reading it again.
pub(super) const FOR: Duration = Duration::from_secs(1);

/// At most this many sessions are kept; past it, the stale ones are dropped, or all.
const MAX: usize = 10_000;

#[derive(Default)]
pub(super) struct Seen {
    sessions: Mutex<HashMap<String, (Instant, Account)>>,
}

impl Seen {
    /// The account of the session whose token has `digest`, if looked up less than
    /// [`FOR`] ago and its demo (if any) has not ended by `now` (a stored timestamp).
    pub(super) fn get(&self, digest: &str, now: &str) -> Option<Account> {
        let sessions = self.sessions.lock().unwrap_or_else(|p| p.into_inner());
        let (at, account) = sessions.get(digest)?;
        let live = account.demo_expires_at.as_deref().is_none_or(|end| end > now);
        (at.elapsed() < FOR && live).then(|| account.clone())
    }

    pub(super) fn keep(&self, digest: String, account: &Account) {
        let mut sessions = self.sessions.lock().unwrap_or_else(|p| p.into_inner());
        if sessions.len() >= MAX {
            sessions.retain(|_, (at, _)| at.elapsed() < FOR);
            if sessions.len() >= MAX {
                sessions.clear();
            }
        }
        sessions.insert(digest, (Instant::now(), account.clone()));
    }

    /// The session ended on this server: never used again.
    pub(super) fn forget(&self, digest: &str) {
        self.sessions.lock().unwrap_or_else(|p| p.into_inner()).remove(digest);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::UserId;

    fn account(demo: Option<&str>) -> Account {
        Account {
            user: UserId(7),
            name: "a".into(),
            demo_expires_at: demo.map(str::to_string),
            vocabulary: None,
        }
    }

    #[test]
    fn a_session_is_kept_briefly_and_forgotten_when_ended() {
        let seen = Seen::default();
        assert!(seen.get("d", "2026-01-01T00:00:00Z").is_none());
        seen.keep("d".into(), &account(None));
        assert_eq!(seen.get("d", "2026-01-01T00:00:00Z").map(|a| a.user), Some(UserId(7)));
        assert!(seen.get("other", "2026-01-01T00:00:00Z").is_none());
        seen.forget("d");
        assert!(seen.get("d", "2026-01-01T00:00:00Z").is_none());
    }

    #[test]
    fn an_ended_demo_is_not_used() {
        let seen = Seen::default();
        seen.keep("d".into(), &account(Some("2026-01-01T00:00:10Z")));
        assert!(seen.get("d", "2026-01-01T00:00:09Z").is_some());
        assert!(seen.get("d", "2026-01-01T00:00:10Z").is_none());
    }

    #[test]
    fn an_entry_older_than_its_time_is_read_again() {
        let seen = Seen::default();
        seen.sessions
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert("d".into(), (Instant::now() - FOR - Duration::from_millis(1), account(None)));
        assert!(seen.get("d", "2026-01-01T00:00:00Z").is_none());
    }

    #[test]
    fn the_table_stays_bounded() {
        let seen = Seen::default();
        for i in 0..MAX + 5 {
            seen.keep(i.to_string(), &account(None));
        }
        assert!(seen.sessions.lock().unwrap_or_else(|p| p.into_inner()).len() <= MAX);
    }
}

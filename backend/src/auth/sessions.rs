//! One's own sessions (Settings → Account): listed with what each was opened from and
//! when it was last used, ended one by one or all but this one, and a password change,
//! which ends every other session. Everything here runs as the user (on PostgreSQL,
//! row-level security shows no one else's sessions); a session of another user is
//! "none such". An ended session is forgotten by this server's cache at once, by the
//! others' within a second (`seen.rs`).

use std::net::IpAddr;

use chrono::Utc;
use secrecy::{ExposeSecret, SecretString};

use super::device::{self, Device};
use super::{
    check_password, chrono_duration, client_key, digest, hash_password_apart, verify_password_apart,
};
use super::{Auth, AuthError};
use crate::ids::{name_key, UserId};
use crate::store::timestamp;

/// Who opens a session: the client's address (as the gate found it) and its
/// `User-Agent`, read only for the names of its browser and system.
#[derive(Clone, Copy, Debug, Default)]
pub struct Client<'a> {
    pub address: &'a str,
    pub user_agent: Option<&'a str>,
}

impl<'a> From<&'a str> for Client<'a> {
    fn from(address: &'a str) -> Client<'a> {
        Client { address, user_agent: None }
    }
}

impl<'a> From<&'a String> for Client<'a> {
    fn from(address: &'a String) -> Client<'a> {
        Client { address, user_agent: None }
    }
}

/// A session as its list reads it.
#[derive(sqlx::FromRow)]
struct SessionRow {
    id: String,
    token_hash: String,
    browser: Option<String>,
    os: Option<String>,
    address: Option<String>,
    created_at: String,
    last_seen_at: String,
}

impl Client<'_> {
    /// What a new session stores of its client: the names of its device, and its
    /// address when it is one.
    pub(super) fn described(&self) -> (Device, Option<String>) {
        let device = self.user_agent.map(device::device).unwrap_or_default();
        let address = self.address.parse::<IpAddr>().ok().map(|ip| ip.to_canonical().to_string());
        (device, address)
    }
}

/// One of a user's sessions as listed: never its token or the token's digest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionInfo {
    /// Names it in the list's forms.
    pub id: String,
    pub browser: Option<&'static str>,
    pub os: Option<&'static str>,
    pub address: Option<String>,
    /// Stored timestamps (UTC).
    pub created_at: String,
    pub last_seen_at: String,
    /// The session of the request that lists them.
    pub current: bool,
}

impl Auth {
    /// The user's live sessions, the one with token `current` first, then the most
    /// recently used.
    pub async fn sessions(&self, user: UserId, current: Option<&str>) -> Result<Vec<SessionInfo>, AuthError> {
        let now = Utc::now();
        let idle_cutoff = timestamp(now - chrono_duration(self.config.session_idle));
        let current = current.map(digest);
        let mut db = self.store.tenant_read(user).await?;
        let rows: Vec<SessionRow> = sqlx::query_as(
            "SELECT id, token_hash, browser, os, address, created_at, last_seen_at FROM sessions
             WHERE user_id = $1 AND expires_at > $2 AND last_seen_at > $3
             ORDER BY last_seen_at DESC, created_at DESC",
        )
        .bind(user.0)
        .bind(timestamp(now))
        .bind(idle_cutoff)
        .fetch_all(&mut *db)
        .await?;
        db.commit().await?;
        let mut sessions: Vec<SessionInfo> = rows
            .into_iter()
            .map(|r| SessionInfo {
                current: current.as_deref() == Some(r.token_hash.as_str()),
                id: r.id,
                browser: device::known(r.browser.as_deref()),
                os: device::known(r.os.as_deref()),
                address: r.address,
                created_at: r.created_at,
                last_seen_at: r.last_seen_at,
            })
            .collect();
        sessions.sort_by_key(|s| !s.current);
        Ok(sessions)
    }

    /// Ends the user's session `id`: `None` when the user has none such (someone else's
    /// included), else whether it was the one with token `current`.
    pub async fn end_session(
        &self,
        user: UserId,
        id: &str,
        current: Option<&str>,
    ) -> Result<Option<bool>, AuthError> {
        let mut db = self.store.tenant(user).await?;
        let ended: Option<String> =
            sqlx::query_scalar("DELETE FROM sessions WHERE user_id = $1 AND id = $2 RETURNING token_hash")
                .bind(user.0)
                .bind(id)
                .fetch_optional(&mut *db)
                .await?;
        db.commit().await?;
        Ok(ended.map(|hash| {
            self.seen.forget(&hash);
            current.is_some_and(|token| digest(token) == hash)
        }))
    }

    /// Ends every session of the user but the one with token `keep`; how many ended.
    pub async fn end_other_sessions(&self, user: UserId, keep: Option<&str>) -> Result<usize, AuthError> {
        let mut db = self.store.tenant(user).await?;
        let ended = end_others(&mut db, user, keep).await?;
        db.commit().await?;
        Ok(self.forget(ended))
    }

    /// Changes the user's password: `current` must be theirs, and `new` passes the
    /// checks of a sign-up. A wrong `current` counts as a failed sign-in of the account
    /// from `client` (the same slow-down: a stolen session cannot guess faster). Every
    /// other session ends, the one with token `keep` stays; how many ended.
    pub async fn change_password(
        &self,
        user: UserId,
        current: &SecretString,
        new: &SecretString,
        keep: Option<&str>,
        client: &str,
    ) -> Result<usize, AuthError> {
        check_password(new.expose_secret())?;
        let stored: Option<(String, Option<String>)> =
            sqlx::query_as("SELECT name, password_hash FROM users WHERE id = $1")
                .bind(user.0)
                .fetch_optional(self.store.pool())
                .await?;
        let Some((name, Some(hash))) = stored else {
            return Err(AuthError::NoPassword);
        };
        let client = client_key(client);
        let pair = format!("{}\n{client}", name_key(&name));
        let failed = format!("failed:{client}");
        let at = self.reserve_attempt(&pair, &failed).await?;
        if !verify_password_apart(current, hash).await {
            tracing::info!("a password change was refused: not the current password");
            return Err(AuthError::WrongPassword);
        }
        self.limits.succeeded(&pair).await?;
        self.limits.give_back(&failed, at).await?;
        let hash = hash_password_apart(new).await?;
        let mut db = self.store.tenant(user).await?;
        sqlx::query("UPDATE users SET password_hash = $1 WHERE id = $2")
            .bind(hash)
            .bind(user.0)
            .execute(&mut *db)
            .await?;
        let ended = end_others(&mut db, user, keep).await?;
        db.commit().await?;
        tracing::info!(user = %crate::trace::user(user), "a password was changed");
        Ok(self.forget(ended))
    }

    /// Notes that the session with `digest` was used at `now`.
    pub(super) async fn touch(&self, user: UserId, digest: &str, now: &str) -> Result<(), AuthError> {
        let mut db = self.store.tenant(user).await?;
        sqlx::query("UPDATE sessions SET last_seen_at = $1 WHERE token_hash = $2 AND user_id = $3")
            .bind(now)
            .bind(digest)
            .bind(user.0)
            .execute(&mut *db)
            .await?;
        db.commit().await?;
        Ok(())
    }

    fn forget(&self, ended: Vec<String>) -> usize {
        for hash in &ended {
            self.seen.forget(hash);
        }
        ended.len()
    }
}

/// A stored timestamp as a day and a time of day (hours, minutes) in `tz`.
pub fn local_minute(stamp: &str, tz: chrono_tz::Tz) -> Option<(agent::Date, u32, u32)> {
    use chrono::{Datelike, Timelike};
    let at = chrono::DateTime::parse_from_rfc3339(stamp).ok()?.with_timezone(&tz);
    Some((agent::Date::new(at.year(), at.month(), at.day())?, at.hour(), at.minute()))
}

/// Deletes the user's sessions but the one with token `keep`; their digests.
async fn end_others(
    db: &mut crate::store::Tenant,
    user: UserId,
    keep: Option<&str>,
) -> Result<Vec<String>, sqlx::Error> {
    sqlx::query_scalar("DELETE FROM sessions WHERE user_id = $1 AND token_hash <> $2 RETURNING token_hash")
        .bind(user.0)
        .bind(keep.map(digest).unwrap_or_default())
        .fetch_all(&mut **db)
        .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_moment_is_read_in_the_servers_time_zone() {
        let paris = local_minute("2026-01-31T23:30:00.000Z", chrono_tz::Europe::Paris);
        assert_eq!(paris, Some((agent::Date::new(2026, 2, 1).unwrap(), 0, 30)));
        assert_eq!(local_minute("not a time", chrono_tz::UTC), None);
    }

    #[test]
    fn a_client_keeps_a_real_address_only() {
        let client = |address| Client { address, user_agent: None }.described().1;
        assert_eq!(client("::ffff:10.0.0.1").as_deref(), Some("10.0.0.1"));
        assert_eq!(client("2001:db8::1").as_deref(), Some("2001:db8::1"));
        assert_eq!(client("unknown"), None);
        assert_eq!(client("<img src=x>"), None);
    }
}

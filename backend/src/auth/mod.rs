//! Accounts: sign-up and log-in with argon2id password hashes, server-side sessions,
//! personal API tokens, demo accounts that expire, and log-in rate limiting.
//!
//! A session or API token is 32 random bytes, given to the client once (cookie value,
//! or shown once in Settings) and stored only as its SHA-256: a stolen database dump
//! signs no one in. Unknown names cost a password verification too, so timing does not
//! tell which names exist. Names are compared after Unicode normalisation (NFKC, case
//! folded): "ＡＬＩＣＥ" is "alice". Log-in attempts slow down one account from one
//! client address (past a few, each waits a delay that doubles with each attempt,
//! capped), never the account from everywhere, so no one can lock the owner out; one
//! address failing on many accounts is stopped, and one address may create only a few
//! demo accounts an hour. An attempt is counted before its password is checked, in one
//! statement, so attempts sent together are each counted and those past the limit are
//! refused unchecked, the right password too. The limits are in the database
//! (`limits.rs`), shared by every server on it.

mod device;
mod error;
pub(crate) mod limits;
mod reveal;
mod seen;
mod sessions;

pub use error::AuthError;
pub use sessions::{local_minute, Client};

use std::net::IpAddr;
use std::time::Duration;

use argon2::password_hash::rand_core::{OsRng, RngCore};
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use base64::Engine;
use chrono::{DateTime, Utc};
use secrecy::{ExposeSecret, SecretString};
use sha2::{Digest, Sha256};

use crate::ids::{name_key, Dialect, UserId};
use crate::store::owner::Owner;
use crate::store::{timestamp, Store};

/// Lifetimes and limits.
#[derive(Clone, Debug)]
pub struct AuthConfig {
    /// A session lasts this long after sign-in…
    pub session_ttl: Duration,
    /// …and ends sooner when unused this long.
    pub session_idle: Duration,
    /// A demo account and its data are deleted this long after creation.
    pub demo_ttl: Duration,
    /// Log-in attempts to one account from one client address before each next one
    /// waits: `first_delay` after the last of them, doubling with every further
    /// attempt up to `max_delay`. A success or `window` without an attempt starts over.
    pub free_failures: u32,
    pub first_delay: Duration,
    pub max_delay: Duration,
    /// Failed log-ins allowed per client address, on any accounts, in `window`.
    pub max_failures_per_client: usize,
    pub window: Duration,
    /// Demo accounts one client address may create in `demo_window`.
    pub max_demos_per_client: usize,
    pub demo_window: Duration,
    /// Whether anyone may create an account, and try the demo.
    pub allow_signup: bool,
    pub allow_demo: bool,
    /// Demo accounts alive at once, at most: each holds a whole ledger.
    pub max_live_demos: i64,
}

impl Default for AuthConfig {
    fn default() -> Self {
        AuthConfig {
            session_ttl: Duration::from_secs(30 * 24 * 3600),
            session_idle: Duration::from_secs(14 * 24 * 3600),
            demo_ttl: Duration::from_secs(24 * 3600),
            free_failures: 3,
            first_delay: Duration::from_secs(1),
            max_delay: Duration::from_secs(5 * 60),
            max_failures_per_client: 20,
            window: Duration::from_secs(15 * 60),
            max_demos_per_client: 3,
            demo_window: Duration::from_secs(3600),
            allow_signup: true,
            allow_demo: true,
            max_live_demos: 500,
        }
    }
}

/// Who a valid session or token belongs to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Account {
    pub user: UserId,
    pub name: String,
    /// When a demo account is deleted; `None` for a real account.
    pub demo_expires_at: Option<String>,
    /// The user's vocabulary version and currency as the session's lookup read them:
    /// the parser kept for them is used without another read (`Sou::plan_for`).
    pub vocabulary: Option<(i64, String)>,
}

impl Account {
    /// For a demo account, whole hours (rounded up) until it is deleted.
    pub fn demo_hours_left(&self) -> Option<i64> {
        let at = DateTime::parse_from_rfc3339(self.demo_expires_at.as_deref()?).ok()?;
        let minutes = (at.with_timezone(&Utc) - Utc::now()).num_minutes().max(0);
        Some((minutes + 59) / 60)
    }
}

/// A new session: the cookie value (secret) and when it expires.
#[derive(Debug)]
pub struct NewSession {
    pub token: SecretString,
    pub expires_at: DateTime<Utc>,
}

/// A personal API token as listed: never the token itself.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct TokenInfo {
    pub id: i64,
    pub label: String,
    pub prefix: String,
    pub created_at: String,
    pub last_used_at: Option<String>,
}

/// The session cookie's name.
pub const SESSION_COOKIE: &str = "sou_session";

/// The session token among a request's `Cookie` header values, if any.
pub fn session_in_cookies<'a>(values: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    values
        .into_iter()
        .flat_map(|v| v.split(';'))
        .find_map(|pair| pair.trim().strip_prefix(SESSION_COOKIE)?.strip_prefix('='))
        .filter(|t| !t.is_empty())
}

/// Prefix of personal API tokens, so they can be recognised (and found by scanners).
pub const TOKEN_PREFIX: &str = "sou_pat_";

#[derive(Clone)]
pub struct Auth {
    store: Store,
    config: AuthConfig,
    limits: limits::Limits,
    /// Sessions looked up in the last second (`seen.rs` says what that may hide).
    seen: std::sync::Arc<seen::Seen>,
}

/// The wall clock in milliseconds: the limits are shared by servers, so not `Instant`.
fn now_ms() -> i64 {
    Utc::now().timestamp_millis()
}

impl Auth {
    pub fn new(store: Store, config: AuthConfig) -> Auth {
        let limits = limits::Limits::new(store.clone());
        Auth { store, config, limits, seen: Default::default() }
    }

    pub fn config(&self) -> &AuthConfig {
        &self.config
    }

    /// Creates an account and signs it in.
    pub async fn sign_up(
        &self,
        name: &str,
        password: &SecretString,
    ) -> Result<(Account, NewSession), AuthError> {
        self.sign_up_from(name, password, Client::default()).await
    }

    /// [`Auth::sign_up`] from `client`, whose session says so.
    pub async fn sign_up_from(
        &self,
        name: &str,
        password: &SecretString,
        client: Client<'_>,
    ) -> Result<(Account, NewSession), AuthError> {
        if !self.config.allow_signup {
            return Err(AuthError::Closed);
        }
        let name = normalize_name(name)?;
        check_password(password.expose_secret())?;
        let hash = hash_password_apart(password).await?;
        let now = timestamp(Utc::now());
        // The name is its own key (normalised); an older account whose name has the
        // same key (`name_key`, unique) takes it too.
        let id: Option<i64> = sqlx::query_scalar(
            "INSERT INTO users (name, name_key, password_hash, created_at) VALUES ($1, $1, $2, $3)
             ON CONFLICT DO NOTHING RETURNING id",
        )
        .bind(&name)
        .bind(hash)
        .bind(now)
        .fetch_optional(self.store.pool())
        .await?;
        let user = UserId(id.ok_or(AuthError::NameTaken)?);
        let mut db = self.store.tenant(user).await?;
        crate::demo::seed_categories(&mut db, user).await?;
        db.commit().await?;
        let session = self.open_session(user, client).await?;
        Ok((Account { user, name, demo_expires_at: None, vocabulary: None }, session))
    }

    /// Checks a name and password and opens a session. `client` is the caller's address:
    /// attempts slow down this account from this address, and failures count against
    /// the address; both are counted before the password is checked.
    pub async fn log_in<'c>(
        &self,
        name: &str,
        password: &SecretString,
        client: impl Into<Client<'c>>,
    ) -> Result<(Account, NewSession), AuthError> {
        let from = client.into();
        let typed = name.trim().to_lowercase();
        let key = name_key(name);
        let client = client_key(from.address);
        let pair = format!("{key}\n{client}");
        let failed = format!("failed:{client}");
        let at = self.reserve_attempt(&pair, &failed).await?;
        // By the name as typed first: an account from before names were normalised keeps
        // its own, even if another one has its key.
        let stored: Option<(i64, Option<String>, String)> = sqlx::query_as(
            "SELECT id, password_hash, name FROM users WHERE name = $1 OR name_key = $2
             ORDER BY CASE WHEN name = $1 THEN 0 ELSE 1 END LIMIT 1",
        )
        .bind(&typed)
        .bind(&key)
        .fetch_optional(self.store.pool())
        .await?;
        // Verify against a fixed hash when there is none, so both paths cost the same.
        let (found, hash) = match stored {
            Some((id, Some(hash), name)) => (Some((id, name)), hash),
            _ => (None, dummy_hash().to_string()),
        };
        let ok = verify_password_apart(password, hash).await && found.is_some();
        let Some((id, name)) = found.filter(|_| ok) else {
            // Already counted, before the check.
            tracing::info!("a log-in failed");
            return Err(AuthError::InvalidCredentials);
        };
        self.limits.succeeded(&pair).await?;
        self.limits.give_back(&failed, at).await?;
        let user = UserId(id);
        let session = self.open_session(user, from).await?;
        Ok((Account { user, name, demo_expires_at: None, vocabulary: None }, session))
    }

    /// Creates a demo account with the demo ledger and signs it in. `client` is the
    /// caller's address, which may start only a few demos an hour.
    pub async fn demo<'c>(&self, client: impl Into<Client<'c>>) -> Result<(Account, NewSession), AuthError> {
        if !self.config.allow_demo {
            return Err(AuthError::Closed);
        }
        let from = client.into();
        let key = format!("demo:{}", client_key(from.address));
        let (limit, window) = (self.config.max_demos_per_client, self.config.demo_window);
        if let Err(retry_after) = self.limits.take(&key, limit, window, now_ms()).await? {
            tracing::warn!("the demo limit per address is reached");
            return Err(AuthError::DemoLimited { retry_after });
        }
        let now = Utc::now();
        let live: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM users WHERE demo_expires_at > $1")
            .bind(timestamp(now))
            .fetch_one(self.store.pool())
            .await?;
        if live >= self.config.max_live_demos {
            tracing::warn!(live, "the demo limit is reached");
            return Err(AuthError::DemoFull);
        }
        let expires = timestamp(now + chrono_duration(self.config.demo_ttl));
        let name = format!("demo-{}", &uuid::Uuid::new_v4().simple().to_string()[..12]);
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO users (name, name_key, demo_expires_at, created_at) VALUES ($1, $1, $2, $3) RETURNING id",
        )
        .bind(&name)
        .bind(&expires)
        .bind(timestamp(now))
        .fetch_one(self.store.pool())
        .await?;
        let user = UserId(id);
        if let Err(e) = crate::demo::seed(&self.store, user).await {
            tracing::error!(error = %e, "seeding a demo ledger failed");
            sqlx::query("DELETE FROM users WHERE id = $1").bind(id).execute(self.store.pool()).await?;
            return Err(AuthError::Seed);
        }
        let session = self.open_session(user, from).await?;
        Ok((Account { user, name, demo_expires_at: Some(expires), vocabulary: None }, session))
    }

    async fn open_session(&self, user: UserId, client: Client<'_>) -> Result<NewSession, AuthError> {
        let token = random_token("");
        let now = Utc::now();
        let expires_at = now + chrono_duration(self.config.session_ttl);
        let (device, address) = client.described();
        let mut db = self.store.tenant(user).await?;
        sqlx::query(
            "INSERT INTO sessions (token_hash, user_id, created_at, expires_at, id, last_seen_at, browser, os, address)
             VALUES ($1, $2, $3, $4, $5, $3, $6, $7, $8)",
        )
        .bind(digest(&token))
        .bind(user.0)
        .bind(timestamp(now))
        .bind(timestamp(expires_at))
        .bind(uuid::Uuid::new_v4().simple().to_string())
        .bind(device.browser)
        .bind(device.os)
        .bind(address)
        .execute(&mut *db)
        .await?;
        db.commit().await?;
        Ok(NewSession { token: SecretString::from(token), expires_at })
    }

    /// The account a session cookie belongs to, if the session is valid: unexpired,
    /// used within `session_idle` (and, for a demo, the demo unexpired too). A use is
    /// noted, at most once a minute per session.
    pub async fn session(&self, token: &str) -> Result<Option<Account>, AuthError> {
        let now = Utc::now();
        let stamp = timestamp(now);
        let digest = digest(token);
        if let Some(account) = self.seen.get(&digest, &stamp) {
            return Ok(Some(account));
        }
        let idle = self.config.session_idle;
        let idle_cutoff = timestamp(now - chrono_duration(idle));
        // Before the user is known.
        let sql = Owner::Session.sql(self.store.dialect());
        // Who, their vocabulary's version and currency, when the session was last seen.
        let row: Option<(i64, String, Option<String>, i64, String, String)> = sqlx::query_as(sql)
            .bind(&digest)
            .bind(&stamp)
            .bind(idle_cutoff)
            .fetch_optional(self.store.pool())
            .await?;
        let Some((user, name, demo_expires_at, version, currency, last_seen)) = row else { return Ok(None) };
        let account =
            Account { user: UserId(user), name, demo_expires_at, vocabulary: Some((version, currency)) };
        let every = (idle / 4).min(Duration::from_secs(60));
        if last_seen < timestamp(now - chrono_duration(every)) {
            // Noted when the database can; a request is not refused for it.
            if let Err(e) = self.touch(account.user, &digest, &stamp).await {
                tracing::warn!(error = %e, "a session's use could not be noted");
            }
        }
        self.seen.keep(digest, &account);
        Ok(Some(account))
    }

    /// Ends a session. Unknown tokens are ignored.
    pub async fn log_out(&self, token: &str) -> Result<(), AuthError> {
        let sql = Owner::EndSession.sql(self.store.dialect());
        let digest = digest(token);
        sqlx::query(sql).bind(&digest).execute(self.store.pool()).await?;
        // After the delete: a request looking it up meanwhile may have kept it.
        self.seen.forget(&digest);
        Ok(())
    }

    /// Creates a personal API token; the token is returned this once.
    pub async fn create_token(
        &self,
        user: UserId,
        label: &str,
    ) -> Result<(TokenInfo, SecretString), AuthError> {
        let label = label.trim();
        if label.is_empty() || label.chars().count() > 100 {
            return Err(AuthError::TokenLabel);
        }
        if agent::text::hidden_control(label).is_some() {
            return Err(AuthError::TokenLabelCharacters);
        }
        let token = random_token(TOKEN_PREFIX);
        let prefix: String = token.chars().take(TOKEN_PREFIX.len() + 4).collect();
        let created_at = timestamp(Utc::now());
        let mut db = self.store.tenant(user).await?;
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO api_tokens (user_id, label, token_hash, prefix, created_at) VALUES ($1, $2, $3, $4, $5)
             RETURNING id",
        )
        .bind(user.0)
        .bind(label)
        .bind(digest(&token))
        .bind(&prefix)
        .bind(&created_at)
        .fetch_one(&mut *db)
        .await?;
        db.commit().await?;
        let info = TokenInfo { id, label: label.to_string(), prefix, created_at, last_used_at: None };
        Ok((info, SecretString::from(token)))
    }

    /// Keeps a new token for the next page its owner loads, when that page, not the
    /// response to the form, must show it (a form post without JavaScript): in the
    /// database, which every server reads, sealed with a key derived from `session` (the
    /// cookie of the browser that made it: the database alone cannot read it), for ten
    /// minutes at most, and given out once.
    pub async fn hold_for_reveal(
        &self,
        user: UserId,
        id: i64,
        token: &SecretString,
        session: &str,
    ) -> Result<(), AuthError> {
        reveal::hold(&self.store, user, id, token, session).await
    }

    /// The token held for `user` under `id` by the browser with `session`, once.
    pub async fn take_reveal(
        &self,
        user: UserId,
        id: i64,
        session: &str,
    ) -> Result<Option<SecretString>, AuthError> {
        reveal::take(&self.store, user, id, session).await
    }

    pub async fn tokens(&self, user: UserId) -> Result<Vec<TokenInfo>, AuthError> {
        let mut db = self.store.tenant_read(user).await?;
        let tokens = sqlx::query_as(
            "SELECT id, label, prefix, created_at, last_used_at FROM api_tokens WHERE user_id = $1 ORDER BY id",
        )
        .bind(user.0)
        .fetch_all(&mut *db)
        .await?;
        db.commit().await?;
        Ok(tokens)
    }

    /// Revokes one of the user's tokens; `false` when the user has no such token
    /// (someone else's token id included: the caller answers 404).
    pub async fn revoke_token(&self, user: UserId, id: i64) -> Result<bool, AuthError> {
        let mut db = self.store.tenant(user).await?;
        let done = sqlx::query("DELETE FROM api_tokens WHERE id = $1 AND user_id = $2")
            .bind(id)
            .bind(user.0)
            .execute(&mut *db)
            .await?;
        db.commit().await?;
        Ok(done.rows_affected() == 1)
    }

    /// The account an `Authorization: Bearer` token belongs to.
    pub async fn bearer(&self, token: &str) -> Result<Option<Account>, AuthError> {
        if !token.starts_with(TOKEN_PREFIX) {
            return Ok(None);
        }
        let now = timestamp(Utc::now());
        let sql = Owner::Token.sql(self.store.dialect());
        let row: Option<(i64, String, Option<String>)> =
            sqlx::query_as(sql).bind(digest(token)).bind(&now).fetch_optional(self.store.pool()).await?;
        Ok(row
            .map(|(user, name, demo_expires_at)| Account {
                user: UserId(user),
                name,
                demo_expires_at,
                vocabulary: None,
            })
            .filter(|a| a.demo_expires_at.as_deref().is_none_or(|e| e > now.as_str())))
    }

    /// Deletes expired sessions, expired demo accounts with all they own, and uploaded
    /// files left unimported for [`crate::imports::UPLOAD_DAYS`] days. Returns how many
    /// demo accounts went.
    pub async fn purge_expired(&self) -> Result<u64, AuthError> {
        let longest = self.config.window.max(self.config.demo_window);
        self.limits.purge(longest, now_ms()).await?;
        let now = timestamp(Utc::now());
        // Imports' progress and held tokens a day old: long shown, or never to be.
        let day_ago = timestamp(Utc::now() - chrono::Duration::days(1));
        let idle_cutoff = timestamp(Utc::now() - chrono_duration(self.config.session_idle));
        let uploads = timestamp(Utc::now() - chrono::Duration::days(crate::imports::UPLOAD_DAYS));
        if self.store.dialect() == Dialect::Postgres {
            let n: i64 = sqlx::query_scalar("SELECT sou_purge_expired($1)")
                .bind(&now)
                .fetch_one(self.store.pool())
                .await?;
            sqlx::query("SELECT sou_purge_uploads($1)").bind(&uploads).execute(self.store.pool()).await?;
            sqlx::query("SELECT sou_purge_dataset_tables()").execute(self.store.pool()).await?;
            sqlx::query("SELECT sou_purge_shared_state($1)")
                .bind(&day_ago)
                .execute(self.store.pool())
                .await?;
            sqlx::query("SELECT sou_purge_idle_sessions($1)")
                .bind(&idle_cutoff)
                .execute(self.store.pool())
                .await?;
            return Ok(u64::try_from(n).unwrap_or(0));
        }
        sqlx::query("DELETE FROM imports WHERE status = 'pending' AND created_at < $1")
            .bind(&uploads)
            .execute(self.store.pool())
            .await?;
        sqlx::query("DELETE FROM import_progress WHERE at < $1")
            .bind(&day_ago)
            .execute(self.store.pool())
            .await?;
        sqlx::query("DELETE FROM token_reveals WHERE created_at < $1")
            .bind(&day_ago)
            .execute(self.store.pool())
            .await?;
        sqlx::query(
            "DELETE FROM sessions WHERE expires_at <= $1 OR last_seen_at IS NULL OR last_seen_at <= $2",
        )
        .bind(&now)
        .bind(&idle_cutoff)
        .execute(self.store.pool())
        .await?;
        let done =
            sqlx::query("DELETE FROM users WHERE demo_expires_at IS NOT NULL AND demo_expires_at <= $1")
                .bind(&now)
                .execute(self.store.pool())
                .await?;
        // The tables of datasets whose user went with it.
        let orphans: Vec<String> = sqlx::query_scalar(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB 'ds_*'
             AND name NOT IN (SELECT physical FROM datasets)",
        )
        .fetch_all(self.store.pool())
        .await?;
        for table in orphans {
            sqlx::query(&format!("DROP TABLE \"{table}\"")).execute(self.store.pool()).await?;
        }
        Ok(done.rows_affected())
    }

    /// Counts a sign-in attempt before its password is checked: one more in the
    /// streak of this account from this address (`pair`), then one more failure for
    /// the address (`failed`, given back if the password is right), each counted
    /// atomically in the database, so attempts sent together are all counted. Refused
    /// when the streak must wait or the address has failed too often; else the time it
    /// was counted at.
    async fn reserve_attempt(&self, pair: &str, failed: &str) -> Result<i64, AuthError> {
        let now = now_ms();
        let (limit, window) = (self.config.max_failures_per_client, self.config.window);
        let counted = match self.limits.attempt(&self.config, pair, now).await? {
            Ok(()) => self.limits.take(failed, limit, window, now).await?,
            Err(wait) => Err(wait),
        };
        match counted {
            Ok(()) => Ok(now),
            Err(retry_after) => {
                tracing::warn!("log-in rate limit reached");
                Err(AuthError::RateLimited { retry_after })
            }
        }
    }
}

/// The wait after `failures` failed log-ins in a row: none for the first
/// `free_failures`, then `first_delay`, doubling each time, at most `max_delay`.
fn delay(config: &AuthConfig, failures: u32) -> Duration {
    let Some(beyond) = failures.checked_sub(config.free_failures) else {
        return Duration::ZERO;
    };
    config.first_delay.saturating_mul(2u32.saturating_pow(beyond.min(31))).min(config.max_delay)
}

/// The address a limit counts: an IPv4 address, or an IPv6 address's /64 (one
/// customer's network, whose other addresses are free to its owner).
fn client_key(client: &str) -> String {
    match client.parse::<IpAddr>() {
        Ok(IpAddr::V6(v6)) if v6.to_ipv4_mapped().is_none() => {
            let s = v6.segments();
            format!("{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
        }
        Ok(IpAddr::V6(v6)) => v6.to_ipv4_mapped().map(|v4| v4.to_string()).unwrap_or_default(),
        _ => client.to_string(),
    }
}

/// Log-in names: trimmed and normalised ([`name_key`]), 3 to 64 letters, digits, `.`,
/// `_`, `-`, `@`, `+`; `local` and `demo-…` are reserved.
pub fn normalize_name(name: &str) -> Result<String, AuthError> {
    if agent::text::hidden_control(name.trim()).is_some() {
        return Err(AuthError::NameCharacters);
    }
    let name = name_key(name);
    let len = name.chars().count();
    if !(3..=64).contains(&len) {
        return Err(AuthError::NameLength);
    }
    if !name.chars().all(|c| c.is_alphanumeric() || matches!(c, '.' | '_' | '-' | '@' | '+')) {
        return Err(AuthError::NameCharacters);
    }
    if name == "local" || name.starts_with("demo-") {
        return Err(AuthError::NameReserved);
    }
    Ok(name)
}

/// At least 10 characters, at most 1024 (argon2 cost is per byte beyond that).
pub fn check_password(password: &str) -> Result<(), AuthError> {
    let len = password.chars().count();
    if len < 10 {
        return Err(AuthError::PasswordShort);
    }
    if password.len() > 1024 {
        return Err(AuthError::PasswordLong);
    }
    Ok(())
}

/// argon2id with the crate's defaults (19 MiB, 2 passes, 1 lane: OWASP's minimum).
fn hash_password(password: &str) -> Result<String, AuthError> {
    let salt = SaltString::generate(&mut OsRng);
    Argon2::default().hash_password(password.as_bytes(), &salt).map(|h| h.to_string()).map_err(|e| {
        tracing::error!(error = %e, "hashing a password failed");
        AuthError::Hash
    })
}

fn verify_password(password: &str, hash: &str) -> bool {
    PasswordHash::new(hash).is_ok_and(|h| Argon2::default().verify_password(password.as_bytes(), &h).is_ok())
}

/// [`verify_password`] on a thread for blocking work: its tens of milliseconds of
/// hashing hold up no other request.
async fn verify_password_apart(password: &SecretString, hash: String) -> bool {
    let password = password.clone();
    let verified = tokio::task::spawn_blocking(move || verify_password(password.expose_secret(), &hash));
    verified.await.unwrap_or(false)
}

/// [`hash_password`] on a thread for blocking work.
async fn hash_password_apart(password: &SecretString) -> Result<String, AuthError> {
    let password = password.clone();
    let hashed = tokio::task::spawn_blocking(move || hash_password(password.expose_secret()));
    hashed.await.unwrap_or(Err(AuthError::Hash))
}

/// A valid argon2id hash of a random password, computed once.
fn dummy_hash() -> &'static str {
    static HASH: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    HASH.get_or_init(|| hash_password(&random_token("")).unwrap_or_default())
}

/// `prefix` + 32 random bytes, base64url without padding (43 characters).
fn random_token(prefix: &str) -> String {
    let mut bytes = [0u8; 32];
    OsRng.fill_bytes(&mut bytes);
    format!("{prefix}{}", base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes))
}

/// Hex SHA-256: tokens are random, so a fast hash is enough.
pub(crate) fn digest(token: &str) -> String {
    Sha256::digest(token.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

fn chrono_duration(d: Duration) -> chrono::TimeDelta {
    chrono::TimeDelta::from_std(d).unwrap_or(chrono::TimeDelta::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_normalized_and_checked() {
        assert_eq!(normalize_name("  Alice@Example.org ").unwrap(), "alice@example.org");
        for bad in ["ab", "local", "demo-1234", "a b c", "x".repeat(65).as_str(), "<script>"] {
            assert!(normalize_name(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn names_are_compared_after_nfkc_and_case_folding() {
        assert_eq!(name_key("ＡＬＩＣＥ"), "alice");
        assert_eq!(name_key(" Ａｌｉｃｅ "), "alice");
        assert_eq!(name_key("ﬁona"), "fiona", "a ligature is its letters");
        assert_eq!(name_key("STRASSE"), name_key("straße"));
        assert_eq!(name_key("Ⓐlice"), "alice");
        assert_eq!(normalize_name("ＡＬＩＣＥ").unwrap(), "alice");
        assert!(matches!(normalize_name("ｌｏｃａｌ"), Err(AuthError::NameReserved)));
        for bad in ["ali\u{202E}ce", "ali\u{0}ce", "ali\u{1b}ce", "\u{2066}alice"] {
            assert!(matches!(normalize_name(bad), Err(AuthError::NameCharacters)), "{bad:?}");
        }
    }

    #[test]
    fn failures_in_a_row_wait_longer_each_time_up_to_a_cap() {
        let config = AuthConfig::default();
        let waits: Vec<u64> = (0..16).map(|n| delay(&config, n).as_secs()).collect();
        assert_eq!(waits, [0, 0, 0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 300, 300, 300, 300]);
        assert_eq!(delay(&config, u32::MAX), config.max_delay);
    }

    #[test]
    fn an_ipv6_client_counts_as_its_network() {
        assert_eq!(client_key("2001:db8:1:2:aaaa::1"), client_key("2001:db8:1:2:bbbb::9"));
        assert_ne!(client_key("2001:db8:1:2::1"), client_key("2001:db8:1:3::1"));
        assert_eq!(client_key("::ffff:10.0.0.1"), "10.0.0.1");
        assert_eq!(client_key("10.0.0.1"), "10.0.0.1");
        assert_eq!(client_key("unknown"), "unknown");
    }

    #[test]
    fn tokens_are_random_and_only_their_digest_is_kept() {
        let (a, b) = (random_token(TOKEN_PREFIX), random_token(TOKEN_PREFIX));
        assert_ne!(a, b);
        assert_eq!(a.len(), TOKEN_PREFIX.len() + 43);
        assert_eq!(digest(&a).len(), 64);
        assert!(!digest(&a).contains(&a[TOKEN_PREFIX.len()..]));
    }
}

//! The sign-in and demo limits, in the database, so that every Sou server on it counts
//! the same failures and the same demos (tables `login_streaks` and `rate_events`).
//! A key is the SHA-256 of what it counts: no client address or account name is stored.
//! Times are the wall clock in milliseconds, passed in, so the rules can be tested
//! without waiting.

use std::time::Duration;

use sqlx::Row;

use super::{delay, digest, AuthConfig};
use crate::ids::Dialect;
use crate::store::Store;

#[derive(Clone)]
pub(super) struct Limits {
    store: Store,
}

fn ms(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}

fn duration(ms: i64) -> Duration {
    Duration::from_millis(u64::try_from(ms).unwrap_or(0))
}

impl Limits {
    pub(super) fn new(store: Store) -> Limits {
        Limits { store }
    }

    /// A failed log-in: one more in the pair's streak (started again after `window`
    /// without failure), one more for the client address.
    pub(super) async fn failed(
        &self,
        config: &AuthConfig,
        pair: &str,
        client: &str,
        now: i64,
    ) -> Result<(), sqlx::Error> {
        let mut tx = self.store.pool().begin().await?;
        sqlx::query(
            "INSERT INTO login_streaks (pair, failures, last_ms) VALUES ($1, 1, $2)
             ON CONFLICT (pair) DO UPDATE SET
                 failures = CASE WHEN $2 - login_streaks.last_ms >= $3 THEN 1 ELSE login_streaks.failures + 1 END,
                 last_ms = $2",
        )
        .bind(digest(pair))
        .bind(now)
        .bind(ms(config.window))
        .execute(&mut *tx)
        .await?;
        sqlx::query("INSERT INTO rate_events (key, at_ms) VALUES ($1, $2)")
            .bind(digest(&format!("failed:{client}")))
            .bind(now)
            .execute(&mut *tx)
            .await?;
        tx.commit().await
    }

    /// A successful log-in ends the pair's streak.
    pub(super) async fn succeeded(&self, pair: &str) -> Result<(), sqlx::Error> {
        sqlx::query("DELETE FROM login_streaks WHERE pair = $1")
            .bind(digest(pair))
            .execute(self.store.pool())
            .await
            .map(|_| ())
    }

    /// How long the pair still waits after its last failure, if it must.
    pub(super) async fn streak_wait(
        &self,
        config: &AuthConfig,
        pair: &str,
        now: i64,
    ) -> Result<Option<Duration>, sqlx::Error> {
        let row = sqlx::query("SELECT failures, last_ms FROM login_streaks WHERE pair = $1")
            .bind(digest(pair))
            .fetch_optional(self.store.pool())
            .await?;
        let Some(row) = row else { return Ok(None) };
        let (failures, last): (i64, i64) = (row.try_get(0)?, row.try_get(1)?);
        let since = now.saturating_sub(last).max(0);
        if since >= ms(config.window) {
            return Ok(None);
        }
        let failures = u32::try_from(failures).unwrap_or(u32::MAX);
        let wait = delay(config, failures).checked_sub(duration(since));
        Ok(wait.filter(|w| !w.is_zero()))
    }

    /// How long until `key` has fewer than `limit` events in `window` again, if it has
    /// not: until the `limit`-th newest of them leaves the window.
    pub(super) async fn recent_wait(
        &self,
        key: &str,
        limit: usize,
        window: Duration,
        now: i64,
    ) -> Result<Option<Duration>, sqlx::Error> {
        recent_wait(self.store.pool(), &digest(key), limit, window, now).await
    }

    /// One more event for `key` if it has fewer than `limit` in `window`; else how long
    /// to wait. Two servers taking the same key at once count both: on SQLite the insert
    /// holds the writer's lock, on PostgreSQL the key's advisory lock.
    pub(super) async fn take(
        &self,
        key: &str,
        limit: usize,
        window: Duration,
        now: i64,
    ) -> Result<Result<(), Duration>, sqlx::Error> {
        let key = digest(key);
        let mut tx = self.store.pool().begin().await?;
        if self.store.dialect() == Dialect::Postgres {
            let lock = i32::from_str_radix(&key[..7], 16).unwrap_or(0);
            sqlx::query("SELECT pg_advisory_xact_lock(7171, CAST($1 AS INTEGER))")
                .bind(lock)
                .execute(&mut *tx)
                .await?;
        } else {
            // A write first: SQLite's writer lock, held to the commit.
            sqlx::query("DELETE FROM rate_events WHERE key = $1 AND at_ms <= $2")
                .bind(&key)
                .bind(now - ms(window))
                .execute(&mut *tx)
                .await?;
        }
        if let Some(wait) = recent_wait(&mut *tx, &key, limit, window, now).await? {
            tx.rollback().await?;
            return Ok(Err(wait));
        }
        sqlx::query("INSERT INTO rate_events (key, at_ms) VALUES ($1, $2)")
            .bind(&key)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(Ok(()))
    }

    /// Forgets what no limit counts any more: events and streaks older than `longest`.
    pub(super) async fn purge(&self, longest: Duration, now: i64) -> Result<(), sqlx::Error> {
        let cutoff = now - ms(longest);
        sqlx::query("DELETE FROM rate_events WHERE at_ms <= $1")
            .bind(cutoff)
            .execute(self.store.pool())
            .await?;
        sqlx::query("DELETE FROM login_streaks WHERE last_ms <= $1")
            .bind(cutoff)
            .execute(self.store.pool())
            .await?;
        Ok(())
    }
}

async fn recent_wait<'e, E>(
    db: E,
    key: &str,
    limit: usize,
    window: Duration,
    now: i64,
) -> Result<Option<Duration>, sqlx::Error>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    let Some(offset) = limit.checked_sub(1) else { return Ok(Some(window)) };
    let nth: Option<i64> = sqlx::query_scalar(
        "SELECT at_ms FROM rate_events WHERE key = $1 AND at_ms > $2 ORDER BY at_ms DESC LIMIT 1 OFFSET $3",
    )
    .bind(key)
    .bind(now - ms(window))
    .bind(i64::try_from(offset).unwrap_or(i64::MAX))
    .fetch_optional(db)
    .await?;
    Ok(nth.map(|at| duration(ms(window) - now.saturating_sub(at).max(0))).filter(|w| !w.is_zero()))
}

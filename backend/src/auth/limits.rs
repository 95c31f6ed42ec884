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
pub(crate) struct Limits {
    store: Store,
}

fn ms(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}

fn duration(ms: i64) -> Duration {
    Duration::from_millis(u64::try_from(ms).unwrap_or(0))
}

impl Limits {
    pub(crate) fn new(store: Store) -> Limits {
        Limits { store }
    }

    /// One more sign-in attempt for the pair (an account from an address), counted
    /// before its password is checked, in one statement: attempts sent together are each
    /// counted, one after the other, whichever server they reach. The streak starts
    /// again after `window` without an attempt. The attempt may be checked when it is
    /// among the first `free_failures`, or when the one before it is at least the wait
    /// of the streak so far ago; else it is refused, and the next one waits for the
    /// streak with this one: the wait returned. A refused attempt counts too: trying
    /// again too soon only makes the wait longer.
    pub(super) async fn attempt(
        &self,
        config: &AuthConfig,
        pair: &str,
        now: i64,
    ) -> Result<Result<(), Duration>, sqlx::Error> {
        let row = sqlx::query(
            "INSERT INTO login_streaks (pair, failures, last_ms, previous_ms) VALUES ($1, 1, $2, NULL)
             ON CONFLICT (pair) DO UPDATE SET
                 failures = CASE WHEN $2 - login_streaks.last_ms >= $3 THEN 1
                                 ELSE login_streaks.failures + 1 END,
                 previous_ms = CASE WHEN $2 - login_streaks.last_ms >= $3 THEN NULL
                                    ELSE login_streaks.last_ms END,
                 last_ms = CASE WHEN $2 > login_streaks.last_ms THEN $2 ELSE login_streaks.last_ms END
             RETURNING failures, previous_ms",
        )
        .bind(digest(pair))
        .bind(now)
        .bind(ms(config.window))
        .fetch_one(self.store.pool())
        .await?;
        let (count, previous): (i64, Option<i64>) = (row.try_get(0)?, row.try_get(1)?);
        let count = u32::try_from(count).unwrap_or(u32::MAX);
        Ok(allowed(config, count, previous, now))
    }

    /// A successful log-in ends the pair's streak.
    pub(super) async fn succeeded(&self, pair: &str) -> Result<(), sqlx::Error> {
        sqlx::query("DELETE FROM login_streaks WHERE pair = $1")
            .bind(digest(pair))
            .execute(self.store.pool())
            .await
            .map(|_| ())
    }

    /// Takes back one event of `key` counted at `at` by [`Limits::take`]: what it
    /// counted did not happen after all (a sign-in that succeeded).
    pub(super) async fn give_back(&self, key: &str, at: i64) -> Result<(), sqlx::Error> {
        let sql = match self.store.dialect() {
            Dialect::Postgres => {
                "DELETE FROM rate_events WHERE ctid =
                     (SELECT ctid FROM rate_events WHERE key = $1 AND at_ms = $2 LIMIT 1)"
            }
            Dialect::Sqlite => {
                "DELETE FROM rate_events WHERE rowid =
                     (SELECT rowid FROM rate_events WHERE key = $1 AND at_ms = $2 LIMIT 1)"
            }
        };
        sqlx::query(sql).bind(digest(key)).bind(at).execute(self.store.pool()).await.map(|_| ())
    }

    /// One more event for `key` if it has fewer than `limit` in `window`; else how long
    /// to wait. Two servers taking the same key at once count both: on SQLite the insert
    /// holds the writer's lock, on PostgreSQL the key's advisory lock.
    pub(crate) async fn take(
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

/// Whether the `count`-th attempt of a streak, made at `now`, may be checked: one of
/// the first `free_failures`, or the attempt before it (`previous`) is the wait of the
/// streak before it ago. If not, how long the next attempt waits after this one.
fn allowed(config: &AuthConfig, count: u32, previous: Option<i64>, now: i64) -> Result<(), Duration> {
    let before = delay(config, count.saturating_sub(1));
    match previous {
        // Servers' clocks and requests' moments differ by a little: never less than none.
        Some(at) if now.saturating_sub(at).max(0) < ms(before) => {
            Err(delay(config, count).max(Duration::from_millis(1)))
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attempts_past_the_free_ones_wait_for_the_streak() {
        let config = AuthConfig::default();
        // The first three, however close together.
        for count in 1..=3 {
            assert_eq!(allowed(&config, count, Some(1_000), 1_000), Ok(()), "{count}");
        }
        // The fourth a second after the third; refused sooner, and the fifth then waits 2 s.
        assert_eq!(allowed(&config, 4, Some(1_000), 2_000), Ok(()));
        assert_eq!(allowed(&config, 4, Some(1_000), 1_999), Err(Duration::from_secs(2)));
        assert_eq!(allowed(&config, 5, Some(1_000), 2_999), Err(Duration::from_secs(4)));
        assert_eq!(allowed(&config, 5, Some(1_000), 3_000), Ok(()));
        // An attempt counted just after one stamped a millisecond later is no sooner.
        assert_eq!(allowed(&config, 2, Some(1_001), 1_000), Ok(()));
        // A streak started again has no attempt before.
        assert_eq!(allowed(&config, 1, None, 0), Ok(()));
        assert_eq!(allowed(&config, 40, Some(0), 1), Err(config.max_delay));
    }
}

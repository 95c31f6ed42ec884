//! A shared link's request limit, in the database so that every Sou server on it counts
//! the same views: the events go to `rate_events`, as the sign-in and demo limits'
//! (purged with them), keyed by a digest of `report:` and the link's id, so no link is
//! stored in clear there. Checked before anything else about the link is read: a
//! refused request costs one indexed count.

use std::time::Duration;

use crate::error::BackendError;
use crate::ids::Dialect;
use crate::sou::Sou;

pub use crate::sou::VIEWS_PER_MINUTE;
/// The limit's window.
pub const VIEW_WINDOW: Duration = Duration::from_secs(60);

fn ms(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}

impl Sou {
    /// One more request for the link `id` if it had fewer than `limit` in the last
    /// [`VIEW_WINDOW`], counted at `now` (milliseconds); else how long until the next
    /// one is served. Requests sent together are each counted: on SQLite one statement
    /// under the writer's lock, on PostgreSQL under the key's advisory lock.
    pub async fn take_report_request(
        &self,
        id: &str,
        limit: usize,
        now: i64,
    ) -> Result<Result<(), Duration>, BackendError> {
        let key = crate::auth::digest(&format!("report:{id}"));
        let since = now - ms(VIEW_WINDOW);
        let cap = i64::try_from(limit).unwrap_or(i64::MAX);
        let insert = "INSERT INTO rate_events (key, at_ms)
                      SELECT $1, $2 WHERE (SELECT COUNT(*) FROM rate_events WHERE key = $1 AND at_ms > $3) < $4";
        let taken = match self.store.dialect() {
            Dialect::Sqlite => sqlx::query(insert)
                .bind(&key)
                .bind(now)
                .bind(since)
                .bind(cap)
                .execute(self.store.pool())
                .await?
                .rows_affected(),
            Dialect::Postgres => {
                let mut tx = self.store.pool().begin().await?;
                let lock = i32::from_str_radix(&key[..7], 16).unwrap_or(0);
                sqlx::query("SELECT pg_advisory_xact_lock(7172, CAST($1 AS INTEGER))")
                    .bind(lock)
                    .execute(&mut *tx)
                    .await?;
                let n = sqlx::query(insert)
                    .bind(&key)
                    .bind(now)
                    .bind(since)
                    .bind(cap)
                    .execute(&mut *tx)
                    .await?
                    .rows_affected();
                tx.commit().await?;
                n
            }
        };
        if taken > 0 {
            return Ok(Ok(()));
        }
        // Refused: the wait is until the oldest of the last `limit` requests leaves the window.
        let offset = i64::try_from(limit.saturating_sub(1)).unwrap_or(i64::MAX);
        let nth: Option<i64> = sqlx::query_scalar(
            "SELECT at_ms FROM rate_events WHERE key = $1 AND at_ms > $2 ORDER BY at_ms DESC LIMIT 1 OFFSET $3",
        )
        .bind(&key)
        .bind(since)
        .bind(offset)
        .fetch_optional(self.store.pool())
        .await?;
        let wait = nth.map_or(ms(VIEW_WINDOW), |at| ms(VIEW_WINDOW) - now.saturating_sub(at).max(0));
        Ok(Err(Duration::from_millis(u64::try_from(wait).unwrap_or(0).max(1))))
    }
}

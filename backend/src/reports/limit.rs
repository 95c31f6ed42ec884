//! A shared link's request limit, in the database so that every Sou server on it counts
//! the same views: the events go to `rate_events`, as the sign-in and demo limits'
//! (purged with them), keyed by a digest of `report:` and the link's id, so no link is
//! stored in clear there. Checked before anything else about the link is read: a
//! refused request costs one indexed count.

use std::time::Duration;

use super::Reports;
use crate::auth::limits::Limits;
use crate::error::BackendError;

/// Requests one shared link serves a minute ([`VIEW_WINDOW`]), unless configured
/// (`Sou::with_report_views_per_minute`).
pub const VIEWS_PER_MINUTE: usize = 60;

/// The limit's window.
pub const VIEW_WINDOW: Duration = Duration::from_secs(60);

impl Reports {
    /// One more request for the link `id` if it had fewer than `limit` in the last
    /// [`VIEW_WINDOW`], counted at `now` (milliseconds); else how long until the next
    /// one is served. Requests sent together are each counted, as the sign-in and demo
    /// limits' ([`Limits::take`]).
    pub async fn take_request(
        &self,
        id: &str,
        limit: usize,
        now: i64,
    ) -> Result<Result<(), Duration>, BackendError> {
        let limits = Limits::new(self.store.clone());
        Ok(limits.take(&format!("report:{id}"), limit, VIEW_WINDOW, now).await?)
    }
}

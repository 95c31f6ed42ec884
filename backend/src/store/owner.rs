//! The statements that read or change every user's rows, or run before anyone is
//! known (a session's cookie, an API token, a shared report, a widget's site, the
//! hourly sweeps), with their two texts side by side: on SQLite the statement itself;
//! on PostgreSQL, where Sou's role sees only the user a transaction names, a call to
//! the owner's `SECURITY DEFINER` function that does the same (`migrations_pg/`).
//! Both texts take the same parameters and give the same columns, so the caller
//! binds and reads them once.

use crate::ids::Dialect;
use crate::store::Store;

/// A read (or a one-row update) over the store as a whole.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Owner {
    /// (token digest, now, idle cutoff) → id, name, demo_expires_at,
    /// vocabulary_version, currency, last_seen_at of a live session's user.
    Session,
    /// (token digest) → the session deleted.
    EndSession,
    /// (token digest, now) → user_id, name, demo_expires_at; the token's use noted.
    Token,
    /// (site id) → the enabled site's columns (`widgets::COLUMNS`), then user_id.
    WidgetSite,
    /// (report id, now) → the title, mode, figures, names and as_of of a live link.
    ReportTitle,
    /// (report id, now) → user_id, kind, title, mode, figures, names, locale,
    /// content, as_of of a live link.
    PeekReport,
    /// The same, the view counted.
    ViewReport,
    /// () → id, user_id of every write approved and not run, oldest first.
    ApprovedWrites,
    /// (cutoff) → id, user_id of every run still running whose heartbeat is older.
    StaleRuns,
    /// (max) → user_id, month of the months whose roll-up is not checked yet.
    UncheckedMonths,
    /// (since) → the instance's model spending since then, in micro-euros.
    InstanceSpent,
}

impl Owner {
    pub(crate) fn sql(self, dialect: Dialect) -> &'static str {
        match dialect {
            Dialect::Sqlite => self.sqlite(),
            Dialect::Postgres => self.postgres(),
        }
    }

    fn sqlite(self) -> &'static str {
        match self {
            Owner::Session => {
                "SELECT u.id, u.name, u.demo_expires_at, CAST(u.vocabulary_version AS BIGINT), u.currency,
                        s.last_seen_at
                 FROM sessions s JOIN users u ON u.id = s.user_id
                 WHERE s.token_hash = $1 AND s.expires_at > $2 AND s.last_seen_at > $3
                   AND (u.demo_expires_at IS NULL OR u.demo_expires_at > $2)"
            }
            Owner::EndSession => "DELETE FROM sessions WHERE token_hash = $1",
            Owner::Token => {
                "UPDATE api_tokens SET last_used_at = $2 WHERE token_hash = $1
                 RETURNING user_id, (SELECT name FROM users WHERE id = api_tokens.user_id),
                           (SELECT demo_expires_at FROM users WHERE id = api_tokens.user_id)"
            }
            Owner::WidgetSite => {
                "SELECT id, name, origins, tools, datasets, greeting, theme, rate_per_hour, status, created_at,
                        user_id
                 FROM widget_sites WHERE id = $1 AND status = 'enabled'"
            }
            Owner::ReportTitle => {
                "SELECT title, mode, figures, names, as_of FROM reports
                 WHERE id = $1 AND (expires_at IS NULL OR expires_at > $2)"
            }
            Owner::PeekReport => {
                "SELECT user_id, kind, title, mode, figures, names, locale, content, as_of FROM reports
                 WHERE id = $1 AND (expires_at IS NULL OR expires_at > $2)"
            }
            Owner::ViewReport => {
                "UPDATE reports SET views = views + 1
                 WHERE id = $1 AND (expires_at IS NULL OR expires_at > $2)
                 RETURNING user_id, kind, title, mode, figures, names, locale, content, as_of"
            }
            Owner::ApprovedWrites => "SELECT id, user_id FROM approvals WHERE state = 'approved' ORDER BY created_at",
            Owner::StaleRuns => {
                "SELECT id, user_id FROM runs WHERE status = 'running' AND heartbeat_at < $1 ORDER BY started_at"
            }
            Owner::UncheckedMonths => {
                "SELECT user_id, month FROM ledger_month_state WHERE checked IS NULL OR checked <> 1
                 ORDER BY user_id, month LIMIT $1"
            }
            Owner::InstanceSpent => {
                "SELECT COALESCE(SUM(cost_eur_micros), 0) FROM model_calls WHERE created_at >= $1"
            }
        }
    }

    fn postgres(self) -> &'static str {
        match self {
            Owner::Session => {
                "SELECT id, name, demo_expires_at, vocabulary_version, currency, last_seen_at
                 FROM sou_session_lookup($1, $2, $3)"
            }
            Owner::EndSession => "SELECT sou_end_session($1)",
            Owner::Token => "SELECT id, name, demo_expires_at FROM sou_token_account($1, $2)",
            Owner::WidgetSite => {
                "SELECT $1::text AS id, name, origins, tools, datasets, greeting, theme, rate_per_hour,
                        'enabled' AS status, '' AS created_at, user_id
                 FROM sou_widget_site($1)"
            }
            Owner::ReportTitle => "SELECT title, mode, figures, names, as_of FROM sou_peek_report($1, $2)",
            Owner::PeekReport => {
                "SELECT user_id, kind, title, mode, figures, names, locale, content, as_of
                 FROM sou_peek_report($1, $2)"
            }
            Owner::ViewReport => {
                "SELECT user_id, kind, title, mode, figures, names, locale, content, as_of
                 FROM sou_view_report($1, $2)"
            }
            Owner::ApprovedWrites => "SELECT id, user_id FROM sou_approved_writes()",
            Owner::StaleRuns => "SELECT id, user_id FROM sou_stale_runs($1)",
            Owner::UncheckedMonths => "SELECT user_id, month FROM sou_unchecked_months($1)",
            Owner::InstanceSpent => "SELECT sou_instance_spent($1)",
        }
    }
}

/// A sweep of every user's rows older than a cutoff.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Sweep {
    /// Conversations not touched since.
    Conversations,
    /// Widget visitors' conversations begun before.
    Visitors,
    /// The events of runs finished before (their traces stay).
    RunEvents,
}

impl Sweep {
    fn sql(self, dialect: Dialect) -> &'static str {
        match (self, dialect) {
            (Sweep::Conversations, Dialect::Sqlite) => "DELETE FROM conversations WHERE updated_at < $1",
            (Sweep::Conversations, Dialect::Postgres) => "SELECT sou_purge_conversations($1)",
            (Sweep::Visitors, Dialect::Sqlite) => {
                "DELETE FROM conversations WHERE visitor IS NOT NULL AND created_at < $1"
            }
            (Sweep::Visitors, Dialect::Postgres) => "SELECT sou_purge_visitors($1)",
            (Sweep::RunEvents, Dialect::Sqlite) => {
                "DELETE FROM run_events WHERE (user_id, run_id) IN
                     (SELECT user_id, id FROM runs WHERE finished_at IS NOT NULL AND finished_at < $1)"
            }
            (Sweep::RunEvents, Dialect::Postgres) => "SELECT sou_purge_run_events($1)",
        }
    }
}

impl Store {
    /// Runs a sweep: how many rows went (PostgreSQL's functions return the count).
    pub(crate) async fn sweep(&self, sweep: Sweep, cutoff: &str) -> Result<u64, sqlx::Error> {
        let sql = sweep.sql(self.dialect());
        match self.dialect() {
            Dialect::Sqlite => Ok(sqlx::query(sql).bind(cutoff).execute(self.pool()).await?.rows_affected()),
            Dialect::Postgres => {
                let n: i64 = sqlx::query_scalar(sql).bind(cutoff).fetch_one(self.pool()).await?;
                Ok(u64::try_from(n).unwrap_or(0))
            }
        }
    }
}

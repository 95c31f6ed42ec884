//! Waking the server that holds a stream, on PostgreSQL: a run's writer, and whoever
//! moves a run (a cancel, a pause, an accept), send `NOTIFY sou_runs` in the same transaction, so
//! the message leaves at its commit; each server listens on one connection of its own
//! and wakes its clients waiting on that run, or stops the answer it is writing. On
//! SQLite, one file has one server, which wakes its own. Polling stays as the fallback
//! (slower while the listener is connected): a notification sent while a listener was
//! reconnecting is lost, the database's rows are not.

use std::time::Duration;

use sqlx::postgres::{PgListener, PgPoolOptions};

use crate::ids::Dialect;
use crate::store::{Sandbox, Store};

const CHANNEL: &str = "sou_runs";
/// What a notification that stops an answer starts with; the rest is the run's id.
const STOP: &str = "stop ";

/// Sends, at the commit of `tx`, that run `run` has new events or moved (`stop`: that it
/// was cancelled). Nothing on SQLite.
pub(crate) async fn send(
    store: &Store,
    tx: &mut crate::store::Tenant,
    run: &str,
    stop: bool,
) -> Result<(), sqlx::Error> {
    if store.dialect() != Dialect::Postgres {
        return Ok(());
    }
    let (channel, payload) = notice(run, stop);
    sqlx::query("SELECT pg_notify($1, $2)").bind(channel).bind(payload).execute(&mut **tx).await?;
    Ok(())
}

/// The channel and payload of [`send`]'s notification, for a statement that sends it.
pub(crate) fn notice(run: &str, stop: bool) -> (&'static str, String) {
    (CHANNEL, if stop { format!("{STOP}{run}") } else { run.to_string() })
}

/// What a notification says of a run.
pub(crate) enum Notice<'a> {
    /// New events, or a move (paused, accepted…): wake its followers.
    Moved(&'a str),
    /// Cancelled: stop the answer, if this server writes it, and wake its followers.
    Stopped(&'a str),
}

/// What a server does with notifications: the runs' hub (`record.rs`), which this
/// module does not know.
pub(crate) trait Listener: Send + Sync + 'static {
    fn notice(&self, notice: Notice<'_>);
    /// Whether the listener is connected (polling can be slow), as it changes.
    fn listening(&self, on: bool);
    /// Whether no one but the listener holds the server any more: it ends then.
    fn alone(&self) -> bool;
}

/// Starts this server's listener, on PostgreSQL, within a Tokio runtime. It ends when
/// `hub` says it is alone.
pub(crate) fn listen(store: &Store, hub: impl Listener) {
    let Sandbox::Postgres(pool) = store.sandbox() else { return };
    let Ok(runtime) = tokio::runtime::Handle::try_current() else { return };
    // A pool of its own: the listener keeps its connection for good.
    let options = pool.connect_options().as_ref().clone();
    let own = PgPoolOptions::new().max_connections(1).connect_lazy_with(options);
    runtime.spawn(async move {
        let mut pause = Duration::from_millis(100);
        loop {
            match PgListener::connect_with(&own).await {
                Ok(mut listener) => match listener.listen(CHANNEL).await {
                    Ok(()) => {
                        hub.listening(true);
                        pause = Duration::from_millis(100);
                        let again = receive(&mut listener, &hub).await;
                        hub.listening(false);
                        if !again {
                            own.close().await;
                            return;
                        }
                    }
                    Err(e) => tracing::warn!(error = %e, "listening for runs failed"),
                },
                Err(e) => tracing::warn!(error = %e, "connecting the runs' listener failed"),
            }
            if hub.alone() {
                own.close().await;
                return;
            }
            tokio::time::sleep(pause).await;
            pause = (pause * 2).min(Duration::from_secs(5));
        }
    });
}

/// Hands notifications to the hub until the connection fails (`true`: connect again)
/// or no one but the listener holds the hub any more (`false`).
async fn receive(listener: &mut PgListener, hub: &impl Listener) -> bool {
    loop {
        let next = tokio::time::timeout(Duration::from_secs(5), listener.try_recv()).await;
        if hub.alone() {
            return false;
        }
        match next {
            // Quiet: look again whether anyone still holds the hub.
            Err(_) => {}
            Ok(Ok(Some(n))) => match n.payload().strip_prefix(STOP) {
                Some(run) => hub.notice(Notice::Stopped(run)),
                None => hub.notice(Notice::Moved(n.payload())),
            },
            // The connection was lost: what was sent meanwhile is lost too; the
            // fallback's polling finds the rows.
            Ok(Ok(None)) => {}
            Ok(Err(e)) => {
                tracing::warn!(error = %e, "the runs' listener failed");
                return true;
            }
        }
    }
}

//! `sou`: load the configuration, open the store (migrations run; a failure stops
//! here), serve, and purge what has expired every hour.

use std::process::ExitCode;

use backend::AuthConfig;
use backend::Providers;
use backend::Vault;
use backend::{Sou, Store};
use leptos::prelude::get_configuration;
use server::config::Config;
use server::AppState;
use tracing_subscriber::EnvFilter;

/// jemalloc, with its background threads: memory freed after a burst goes back to the
/// system within seconds, even while the server is idle. After 1,000 model answers
/// streamed at once, the memory in use is back where it was (+0.6 MB), but glibc's
/// allocator kept +110 MB and mimalloc +40 to +56 MB of freed pages; jemalloc keeps
/// +10 MB (`node scripts/load.mjs --settle 12 --rounds 2`).
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

#[tokio::main]
async fn main() -> ExitCode {
    let config = match Config::load() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("sou: {e}");
            return ExitCode::FAILURE;
        }
    };
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(&config.log));
    tracing_subscriber::fmt().with_env_filter(filter).init();
    // Without them, jemalloc returns freed pages only while threads allocate.
    if let Err(e) = tikv_jemalloc_ctl::background_thread::write(true) {
        tracing::warn!(error = %e, "the allocator's background threads did not start");
    }
    match run(config).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            tracing::error!("{e}");
            eprintln!("sou: {e}");
            ExitCode::FAILURE
        }
    }
}

async fn run(config: Config) -> Result<(), Box<dyn std::error::Error>> {
    let store = match config.database_url() {
        Some(url) if url.starts_with("postgres") => {
            Store::open_postgres(url, config.database_owner_url()).await?
        }
        Some(url) => Store::open(url).await?,
        None => Store::open_in(&config.data_dir).await?,
    }
    .with_query_limits(config.queries);
    tracing::info!(database = ?store.dialect(), "store open, migrations applied");
    let mut leptos_options = get_configuration(None)?.leptos_options;
    leptos_options.site_addr = config.addr;
    let vault = Vault::open(&config.data_dir, config.master_key.as_ref())?;
    let providers = Providers::new(config.llm, vault)?;
    let auth = AuthConfig {
        demo_ttl: config.demo_ttl,
        session_ttl: config.session_ttl,
        session_idle: config.session_idle,
        max_demos_per_client: config.demo_per_address,
        allow_demo: config.demo,
        allow_signup: config.signup,
        ..AuthConfig::default()
    };
    let sou = Sou::new(store, config.timezone)
        .with_providers(providers)
        .with_auth(auth)
        .with_writes(config.writes)
        .with_runs(config.runs.clone())
        .with_widget_visitor_percent(config.widget_visitor_percent)
        .with_report_views_per_minute(config.report_views_per_minute);
    // Writes approved before the server stopped, and not run yet, run once now.
    if let Err(e) = sou.approvals().resume_approved().await {
        tracing::error!(error = %e, "running the writes approved before the stop failed");
    }
    tokio::spawn(purge(sou.clone(), config.retention_days));
    tokio::spawn(sweep_runs(sou.clone(), config.runs.stale_after));
    tokio::spawn(maintain(sou.clone()));
    let state = AppState { leptos_options, sou: sou.clone(), trust_proxy: config.trust_proxy };
    let listener = tokio::net::TcpListener::bind(config.addr)
        .await
        .map_err(|e| format!("cannot listen on {}: {e}", config.addr))?;
    tracing::info!("Sou listening on http://{}", config.addr);
    // SIGTERM (systemd, containers) or Ctrl-C: stop accepting connections at once, give
    // the answers in flight the grace period, then cut them short (marked interrupted),
    // let the last responses go out, and close the database pool.
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    tokio::spawn(async move {
        stop_signal().await;
        let _ = stop_tx.send(true);
    });
    let stopped = |mut rx: tokio::sync::watch::Receiver<bool>| async move {
        let _ = rx.wait_for(|stop| *stop).await;
    };
    let serve = server::serve(listener, state, stopped(stop_rx.clone()));
    tokio::pin!(serve);
    tokio::select! {
        served = &mut serve => served?,
        () = stopped(stop_rx) => {
            tracing::info!(grace_secs = config.shutdown_grace.as_secs(), "stopping: no new connections");
            let drained = sou.runs().drain(config.shutdown_grace).await;
            tracing::info!(finished = drained.finished, interrupted = drained.interrupted, "answers in flight ended");
            match tokio::time::timeout(std::time::Duration::from_secs(3), &mut serve).await {
                Ok(served) => served?,
                Err(_) => tracing::warn!("connections still open after the answers ended: closed"),
            }
        }
    }
    sou.close().await;
    tracing::info!("stopped");
    Ok(())
}

/// Resolves on SIGTERM or SIGINT (Ctrl-C).
async fn stop_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = term.recv() => {}
                    _ = tokio::signal::ctrl_c() => {}
                }
                return;
            }
            Err(e) => tracing::warn!(error = %e, "SIGTERM cannot be caught; only Ctrl-C stops gracefully"),
        }
    }
    let _ = tokio::signal::ctrl_c().await;
}

/// Answers a stopped server left running (this one before a restart, or another one on
/// the same database) are closed once their heartbeat is stale, so that no question
/// stays without an answer and no client waits on them for ever.
async fn sweep_runs(sou: Sou, stale_after: std::time::Duration) {
    let mut every = tokio::time::interval((stale_after / 2).max(std::time::Duration::from_secs(1)));
    loop {
        every.tick().await;
        if let Err(e) = sou.runs().close_stale().await {
            tracing::error!(error = %e, "closing runs left by a stopped server failed");
        }
    }
}

/// Every five minutes: SQLite's planner statistics kept current and its write-ahead
/// log checkpointed and truncated, so that it stays small under steady reads; and the
/// months whose roll-up changed (an import, an edit) compared with their rows ahead of
/// the questions over them, a bounded number each time.
async fn maintain(sou: Sou) {
    let mut every = tokio::time::interval(std::time::Duration::from_secs(300));
    every.tick().await;
    loop {
        every.tick().await;
        let (maintained, checked) = sou.upkeep(MONTHS_PER_PASS).await;
        match maintained {
            Ok(pages) => tracing::debug!(wal_pages = pages, "database maintained"),
            Err(e) => tracing::warn!(error = %e, "database maintenance failed"),
        }
        match checked {
            Ok(months) => tracing::debug!(months, "months compared with their rows"),
            Err(e) => tracing::warn!(error = %e, "comparing months with their rows failed"),
        }
    }
}

/// How many months one maintenance pass compares with their rows at most: about a
/// second's work at a million transactions.
const MONTHS_PER_PASS: u32 = 240;

/// At start and then every hour: expired sessions and demo accounts go, widget
/// visitors' conversations a day old, and conversations past the retention period
/// (`0` days keeps them); and runs the writes approved but not run.
async fn purge(sou: Sou, days: u32) {
    let mut every = tokio::time::interval(std::time::Duration::from_secs(3600));
    loop {
        every.tick().await;
        match sou.auth().purge_expired().await {
            Ok(0) => {}
            Ok(n) => tracing::info!(demos = n, "expired demo accounts deleted"),
            Err(e) => tracing::error!(error = %e, "purging expired sessions failed"),
        }
        match sou.widgets().purge_visitors().await {
            Ok(0) => {}
            Ok(n) => tracing::info!(conversations = n, "widget visitors' conversations of a day ago deleted"),
            Err(e) => tracing::error!(error = %e, "purging widget visitors' conversations failed"),
        }
        match sou.runs().purge_events().await {
            Ok(0) => {}
            Ok(n) => tracing::info!(events = n, "events of runs finished a day ago deleted"),
            Err(e) => tracing::error!(error = %e, "purging run events failed"),
        }
        // A write approved but not run (the database failed just then) runs, once.
        if let Err(e) = sou.approvals().resume_approved().await {
            tracing::error!(error = %e, "running approved writes failed");
        }
        if days == 0 {
            continue;
        }
        match sou.conversations().purge(days).await {
            Ok(0) => {}
            Ok(n) => {
                tracing::info!(conversations = n, days, "conversations past the retention period deleted")
            }
            Err(e) => tracing::error!(error = %e, "the retention purge failed"),
        }
    }
}

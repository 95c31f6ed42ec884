//! `sou`: load the configuration, open the store (migrations run; a failure stops
//! here), seed the demo ledger, serve.

use std::process::ExitCode;

use backend::providers::Providers;
use backend::vault::Vault;
use backend::{demo, Sou, Store};
use leptos::prelude::get_configuration;
use server::config::Config;
use server::{router, AppState};
use tracing_subscriber::EnvFilter;

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
        Some(url) => Store::open(url).await?,
        None => Store::open_in(&config.data_dir).await?,
    };
    let user = store.ensure_user("local").await?;
    if config.demo && demo::seed(&store, user).await? {
        tracing::info!("demo ledger created");
    }
    let mut leptos_options = get_configuration(None)?.leptos_options;
    leptos_options.site_addr = config.addr;
    let vault = Vault::open(&config.data_dir, config.master_key.as_ref())?;
    let providers = Providers::new(config.llm, vault)?;
    let sou = Sou::new(store, config.timezone).with_providers(providers);
    if config.retention_days > 0 {
        tokio::spawn(purge(sou.clone(), config.retention_days));
    }
    let state = AppState { leptos_options, sou, user };
    let listener = tokio::net::TcpListener::bind(config.addr)
        .await
        .map_err(|e| format!("cannot listen on {}: {e}", config.addr))?;
    tracing::info!("Sou listening on http://{}", config.addr);
    axum::serve(listener, router(state))
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await?;
    Ok(())
}

/// The retention period, applied at start and then every hour.
async fn purge(sou: Sou, days: u32) {
    let mut every = tokio::time::interval(std::time::Duration::from_secs(3600));
    loop {
        every.tick().await;
        match sou.purge_conversations(days).await {
            Ok(0) => {}
            Ok(n) => {
                tracing::info!(conversations = n, days, "conversations past the retention period deleted")
            }
            Err(e) => tracing::error!(error = %e, "the retention purge failed"),
        }
    }
}

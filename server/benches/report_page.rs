//! A shared report's page served by Sou, against a baseline measured in the same run:
//! the same bytes served as a static file by plain axum, over the same loopback with
//! the same client. A snapshot page is read from what was stored, not recomputed, so
//! the ratio is what reading the row and rendering it cost. Prints numbers and ratios;
//! asserts nothing. `cargo bench -p server --bench report_page`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::{Duration, Instant};

use axum::routing::get;
use backend::{demo, Sou, Store};
use backend::{NewReport, ReportOptions};
use leptos::prelude::LeptosOptions;

const ROUNDS: usize = 2_000;

async fn listen(router: axum::Router) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    format!("http://{addr}")
}

/// Median and 99th percentile of `ROUNDS` sequential GETs of `url`.
async fn measure(client: &reqwest::Client, url: &str) -> (Duration, Duration, usize) {
    let mut times = Vec::with_capacity(ROUNDS);
    let mut bytes = 0;
    for _ in 0..ROUNDS {
        let start = Instant::now();
        let body = client.get(url).send().await.unwrap().bytes().await.unwrap();
        times.push(start.elapsed());
        bytes = body.len();
    }
    times.sort();
    (times[ROUNDS / 2], times[ROUNDS * 99 / 100], bytes)
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_in(dir.path()).await.unwrap();
    let user = store.ensure_user("bench").await.unwrap();
    demo::seed(&store, user).await.unwrap();
    let sou = Sou::new(store, chrono_tz::Europe::Paris);
    let month = |mode| NewReport::Monthly {
        period: "2026-01".into(),
        pins: Vec::new(),
        options: ReportOptions { mode, ..ReportOptions::default() },
    };
    let snapshot = sou.reports().create(user, month(Default::default()), agent::Locale::Fr).await.unwrap();
    let live =
        sou.reports().create(user, month(agent::reports::Freshness::Live), agent::Locale::Fr).await.unwrap();
    let options = LeptosOptions::builder()
        .output_name("sou")
        .site_root(dir.path().to_string_lossy().to_string())
        .build();
    let sou_base =
        listen(server::router(server::AppState { leptos_options: options, sou, trust_proxy: false })).await;

    // reqwest is built without a TLS provider of its own (plain HTTP here anyway).
    let _ = rustls::crypto::ring::default_provider().install_default();
    let client = reqwest::Client::builder().no_proxy().build().unwrap();
    let page = client.get(format!("{sou_base}{}", snapshot.url)).send().await.unwrap().bytes().await.unwrap();
    let static_base = listen(axum::Router::new().route(
        "/page.html",
        get(move || {
            let page = page.clone();
            async move { ([(axum::http::header::CONTENT_TYPE, "text/html; charset=utf-8")], page) }
        }),
    ))
    .await;

    let (static_p50, static_p99, static_bytes) = measure(&client, &format!("{static_base}/page.html")).await;
    let (snap_p50, snap_p99, snap_bytes) = measure(&client, &format!("{sou_base}{}", snapshot.url)).await;
    let (live_p50, live_p99, _) = measure(&client, &format!("{sou_base}{}", live.url)).await;
    // What a reader downloads: the page as sent compressed (the stylesheet is apart).
    let gzip = client
        .get(format!("{sou_base}{}", snapshot.url))
        .header("accept-encoding", "gzip")
        .send()
        .await
        .unwrap()
        .bytes()
        .await
        .unwrap()
        .len();
    let ratio = |a: Duration| a.as_secs_f64() / static_p50.as_secs_f64();
    println!("shared monthly report page, {ROUNDS} sequential GETs each, loopback, one client");
    println!("  static bytes (plain axum)   p50 {static_p50:>10.1?}  p99 {static_p99:>10.1?}  {static_bytes} bytes");
    println!(
        "  Sou, snapshot               p50 {snap_p50:>10.1?}  p99 {snap_p99:>10.1?}  {snap_bytes} bytes  {:.1}× static",
        ratio(snap_p50)
    );
    println!(
        "  Sou, live (runs its plans)  p50 {live_p50:>10.1?}  p99 {live_p99:>10.1?}  {:.1}× static",
        ratio(live_p50)
    );
    println!("  page weight: {snap_bytes} bytes of HTML, {gzip} bytes gzip, no script");
}

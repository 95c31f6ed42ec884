//! Sou's sockets send each write at once. A response written in pieces (headers, then a
//! compressed file; a stream of events) on a kept-alive connection otherwise waited for
//! the client's delayed ACK: about 40 ms a response instead of a few.
//!
//! The socket option is asserted; the times, kept-alive against a fresh connection per
//! request, are printed (`--nocapture`) and never asserted.

use std::time::{Duration, Instant};

use backend::{Sou, Store};
use leptos::prelude::LeptosOptions;
use secrecy::ExposeSecret;
use server::AppState;

#[tokio::test]
async fn accepted_connections_have_nagle_off() {
    let tcp = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = tcp.local_addr().unwrap();
    let mut listener = server::no_delay_listener(tcp);
    let client = tokio::spawn(async move { tokio::net::TcpStream::connect(addr).await.unwrap() });
    let (io, _) = axum::serve::Listener::accept(&mut listener).await;
    assert!(io.nodelay().unwrap(), "an accepted connection must have TCP_NODELAY set");
    drop(client.await.unwrap());
}

#[tokio::test]
async fn a_kept_alive_connection_is_as_fast_as_a_fresh_one() {
    let dir = tempfile::tempdir().unwrap();
    // A stylesheet the size of Sou's, served compressed as to a browser.
    std::fs::create_dir_all(dir.path().join("pkg")).unwrap();
    let css: String = (0..600).map(|i| format!(".rule-{i} {{ margin: {i}px; }}\n")).collect();
    std::fs::write(dir.path().join("pkg/sou.css"), &css).unwrap();

    let store = Store::open_in(dir.path()).await.unwrap();
    let sou = Sou::new(store, chrono_tz::Europe::Paris);
    let who = crate::support::sign_up(&sou, "alice").await;
    let (_, token) = sou.auth().create_token(who.user, "keep-alive test").await.unwrap();
    let leptos_options = LeptosOptions::builder()
        .output_name("sou")
        .site_root(dir.path().to_string_lossy().to_string())
        .build();
    let state = AppState { leptos_options, sou, trust_proxy: false };
    let tcp = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", tcp.local_addr().unwrap());
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let serving = tokio::spawn(server::serve(tcp, state, async {
        let _ = stopped.await;
    }));

    // The workspace's reqwest has no TLS provider of its own (the backend installs ring).
    let _ = rustls::crypto::ring::default_provider().install_default();
    let kept = reqwest::Client::builder().build().unwrap();
    let fresh = reqwest::Client::builder().pool_max_idle_per_host(0).build().unwrap();
    let bearer = format!("Bearer {}", token.expose_secret());
    let question =
        serde_json::json!({"message": "Combien j'ai dépensé en courses en janvier 2026 ?"}).to_string();

    let mut report = Vec::new();
    for (what, kind) in [("static file", 0), ("chat answer", 1)] {
        let mut medians = Vec::new();
        for client in [&kept, &fresh] {
            let mut times = Vec::new();
            for _ in 0..15 {
                let started = Instant::now();
                let response = if kind == 0 {
                    client.get(format!("{base}/pkg/sou.css")).header("accept-encoding", "gzip")
                } else {
                    client
                        .post(format!("{base}/api/v1/chat"))
                        .header("authorization", &bearer)
                        .header("content-type", "application/json")
                        .body(question.clone())
                }
                .send()
                .await
                .unwrap();
                assert!(response.status().is_success(), "{what}: {}", response.status());
                let body = response.bytes().await.unwrap();
                times.push(started.elapsed());
                if kind == 0 {
                    assert!(!body.is_empty(), "{what}: an empty body");
                } else {
                    let text = String::from_utf8_lossy(&body);
                    assert!(text.contains("\"tool_result\""), "{what}: no result in {text}");
                    assert!(text.contains("\"done\""), "{what}: the stream did not end in {text}");
                }
            }
            times.sort();
            medians.push(times[times.len() / 2]);
        }
        report.push((what, medians[0], medians[1]));
    }
    for (what, kept, fresh) in report {
        println!(
            "keep-alive: {what}: median {:.2} ms kept alive, {:.2} ms on a fresh connection (ratio {:.2})",
            ms(kept),
            ms(fresh),
            ms(kept) / ms(fresh).max(0.001)
        );
    }
    let _ = stop.send(());
    serving.await.unwrap().unwrap();
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

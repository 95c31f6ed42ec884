//! A real server killed (SIGKILL), or stopped gracefully (SIGTERM), between two steps
//! of an accepted plan, then started again: the plan goes on from its next step, and no
//! finished step runs twice, on SQLite and on PostgreSQL. Stopped by SIGTERM, the server
//! refuses new connections at once, leaves the plan after its current step and exits
//! cleanly within its grace period. `SOU_PAUSE_BETWEEN_STEPS_MS` holds the server between two
//! steps long enough to kill it there; `SOU_RUN_STALE_SECS=1` lets the restarted server
//! take the run over a second later.

use std::time::Duration;

use backend::testing::FreshDatabase;
use serde_json::{json, Value};

use crate::real_server::{chat, demo_cookie, free_port, start};

async fn get(client: &reqwest::Client, url: String, cookie: &str) -> Value {
    let text = client.get(url).header("cookie", cookie).send().await.unwrap().text().await.unwrap();
    serde_json::from_str(&text).unwrap_or(Value::Null)
}

async fn scenario(db: Option<FreshDatabase>, graceful: bool) {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let client = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
    let slow = [
        ("SOU_PAUSE_BETWEEN_STEPS_MS", "2000"),
        ("SOU_RUN_STALE_SECS", "1"),
        ("SOU_SHUTDOWN_GRACE_SECS", "1"),
    ];
    let mut server = start(dir.path(), port, db.as_ref(), &slow).await;
    let cookie = demo_cookie(&client, &server.base).await;

    // A month's review: five steps, proposed, accepted.
    let events =
        chat(&client, &server.base, &cookie, json!({"message": "prépare mon bilan d'octobre 2026"})).await;
    let proposed = events.iter().find(|e| e["type"] == "plan_proposed").expect("a plan");
    let run = proposed["run"].as_str().unwrap().to_string();
    let tools: Vec<String> = proposed["plan"]["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["tool"].as_str().unwrap().into())
        .collect();
    assert_eq!(tools.len(), 5);
    let res = client
        .post(format!("{}/api/v1/runs/{run}/accept", server.base))
        .header("cookie", &cookie)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);

    // The first step done, the server waits before the second: killed there.
    let mut done = 0;
    for _ in 0..100 {
        let trace = get(&client, format!("{}/api/v1/runs/{run}", server.base), &cookie).await;
        done = trace["next_step"].as_u64().unwrap_or(0);
        if done >= 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(done, 1, "the first step ran");
    if graceful {
        let asked = std::time::Instant::now();
        server.terminate();
        // No new connection is taken once the signal is in.
        let mut refused = false;
        for _ in 0..20 {
            tokio::time::sleep(Duration::from_millis(50)).await;
            if client.get(format!("{}/healthz", server.base)).send().await.is_err() {
                refused = true;
                break;
            }
        }
        assert!(refused, "new connections refused after SIGTERM");
        let status = server.exited(Duration::from_secs(15)).await.expect("the server stopped by itself");
        assert!(status.success(), "a clean exit: {status:?}");
        // The grace period (1 s), the step under way and the last responses: well under 15 s.
        assert!(asked.elapsed() < Duration::from_secs(15));
    }
    drop(server); // SIGKILL, or already stopped

    // Started again: the run is taken over and ends, every step run once.
    let server = start(dir.path(), port, db.as_ref(), &[("SOU_RUN_STALE_SECS", "1")]).await;
    let mut trace = Value::Null;
    for _ in 0..300 {
        trace = get(&client, format!("{}/api/v1/runs/{run}", server.base), &cookie).await;
        if trace["status"] == "done" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(trace["status"], "done", "{trace}");
    assert_eq!(trace["next_step"], 5);
    let ran: Vec<&str> = trace["steps"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["kind"] == "tool")
        .map(|s| s["tool"].as_str().unwrap())
        .collect();
    assert_eq!(ran, tools, "each step ran once, in order");
    // The stream, read again from the start, tells the same.
    let text = client
        .get(format!("{}/api/v1/runs/{run}/events", server.base))
        .header("cookie", &cookie)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let events = crate::support::chat_events(&text);
    let started: Vec<u64> =
        events.iter().filter(|e| e["type"] == "step_started").map(|e| e["step"].as_u64().unwrap()).collect();
    assert_eq!(started, [1, 2, 3, 4, 5]);
    assert_eq!(events.iter().filter(|e| e["type"] == "step_result").count(), 5);
    assert_eq!(events.last().unwrap()["type"], "status");
    drop(server);
    if let Some(db) = db {
        db.drop().await;
    }
}

#[tokio::test]
async fn a_plan_killed_between_steps_goes_on_after_a_restart_on_sqlite() {
    scenario(None, false).await;
}

#[tokio::test]
async fn a_plan_killed_between_steps_goes_on_after_a_restart_on_postgres() {
    scenario(Some(FreshDatabase::create().await.expect("PostgreSQL at 127.0.0.1:5432")), false).await;
}

#[tokio::test]
async fn a_plan_stopped_by_sigterm_goes_on_after_a_restart_on_sqlite() {
    scenario(None, true).await;
}

#[tokio::test]
async fn a_plan_stopped_by_sigterm_goes_on_after_a_restart_on_postgres() {
    scenario(Some(FreshDatabase::create().await.expect("PostgreSQL at 127.0.0.1:5432")), true).await;
}

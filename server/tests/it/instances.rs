//! Two real Sou servers on one PostgreSQL database, and one person using both, as behind
//! a load balancer: signed in on one, known to the other; the sign-in and demo limits
//! counted across both; a plan asked on one, followed and stopped on the other; a file
//! imported on one, its progress watched on the other. Nothing a request needs is in
//! one server's memory.

use std::time::{Duration, Instant};

use backend::testing::FreshDatabase;
use serde_json::{json, Value};

use crate::real_server::{chat, demo_cookie, free_port, post_form, start};

fn client() -> reqwest::Client {
    reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap()
}

async fn get(client: &reqwest::Client, url: String, cookie: &str) -> (u16, Value) {
    let res = client.get(url).header("cookie", cookie).send().await.unwrap();
    let status = res.status().as_u16();
    let text = res.text().await.unwrap();
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

async fn post(client: &reqwest::Client, url: String, cookie: &str, body: Value) -> (u16, Value) {
    let res = client
        .post(url)
        .header("cookie", cookie)
        .header("content-type", "application/json")
        .body(body.to_string())
        .send()
        .await
        .unwrap();
    let status = res.status().as_u16();
    let text = res.text().await.unwrap();
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// A sign-in form posted to `base`: where it sends the browser.
async fn log_in(client: &reqwest::Client, base: &str, name: &str, password: &str) -> String {
    let body = form_urlencoded::Serializer::new(String::new())
        .append_pair("name", name)
        .append_pair("password", password)
        .finish();
    let res = post_form(client, format!("{base}/auth/login"), body).await;
    res.headers().get("location").and_then(|v| v.to_str().ok()).unwrap_or_default().to_string()
}

/// A bank export of `rows` card payments, in BoursoBank's layout.
fn statement(rows: usize) -> String {
    let mut csv = String::from(
        "dateOp;dateVal;label;category;categoryParent;supplierFound;amount;comment;accountNum;accountLabel;accountbalance\n",
    );
    for i in 0..rows {
        let day = 1 + i % 28;
        let month = 1 + (i / 28) % 12;
        let year = 2020 + i / (28 * 12);
        csv.push_str(&format!(
            "{year}-{month:02}-{day:02};{year}-{month:02}-{day:02};\"CARTE ACHAT NUMERO {i}\";\"Divers\";\"Divers\";\"\";-{},{:02};;00040999999;\"Compte import\";\n",
            1 + i % 90,
            i % 100
        ));
    }
    csv
}

#[tokio::test]
async fn one_person_uses_two_servers_on_one_postgres_database() {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let db = FreshDatabase::create().await.expect("PostgreSQL at 127.0.0.1:5432");
    let (dir_a, dir_b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    // Plans wait between steps, long enough to be stopped in the middle.
    let env = [("SOU_PAUSE_BETWEEN_STEPS_MS", "1500"), ("SOU_DEMO_PER_ADDRESS", "3")];
    let a = start(dir_a.path(), free_port(), Some(&db), &env).await;
    let b = start(dir_b.path(), free_port(), Some(&db), &env).await;
    let http = client();

    // Signed in on A (a demo, with its ledger), known to B.
    let cookie = demo_cookie(&http, &a.base).await;
    let (status, _) = get(&http, format!("{}/api/v1/usage", b.base), &cookie).await;
    assert_eq!(status, 200, "B knows A's session");

    // Three demos an hour from one address, counted on both: A's, then B's, A's, and B
    // refuses the fourth.
    demo_cookie(&http, &b.base).await;
    demo_cookie(&http, &a.base).await;
    let res = post_form(&http, format!("{}/auth/demo", b.base), String::new()).await;
    let to = res.headers().get("location").and_then(|v| v.to_str().ok()).unwrap_or_default().to_string();
    assert!(to.contains("error=demo_limited"), "the fourth demo from one address: {to}");

    // Failed log-ins on A slow down the same account from the same address on B.
    let body = "name=alice&password=correct+horse+battery&confirm=correct+horse+battery";
    let res = post_form(&http, format!("{}/auth/signup", a.base), body.to_string()).await;
    assert_eq!(res.status(), 303);
    for _ in 0..3 {
        let to = log_in(&http, &a.base, "alice", "wrong password").await;
        assert!(to.starts_with("/login?error=invalid_credentials"), "{to}");
    }
    let to = log_in(&http, &b.base, "alice", "wrong password").await;
    assert!(to.starts_with("/login?error=rate_limited"), "B counts A's failures: {to}");

    // A plan asked on B and accepted there: B runs its steps. A follows it and stops it.
    let events = chat(&http, &b.base, &cookie, json!({"message": "prépare mon bilan d'octobre 2026"})).await;
    let proposed = events.iter().find(|e| e["type"] == "plan_proposed").expect("a plan");
    let run = proposed["run"].as_str().unwrap().to_string();
    let (status, _) = post(&http, format!("{}/api/v1/runs/{run}/accept", b.base), &cookie, json!({})).await;
    assert_eq!(status, 200);
    let follower = {
        let (http, url, cookie) =
            (http.clone(), format!("{}/api/v1/runs/{run}/events", a.base), cookie.clone());
        tokio::spawn(async move {
            let res = http.get(url).header("cookie", cookie).send().await.unwrap();
            let text = res.text().await.unwrap();
            (crate::support::chat_events(&text), Instant::now())
        })
    };
    let mut next_step = 0;
    for _ in 0..200 {
        let (_, trace) = get(&http, format!("{}/api/v1/runs/{run}", a.base), &cookie).await;
        next_step = trace["next_step"].as_u64().unwrap_or(0);
        if next_step >= 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    assert_eq!(next_step, 1, "B ran the first step; A reads it");
    let stopped_at = Instant::now();
    let (status, _) = post(&http, format!("{}/api/v1/runs/{run}/cancel", a.base), &cookie, json!({})).await;
    assert_eq!(status, 200, "stopped on A");
    let (events, ended_at) = tokio::time::timeout(Duration::from_secs(30), follower).await.unwrap().unwrap();
    println!("the follower on A ended {:?} after the stop", ended_at.duration_since(stopped_at));
    let started: Vec<u64> =
        events.iter().filter(|e| e["type"] == "step_started").map(|e| e["step"].as_u64().unwrap()).collect();
    assert_eq!(started, [1], "no step after the stop");
    assert!(events.iter().any(|e| e["type"] == "error" && e["code"] == "cancelled"), "{events:?}");
    assert_eq!(events.last().unwrap()["type"], "status", "the stream ends with its terminal event");
    let (_, trace) = get(&http, format!("{}/api/v1/runs/{run}", b.base), &cookie).await;
    assert_eq!(trace["status"], "cancelled");
    assert_eq!(trace["next_step"], 1);

    // A file imported on A; B sees it under way, then done.
    let rows = 6000;
    let res = http
        .post(format!("{}/api/v1/imports?name=releve.csv", a.base))
        .header("cookie", &cookie)
        .header("content-type", "application/octet-stream")
        .body(statement(rows))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201);
    let preview: Value = serde_json::from_str(&res.text().await.unwrap()).unwrap();
    let id = preview["id"].as_str().expect("an upload id").to_string();
    let (status, started) =
        post(&http, format!("{}/api/v1/imports/{id}/run", a.base), &cookie, json!({"new_account": "Import"}))
            .await;
    assert_eq!(status, 202, "{started}");
    let mut seen_running = Vec::new();
    let mut last = Value::Null;
    for _ in 0..6000 {
        let (status, view) = get(&http, format!("{}/api/v1/imports/{id}", b.base), &cookie).await;
        assert_eq!(status, 200, "{view}");
        last = view["state"].clone();
        match last["state"].as_str() {
            Some("running") => seen_running.push(last["done"].as_u64().unwrap()),
            Some("done") => break,
            _ => {}
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(last["state"], "done", "{last}");
    assert_eq!(last["added"], rows, "{last}");
    assert!(!seen_running.is_empty(), "B saw the import under way");
    assert!(seen_running.windows(2).all(|w| w[0] <= w[1]), "progress only grows: {seen_running:?}");
    // Every row read can show while the import still commits: never more than there are.
    assert!(seen_running.iter().all(|&d| d <= rows as u64), "{seen_running:?}");
    println!("B saw the import at {} points: {seen_running:?}", seen_running.len());

    drop((a, b));
    db.drop().await;
}

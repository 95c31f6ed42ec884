//! A real server killed (SIGKILL) between a write's approval and the write, then started
//! again: the write runs exactly once, on SQLite and on PostgreSQL. The server is the
//! `sou` binary, with `SOU_PAUSE_BEFORE_WRITE_MS` holding it between the two long
//! enough to kill it there.

use std::time::Duration;

use backend::testing::FreshDatabase;
use serde_json::{json, Value};

use crate::real_server::{chat, demo_cookie, free_port, start};

async fn scenario(db: Option<FreshDatabase>) {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let client = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
    let server = start(dir.path(), port, db.as_ref(), &[("SOU_PAUSE_BEFORE_WRITE_MS", "3000")]).await;
    let cookie = demo_cookie(&client, &server.base).await;

    // The write is proposed…
    let plan = json!({"tool": "recategorise", "args": {"to": "leisure", "merchant": "fnac"}});
    let approval: Value =
        chat(&client, &server.base, &cookie, json!({"message": "fnac en loisirs", "plan": plan}))
            .await
            .into_iter()
            .find(|e| e["type"] == "approval_required")
            .expect("an approval")["approval"]
            .clone();
    let id = approval["id"].as_str().unwrap().to_string();
    let moving = approval["effect"]["transactions"].as_u64().unwrap();
    assert!(moving > 0);

    // …approved, and the server killed before it writes.
    let approving = {
        let (client, url, cookie) =
            (client.clone(), format!("{}/api/v1/approvals/{id}", server.base), cookie.clone());
        tokio::spawn(async move {
            client
                .post(url)
                .header("cookie", cookie)
                .header("content-type", "application/json")
                .body(json!({"action": "approve"}).to_string())
                .send()
                .await
        })
    };
    tokio::time::sleep(Duration::from_millis(1000)).await;
    drop(server); // SIGKILL
    assert!(approving.await.unwrap().is_err(), "the approval's answer never came");

    // Started again: the approved write has run, once.
    let server = start(dir.path(), port, db.as_ref(), &[]).await;
    let get = |path: String| {
        let (client, cookie) = (client.clone(), cookie.clone());
        async move {
            let text = client.get(path).header("cookie", cookie).send().await.unwrap().text().await.unwrap();
            serde_json::from_str::<Value>(&text).unwrap()
        }
    };
    let state = get(format!("{}/api/v1/approvals/{id}", server.base)).await;
    assert_eq!(state["state"], "executed", "{state}");
    let changes = get(format!("{}/api/v1/changes", server.base)).await;
    assert_eq!(changes["changes"].as_array().unwrap().len(), 1, "{changes}");
    let again = client
        .post(format!("{}/api/v1/approvals/{id}", server.base))
        .header("cookie", &cookie)
        .header("content-type", "application/json")
        .body(json!({"action": "approve"}).to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), 409);
    // Every Fnac purchase is in Leisure now.
    let list = json!({"tool": "list_transactions", "args": {"merchant": "fnac", "limit": 500,
        "period": {"start": "2020-01-01", "end": "2040-01-01", "label": "all"}}});
    let result: Value = chat(&client, &server.base, &cookie, json!({"message": "fnac", "plan": list}))
        .await
        .into_iter()
        .find(|e| e["type"] == "tool_result")
        .unwrap();
    let rows = result["result"]["transactions"].as_array().unwrap();
    assert!(!rows.is_empty());
    assert!(rows.iter().all(|r| r["category"] == "Loisirs" || r["category"] == "Leisure"), "{rows:?}");
    drop(server);
    if let Some(db) = db {
        db.drop().await;
    }
}

#[tokio::test]
async fn a_write_killed_after_its_approval_runs_once_on_sqlite() {
    scenario(None).await;
}

#[tokio::test]
async fn a_write_killed_after_its_approval_runs_once_on_postgres() {
    scenario(Some(FreshDatabase::create().await.expect("PostgreSQL at 127.0.0.1:5432"))).await;
}

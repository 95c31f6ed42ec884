//! A real server killed (SIGKILL) between a write's approval and the write, then started
//! again: the write runs exactly once, on SQLite and on PostgreSQL. The server is the
//! `sou` binary, with `SOU_PAUSE_BEFORE_WRITE_MS` holding it between the two long
//! enough to kill it there.

use std::process::{Child, Command, Stdio};
use std::time::Duration;

use backend::testing::FreshDatabase;
use serde_json::{json, Value};

struct Server {
    child: Child,
    base: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

async fn start(dir: &std::path::Path, port: u16, db: Option<&FreshDatabase>, pause_ms: u64) -> Server {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_sou"));
    cmd.env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("SOU_CONFIG", dir.join("none.toml"))
        .env("SOU_ADDR", format!("127.0.0.1:{port}"))
        .env("SOU_DATA_DIR", dir)
        .env("SOU_LOG", "warn")
        .env("SOU_DEMO_PER_ADDRESS", "100")
        .env("SOU_PAUSE_BEFORE_WRITE_MS", pause_ms.to_string())
        .env("LEPTOS_OUTPUT_NAME", "sou")
        .env("LEPTOS_SITE_ROOT", dir.join("site"))
        .env("LEPTOS_SITE_PKG_DIR", "pkg")
        .stdout(Stdio::null())
        .stderr(Stdio::inherit());
    if let Some(db) = db {
        cmd.env("DATABASE_URL", db.app_url().unwrap()).env("SOU_DATABASE_OWNER_URL", db.owner_url());
    }
    let child = cmd.spawn().unwrap();
    let server = Server { child, base: format!("http://127.0.0.1:{port}") };
    let client = reqwest::Client::new();
    for _ in 0..300 {
        if client.get(format!("{}/healthz", server.base)).send().await.is_ok_and(|r| r.status().is_success())
        {
            return server;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the server did not start");
}

/// A chat request to the server, as `cookie`: the stream's events.
async fn chat(client: &reqwest::Client, base: &str, cookie: &str, body: Value) -> Vec<Value> {
    let text = client
        .post(format!("{base}/api/v1/chat"))
        .header("cookie", cookie)
        .header("content-type", "application/json")
        .body(body.to_string())
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    crate::support::chat_events(&text)
}

async fn scenario(db: Option<FreshDatabase>) {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let client = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
    let server = start(dir.path(), port, db.as_ref(), 3000).await;

    // A demo account (with its ledger), its session cookie.
    let res = client
        .post(format!("{}/auth/demo", server.base))
        .header("sec-fetch-site", "same-origin")
        .header("content-type", "application/x-www-form-urlencoded")
        .body("")
        .send()
        .await
        .unwrap();
    let cookie = res
        .headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|c| c.starts_with("sou_session="))
        .and_then(|c| c.split(';').next())
        .expect("a session")
        .to_string();

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
    let server = start(dir.path(), port, db.as_ref(), 0).await;
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

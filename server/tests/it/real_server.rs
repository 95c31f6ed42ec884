//! The real `sou` binary, started for a test and killed (SIGKILL) when dropped (or
//! stopped with SIGTERM): what the crash and shutdown tests share.

use std::process::{Child, Command, Stdio};
use std::time::Duration;

use backend::testing::FreshDatabase;
use serde_json::Value;

pub struct Server {
    child: Child,
    pub base: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Server {
    /// Sends SIGTERM, as systemd or a container runtime does to stop it.
    pub fn terminate(&self) {
        let status = Command::new("kill").args(["-TERM", &self.child.id().to_string()]).status().unwrap();
        assert!(status.success());
    }

    /// Waits for the process to end by itself, at most `limit`: its exit status.
    pub async fn exited(&mut self, limit: Duration) -> Option<std::process::ExitStatus> {
        let until = std::time::Instant::now() + limit;
        while std::time::Instant::now() < until {
            if let Some(status) = self.child.try_wait().unwrap() {
                return Some(status);
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        None
    }
}

pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// The `sou` binary on `port`, its data in `dir` (or on `db`), with `env` on top of the
/// test's settings; once it answers `/healthz`.
pub async fn start(
    dir: &std::path::Path,
    port: u16,
    db: Option<&FreshDatabase>,
    env: &[(&str, &str)],
) -> Server {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_sou"));
    cmd.env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("SOU_CONFIG", dir.join("none.toml"))
        .env("SOU_ADDR", format!("127.0.0.1:{port}"))
        .env("SOU_DATA_DIR", dir)
        .env("SOU_LOG", "warn")
        .env("SOU_DEMO_PER_ADDRESS", "100")
        .env("LEPTOS_OUTPUT_NAME", "sou")
        .env("LEPTOS_SITE_ROOT", dir.join("site"))
        .env("LEPTOS_SITE_PKG_DIR", "pkg")
        .stdout(Stdio::null())
        .stderr(Stdio::inherit());
    for (k, v) in env {
        cmd.env(k, v);
    }
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
pub async fn chat(client: &reqwest::Client, base: &str, cookie: &str, body: Value) -> Vec<Value> {
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

/// A form posted from the site's own page (`url`, `body` already encoded).
pub async fn post_form(client: &reqwest::Client, url: String, body: String) -> reqwest::Response {
    client
        .post(url)
        .header("sec-fetch-site", "same-origin")
        .header("content-type", "application/x-www-form-urlencoded")
        .body(body)
        .send()
        .await
        .unwrap()
}

/// A demo account (with its ledger) on `base`: its session cookie.
pub async fn demo_cookie(client: &reqwest::Client, base: &str) -> String {
    let res = post_form(client, format!("{base}/auth/demo"), String::new()).await;
    res.headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|c| c.starts_with("sou_session="))
        .and_then(|c| c.split(';').next())
        .expect("a session")
        .to_string()
}

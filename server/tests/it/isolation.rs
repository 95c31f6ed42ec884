//! Tenant isolation through the HTTP edge: identities (the owner, another user, no one)
//! × every object a user owns (conversation, its messages and stream, provider key,
//! model choice, API token, settings, the ledger through the tools) × every operation
//! (read, list, rename, delete, chat into, revoke, use). Another user gets a 404 or
//! their own data, never the owner's; no one gets a 401 or the sign-in page. Each
//! response is searched for everything that identifies the owner's data.
//!
//! Prints the matrix; fails on any leak or any change made to the owner's data.

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use axum::response::IntoResponse;
use axum::Router;
use backend::llm::catalog::ProviderId;
use backend::Vault;
use backend::{LlmConfig, Providers};
use backend::{Sou, Store, UserId};
use serde_json::{json, Value};

use crate::support;
use crate::support::{post_json, send, Signed};

/// What identifies the owner's data: none of it may reach anyone else.
struct Secrets {
    conversation: String,
    title: &'static str,
    message: &'static str,
    label: &'static str,
    token_label: &'static str,
    token_prefix: String,
    key_last4: &'static str,
}

const TITLE: &str = "Projet Alpaga confidentiel";
const MESSAGE: &str = "Combien j'ai dépensé en courses en janvier 2026 ? alpaga-5521";
const A_LABEL: &str = "CB ALPACA SHOP 15/01";
const B_LABEL: &str = "CB ZEBRA BAKERY 15/01";
const TOKEN_LABEL: &str = "alpaga-cle-script";
const KEY: &str = "sk-owner-alpaga-Q7W3";

fn server_fn(endpoint: &str, form: &str) -> Request<Body> {
    Request::post(format!("/api/{endpoint}"))
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .header(header::ACCEPT, "application/json")
        .body(Body::from(form.to_string()))
        .unwrap()
}

fn page(uri: &str) -> Request<Body> {
    Request::get(uri).body(Body::empty()).unwrap()
}

fn chat_form(conversation: &str) -> Request<Body> {
    Request::post("/chat")
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(Body::from(format!("message=et+en+f%C3%A9vrier+%3F&conversation_id={conversation}")))
        .unwrap()
}

fn list_january(text: &str) -> Value {
    json!({"message": "my transactions", "plan": {"tool": "list_transactions", "args": {
        "period": {"start": "2026-01-01", "end": "2026-02-01", "label": "January 2026"},
        "text": text, "limit": 500
    }}})
}

/// One distinctive transaction, so each ledger can be told from the other.
async fn add_transaction(store: &Store, user: UserId, label: &str, minor: i64) {
    let mut db = store.tenant(user).await.unwrap();
    sqlx::query(
        "INSERT INTO transactions (user_id, account_id, date, amount_minor, currency, raw_label, dedupe_hash)
         SELECT $1, id, '2026-01-15', $2, 'EUR', $3, $3 FROM accounts WHERE user_id = $1 ORDER BY id LIMIT 1",
    )
    .bind(user.0)
    .bind(minor)
    .bind(label)
    .execute(&mut *db)
    .await
    .unwrap();
    db.commit().await.unwrap();
}

/// A provider that accepts every key.
async fn lenient_provider() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let app = Router::new()
        .fallback(|| async { axum::Json(json!({"object": "list", "data": []})).into_response() });
    tokio::spawn(async move { axum::serve(listener, app).await });
    format!("http://{addr}/v1")
}

struct World {
    router: Router,
    store: Store,
    owner: Signed,
    other: Signed,
    secrets: Secrets,
    token: String,
    token_id: i64,
    _dir: tempfile::TempDir,
}

async fn world(store: Store) -> World {
    let dir = tempfile::tempdir().unwrap();
    let base_url = lenient_provider().await;
    let mut config = LlmConfig::default();
    config.providers.get_mut(&ProviderId::Openai).unwrap().base_url = base_url;
    let providers = Providers::new(config, Vault::from_key([9; 32])).unwrap();
    let sou = Sou::new(store.clone(), chrono_tz::Europe::Paris).with_providers(providers);
    let owner = support::sign_up(&sou, "owner").await;
    let other = support::sign_up(&sou, "other").await;
    add_transaction(&store, owner.user, A_LABEL, -12_345).await;
    add_transaction(&store, other.user, B_LABEL, -98_765).await;
    let router = support::app_router(sou.clone(), dir.path());

    // The owner's objects, made through the same routes a browser uses.
    let (status, _, sse) =
        send(&router, Some(&owner), post_json("/api/v1/chat", json!({"message": MESSAGE}))).await;
    assert_eq!(status, StatusCode::OK, "{sse}");
    let conversation = sse.split("\"conversation_id\":\"").nth(1).unwrap()[..32].to_string();
    let renamed = format!("id={conversation}&title={}", TITLE.replace(' ', "+"));
    assert_eq!(
        send(&router, Some(&owner), server_fn("rename_conversation", &renamed)).await.0,
        StatusCode::OK
    );
    let (status, _, body) =
        send(&router, Some(&owner), server_fn("save_key", &format!("provider=openai&key={KEY}"))).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, _, body) =
        send(&router, Some(&owner), server_fn("choose_model", "provider=openai&model=owner-model-x")).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, _, body) =
        send(&router, Some(&owner), server_fn("create_token", &format!("label={TOKEN_LABEL}"))).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let created: Value = serde_json::from_str(&body).unwrap();
    let token = created["token"].as_str().unwrap().to_string();
    let token_id = created["id"].as_i64().unwrap();

    let secrets = Secrets {
        conversation,
        title: TITLE,
        message: "alpaga-5521",
        // Not just "ALPACA": that is what the others search for, and their query is echoed.
        label: "ALPACA SHOP",
        token_label: TOKEN_LABEL,
        token_prefix: token[..12].to_string(),
        key_last4: "Q7W3",
    };
    World { router, store, owner, other, secrets, token, token_id, _dir: dir }
}

impl Secrets {
    /// The owner's secrets found in `body`.
    fn found_in(&self, body: &str) -> Vec<&str> {
        [
            self.conversation.as_str(),
            self.title,
            self.message,
            self.label,
            self.token_label,
            self.token_prefix.as_str(),
            self.key_last4,
        ]
        .into_iter()
        .filter(|s| body.contains(s))
        .collect()
    }
}

/// What the owner's data looks like, to compare before and after the others tried.
async fn snapshot(store: &Store, user: UserId) -> Vec<String> {
    let queries = [
        "SELECT id || ':' || title FROM conversations WHERE user_id = $1 ORDER BY id",
        "SELECT COUNT(*) || ' messages' FROM messages WHERE user_id = $1",
        "SELECT provider FROM provider_keys WHERE user_id = $1 ORDER BY provider",
        "SELECT provider || ':' || COALESCE(model, '') FROM llm_choices WHERE user_id = $1",
        "SELECT label FROM api_tokens WHERE user_id = $1 ORDER BY id",
        "SELECT COUNT(*) || ' transactions' FROM transactions WHERE user_id = $1",
        "SELECT COUNT(*) || ' sessions' FROM sessions WHERE user_id = $1",
    ];
    let mut db = store.tenant(user).await.unwrap();
    let mut all = Vec::new();
    for q in queries {
        let rows: Vec<String> = sqlx::query_scalar(q).bind(user.0).fetch_all(&mut *db).await.unwrap();
        all.extend(rows);
    }
    db.commit().await.unwrap();
    all
}

/// A request to try as each identity.
enum Req {
    Page(String),
    /// A server function and its form body.
    Fn(&'static str, String),
    Json(&'static str, Value),
    ChatForm(String),
}

impl Req {
    fn build(&self) -> Request<Body> {
        match self {
            Req::Page(uri) => page(uri),
            Req::Fn(endpoint, form) => server_fn(endpoint, form),
            Req::Json(uri, body) => post_json(uri, body.clone()),
            Req::ChatForm(conversation) => chat_form(conversation),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Want {
    /// 404, whatever the body.
    NotFound,
    /// A 2xx or 3xx answer about the caller's own data.
    Own,
}

backend::on_both_databases!(
    no_one_reaches_what_is_not_theirs_on_sqlite,
    no_one_reaches_what_is_not_theirs_on_postgres,
    |store| no_one_reaches_what_is_not_theirs(store)
);

async fn no_one_reaches_what_is_not_theirs(store: Store) {
    let dialect = store.dialect();
    let w = world(store).await;
    let c = w.secrets.conversation.clone();
    // (object, operation, request, what another user gets)
    let id = w.token_id;
    let probes = [
        ("conversation", "read page", Want::NotFound, Req::Page(format!("/c/{c}"))),
        ("conversation", "read data", Want::NotFound, Req::Fn("page", format!("conversation_id={c}"))),
        ("conversation", "list", Want::Own, Req::Fn("history", String::new())),
        (
            "conversation",
            "rename",
            Want::NotFound,
            Req::Fn("rename_conversation", format!("id={c}&title=pwned")),
        ),
        ("conversation", "delete", Want::NotFound, Req::Fn("delete_conversation", format!("id={c}&back=/"))),
        (
            "message stream",
            "chat into (API)",
            Want::NotFound,
            Req::Json("/api/v1/chat", json!({"message": "et en février ?", "conversation_id": c})),
        ),
        ("message stream", "chat into (form)", Want::NotFound, Req::ChatForm(c.clone())),
        ("ledger", "list via tool", Want::Own, Req::Json("/api/v1/chat", list_january(""))),
        ("ledger", "search via tool", Want::Own, Req::Json("/api/v1/chat", list_january("ALPACA"))),
        (
            "ledger",
            "plan with vocabulary",
            Want::Own,
            Req::Json("/api/v1/plan", json!({"message": "dépenses ALPACA janvier 2026"})),
        ),
        ("settings", "read page", Want::Own, Req::Page("/settings".into())),
        ("settings", "read data", Want::Own, Req::Fn("settings", String::new())),
        ("provider key", "delete", Want::Own, Req::Fn("delete_key", "provider=openai".into())),
        ("model choice", "change", Want::Own, Req::Fn("choose_model", "provider=openai&model=pwned".into())),
        ("api token", "revoke", Want::NotFound, Req::Fn("revoke_token", format!("id={id}"))),
        ("api token", "reveal", Want::Own, Req::Fn("settings", format!("reveal={id}"))),
    ];

    let before = snapshot(&w.store, w.owner.user).await;
    let mut leaks = Vec::new();
    println!("{:<9}{:<16} {:<22} {:>7} {:>9}", "database", "object", "operation", "other", "anonymous");
    for (object, op, want, req) in &probes {
        let (status, _, body) = send(&w.router, Some(&w.other), req.build()).await;
        let ok = match want {
            Want::NotFound => status == StatusCode::NOT_FOUND,
            Want::Own => status.is_success() || status.is_redirection(),
        };
        if !ok {
            leaks.push(format!("{object} / {op}: another user got {status}, wanted {want:?}"));
        }
        for s in w.secrets.found_in(&body) {
            leaks.push(format!("{object} / {op}: another user saw {s:?}"));
        }
        let (anon, headers, body) = send(&w.router, None, req.build()).await;
        let to_login = anon == StatusCode::SEE_OTHER
            && headers.get(header::LOCATION).is_some_and(|l| l.to_str().unwrap_or("").starts_with("/login"));
        if !(anon == StatusCode::UNAUTHORIZED || to_login) {
            leaks.push(format!("{object} / {op}: no one got {anon}"));
        }
        for s in w.secrets.found_in(&body) {
            leaks.push(format!("{object} / {op}: no one saw {s:?}"));
        }
        println!(
            "{:<9}{object:<16} {op:<22} {:>7} {:>9}",
            format!("{dialect:?}"),
            status.as_u16(),
            anon.as_u16()
        );
    }
    assert_eq!(snapshot(&w.store, w.owner.user).await, before, "the others changed nothing of the owner's");

    // The other user's own ledger answers with their transaction, not the owner's.
    let (_, _, sse) =
        send(&w.router, Some(&w.other), post_json("/api/v1/chat", list_january("BAKERY"))).await;
    assert!(sse.contains("ZEBRA") && !sse.contains("ALPACA"), "{sse}");
    // A forged or revoked bearer token reaches nothing.
    for token in ["sou_pat_forged", "not-even-a-token", ""] {
        let req = Request::post("/api/v1/plan")
            .header(header::AUTHORIZATION, format!("Bearer {token}"))
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(r#"{"message": "courses janvier 2026"}"#))
            .unwrap();
        let (status, _, body) = send(&w.router, None, req).await;
        if status != StatusCode::UNAUTHORIZED {
            leaks.push(format!("bearer {token:?}: got {status}: {body}"));
        }
    }

    // The owner still reaches everything, and the token acts as the owner.
    let (status, _, html) = send(&w.router, Some(&w.owner), page(&format!("/c/{c}"))).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains(TITLE) && html.contains("alpaga-5521"));
    let (_, _, sse) =
        send(&w.router, Some(&w.owner), post_json("/api/v1/chat", list_january("ALPACA"))).await;
    assert!(sse.contains("ALPACA") && !sse.contains("ZEBRA"), "{sse}");
    let (_, _, body) = send(&w.router, Some(&w.owner), server_fn("settings", "")).await;
    assert!(body.contains(TOKEN_LABEL) && body.contains("Q7W3") && body.contains("owner-model-x"), "{body}");
    let bearer = |token: &str| {
        Request::post("/api/v1/chat")
            .header(header::AUTHORIZATION, format!("Bearer {token}"))
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(list_january("ALPACA").to_string()))
            .unwrap()
    };
    let (status, _, sse) = send(&w.router, None, bearer(&w.token)).await;
    assert_eq!(status, StatusCode::OK);
    assert!(sse.contains("ALPACA"), "the token is the owner's");
    assert_eq!(
        send(&w.router, Some(&w.owner), server_fn("revoke_token", &format!("id={}", w.token_id))).await.0,
        StatusCode::OK
    );
    assert_eq!(send(&w.router, None, bearer(&w.token)).await.0, StatusCode::UNAUTHORIZED, "revoked");
    assert_eq!(
        send(&w.router, Some(&w.owner), server_fn("delete_conversation", &format!("id={c}&back=/"))).await.0,
        StatusCode::OK
    );
    assert_eq!(send(&w.router, Some(&w.owner), page(&format!("/c/{c}"))).await.0, StatusCode::NOT_FOUND);

    println!("{dialect:?}: {} probes × 2 identities, {} leaks", probes.len(), leaks.len());
    assert!(leaks.is_empty(), "leaks:\n{}", leaks.join("\n"));
}

#[tokio::test]
async fn cross_site_writes_are_refused_and_sessions_end() {
    let dir = tempfile::tempdir().unwrap();
    let w = world(Store::open_in(dir.path()).await.unwrap()).await;
    let before = snapshot(&w.store, w.owner.user).await;
    let c = &w.secrets.conversation;
    for (name, value) in
        [("origin", "https://evil.example"), ("origin", "null"), ("sec-fetch-site", "cross-site")]
    {
        let mut req = server_fn("delete_conversation", &format!("id={c}&back=/"));
        req.headers_mut().insert(name, value.parse().unwrap());
        req.headers_mut().insert(header::HOST, "127.0.0.1:3000".parse().unwrap());
        let (status, _, body) = send(&w.router, Some(&w.owner), req).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{name}: {value}: {body}");
        assert!(body.contains("cross_origin"));
    }
    // The same request from the page itself goes through.
    let mut req = server_fn("rename_conversation", &format!("id={c}&title=Same+site"));
    req.headers_mut().insert("origin", "http://127.0.0.1:3000".parse().unwrap());
    req.headers_mut().insert(header::HOST, "127.0.0.1:3000".parse().unwrap());
    assert_eq!(send(&w.router, Some(&w.owner), req).await.0, StatusCode::OK);
    assert_ne!(snapshot(&w.store, w.owner.user).await, before);

    // Signing out ends the session on the server: the old cookie is worthless.
    let logout = Request::post("/auth/logout").body(Body::empty()).unwrap();
    let (status, headers, _) = send(&w.router, Some(&w.owner), logout).await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    assert!(headers[header::SET_COOKIE].to_str().unwrap().contains("Max-Age=0"));
    let (status, headers, body) = send(&w.router, Some(&w.owner), page("/settings")).await;
    assert_eq!(status, StatusCode::SEE_OTHER, "{body}");
    assert!(headers[header::LOCATION].to_str().unwrap().starts_with("/login?next=%2Fsettings"));
    assert!(w.secrets.found_in(&body).is_empty());
}

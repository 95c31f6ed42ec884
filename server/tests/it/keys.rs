//! Provider keys never leave the server: with an OpenAI key in the environment (a
//! canary) and a provider that rejects keys and echoes them in its errors, the key
//! appears in no page, no server-function response and no SSE frame, and a rejected
//! key typed in Settings is neither saved nor sent back.

use axum::body::Body;
use axum::extract::Request;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Router;
use backend::llm::catalog::ProviderId;
use backend::Vault;
use backend::{LlmConfig, Providers};
use backend::{Sou, Store};
use secrecy::SecretString;

use crate::support;

const CANARY: &str = "sk-canary-routes-3b8e1f0a7c";
const TYPED: &str = "mk-canary-typed-6d2c9e4f11";

/// A provider that refuses every key and repeats it back, as a careless one might.
async fn hostile(req: Request) -> Response {
    let auth = req.headers().get("authorization").and_then(|v| v.to_str().ok()).unwrap_or("").to_string();
    let status = if req.uri().path().ends_with("/models") {
        StatusCode::UNAUTHORIZED
    } else {
        StatusCode::INTERNAL_SERVER_ERROR
    };
    (status, format!("{{\"error\": {{\"message\": \"bad credentials: {auth}\"}}}}")).into_response()
}

async fn app() -> (Router, support::Signed, tempfile::TempDir) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, Router::new().fallback(hostile)).await });

    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_in(dir.path()).await.unwrap();
    let mut config = LlmConfig { default_provider: Some(ProviderId::Openai), ..LlmConfig::default() };
    for id in [ProviderId::Openai, ProviderId::Mistral] {
        config.providers.get_mut(&id).unwrap().base_url = format!("http://{addr}/v1");
    }
    config.providers.get_mut(&ProviderId::Openai).unwrap().env_key = Some(SecretString::from(CANARY));
    let providers = Providers::new(config, Vault::from_key([5; 32])).unwrap();
    let sou = Sou::new(store, chrono_tz::Europe::Paris).with_providers(providers);
    let who = support::sign_up(&sou, "alice").await;
    (support::app_router(sou, dir.path()), who, dir)
}

fn form(uri: &str, body: &str) -> Request<Body> {
    Request::post(uri)
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .header(header::ACCEPT, "application/json")
        .header(header::ACCEPT_LANGUAGE, "en")
        .body(Body::from(body.to_string()))
        .unwrap()
}

fn assert_clean(what: &str, body: &str) {
    for secret in [CANARY, TYPED, &CANARY[CANARY.len() - 8..], &TYPED[TYPED.len() - 8..]] {
        assert!(!body.contains(secret), "{what} carries a key: {body}");
    }
}

#[tokio::test]
async fn keys_appear_in_no_page_server_function_or_stream() {
    let (app, who, _dir) = app().await;
    let send = |app: &Router, req| {
        let (app, who) = (app.clone(), who.clone());
        async move {
            let (status, _, body) = support::send(&app, Some(&who), req).await;
            (status, body)
        }
    };

    let (status, html) = send(&app, Request::get("/settings").body(Body::empty()).unwrap()).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains(&format!("••••{}", &CANARY[CANARY.len() - 4..])), "the last four are shown");
    assert_clean("the settings page", &html);

    let (status, body) = send(&app, form("/api/settings", "")).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert!(body.contains("\"last4\""), "{body}");
    assert_clean("load_settings", &body);

    // A rejected key: a clear error, not saved, not echoed (the provider echoed it).
    let (status, body) = send(&app, form("/api/save_key", &format!("provider=mistral&key={TYPED}"))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(body.contains("rejected the API key"), "{body}");
    assert_clean("save_key's error", &body);
    let (_, body) = send(&app, form("/api/settings", "")).await;
    assert!(!body.contains("\"saved\""), "a rejected key is not saved: {body}");

    // A free-form question with the provider failing and echoing the key.
    let req = Request::post("/api/v1/chat")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(r#"{"message": "Should I cancel Netflix?"}"#))
        .unwrap();
    let (status, sse) = send(&app, req).await;
    assert_eq!(status, StatusCode::OK);
    assert!(sse.contains("provider_unavailable"), "{sse}");
    assert_clean("the chat stream", &sse);
}

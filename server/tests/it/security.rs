//! What every response says to the browser (security headers, the page's nonce), where
//! a sign-in may send it back to, and how the server answers malformed input: each
//! test here failed before the fix it names.

use axum::body::Body;
use axum::http::{header, HeaderMap, Request, StatusCode};
use axum::Router;
use backend::{Sou, Store};
use leptos::prelude::LeptosOptions;
use serde_json::json;

use crate::support;
use crate::support::{location, send, Signed};

struct TestApp {
    _dir: tempfile::TempDir,
    sou: Sou,
    who: Signed,
    router: Router,
}

async fn app(trust_proxy: bool) -> TestApp {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("pkg")).unwrap();
    std::fs::write(dir.path().join("pkg/sou.css"), "body { color: black }").unwrap();
    let store = Store::open_in(dir.path()).await.unwrap();
    let sou = Sou::new(store, chrono_tz::Europe::Paris);
    let who = support::sign_up(&sou, "alice").await;
    let leptos_options = LeptosOptions::builder()
        .output_name("sou")
        .site_root(dir.path().to_string_lossy().to_string())
        .build();
    let router = server::router(server::AppState { leptos_options, sou: sou.clone(), trust_proxy });
    TestApp { _dir: dir, sou, who, router }
}

fn get(uri: &str) -> Request<Body> {
    Request::get(uri).header(header::ACCEPT_LANGUAGE, "en-GB,en;q=0.9").body(Body::empty()).unwrap()
}

fn server_fn(endpoint: &str, body: impl Into<Body>) -> Request<Body> {
    Request::post(format!("/api/{endpoint}"))
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .header(header::ACCEPT, "application/json")
        .header("sec-fetch-site", "same-origin")
        .body(body.into())
        .unwrap()
}

fn text<'a>(h: &'a HeaderMap, name: &str) -> &'a str {
    h.get(name).and_then(|v| v.to_str().ok()).unwrap_or("")
}

/// The headers every answer carries, whatever it is.
fn assert_hardened(what: &str, h: &HeaderMap) {
    let csp = text(h, "content-security-policy");
    for directive in [
        "script-src 'self' 'nonce-",
        "'wasm-unsafe-eval'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ] {
        assert!(csp.contains(directive), "{what}: {directive} missing from {csp:?}");
    }
    assert!(!csp.contains("unsafe-eval'") || csp.contains("wasm-unsafe-eval"), "{what}: {csp}");
    assert_eq!(text(h, "x-content-type-options"), "nosniff", "{what}");
    assert_eq!(text(h, "referrer-policy"), "same-origin", "{what}");
    assert_eq!(text(h, "x-frame-options"), "DENY", "{what}");
}

/// The CSP's nonce, which every script of the page must carry.
fn nonce(h: &HeaderMap) -> String {
    let csp = text(h, "content-security-policy");
    let start = csp.find("'nonce-").unwrap() + "'nonce-".len();
    csp[start..].split('\'').next().unwrap().to_string()
}

#[tokio::test]
async fn every_answer_carries_the_security_headers() {
    let app = app(false).await;
    let who = Some(&app.who);
    let (status, h, body) = send(&app.router, who, get("/")).await;
    assert_eq!(status, StatusCode::OK);
    assert_hardened("the chat page", &h);
    // The page's inline scripts carry the nonce the policy names, and no other.
    let n = nonce(&h);
    assert!(n.len() >= 16, "{n}");
    let scripts: Vec<&str> = body.split("<script").skip(1).collect();
    assert!(!scripts.is_empty(), "the page has its hydration script");
    for s in &scripts {
        assert!(
            s.starts_with(&format!(" nonce=\"{n}\"")) || s.contains(&format!("nonce=\"{n}\"")),
            "{s:.80}"
        );
    }
    let (_, h2, _) = send(&app.router, who, get("/")).await;
    assert_ne!(nonce(&h2), n, "a nonce is drawn per response");

    let (_, h, _) = send(&app.router, None, get("/login")).await;
    assert_hardened("the sign-in page", &h);
    let (status, h, _) = send(&app.router, who, get("/no/such/page")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_hardened("a missing page", &h);
    let (status, h, _) = send(&app.router, None, get("/pkg/sou.css")).await;
    assert_eq!(status, StatusCode::OK);
    assert_hardened("a static file", &h);
    let (status, h, _) = send(&app.router, who, get("/api/v1/tools")).await;
    assert_eq!(status, StatusCode::OK);
    assert_hardened("the API", &h);
    let (status, h, body) = send(
        &app.router,
        who,
        support::post_json("/api/v1/chat", json!({"message": "combien en courses en janvier 2026 ?"})),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert!(body.contains("\"done\""));
    assert_eq!(text(&h, "content-type"), "text/event-stream");
    assert_hardened("the chat stream", &h);
    let (status, h, _) = send(&app.router, None, get("/settings")).await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    assert_hardened("a redirect to sign in", &h);
    assert_eq!(text(&h, "strict-transport-security"), "", "plain HTTP: no HSTS");
}

/// A user's pages, API answers, server functions and streams are never kept by the
/// browser (Back after signing out must show nothing); the site's files are.
#[tokio::test]
async fn what_holds_a_users_data_is_never_stored() {
    let app = app(false).await;
    let who = Some(&app.who);
    for uri in ["/", "/settings", "/budgets", "/api/v1/changes", "/api/v1/usage", "/no/such/page"] {
        let (_, h, _) = send(&app.router, who, get(uri)).await;
        assert_eq!(text(&h, "cache-control"), "no-store", "{uri}");
    }
    let (status, h, _) = send(
        &app.router,
        who,
        support::post_json("/api/v1/chat", json!({"message": "combien en courses en janvier 2026 ?"})),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(text(&h, "cache-control"), "no-store", "the chat stream");
    let (_, h, _) = send(&app.router, who, server_fn("history", "")).await;
    assert_eq!(text(&h, "cache-control"), "no-store", "a server function");
    let (_, h, _) = send(&app.router, None, get("/settings")).await;
    assert_eq!(text(&h, "cache-control"), "no-store", "a redirect to sign in");
    let (status, h, _) = send(&app.router, None, get("/pkg/sou.css")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(text(&h, "cache-control"), "no-cache", "a file of the site, checked each time");
}

/// Forwarded headers say nothing unless a proxy is trusted: no HSTS, no `Secure`
/// cookie, no other origin for a write, no other client address.
#[tokio::test]
async fn forwarded_headers_count_only_behind_a_trusted_proxy() {
    let https = |req: Request<Body>| {
        let (mut parts, body) = req.into_parts();
        parts.headers.insert("x-forwarded-proto", "https".parse().unwrap());
        Request::from_parts(parts, body)
    };
    let untrusted = app(false).await;
    let (_, h, _) = send(&untrusted.router, Some(&untrusted.who), https(get("/"))).await;
    assert_eq!(text(&h, "strict-transport-security"), "");
    let demo = || {
        https(
            Request::post("/auth/demo")
                .header("origin", "https://127.0.0.1:3000")
                .header(header::HOST, "127.0.0.1:3000")
                .body(Body::empty())
                .unwrap(),
        )
    };
    let (status, _, _) = send(&untrusted.router, None, demo()).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "an https origin on a plain-HTTP server is another site");

    let trusted = app(true).await;
    let (_, h, _) = send(&trusted.router, Some(&trusted.who), https(get("/"))).await;
    assert!(text(&h, "strict-transport-security").starts_with("max-age="), "{h:?}");
    let (status, h, _) = send(&trusted.router, None, demo()).await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    assert!(text(&h, "set-cookie").contains("; Secure"), "{h:?}");
}

/// A write whose `Origin` has this host but another scheme comes from another site.
#[tokio::test]
async fn the_origin_check_compares_the_scheme() {
    let app = app(false).await;
    let post = |origin: &'static str| {
        Request::post("/api/rename_conversation")
            .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
            .header("origin", origin)
            .header(header::HOST, "127.0.0.1:3000")
            .body(Body::from("id=x&title=y"))
            .unwrap()
    };
    let (status, _, _) = send(&app.router, Some(&app.who), post("https://127.0.0.1:3000")).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _, _) = send(&app.router, Some(&app.who), post("http://127.0.0.1:3000")).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "same origin: on to the function (no such conversation)");
}

/// `/datasets?sql=` is shown in the page's text field as text, never as markup.
#[tokio::test]
async fn a_query_in_the_address_is_text_in_the_page() {
    let app = app(false).await;
    let attack = "</textarea><script>window.pwned=1</script><img src=x onerror=alert(1)>";
    let uri = format!(
        "/datasets?{}",
        form_urlencoded::Serializer::new(String::new()).append_pair("sql", attack).finish()
    );
    let (status, _, body) = send(&app.router, Some(&app.who), get(&uri)).await;
    assert_eq!(status, StatusCode::OK);
    assert!(!body.contains("<script>window.pwned"), "the query became markup");
    assert!(!body.contains("<img src=x"), "the query became markup");
    assert!(
        body.contains("&lt;/textarea&gt;&lt;script&gt;window.pwned=1&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;</textarea>"),
        "the query is the field's text"
    );
}

/// A conversation's title (the user's text) names the page: in `<title>` it is text,
/// and so is the example a `?q=` puts in the message box.
#[tokio::test]
async fn a_title_and_an_example_are_text_in_the_page() {
    let app = app(false).await;
    let attack = "</title><script>window.pwned=1</script><img src=x onerror=alert(1)>";
    // A conversation without a plan (a clarification) is named after its title.
    let (status, _, sse) =
        send(&app.router, Some(&app.who), support::post_json("/api/v1/chat", json!({"message": "bonjour"})))
            .await;
    assert_eq!(status, StatusCode::OK, "{sse}");
    let id = sse.split("\"conversation_id\":\"").nth(1).unwrap()[..32].to_string();
    let form = form_urlencoded::Serializer::new(String::new())
        .append_pair("id", &id)
        .append_pair("title", attack)
        .finish();
    let (status, _, body) = send(&app.router, Some(&app.who), server_fn("rename_conversation", form)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, _, body) = send(&app.router, Some(&app.who), get(&format!("/c/{id}"))).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        !body.contains("<script>window.pwned") && !body.contains("<img src=x"),
        "the title became markup"
    );
    assert!(
        body.contains("<title>&lt;/title&gt;&lt;script&gt;window.pwned=1&lt;/script&gt;"),
        "the title is the page's title, as text: {}",
        body.split("<title>").nth(1).unwrap_or_default().split("</title>").next().unwrap_or_default()
    );

    let uri =
        format!("/?{}", form_urlencoded::Serializer::new(String::new()).append_pair("q", attack).finish());
    let (status, _, body) = send(&app.router, Some(&app.who), get(&uri)).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        !body.contains("<script>window.pwned") && !body.contains("<img src=x"),
        "the example became markup"
    );
    assert!(body.contains("value=\"&lt;/title&gt;"), "the example is the message box's value");
}

/// After signing in, and after deleting a conversation, the browser goes to a page of
/// this site whatever `next` or `back` says, and a header-breaking `next` is no 500.
#[tokio::test]
async fn sign_in_and_delete_go_back_only_to_this_site() {
    let app = app(false).await;
    let log_in = |next: &str| {
        let body = form_urlencoded::Serializer::new(String::new())
            .append_pair("name", "alice")
            .append_pair("password", "correct horse battery staple")
            .append_pair("next", next)
            .finish();
        support::same_site_form("/auth/login", &body)
    };
    for (next, expected) in [
        ("/\t/evil.example", "/"),
        ("/\n/evil.example", "/"),
        ("\\/evil.example", "/"),
        ("/.//evil.example", "/"),
        ("https://evil.example/", "/"),
        ("/x\r\nSet-Cookie: a=b", "/xSet-Cookie:%20a=b"),
        ("/datasets?sql=SELECT%201", "/datasets?sql=SELECT%201"),
    ] {
        let (status, h, _) = send(&app.router, None, log_in(next)).await;
        assert_eq!(status, StatusCode::SEE_OTHER, "{next:?}");
        assert_eq!(location(&h), expected, "{next:?}");
    }

    let req = backend::ChatRequest {
        message: "combien en courses en janvier 2026 ?".into(),
        conversation_id: None,
        plan: None,
        locale: None,
    };
    let stream = app.sou.chat(app.who.user, req).await.unwrap();
    let id = stream.conversation_id.clone();
    futures::StreamExt::for_each(stream.events, |_| async {}).await;
    let body = format!("id={id}&back=%2F%09%2Fevil.example");
    let mut req = server_fn("delete_conversation", body);
    req.headers_mut().insert(header::ACCEPT, "text/html".parse().unwrap());
    let (status, h, _) = send(&app.router, Some(&app.who), req).await;
    assert!(status.is_redirection(), "{status}");
    assert_eq!(location(&h), "/");
}

/// Malformed input to a server function is the caller's mistake (4xx), never a 500.
#[tokio::test]
async fn malformed_server_function_input_is_a_4xx() {
    let app = app(false).await;
    let who = Some(&app.who);
    let (status, _, body) = send(&app.router, who, server_fn("revoke_token", "id=seven")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    let (status, _, _) = send(&app.router, who, server_fn("revoke_token", "")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, _, _) = send(&app.router, who, server_fn("rename_conversation", "id=a&title=%FF%FE")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, _, _) =
        send(&app.router, who, server_fn("rename_conversation", &b"id=a&title=\xff"[..])).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let big = format!("id=a&title={}", "a".repeat(30 << 20));
    let (status, _, _) = send(&app.router, who, server_fn("rename_conversation", big)).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    // Well-formed input still reaches the function.
    let (status, _, _) = send(&app.router, who, server_fn("rename_conversation", "id=a&title=b")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

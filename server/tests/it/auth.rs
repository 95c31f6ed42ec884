//! Signing in over HTTP: the forms, the cookie's attributes, where each kind of
//! anonymous request is sent, the demo and its limit per address, the log-in rate
//! limit as a browser sees it, and names refused at sign-up.

use std::net::SocketAddr;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{header, HeaderMap, Request, StatusCode};
use axum::Router;
use backend::{Sou, Store};

use crate::support;
use crate::support::{send, Signed};

async fn app() -> (Router, Sou, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_in(dir.path()).await.unwrap();
    let sou = Sou::new(store, chrono_tz::Europe::Paris);
    (support::app_router(sou.clone(), dir.path()), sou, dir)
}

fn form(uri: &str, body: &str) -> Request<Body> {
    Request::post(uri)
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .header(header::ACCEPT_LANGUAGE, "en")
        .body(Body::from(body.to_string()))
        .unwrap()
}

/// A page as an English browser asks for it.
fn english_page(uri: &str) -> Request<Body> {
    Request::get(uri).header(header::ACCEPT_LANGUAGE, "en").body(Body::empty()).unwrap()
}

fn location(headers: &HeaderMap) -> &str {
    headers.get(header::LOCATION).and_then(|v| v.to_str().ok()).unwrap_or("")
}

fn max_age(set_cookie: &str) -> i64 {
    set_cookie.split("Max-Age=").nth(1).and_then(|v| v.split(';').next()).unwrap().parse().unwrap()
}

/// The session a `Set-Cookie` gave, as the next request's `Cookie`.
fn signed_from(headers: &HeaderMap) -> Signed {
    let set = headers[header::SET_COOKIE].to_str().unwrap();
    Signed { user: backend::UserId(0), cookie: set.split(';').next().unwrap().to_string() }
}

#[tokio::test]
async fn sign_up_then_in_and_out_through_the_forms() {
    let (router, _sou, _dir) = app().await;

    // The sign-in page is public and English for an English browser.
    let (status, _, html) = send(&router, None, english_page("/login")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("action=\"/auth/login\"") && html.contains("Try the demo"), "{html}");

    // Sign-up errors come back to the form with the name kept, never the password.
    let (status, headers, _) = send(
        &router,
        None,
        form("/auth/signup", "name=Alice&password=correct+horse+1&confirm=other+horse+2"),
    )
    .await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    assert_eq!(location(&headers), "/signup?error=password_mismatch&name=Alice");
    let (_, headers, _) =
        send(&router, None, form("/auth/signup", "name=Alice&password=short&confirm=short")).await;
    assert_eq!(location(&headers), "/signup?error=password_short&name=Alice");
    let (status, _, html) = send(&router, None, english_page(location(&headers))).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        html.contains("The password needs at least 10 characters.") && html.contains("value=\"Alice\""),
        "{html}"
    );

    let (status, headers, _) = send(
        &router,
        None,
        form("/auth/signup", "name=Alice&password=correct+horse+1&confirm=correct+horse+1"),
    )
    .await;
    assert_eq!((status, location(&headers)), (StatusCode::SEE_OTHER, "/"));
    let cookie = headers[header::SET_COOKIE].to_str().unwrap();
    for attribute in ["sou_session=", "HttpOnly", "SameSite=Lax", "Path=/"] {
        assert!(cookie.contains(attribute), "{attribute} missing: {cookie}");
    }
    assert!((2_591_990..=2_592_000).contains(&max_age(cookie)), "30 days: {cookie}");
    assert!(!cookie.contains("Secure"), "plain HTTP: no Secure, or the browser would drop it");
    let alice = signed_from(&headers);
    let (status, _, html) = send(&router, Some(&alice), Request::get("/").body(Body::empty()).unwrap()).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("data-testid=\"account\"") && html.contains("alice"), "signed in as alice");
    // Signed in, the sign-in page sends you home.
    let (status, headers, _) =
        send(&router, Some(&alice), Request::get("/login").body(Body::empty()).unwrap()).await;
    assert_eq!((status, location(&headers)), (StatusCode::SEE_OTHER, "/"));
    let (_, headers, _) =
        send(&router, None, form("/auth/signup", "name=alice&password=another+one+9&confirm=another+one+9"))
            .await;
    assert_eq!(location(&headers), "/signup?error=name_taken&name=alice");

    // Log in again, going back to where the sign-in page was asked from.
    let (status, headers, _) =
        send(&router, None, form("/auth/login", "name=ALICE&password=correct+horse+1&next=%2Fsettings"))
            .await;
    assert_eq!((status, location(&headers)), (StatusCode::SEE_OTHER, "/settings"));
    let again = signed_from(&headers);
    // Only same-site paths are followed.
    let (_, headers, _) = send(
        &router,
        None,
        form("/auth/login", "name=alice&password=correct+horse+1&next=https%3A%2F%2Fevil.example"),
    )
    .await;
    assert_eq!(location(&headers), "/");

    // Out: that session ends, the other one lives on.
    let (status, headers, _) = send(&router, Some(&again), form("/auth/logout", "")).await;
    assert_eq!((status, location(&headers)), (StatusCode::SEE_OTHER, "/login"));
    assert_eq!(
        send(&router, Some(&again), Request::get("/").body(Body::empty()).unwrap()).await.0,
        StatusCode::SEE_OTHER
    );
    assert_eq!(
        send(&router, Some(&alice), Request::get("/").body(Body::empty()).unwrap()).await.0,
        StatusCode::OK
    );
}

#[tokio::test]
async fn the_anonymous_are_sent_to_sign_in_by_kind_of_request() {
    let (router, _sou, _dir) = app().await;
    let get = |uri: &str| Request::get(uri).body(Body::empty()).unwrap();
    let (status, headers, _) = send(&router, None, get("/c/abc?x=1")).await;
    assert_eq!((status, location(&headers)), (StatusCode::SEE_OTHER, "/login?next=%2Fc%2Fabc%3Fx%3D1"));
    let (status, headers, _) = send(&router, None, get("/")).await;
    assert_eq!((status, location(&headers)), (StatusCode::SEE_OTHER, "/login"));
    let (status, _, body) = send(&router, None, get("/api/v1/tools")).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert!(body.contains("\"code\":\"unauthorized\""), "{body}");
    // Server functions answer in their own error format.
    let (status, _, body) = send(&router, None, form("/api/history", "")).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
    assert!(body.contains("Unauthorized"), "{body}");
    assert_eq!(send(&router, None, get("/healthz")).await.0, StatusCode::OK);
    // A stale cookie is cleared.
    let stale = Signed { user: backend::UserId(0), cookie: "sou_session=gone".into() };
    let (status, headers, _) = send(&router, Some(&stale), get("/settings")).await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    assert!(headers[header::SET_COOKIE].to_str().unwrap().contains("Max-Age=0"));
}

#[tokio::test]
async fn the_demo_is_one_click_and_secure_behind_https() {
    let (_, sou, dir) = app().await;
    // Behind a reverse proxy Sou is told to trust (`trust_proxy`): its word on HTTPS counts.
    let options = leptos::prelude::LeptosOptions::builder()
        .output_name("sou")
        .site_root(dir.path().to_string_lossy().to_string())
        .build();
    let router =
        server::router(server::AppState { leptos_options: options, sou: sou.clone(), trust_proxy: true });
    let req = Request::post("/auth/demo").header("x-forwarded-proto", "https").body(Body::empty()).unwrap();
    let (status, headers, _) = send(&router, None, req).await;
    assert_eq!((status, location(&headers)), (StatusCode::SEE_OTHER, "/"));
    let cookie = headers[header::SET_COOKIE].to_str().unwrap();
    assert!(cookie.contains("; Secure") && max_age(cookie) > 2_591_990, "{cookie}");
    let demo = signed_from(&headers);
    let (status, _, html) = send(&router, Some(&demo), english_page("/")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("Demo · deleted in 24 h"), "{html}");
    assert!(html.contains("Monoprix"), "the demo ledger's vocabulary is in the page");
    let n: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM transactions").fetch_one(sou.store().pool()).await.unwrap();
    assert!(n > 1000, "{n} transactions");
}

/// `req` as if it came over TCP from `ip`.
fn from(ip: [u8; 4], mut req: Request<Body>) -> Request<Body> {
    req.extensions_mut().insert(ConnectInfo(SocketAddr::from((ip, 40_000))));
    req
}

#[tokio::test]
async fn repeated_failures_slow_down_one_address_and_are_said_so() {
    let (router, sou, _dir) = app().await;
    sou.auth().sign_up("bob", &secrecy::SecretString::from("the right password")).await.unwrap();
    let attacker = [203, 0, 113, 7];
    let mut answers = Vec::new();
    for _ in 0..5 {
        let (_, headers, _) =
            send(&router, None, from(attacker, form("/auth/login", "name=bob&password=wrong+password")))
                .await;
        let retry = headers.get(header::RETRY_AFTER).map(|v| v.to_str().unwrap().to_string());
        answers.push((location(&headers).to_string(), retry));
    }
    let invalid = ("/login?error=invalid_credentials&name=bob".to_string(), None);
    assert_eq!(answers[..3], [invalid.clone(), invalid.clone(), invalid], "{answers:?}");
    // Each attempt too soon counts, and the wait said is the real one, doubling.
    let limited =
        |secs: u64| (format!("/login?error=rate_limited&name=bob&retry={secs}"), Some(secs.to_string()));
    assert_eq!(answers[3..], [limited(2), limited(4)], "{answers:?}");

    // From that address, even the right password waits, as long as the page says.
    let (status, headers, _) =
        send(&router, None, from(attacker, form("/auth/login", "name=bob&password=the+right+password")))
            .await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    assert!(headers.get(header::SET_COOKIE).is_none());
    let to = location(&headers).to_string();
    assert_eq!(to, "/login?error=rate_limited&name=bob&retry=8");
    assert_eq!(headers[header::RETRY_AFTER], "8");
    let (_, _, html) = send(
        &router,
        None,
        Request::get(&to).header(header::ACCEPT_LANGUAGE, "fr").body(Body::empty()).unwrap(),
    )
    .await;
    let said = |text: &str| html.contains(text) || html.contains(&text.replace('\'', "&#x27;"));
    assert!(said("Trop d'essais infructueux. Réessayez dans 8\u{a0}secondes."), "{html}");
    let (_, _, html) =
        send(&router, None, english_page("/login?error=rate_limited&name=bob&retry=300")).await;
    assert!(html.contains("Too many failed attempts. Try again in 5\u{a0}minutes."), "{html}");
    // …but the owner, from their own address, signs in.
    let (status, headers, _) = send(
        &router,
        None,
        from([198, 51, 100, 20], form("/auth/login", "name=bob&password=the+right+password")),
    )
    .await;
    assert_eq!((status, location(&headers)), (StatusCode::SEE_OTHER, "/"));
    assert!(headers[header::SET_COOKIE].to_str().unwrap().starts_with("sou_session="));
}

/// Twelve wrong passwords sent at once, then the right one: three are checked, the
/// others and the right one are refused with the wait.
#[tokio::test]
async fn a_burst_of_sign_ins_is_counted_whole() {
    let (router, sou, _dir) = app().await;
    sou.auth().sign_up("bob", &secrecy::SecretString::from("the right password")).await.unwrap();
    let attacker = [203, 0, 113, 9];
    let burst = (0..12).map(|_| {
        let router = router.clone();
        tokio::spawn(async move {
            let req = from(attacker, form("/auth/login", "name=bob&password=wrong+password"));
            let (_, headers, _) = send(&router, None, req).await;
            location(&headers).to_string()
        })
    });
    let answers: Vec<String> =
        futures::future::join_all(burst).await.into_iter().map(Result::unwrap).collect();
    let checked = answers.iter().filter(|a| a.contains("error=invalid_credentials")).count();
    let refused = answers.iter().filter(|a| a.contains("error=rate_limited")).count();
    assert_eq!((checked, refused), (3, 9), "{answers:?}");
    let (_, headers, _) =
        send(&router, None, from(attacker, form("/auth/login", "name=bob&password=the+right+password")))
            .await;
    assert!(location(&headers).contains("error=rate_limited"), "{headers:?}");
    assert!(headers.get(header::RETRY_AFTER).is_some());
}

#[tokio::test]
async fn one_address_starts_only_a_few_demos() {
    let (router, _sou, _dir) = app().await;
    let demo = |ip| from(ip, Request::post("/auth/demo").body(Body::empty()).unwrap());
    for _ in 0..3 {
        let (status, headers, _) = send(&router, None, demo([203, 0, 113, 7])).await;
        assert_eq!((status, location(&headers)), (StatusCode::SEE_OTHER, "/"));
    }
    let (status, headers, _) = send(&router, None, demo([203, 0, 113, 7])).await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    let to = location(&headers).to_string();
    assert!(to.starts_with("/login?error=demo_limited&retry="), "{to}");
    assert!(headers.get(header::SET_COOKIE).is_none(), "no account, no session");
    let (_, _, html) = send(&router, None, english_page(&to)).await;
    assert!(
        html.contains("Too many demos were started from your address. Try again in 60\u{a0}minutes."),
        "{html}"
    );
    assert!(headers
        .get(header::RETRY_AFTER)
        .is_some_and(|v| v.to_str().unwrap().parse::<u64>().unwrap() > 3500));
    // Another address still may.
    let (_, headers, _) = send(&router, None, demo([198, 51, 100, 20])).await;
    assert_eq!(location(&headers), "/");
}

#[tokio::test]
async fn look_alike_names_and_hidden_characters_are_refused_at_sign_up() {
    let (router, _sou, _dir) = app().await;
    let (_, headers, _) = send(
        &router,
        None,
        form("/auth/signup", "name=alice&password=correct+horse+1&confirm=correct+horse+1"),
    )
    .await;
    assert_eq!(location(&headers), "/");
    // "ＡＬＩＣＥ", full-width.
    let (_, headers, _) = send(
        &router,
        None,
        form(
            "/auth/signup",
            "name=%EF%BC%A1%EF%BC%AC%EF%BC%A9%EF%BC%A3%EF%BC%A5&password=another+one+9&confirm=another+one+9",
        ),
    )
    .await;
    assert!(location(&headers).starts_with("/signup?error=name_taken&"), "{}", location(&headers));
    // U+202E and ESC.
    for name in ["ev%E2%80%AEil", "ev%1B%5Bil"] {
        let body = format!("name={name}&password=another+one+9&confirm=another+one+9");
        let (_, headers, _) = send(&router, None, form("/auth/signup", &body)).await;
        assert!(location(&headers).starts_with("/signup?error=name_characters&"), "{}", location(&headers));
    }
}

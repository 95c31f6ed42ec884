//! Settings → Account over HTTP, on both databases: one's sessions listed with their
//! device (a short name, never the client's own words), address and last use, this
//! one marked; one ended from the list, all the others at once, this one from the list
//! (which signs this browser out); never another user's, never from another site; the
//! password changed with the current one, checked as sign-up checks it, slowed like
//! sign-in, signing out every other session; a demo account has none to change.

use std::net::SocketAddr;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{header, HeaderMap, Request, StatusCode};
use axum::Router;
use backend::{Sou, Store};

use crate::support;
use crate::support::{location, send, Signed};

const CHROME_LINUX: &str =
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const FIREFOX_WINDOWS: &str =
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0";
const PASSWORD: &str = "correct+horse+battery+1";

/// A form posted from the page itself, by a browser at `ip` saying `user_agent`.
fn post(uri: &str, body: &str, ip: [u8; 4], user_agent: &str) -> Request<Body> {
    let mut req = Request::post(uri)
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .header("sec-fetch-site", "same-origin")
        .header(header::USER_AGENT, user_agent)
        .body(Body::from(body.to_string()))
        .unwrap();
    req.extensions_mut().insert(ConnectInfo(SocketAddr::from((ip, 40_000))));
    req
}

fn page(uri: &str, language: &str) -> Request<Body> {
    Request::get(uri).header(header::ACCEPT_LANGUAGE, language).body(Body::empty()).unwrap()
}

fn signed_from(headers: &HeaderMap) -> Signed {
    let set = headers[header::SET_COOKIE].to_str().unwrap();
    Signed { user: backend::UserId(0), cookie: set.split(';').next().unwrap().to_string() }
}

/// The ids of the sessions the page offers to end.
fn end_forms(html: &str) -> Vec<String> {
    html.split("action=\"/account/sessions/")
        .skip(1)
        .filter_map(|rest| rest.split_once("/end\"").map(|(id, _)| id.to_string()))
        .collect()
}

/// The start page's status and headers for `who`: 200 signed in, else a redirect.
async fn home(router: &Router, who: &Signed) -> (StatusCode, HeaderMap, String) {
    send(router, Some(who), page("/", "en")).await
}

async fn sign_in(router: &Router, ip: [u8; 4], user_agent: &str, password: &str) -> Signed {
    let (status, headers, _) =
        send(router, None, post("/auth/login", &format!("name=alice&password={password}"), ip, user_agent))
            .await;
    assert_eq!((status, location(&headers).as_str()), (StatusCode::SEE_OTHER, "/"), "{headers:?}");
    signed_from(&headers)
}

backend::on_both_databases!(account_on_sqlite, account_on_postgres, scenario);

async fn scenario(store: Store, site: &std::path::Path) {
    let sou = Sou::new(store, chrono_tz::Europe::Paris);
    let router = support::app_router(sou.clone(), site);
    let body = format!("name=alice&password={PASSWORD}&confirm={PASSWORD}");
    let (_, headers, _) =
        send(&router, None, post("/auth/signup", &body, [203, 0, 113, 5], CHROME_LINUX)).await;
    let laptop = signed_from(&headers);
    let phone = sign_in(&router, [198, 51, 100, 7], FIREFOX_WINDOWS, PASSWORD).await;
    let odd = sign_in(&router, [192, 0, 2, 1], "<script>alert(1)</script>", PASSWORD).await;
    let bob = support::sign_up(&sou, "bob").await;

    // The list, as the laptop sees it: its own first and marked, each with its device.
    let (status, _, html) = send(&router, Some(&laptop), page("/settings/account", "en")).await;
    assert_eq!(status, StatusCode::OK, "{html}");
    assert_eq!(html.matches("data-testid=\"session\"").count(), 3, "{html}");
    assert_eq!(html.matches("data-testid=\"this-device\"").count(), 1);
    let first = html.find("data-testid=\"session\"").unwrap();
    let this: String = html[first..].chars().take(600).collect();
    assert!(
        this.contains("Chrome on Linux") && this.contains("203.0.113.5") && this.contains("this device"),
        "{this}"
    );
    assert!(this.contains("active now"), "{this}");
    assert!(html.contains("Firefox on Windows") && html.contains("198.51.100.7"), "{html}");
    assert!(html.contains("Unknown browser") && !html.contains("<script>alert"), "never the client's words");
    assert!(html.contains("last seen "), "{html}");
    assert!(html.contains("action=\"/account/password\""), "{html}");
    let others = end_forms(&html);
    assert_eq!(others.len(), 2, "{others:?}");
    let (_, _, french) = send(&router, Some(&laptop), page("/settings/account", "fr")).await;
    assert!(french.contains("Chrome sous Linux") && french.contains("cet appareil"), "{french}");
    assert!(french.contains("Déconnecter toutes les autres sessions"), "{french}");

    // Not from another site; never another user's session, nor a made-up id.
    let mut cross = post(&format!("/account/sessions/{}/end", others[0]), "", [203, 0, 113, 5], CHROME_LINUX);
    cross.headers_mut().remove("sec-fetch-site");
    cross.headers_mut().insert(header::ORIGIN, "https://evil.example".parse().unwrap());
    cross.headers_mut().insert(header::HOST, "sou.example".parse().unwrap());
    assert_eq!(send(&router, Some(&laptop), cross).await.0, StatusCode::FORBIDDEN);
    for id in [others[0].as_str(), "0123456789abcdef0123456789abcdef", "x", "..%2F..%2Fsettings"] {
        let req = post(&format!("/account/sessions/{id}/end"), "", [1, 2, 3, 4], CHROME_LINUX);
        assert_eq!(send(&router, Some(&bob), req).await.0, StatusCode::NOT_FOUND, "{id}");
    }
    assert_eq!(home(&router, &phone).await.0, StatusCode::OK, "bob ended nothing");

    // One ended from the list: that browser is signed out, the others stay.
    let firefox = {
        let at = html.find("Firefox on Windows").unwrap();
        end_forms(&html[at..])[0].clone()
    };
    let req = post(&format!("/account/sessions/{firefox}/end"), "", [203, 0, 113, 5], CHROME_LINUX);
    let (status, headers, _) = send(&router, Some(&laptop), req).await;
    assert_eq!((status, location(&headers).as_str()), (StatusCode::SEE_OTHER, "/settings/account?ended=1"));
    let (_, _, html) = send(&router, Some(&laptop), page(&location(&headers), "en")).await;
    assert!(html.contains("1 session signed out."), "{html}");
    assert_eq!(html.matches("data-testid=\"session\"").count(), 2);
    let (status, headers, _) = home(&router, &phone).await;
    assert_eq!((status, location(&headers).as_str()), (StatusCode::SEE_OTHER, "/login"));
    assert_eq!(home(&router, &odd).await.0, StatusCode::OK);

    // The password: confirmed, current, long enough; then every other session ends.
    let change = |body: &str| post("/account/password", body, [203, 0, 113, 5], CHROME_LINUX);
    let new = "a+new+passphrase+2";
    for (body, error) in [
        (format!("current={PASSWORD}&password={new}&confirm=other+one+here"), "password_mismatch"),
        (format!("current=not+mine+at+all&password={new}&confirm={new}"), "wrong_password"),
        (format!("current={PASSWORD}&password=short&confirm=short"), "password_short"),
    ] {
        let (status, headers, _) = send(&router, Some(&laptop), change(&body)).await;
        assert_eq!(status, StatusCode::SEE_OTHER);
        assert_eq!(location(&headers), format!("/settings/account?error={error}"));
    }
    let (_, _, html) =
        send(&router, Some(&laptop), page("/settings/account?error=wrong_password", "en")).await;
    assert!(html.contains("That is not your current password."), "{html}");
    assert_eq!(home(&router, &odd).await.0, StatusCode::OK, "nothing changed yet");
    let body = format!("current={PASSWORD}&password={new}&confirm={new}");
    let (status, headers, _) = send(&router, Some(&laptop), change(&body)).await;
    assert_eq!((status, location(&headers).as_str()), (StatusCode::SEE_OTHER, "/settings/account?changed=1"));
    let (_, _, html) = send(&router, Some(&laptop), page(&location(&headers), "fr")).await;
    assert!(html.contains("Mot de passe changé. 1 session ailleurs a été déconnectée."), "{html}");
    assert_eq!(home(&router, &odd).await.0, StatusCode::SEE_OTHER, "signed out");
    assert_eq!(home(&router, &laptop).await.0, StatusCode::OK, "this one stays");
    let (_, headers, _) = send(
        &router,
        None,
        post("/auth/login", &format!("name=alice&password={PASSWORD}"), [9, 9, 9, 9], "x"),
    )
    .await;
    assert_eq!(location(&headers), "/login?error=invalid_credentials&name=alice", "the old one is gone");
    let tablet = sign_in(&router, [9, 9, 9, 8], FIREFOX_WINDOWS, new).await;

    // Everywhere else, at once.
    let req = post("/account/sessions/end-others", "", [203, 0, 113, 5], CHROME_LINUX);
    let (status, headers, _) = send(&router, Some(&laptop), req).await;
    assert_eq!((status, location(&headers).as_str()), (StatusCode::SEE_OTHER, "/settings/account?ended=1"));
    assert_eq!(home(&router, &tablet).await.0, StatusCode::SEE_OTHER);
    let (_, _, html) = send(&router, Some(&laptop), page("/settings/account", "en")).await;
    assert_eq!(html.matches("data-testid=\"session\"").count(), 1);
    assert!(!html.contains("data-testid=\"end-others\""), "no other to end");

    // Guessing the current password is slowed as signing in is, and says the wait.
    for _ in 0..3 {
        let (_, headers, _) =
            send(&router, Some(&laptop), change("current=guess+guess&password=x&confirm=x")).await;
        assert_eq!(location(&headers), "/settings/account?error=password_short");
        let body = format!("current=guess+guess&password={new}&confirm={new}");
        let (_, headers, _) = send(&router, Some(&laptop), change(&body)).await;
        assert_eq!(location(&headers), "/settings/account?error=wrong_password");
    }
    let body = format!("current={new}&password={PASSWORD}&confirm={PASSWORD}");
    let (_, headers, _) = send(&router, Some(&laptop), change(&body)).await;
    assert_eq!(location(&headers), "/settings/account?error=rate_limited&retry=2");
    assert_eq!(headers[header::RETRY_AFTER], "2");
    let (_, _, html) = send(&router, Some(&laptop), page(&location(&headers), "en")).await;
    assert!(html.contains("Too many failed attempts. Try again in 2\u{a0}seconds."), "{html}");

    // This one, from the list: signed out here, the cookie cleared.
    let (_, _, html) = send(&router, Some(&laptop), page("/settings/account", "en")).await;
    assert!(end_forms(&html).is_empty(), "this session is signed out with the usual button");
    let token = laptop.cookie.strip_prefix("sou_session=").unwrap();
    let alice = sou.auth().session(token).await.unwrap().unwrap().user;
    let own = sou.auth().sessions(alice, Some(token)).await.unwrap().remove(0);
    assert!(own.current);
    let own = own.id;
    let req = post(&format!("/account/sessions/{own}/end"), "", [203, 0, 113, 5], CHROME_LINUX);
    let (status, headers, _) = send(&router, Some(&laptop), req).await;
    assert_eq!((status, location(&headers).as_str()), (StatusCode::SEE_OTHER, "/login"));
    assert!(headers[header::SET_COOKIE].to_str().unwrap().contains("Max-Age=0"));
    assert_eq!(home(&router, &laptop).await.0, StatusCode::SEE_OTHER);
}

/// A demo account's page lists its session but offers no password form, and the form
/// posted anyway is refused in words.
#[tokio::test]
async fn a_demo_account_has_no_password_to_change() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_in(dir.path()).await.unwrap();
    let sou = Sou::new(store, chrono_tz::Europe::Paris);
    let router = support::app_router(sou.clone(), dir.path());
    let (_, headers, _) = send(&router, None, post("/auth/demo", "", [203, 0, 113, 5], CHROME_LINUX)).await;
    let demo = signed_from(&headers);
    let (status, _, html) = send(&router, Some(&demo), page("/settings/account", "en")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        html.contains("A demo account has no password") && !html.contains("action=\"/account/password\"")
    );
    assert!(html.contains("Chrome on Linux"), "{html}");
    let body = "current=anything+at+all&password=a+new+passphrase&confirm=a+new+passphrase";
    let (_, headers, _) =
        send(&router, Some(&demo), post("/account/password", body, [203, 0, 113, 5], CHROME_LINUX)).await;
    assert_eq!(location(&headers), "/settings/account?error=no_password");
    // Signed out, the page is the sign-in page's.
    let (status, headers, _) = send(&router, None, page("/settings/account", "en")).await;
    assert_eq!(
        (status, location(&headers).as_str()),
        (StatusCode::SEE_OTHER, "/login?next=%2Fsettings%2Faccount")
    );
}

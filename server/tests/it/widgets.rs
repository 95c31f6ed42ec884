//! Widget sites, on SQLite and PostgreSQL: a site made through the API and the form
//! (a refused one comes back with its fields); its page framed by its origins only and
//! never cached; a visitor answered within the scope and refused outside it; visitors
//! kept apart from each other and from the owner; the hourly limit; another user can
//! neither list, change nor revoke; a disabled, revoked or unknown site is the same
//! page as one that does not exist, and its visitors' requests are 404.

use crate::support;

use agent::protocol::ChatEvent;
use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use axum::Router;
use backend::{Sou, Store};
use serde_json::{json, Value};

use crate::support::{api, location, send, upload};

/// A visitor's message on `site`, from the widget's page (same origin), with `token`.
async fn ask(
    router: &Router,
    site: &str,
    token: &str,
    message: &str,
    conversation: Option<&str>,
) -> (StatusCode, Vec<ChatEvent>, String) {
    let mut body = json!({ "message": message, "locale": "fr" });
    if let Some(c) = conversation {
        body["conversation_id"] = json!(c);
    }
    let req = Request::post(format!("/embed/{site}/chat"))
        .header(header::CONTENT_TYPE, "application/json")
        .header("sec-fetch-site", "same-origin")
        .header("x-sou-visitor", token)
        .body(Body::from(body.to_string()))
        .unwrap();
    let (status, _, text) = send(router, None, req).await;
    let events = text
        .lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .filter_map(|d| serde_json::from_str::<ChatEvent>(d).ok())
        .collect();
    (status, events, text)
}

fn ids(events: &[ChatEvent]) -> (String, String) {
    events
        .iter()
        .find_map(|e| match e {
            ChatEvent::Status { conversation_id: Some(c), message_id: Some(m), .. } => {
                Some((c.clone(), m.clone()))
            }
            _ => None,
        })
        .expect("a final status with ids")
}

/// A page's body without what differs per request (the nonce).
fn stable(html: &str) -> String {
    let mut out = String::new();
    let mut rest = html;
    while let Some(at) = rest.find("nonce=\"") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 7..];
        rest = &after[after.find('"').map_or(after.len(), |i| i + 1)..];
    }
    out.push_str(rest);
    out
}

backend::on_both_databases!(widgets_on_sqlite, widgets_on_postgres, scenario);

async fn scenario(store: Store, site_root: &std::path::Path) {
    // A visitor may ask half the site's hour (the default is a fifth).
    let sou = Sou::new(store, chrono_tz::Europe::Paris).with_widget_visitor_percent(50);
    let router = support::app_router(sou.clone(), site_root);
    let alice = support::sign_up(&sou, "alice").await;
    let bob = support::sign_up(&sou, "bob").await;
    let csv = "Région;Montant;Mois\nNord;1200,50;2026-01\nSud;800;2026-01\nNord;300,25;2026-02\n";
    let (status, _, _) = send(&router, Some(&alice), upload("/datasets", "ventes.csv", csv.as_bytes())).await;
    assert_eq!(status, StatusCode::SEE_OTHER);

    // Refused with a reason; a write or the model's SQL is never a widget's.
    let bad = |origins: Value, tools: Value, datasets: Value| json!({ "name": "Boutique", "origins": origins, "tools": tools, "datasets": datasets });
    for (body, code) in [
        (bad(json!(["shop.example"]), json!([]), json!(["ventes"])), "widget_origin"),
        (bad(json!(["https://a.example/page"]), json!([]), json!(["ventes"])), "widget_origin"),
        (bad(json!([]), json!([]), json!(["ventes"])), "widget_origin"),
        (bad(json!(["https://a.example"]), json!(["run_sql"]), json!([])), "widget_scope"),
        (bad(json!(["https://a.example"]), json!([]), json!([])), "widget_scope"),
        (bad(json!(["https://a.example"]), json!([]), json!(["salaires"])), "widget_scope"),
    ] {
        let (status, answer) = api(&router, &alice, "POST", "/api/v1/widgets", body.clone()).await;
        assert_eq!(
            (status, answer["error"]["code"].as_str()),
            (StatusCode::BAD_REQUEST, Some(code)),
            "{body}"
        );
    }
    let (status, made) = api(
        &router,
        &alice,
        "POST",
        "/api/v1/widgets",
        json!({ "name": "Ventes", "origins": ["http://127.0.0.1:4000/", "https://Shop.Example"],
                "datasets": ["ventes"], "greeting": "Bonjour <b>!</b>", "theme": "dark", "rate_per_hour": 4 }),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    let site = made["id"].as_str().unwrap().to_string();
    assert_eq!(made["origins"], json!(["http://127.0.0.1:4000", "https://shop.example"]));
    assert_eq!(made["scope"], json!({ "tools": [], "datasets": ["ventes"] }));

    // Its page: framed by its origins only, never cached, the greeting as text.
    let (status, headers, page) =
        send(&router, None, Request::get(format!("/embed/{site}")).body(Body::empty()).unwrap()).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    let policy = headers[header::CONTENT_SECURITY_POLICY].to_str().unwrap();
    assert!(policy.ends_with("frame-ancestors http://127.0.0.1:4000 https://shop.example"), "{policy}");
    assert!(headers.get(header::X_FRAME_OPTIONS).is_none());
    assert!(
        headers.get(server::security::FRAME_ANCESTORS).is_none(),
        "the page's request to be framed stays inside"
    );
    assert_eq!(headers[header::CACHE_CONTROL], "no-store");
    assert!(page.contains("Bonjour &lt;b&gt;!&lt;/b&gt;"), "{page}");
    assert!(page.contains("data-theme=\"dark\""));
    assert!(page.contains("leptos-island"), "the composer");
    assert!(!page.contains("Restaurants") && !page.contains("Courses"), "no ledger name outside the scope");
    assert!(
        !page.contains("/sw.js') ") && page.contains("false && 'serviceWorker'"),
        "no service worker in a frame"
    );

    // Within the scope: a dataset question runs; outside it: refused, nothing runs.
    let visitor = backend::visitor_token();
    let (status, events, text) = ask(&router, &site, &visitor, "Total montant par région", None).await;
    assert_eq!(status, StatusCode::OK, "{text}");
    assert!(
        events.iter().any(|e| matches!(e, ChatEvent::ToolResult(agent::ToolOutput::QueryDataset(_)))),
        "{text}"
    );
    let (conversation, message) = ids(&events);
    let (_, events, text) = ask(
        &router,
        &site,
        &visitor,
        "combien j'ai dépensé en courses en janvier 2026 ?",
        Some(&conversation),
    )
    .await;
    assert!(events.iter().all(|e| !matches!(e, ChatEvent::ToolResult(_))), "{text}");
    assert!(
        events.iter().any(|e| matches!(e, ChatEvent::Error { code, .. } if code == "outside_scope")),
        "{text}"
    );

    // The answer as the widget draws it: no share, for the visitor only.
    let answer = |token: &str| {
        Request::get(format!("/embed/{site}/answer?conversation_id={conversation}&message_id={message}"))
            .header("x-sou-visitor", token)
            .body(Body::empty())
            .unwrap()
    };
    let (status, _, body) = send(&router, None, answer(&visitor)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let view: Value = serde_json::from_str(&body).unwrap();
    assert!(view["answer"].as_str().unwrap().contains("Nord"), "{body}");
    assert!(!view["answer"].as_str().unwrap().contains("share-form"), "{body}");

    // Another visitor, the owner and the owner's other surfaces see none of it.
    let other = backend::visitor_token();
    assert_eq!(send(&router, None, answer(&other)).await.0, StatusCode::NOT_FOUND);
    let (status, _, _) = ask(&router, &site, &other, "Total montant par région", Some(&conversation)).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _, _) =
        send(&router, Some(&alice), Request::get(format!("/c/{conversation}")).body(Body::empty()).unwrap())
            .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(sou.conversations().list(alice.user, 100).await.unwrap().iter().all(|c| c.id != conversation));
    let (status, _) =
        api(&router, &alice, "POST", "/api/v1/reports", json!({"kind": "answer", "message_id": message}))
            .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "a visitor's answer is not the owner's to share");
    let (status, _) = api(
        &router,
        &alice,
        "POST",
        "/api/v1/chat",
        json!({"message": "et en février ?", "conversation_id": conversation}),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    // No token, or a malformed one: refused before anything runs.
    assert_eq!(ask(&router, &site, "", "Total montant par région", None).await.0, StatusCode::BAD_REQUEST);
    assert_eq!(
        ask(&router, &site, "short", "Total montant par région", None).await.0,
        StatusCode::BAD_REQUEST
    );

    // The site takes 4 questions an hour, a visitor 2 of them: one visitor cannot use
    // up the hour for all.
    assert_eq!(ask(&router, &site, &other, "Total montant par région", None).await.0, StatusCode::OK);
    assert_eq!(ask(&router, &site, &other, "Total montant par région", None).await.0, StatusCode::OK);
    let (status, _, text) = ask(&router, &site, &other, "Total montant par région", None).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{text}");
    assert!(text.contains("rate_limited"), "{text}");
    // The refused question does not count: the first visitor asked one and had one
    // refused, and may ask its second.
    let (status, _, text) = ask(&router, &site, &visitor, "Total montant par région", None).await;
    assert_eq!(status, StatusCode::OK, "{text}");
    // Now the site's 4 are asked: a new visitor is refused too.
    let third = backend::visitor_token();
    let (status, _, text) = ask(&router, &site, &third, "Total montant par région", None).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{text}");

    // Bob can neither see nor change Alice's site.
    let (status, listed) = api(&router, &bob, "GET", "/api/v1/widgets", Value::Null).await;
    assert_eq!((status, listed["sites"].as_array().map(Vec::len)), (StatusCode::OK, Some(0)));
    for (method, body) in [("PATCH", json!({"enabled": false})), ("DELETE", Value::Null)] {
        let (status, _) = api(&router, &bob, method, &format!("/api/v1/widgets/{site}"), body).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{method}");
    }
    let (status, headers, _) =
        send(&router, Some(&bob), support::same_site_form(&format!("/widgets/{site}/revoke"), "")).await;
    assert_eq!(
        (status, location(&headers)),
        (StatusCode::SEE_OTHER, "/settings/widgets?error=not_found".into())
    );

    // Off, revoked or never made: the page of a missing page, and requests are 404.
    let missing = |uri: String, who: Option<support::Signed>| {
        let router = router.clone();
        async move {
            let req = Request::get(uri).body(Body::empty()).unwrap();
            let (status, headers, page) = send(&router, who.as_ref(), req).await;
            let policy = headers[header::CONTENT_SECURITY_POLICY].to_str().unwrap().to_string();
            (status, policy.ends_with("frame-ancestors 'none'"), stable(&page))
        }
    };
    let (status, framed_none, nowhere) = missing("/embed/AAAAAAAAAAAAAAAAAAAAAA".into(), None).await;
    assert_eq!((status, framed_none), (StatusCode::NOT_FOUND, true));
    // As a page that does not exist is for someone signed in (the anonymous are sent
    // to sign in first).
    let (status, _, page) = missing("/no-such-page".into(), Some(alice.clone())).await;
    assert_eq!((status, page), (StatusCode::NOT_FOUND, nowhere.clone()));
    let (status, _) =
        api(&router, &alice, "PATCH", &format!("/api/v1/widgets/{site}"), json!({"enabled": false})).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let off = missing(format!("/embed/{site}"), None).await;
    assert_eq!((off.0, off.1), (StatusCode::NOT_FOUND, true));
    assert_eq!(off.2.replace(&site, "AAAAAAAAAAAAAAAAAAAAAA"), nowhere);
    assert_eq!(
        ask(&router, &site, &visitor, "Total montant par région", None).await.0,
        StatusCode::NOT_FOUND
    );
    let (status, _) =
        api(&router, &alice, "PATCH", &format!("/api/v1/widgets/{site}"), json!({"enabled": true})).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    assert_eq!(missing(format!("/embed/{site}"), None).await.0, StatusCode::OK);
    let (status, headers, _) =
        send(&router, Some(&alice), support::same_site_form(&format!("/widgets/{site}/revoke"), "")).await;
    assert_eq!((status, location(&headers)), (StatusCode::SEE_OTHER, "/settings/widgets?revoked=1".into()));
    let gone = missing(format!("/embed/{site}"), None).await;
    assert_eq!((gone.0, gone.2.replace(&site, "AAAAAAAAAAAAAAAAAAAAAA")), (StatusCode::NOT_FOUND, nowhere));
    assert_eq!(send(&router, None, answer(&visitor)).await.0, StatusCode::NOT_FOUND);
    assert!(sou.widgets().visitor(&site, &visitor).await.is_err());

    // The form: a refused site comes back with what was typed; a made one shows its snippet.
    let form = "name=Boutique&origins=https%3A%2F%2Fok.example%0D%0Anot+an+origin&datasets=ventes&greeting=Salut&theme=dark&rate_per_hour=30";
    let (status, headers, _) = send(&router, Some(&alice), support::same_site_form("/widgets", form)).await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    let back = location(&headers);
    assert!(back.starts_with("/settings/widgets?error=widget_origin&name=Boutique&origins="), "{back}");
    let (_, _, html) = send(&router, Some(&alice), support::french_page(&back)).await;
    assert!(
        html.contains("« not an origin » n&#x27;est pas une origine")
            || html.contains("« not an origin » n'est pas une origine"),
        "{html}"
    );
    assert!(
        html.contains("https://ok.example\nnot an origin")
            || html.contains("https://ok.example\r\nnot an origin"),
        "{html}"
    );
    assert!(html.contains("value=\"Boutique\""), "{html}");
    let form = "name=Boutique&origins=https%3A%2F%2Fok.example&tools=balances&greeting=Salut&theme=light&rate_per_hour=30";
    let (_, headers, _) = send(&router, Some(&alice), support::same_site_form("/widgets", form)).await;
    let back = location(&headers);
    assert!(back.starts_with("/settings/widgets?created="), "{back}");
    let (_, _, html) = send(&router, Some(&alice), support::french_page(&back)).await;
    assert!(
        html.contains("/widget.js&quot; data-site=&quot;") || html.contains("/widget.js\" data-site"),
        "{html}"
    );
    // Settings says what the origin list does not do.
    assert!(html.contains("limite les sites qui peuvent afficher le widget"), "{html}");
    assert!(html.contains("une question refusée hors du périmètre ne compte pas"), "{html}");

    // The host page's script.
    let (status, headers, script) =
        send(&router, None, Request::get("/widget.js").body(Body::empty()).unwrap()).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers[header::CONTENT_TYPE], "text/javascript; charset=utf-8");
    assert_eq!(headers[header::CACHE_CONTROL], "no-cache");
    assert!(script.contains("postMessage") && script.contains("e.origin !== sou"));
    let etag = headers[header::ETAG].to_str().unwrap().to_string();
    let again = Request::get("/widget.js").header(header::IF_NONE_MATCH, etag).body(Body::empty()).unwrap();
    assert_eq!(send(&router, None, again).await.0, StatusCode::NOT_MODIFIED);
}

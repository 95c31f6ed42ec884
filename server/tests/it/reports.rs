//! Shared reports, on SQLite and PostgreSQL: an answer and a month shared through the
//! API and a form, read without a cookie (figures equal to the ledger's sums, no
//! script, the strict policy, no internal id, the preview tags and a PNG that decodes);
//! a snapshot stays as it was when the ledger changes, a live report follows; shares
//! only show no money, categories only no merchant; another user can neither list,
//! change nor revoke; a revoked or expired link is the same 404 as one never made.

use crate::support;
use crate::support::api;

use agent::protocol::ChatEvent;
use agent::ToolOutput;
use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use axum::Router;
use backend::{ChatRequest, Sou, Store, UserId};
use futures::StreamExt;
use serde_json::{json, Value};

/// Asks `message` as `user`; the answer's id and its first result.
async fn answer(sou: &Sou, user: UserId, message: &str) -> (String, ToolOutput) {
    let req = ChatRequest { message: message.into(), ..Default::default() };
    let events: Vec<ChatEvent> = sou.chat(user, req).await.unwrap().events.collect().await;
    let id = events
        .iter()
        .find_map(|e| match e {
            ChatEvent::Status { message_id, .. } => message_id.clone(),
            _ => None,
        })
        .expect("the answer's id");
    let output = events
        .into_iter()
        .find_map(|e| match e {
            ChatEvent::ToolResult(o) => Some(o),
            _ => None,
        })
        .expect("a result");
    (id, output)
}

/// The widths in percent of the shapes after each `marker` (bars and meters are SVG
/// rectangles whose width is an attribute).
fn widths(page: &str, marker: &str) -> Vec<f64> {
    page.split(marker)
        .skip(1)
        .filter_map(|m| m.split("width=\"").nth(1)?.split('%').next()?.parse().ok())
        .collect()
}

/// A page as a browser without a cookie gets it.
async fn read(router: &Router, uri: &str) -> (StatusCode, axum::http::HeaderMap, String) {
    let req = Request::get(uri).header("host", "sou.example").body(Body::empty()).unwrap();
    support::send(router, None, req).await
}

/// January 2026's spending in the ledger, counted by SQL alone.
async fn january_spending(store: &Store, user: UserId) -> i64 {
    let mut tx = store.tenant_read(user).await.unwrap();
    let sum: i64 = sqlx::query_scalar(
        "SELECT CAST(COALESCE(-SUM(t.amount_minor), 0) AS BIGINT) FROM transactions t
         LEFT JOIN categories c ON c.id = t.category_id
         WHERE t.user_id = $1 AND t.date >= '2026-01-01' AND t.date < '2026-02-01' AND t.amount_minor < 0
           AND (c.kind IS NULL OR c.kind = 'expense') AND t.currency = 'EUR'",
    )
    .bind(user.0)
    .fetch_one(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();
    sum
}

/// The `data-minor` of the element marked `testid`, first in the page.
fn minor(page: &str, testid: &str) -> i64 {
    let at = page.find(&format!("data-testid=\"{testid}\"")).unwrap_or_else(|| panic!("{testid} in {page}"));
    let rest = &page[at..];
    let v = rest.split("data-minor=\"").nth(1).unwrap();
    v[..v.find('"').unwrap()].parse().unwrap()
}

backend::on_both_databases!(reports_on_sqlite, reports_on_postgres, scenario);

async fn scenario(store: Store, site: &std::path::Path) {
    let sou = Sou::new(store.clone(), chrono_tz::Europe::Paris);
    let router = support::app_router(sou.clone(), site);
    let alice = support::sign_up(&sou, "alice").await;
    let bob = support::sign_up(&sou, "bob").await;

    // An answer, shared as a snapshot through the API.
    let (message, output) = answer(&sou, alice.user, "combien j'ai dépensé en janvier 2026 ?").await;
    let ToolOutput::SpendingSummary(summary) = output else { panic!("a spending summary") };
    let spent = january_spending(&store, alice.user).await;
    assert_eq!(summary.total.minor, spent);
    let (status, made) =
        api(&router, &alice, "POST", "/api/v1/reports", json!({"kind": "answer", "message_id": message}))
            .await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    let answer_id = made["id"].as_str().unwrap().to_string();
    assert_eq!(answer_id.len(), 22);
    assert_eq!(made["url"], format!("http://sou.example/r/{answer_id}"));
    assert_eq!(
        (made["mode"].as_str(), made["figures"].as_str(), made["views"].as_u64()),
        (Some("snapshot"), Some("amounts"), Some(0))
    );

    let (status, headers, page) = read(&router, &format!("/r/{answer_id}")).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert_eq!(headers[header::CONTENT_SECURITY_POLICY], server::reports::PAGE_POLICY);
    assert_eq!(headers["x-robots-tag"], "noindex, nofollow");
    assert_eq!(headers[header::REFERRER_POLICY], "no-referrer");
    assert_eq!(headers[header::CACHE_CONTROL], "no-store");
    assert!(!page.to_lowercase().contains("<script"), "{page}");
    assert!(!page.contains("alice"), "no user name: {page}");
    assert!(!page.contains("data-id=\""), "no internal id: {page}");
    assert_eq!(minor(&page, "total"), spent);
    for tag in ["og:title", "og:description", "og:image", "twitter:card", "twitter:image"] {
        assert!(page.contains(tag), "{tag}: {page}");
    }
    assert!(page.contains(&format!("content=\"http://sou.example/r/{answer_id}/og.png\"")), "{page}");
    assert!(page.contains("<meta name=\"robots\" content=\"noindex, nofollow\""), "{page}");

    // Its preview: a 1200×630 PNG that decodes, with something drawn on it.
    let (status, headers, _) = read(&router, &format!("/r/{answer_id}/og.png")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers[header::CONTENT_TYPE], "image/png");
    let png = {
        let res = tower::ServiceExt::oneshot(
            router.clone(),
            Request::get(format!("/r/{answer_id}/og.png")).body(Body::empty()).unwrap(),
        )
        .await
        .unwrap();
        http_body_util::BodyExt::collect(res.into_body()).await.unwrap().to_bytes()
    };
    let etag = headers[header::ETAG].to_str().unwrap().to_string();
    let again = Request::get(format!("/r/{answer_id}/og.png"))
        .header(header::IF_NONE_MATCH, &etag)
        .body(Body::empty())
        .unwrap();
    assert_eq!(support::send(&router, None, again).await.0, StatusCode::NOT_MODIFIED);
    let pixmap = resvg::tiny_skia::Pixmap::decode_png(&png).unwrap();
    assert_eq!((pixmap.width(), pixmap.height()), (1200, 630));
    let background = pixmap.pixel(600, 600).unwrap();
    let drawn = pixmap.pixels().iter().filter(|p| **p != background).count();
    assert!(drawn > 20_000, "the title, summary and bars are drawn: {drawn} pixels");

    // A month, live and as a snapshot.
    let (status, live) = api(
        &router,
        &alice,
        "POST",
        "/api/v1/reports",
        json!({"kind": "monthly", "period": "2026-01", "mode": "live"}),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{live}");
    let live = live["id"].as_str().unwrap().to_string();
    let (_, frozen) =
        api(&router, &alice, "POST", "/api/v1/reports", json!({"kind": "monthly", "period": "2026-01"}))
            .await;
    let frozen = frozen["id"].as_str().unwrap().to_string();
    let (_, _, live_page) = read(&router, &format!("/r/{live}")).await;
    let (_, _, frozen_page) = read(&router, &format!("/r/{frozen}")).await;
    assert_eq!(minor(&live_page, "total"), spent, "{live_page}");
    assert_eq!(minor(&frozen_page, "total"), spent);
    assert!(
        frozen_page.contains("data-block=\"budgets\"") && frozen_page.contains("data-block=\"recurring\"")
    );
    assert!(frozen_page.contains("<title>") && frozen_page.contains("<desc>"), "charts are described");

    // New spending in January: the snapshots stay, the live report follows.
    let mut tx = store.tenant(alice.user).await.unwrap();
    sqlx::query(
        "INSERT INTO transactions (user_id, account_id, date, amount_minor, currency, raw_label, dedupe_hash)
         SELECT user_id, id, '2026-01-20', -4242, 'EUR', 'LIBRAIRIE TEST', 'report-test-1' FROM accounts
         WHERE user_id = $1 AND kind = 'checking'",
    )
    .bind(alice.user.0)
    .execute(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();
    assert_eq!(january_spending(&store, alice.user).await, spent + 4242);
    let (_, _, again) = read(&router, &format!("/r/{frozen}")).await;
    assert_eq!(again, frozen_page, "a snapshot is what was stored");
    let (_, _, again) = read(&router, &format!("/r/{answer_id}")).await;
    assert_eq!(minor(&again, "total"), spent);
    let (_, _, again) = read(&router, &format!("/r/{live}")).await;
    assert_eq!(minor(&again, "total"), spent + 4242, "a live report recomputes");

    // Shares only: no money anywhere on the page.
    let (_, shares) = api(
        &router,
        &alice,
        "POST",
        "/api/v1/reports",
        json!({"kind": "monthly", "period": "2026-01", "figures": "shares"}),
    )
    .await;
    let (_, _, shares_page) = read(&router, &format!("/r/{}", shares["id"].as_str().unwrap())).await;
    assert!(!shares_page.contains('€') && !shares_page.contains("data-minor"), "{shares_page}");
    assert!(shares_page.contains('%'), "{shares_page}");

    // Categories only: a merchant's answer names no merchant.
    let (carrefour, _) = answer(&sou, alice.user, "combien chez Carrefour en janvier 2026 ?").await;
    let (status, hidden) = api(
        &router,
        &alice,
        "POST",
        "/api/v1/reports",
        json!({"kind": "answer", "message_id": carrefour, "names": "categories"}),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{hidden}");
    assert!(!hidden["title"].as_str().unwrap().to_lowercase().contains("carrefour"), "{hidden}");
    let (_, _, hidden_page) = read(&router, &format!("/r/{}", hidden["id"].as_str().unwrap())).await;
    assert!(!hidden_page.to_lowercase().contains("carrefour"), "{hidden_page}");
    // Sou's own title follows the options; the owner's stays.
    let (_, named) =
        api(&router, &alice, "POST", "/api/v1/reports", json!({"kind": "answer", "message_id": carrefour}))
            .await;
    let named_id = named["id"].as_str().unwrap().to_string();
    // In the conversation's language, whatever the request's.
    assert_eq!(named["title"].as_str(), Some("Dépenses : Carrefour — janvier 2026"), "{named}");
    let (_, changed) =
        api(&router, &alice, "PATCH", &format!("/api/v1/reports/{named_id}"), json!({"names": "categories"}))
            .await;
    assert!(!changed["title"].as_str().unwrap().contains("Carrefour"), "{changed}");
    let (_, _, named_page) = read(&router, &format!("/r/{named_id}")).await;
    assert!(!named_page.to_lowercase().contains("carrefour"), "{named_page}");
    let (status, _) =
        api(&router, &alice, "DELETE", &format!("/api/v1/reports/{named_id}"), Value::Null).await;
    assert_eq!(status, StatusCode::NO_CONTENT);

    // Bad requests say why; someone else's answer is not found.
    let (status, e) =
        api(&router, &alice, "POST", "/api/v1/reports", json!({"kind": "monthly", "period": "janvier"}))
            .await;
    assert_eq!((status, e["error"]["code"].as_str()), (StatusCode::BAD_REQUEST, Some("bad_period")), "{e}");
    let (status, _) =
        api(&router, &bob, "POST", "/api/v1/reports", json!({"kind": "answer", "message_id": message})).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = api(&router, &alice, "POST", "/api/v1/reports", json!({"kind": "weekly"})).await;
    assert!(status.is_client_error());

    // The owner lists, with the views counted; Bob sees none of it and changes nothing.
    let (_, list) = api(&router, &alice, "GET", "/api/v1/reports", Value::Null).await;
    let listed = list["reports"].as_array().unwrap();
    assert_eq!(listed.len(), 5);
    let views = |id: &str| listed.iter().find(|r| r["id"] == id).unwrap()["views"].as_u64().unwrap();
    assert_eq!(views(&answer_id), 2, "two reads; the preview image is not a view");
    let (_, list) = api(&router, &bob, "GET", "/api/v1/reports", Value::Null).await;
    assert_eq!(list["reports"], json!([]));
    let (status, one) =
        api(&router, &alice, "GET", &format!("/api/v1/reports/{answer_id}"), Value::Null).await;
    assert_eq!((status, one["views"].as_u64()), (StatusCode::OK, Some(2)));
    for (method, body) in [("GET", Value::Null), ("PATCH", json!({"title": "mine"})), ("DELETE", Value::Null)]
    {
        let (status, _) = api(&router, &bob, method, &format!("/api/v1/reports/{answer_id}"), body).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{method}");
    }
    let (status, changed) = api(
        &router,
        &alice,
        "PATCH",
        &format!("/api/v1/reports/{answer_id}"),
        json!({"title": "Nos courses", "expires_on": "2099-12-31"}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{changed}");
    assert_eq!(
        (changed["title"].as_str(), changed["expires_on"].as_str()),
        (Some("Nos courses"), Some("2099-12-31"))
    );
    let (status, _) = api(
        &router,
        &alice,
        "PATCH",
        &format!("/api/v1/reports/{answer_id}"),
        json!({"expires_on": "2001-01-01"}),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);

    // Revoked, expired and never made: the same 404.
    let (_, _, never) = read(&router, "/r/AAAAAAAAAAAAAAAAAAAAAA").await;
    let (status, _) =
        api(&router, &alice, "DELETE", &format!("/api/v1/reports/{answer_id}"), Value::Null).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let (status, headers, revoked) = read(&router, &format!("/r/{answer_id}")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(revoked, never);
    assert_eq!(headers[header::CONTENT_SECURITY_POLICY], server::reports::PAGE_POLICY);
    let (status, _, _) = read(&router, &format!("/r/{answer_id}/og.png")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let mut tx = store.tenant(alice.user).await.unwrap();
    sqlx::query("UPDATE reports SET expires_at = '2020-01-01T00:00:00.000Z' WHERE id = $1")
        .bind(&frozen)
        .execute(&mut *tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    let (status, _, expired) = read(&router, &format!("/r/{frozen}")).await;
    assert_eq!((status, expired == never), (StatusCode::NOT_FOUND, true));
    let (status, _, _) = read(&router, "/r/not-even-an-id").await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    // The forms: a month shared from Settings, then revoked.
    let req = support::same_site_form("/reports", "kind=monthly&period=2026-01&figures=shares&days=30");
    let (status, headers, _) = support::send(&router, Some(&alice), req).await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    let back = support::location(&headers);
    let id = back.strip_prefix("/settings/reports?created=").unwrap_or_else(|| panic!("{back}")).to_string();
    let req = support::same_site_form("/reports", "kind=monthly&period=2026-13");
    let (_, headers, _) = support::send(&router, Some(&alice), req).await;
    assert_eq!(support::location(&headers), "/settings/reports?error=bad_period");
    let req = support::same_site_form(&format!("/reports/{id}/revoke"), "");
    let (_, headers, _) = support::send(&router, Some(&bob), req).await;
    assert_eq!(support::location(&headers), "/settings/reports?error=not_found");
    let req = support::same_site_form(&format!("/reports/{id}/revoke"), "");
    let (_, headers, _) = support::send(&router, Some(&alice), req).await;
    assert_eq!(support::location(&headers), "/settings/reports?revoked=1");
    assert_eq!(read(&router, &format!("/r/{id}")).await.0, StatusCode::NOT_FOUND);
}

backend::on_both_databases!(report_limits_on_sqlite, report_limits_on_postgres, limits);

/// A link's request limit (60 a minute), counted in the database: a burst past it gets
/// `429` with `Retry-After` and a small page, another link is still served; a `HEAD`
/// and the preview image are not views. The budgets' meters carry no inline style.
async fn limits(store: Store, site: &std::path::Path) {
    let sou = Sou::new(store.clone(), chrono_tz::Europe::Paris);
    let router = support::app_router(sou.clone(), site);
    let alice = support::sign_up(&sou, "alice").await;
    let mut ids = Vec::new();
    for _ in 0..2 {
        let (status, made) =
            api(&router, &alice, "POST", "/api/v1/reports", json!({"kind": "monthly", "period": "2026-01"}))
                .await;
        assert_eq!(status, StatusCode::CREATED, "{made}");
        ids.push(made["id"].as_str().unwrap().to_string());
    }
    let (busy, calm) = (ids[0].clone(), ids[1].clone());
    let views = |id: String| {
        let router = router.clone();
        let alice = alice.clone();
        async move {
            let (status, one) =
                api(&router, &alice, "GET", &format!("/api/v1/reports/{id}"), json!(null)).await;
            assert_eq!(status, StatusCode::OK, "{one}");
            one["views"].as_u64().unwrap()
        }
    };

    // A HEAD says the link works, with no body, and is not a view; nor is the image.
    let head = |uri: String| {
        let router = router.clone();
        async move {
            let req = Request::head(uri).header("host", "sou.example").body(Body::empty()).unwrap();
            support::send(&router, None, req).await
        }
    };
    let (status, headers, body) = head(format!("/r/{busy}")).await;
    assert_eq!((status, body.as_str()), (StatusCode::OK, ""));
    assert_eq!(headers[header::CACHE_CONTROL], "no-store");
    let (status, _, _) = head("/r/AAAAAAAAAAAAAAAAAAAAAA".into()).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _, _) = read(&router, &format!("/r/{busy}/og.png")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(views(busy.clone()).await, 0, "a HEAD and the image are not views");

    // The page: its budgets' meters drawn with attributes, no inline style.
    let (status, _, page) = read(&router, &format!("/r/{busy}")).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert_eq!(views(busy.clone()).await, 1);
    assert!(!page.contains("style="), "no inline style: {page}");
    let meters = widths(&page, "data-testid=\"meter-fill\"");
    assert!(meters.iter().any(|w| *w > 0.0), "a meter filled: {meters:?}");

    // A shared answer's breakdown and cash-flow bars are drawn the same way.
    for (message, marker) in [
        ("mes dépenses par catégorie en janvier 2026", "class=\"bar\""),
        ("revenus et dépenses par mois en 2025", "class=\"bar bar-out\""),
    ] {
        let (id, _) = answer(&sou, alice.user, message).await;
        let (status, made) =
            api(&router, &alice, "POST", "/api/v1/reports", json!({"kind": "answer", "message_id": id}))
                .await;
        assert_eq!(status, StatusCode::CREATED, "{made}");
        let (status, _, page) = read(&router, &format!("/r/{}", made["id"].as_str().unwrap())).await;
        assert_eq!(status, StatusCode::OK, "{page}");
        assert!(!page.contains("style="), "no inline style: {page}");
        let widths = widths(&page, marker);
        assert!(widths.len() > 1 && widths.iter().any(|w| *w > 0.0), "{message}: bars {widths:?} in {page}");
    }

    // A burst: 2 requests counted so far (the HEAD and the page), so 58 more served.
    let uri = format!("/r/{busy}");
    let burst = futures::future::join_all((0..70).map(|_| read(&router, &uri))).await;
    let served = burst.iter().filter(|(s, _, _)| *s == StatusCode::OK).count();
    let refused: Vec<_> = burst.iter().filter(|(s, _, _)| *s == StatusCode::TOO_MANY_REQUESTS).collect();
    assert_eq!((served, refused.len()), (58, 12));
    let (_, headers, page) = refused[0];
    let retry: u64 = headers[header::RETRY_AFTER].to_str().unwrap().parse().unwrap();
    assert!((1..=60).contains(&retry), "{retry}");
    assert_eq!(headers[header::CONTENT_SECURITY_POLICY], server::reports::PAGE_POLICY);
    assert!(page.contains("report-busy") && !page.contains("budgets"), "{page}");
    assert_eq!(views(busy.clone()).await, 59, "refused requests are not views");

    // Another link is served as before.
    let (status, _, page) = read(&router, &format!("/r/{calm}")).await;
    assert_eq!(status, StatusCode::OK, "{page}");
}

//! Dataset queries take turns at the HTTP edge, on SQLite and PostgreSQL: Alice opens the
//! Data page with a slow query six times at once; two run, one waits, three are answered
//! `429` with the reason in French, and her chat's query is refused the same way (an
//! `error` event `busy`). Bob's query on the Data page and in the chat are answered
//! before any of her slow ones ends. Only that order is asserted, never a duration.

use std::time::{Duration, Instant};

use axum::http::{header, Request, StatusCode};
use backend::QueryLimits;
use backend::{Sou, Store};
use serde_json::json;

use crate::support::{self, chat_events, french_page as page, send, Signed};

const SLOW: &str = "SELECT COUNT(*) FROM sales a, sales b, sales c, sales d, sales e, sales f, sales g, \
     sales h, sales i, sales j, sales k, sales l, sales m, sales n, sales o, sales p, sales q, sales r, \
     sales s, sales t";

const LIMITS: QueryLimits = QueryLimits { per_user: 2, queue: 1, total: 4, wait: Duration::from_secs(120) };

const BUSY_FR: &str =
    "Trop de requêtes sur ces jeux de données sont en cours (2 à la fois au plus) : réessayez dans un instant.";

fn sql(q: &str) -> String {
    format!("/datasets?{}", form_urlencoded::Serializer::new(String::new()).append_pair("sql", q).finish())
}

/// `sql` run through the chat API, as the plan the user chose; the stream's events.
async fn chat_sql(router: &axum::Router, who: &Signed, sql: &str) -> Vec<serde_json::Value> {
    let body = json!({"message": "run my query", "locale": "en",
        "plan": {"tool": "run_sql", "args": {"sql": sql}}});
    let req = Request::post("/api/v1/chat")
        .header(header::CONTENT_TYPE, "application/json")
        .header("sec-fetch-site", "same-origin")
        .body(axum::body::Body::from(body.to_string()))
        .unwrap();
    let (status, _, text) = send(router, Some(who), req).await;
    assert_eq!(status, StatusCode::OK, "{text}");
    chat_events(&text)
}

backend::on_both_databases!(
    datasets_turns_over_http_on_sqlite,
    datasets_turns_over_http_on_postgres,
    scenario
);

async fn scenario(store: Store, site: &std::path::Path) {
    let sou = Sou::new(store.with_query_limits(LIMITS), chrono_tz::Europe::Paris);
    let router = support::app_router(sou.clone(), site);
    let alice = support::sign_up(&sou, "alice").await;
    let bob = support::sign_up(&sou, "bob").await;
    let sales = b"region;amount\nNord;1200\nSud;800\nNord;300\nEst;50\n";
    backend::testing::datasets::create(sou.store(), alice.user, "sales.csv", sales).await.unwrap();
    backend::testing::datasets::create(sou.store(), bob.user, "sales.csv", b"region,amount\nOuest,999\n")
        .await
        .unwrap();

    let started = Instant::now();
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    for _ in 0..6 {
        let (router, alice, tx) = (router.clone(), alice.clone(), tx.clone());
        tokio::spawn(async move {
            let answer = send(&router, Some(&alice), page(&sql(SLOW))).await;
            let _ = tx.send((answer, Instant::now()));
        });
    }
    drop(tx);
    let mut answered = Vec::new();
    while answered.iter().filter(|((s, _, _), _)| *s == StatusCode::TOO_MANY_REQUESTS).count() < 3 {
        let next = tokio::time::timeout(Duration::from_secs(60), rx.recv()).await;
        answered.push(next.expect("her pages answer").expect("her pages answer"));
    }
    assert_eq!(answered.len(), 3, "none of her slow queries ended yet");
    for ((_, headers, html), _) in &answered {
        assert!(html.contains(BUSY_FR), "{html}");
        assert!(html.contains("data-testid=\"query-error\""), "{html}");
        assert_eq!(headers.get(header::RETRY_AFTER).and_then(|v| v.to_str().ok()), Some("1"));
    }
    // Her chat asks one more: refused at once, in the stream.
    let events = chat_sql(&router, &alice, SLOW).await;
    let error = events.iter().find(|e| e["type"] == "error").unwrap_or_else(|| panic!("{events:?}"));
    assert_eq!(error["code"], "busy", "{events:?}");
    assert_eq!(
        error["message"],
        "Too many queries on these datasets are running (2 at once at most): try again in a moment."
    );
    assert!(!events.iter().any(|e| e["type"] == "tool_result"));

    // Bob's queries run at once, beside hers: the Data page, then the chat.
    let asked = Instant::now();
    let (status, _, html) = send(&router, Some(&bob), page(&sql("SELECT region FROM sales"))).await;
    let page_done = Instant::now();
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("data-testid=\"query-result\"") && html.contains("Ouest"), "{html}");
    let events = chat_sql(&router, &bob, "SELECT COUNT(*) AS n FROM sales").await;
    let chat_done = Instant::now();
    assert!(events.iter().any(|e| e["type"] == "tool_result"), "{events:?}");
    assert!(!events.iter().any(|e| e["type"] == "error"), "{events:?}");

    while let Some(done) = rx.recv().await {
        answered.push(done);
    }
    let slow: Vec<Instant> = answered
        .iter()
        .filter(|((s, _, _), _)| *s != StatusCode::TOO_MANY_REQUESTS)
        .map(|((status, _, html), at)| {
            assert_eq!(*status, StatusCode::OK);
            assert!(html.contains("La requête a duré plus de 2 s et a été arrêtée."), "{html}");
            *at
        })
        .collect();
    assert_eq!(slow.len(), 3, "two ran, and the one that waited ran after");
    let first_slow = slow.iter().min().copied().unwrap();
    println!(
        "{:?}: Bob's page took {} ms, his chat {} ms; Alice's first slow page ended after {} ms",
        sou.store().dialect(),
        (page_done - asked).as_millis(),
        (chat_done - page_done).as_millis(),
        (first_slow - started).as_millis(),
    );
    assert!(page_done < first_slow, "Bob's page came before any of Alice's slow ones");
    assert!(chat_done < first_slow, "Bob's chat answer came before any of Alice's slow pages");
}

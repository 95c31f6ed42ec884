//! Trace sanitization (seed 003): a conversation through the HTTP routes, every log
//! line of it captured at TRACE level (`support::capture_logs`), and none of them
//! carries the user's id, the conversation's id, the message, or an exact amount — only
//! hashed ids and buckets.

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use backend::{Sou, Store};

use crate::support;

const QUESTION: &str = "Combien j'ai dépensé en courses en janvier 2026 ?";

#[tokio::test]
async fn logs_carry_hashed_ids_and_bucketed_amounts_only() {
    let (logs, _logging) = support::capture_logs();

    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_in(dir.path()).await.unwrap();
    // Other users first, so this one's id is not 1.
    for name in ["a", "b", "c", "d", "e", "f"] {
        store.ensure_user(name).await.unwrap();
    }
    let sou = Sou::new(store.clone(), chrono_tz::Europe::Paris);
    let who = support::sign_up(&sou, "someone").await;
    let user = who.user;
    let total: i64 = sqlx::query_scalar(
        "SELECT -SUM(t.amount_minor) FROM transactions t JOIN categories c ON c.id = t.category_id
         WHERE t.user_id = $1 AND c.key = 'groceries' AND t.amount_minor < 0
           AND t.date >= '2026-01-01' AND t.date < '2026-02-01'",
    )
    .bind(user.0)
    .fetch_one(store.pool())
    .await
    .unwrap();
    let app = support::app_router(sou, dir.path());

    let req = Request::post("/api/v1/chat")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(serde_json::json!({ "message": QUESTION }).to_string()))
        .unwrap();
    let (status, _, sse) = support::send(&app, Some(&who), req).await;
    assert_eq!(status, StatusCode::OK);
    assert!(sse.contains(&format!("\"minor\":{total}")), "the answer has the total");
    let id = sse.split("\"conversation_id\":\"").nth(1).unwrap()[..32].to_string();
    let (status, _, _) =
        support::send(&app, Some(&who), Request::get(format!("/c/{id}")).body(Body::empty()).unwrap()).await;
    assert_eq!(status, StatusCode::OK);

    let text = String::from_utf8_lossy(&logs.0.lock().unwrap()).to_string();
    assert!(text.contains("answered"), "the answer is logged: {text}");
    assert!(text.contains("route=/c/{id}"), "routes are logged as patterns");
    let answered: Vec<&str> = text.lines().filter(|l| l.contains("answered")).collect();
    assert!(
        answered.iter().any(|l| l.contains("amount=100-1k") || l.contains("amount=1k-10k")),
        "amounts as buckets: {answered:?}"
    );
    let uid = user.0.to_string();
    let euros = format!("{},{:02}", total / 100, total % 100);
    for (what, needle) in [
        ("the conversation id", id.as_str()),
        ("the exact total", &total.to_string()),
        ("the total in euros", &euros),
        ("the message", "courses en janvier"),
        ("the user id", &format!("user={uid}")),
        ("the user id", &format!("user_id={uid}")),
    ] {
        assert!(!text.contains(needle), "{what} ({needle}) is in the logs");
    }
    println!("{} log bytes checked; the answer line:", text.len());
    for line in text.lines().filter(|l| l.contains("answered")) {
        println!("{line}");
    }
}

//! A plan sent by a client is named from its dates: a period whose label says
//! "janvier 2026" over March is answered, stored and followed up on as March, on
//! SQLite and PostgreSQL.

use crate::support;

use axum::http::StatusCode;
use backend::{Sou, Store};
use serde_json::json;

use crate::support::{api, send};

backend::on_both_databases!(client_labels_on_sqlite, client_labels_on_postgres, scenario);

async fn scenario(store: Store, site: &std::path::Path) {
    let sou = Sou::new(store, chrono_tz::Europe::Paris);
    let router = support::app_router(sou.clone(), site);
    let alice = support::sign_up(&sou, "alice").await;

    let lying =
        json!({"start": "2026-03-01", "end": "2026-04-01", "label": "janvier 2026", "words": "en janvier"});
    let plan = json!({"tool": "spending_summary", "args": {"period": lying, "group_by": "category"}});
    let req =
        support::post_json("/api/v1/chat", json!({"message": "dépenses", "locale": "fr", "plan": plan}));
    let (status, _, text) = send(&router, Some(&alice), req).await;
    assert_eq!(status, StatusCode::OK, "{text}");
    assert!(text.contains("mars 2026"), "the answer names March: {text}");
    assert!(!text.contains("janvier"), "the client's label is not repeated: {text}");

    // Compared: both periods named from their dates, in the request's language.
    let plan = json!({"tool": "compare_periods", "args": {
        "current": {"start": "2026-03-01", "end": "2026-04-01", "label": "Q4 1999"},
        "reference": {"start": "2026-02-01", "end": "2026-03-01", "label": "<b>hi</b>"}}});
    let req = support::post_json("/api/v1/chat", json!({"message": "compare", "locale": "en", "plan": plan}));
    let (status, _, text) = send(&router, Some(&alice), req).await;
    assert_eq!(status, StatusCode::OK, "{text}");
    assert!(text.contains("March 2026") && text.contains("February 2026"), "{text}");
    assert!(!text.contains("1999") && !text.contains("<b>"), "{text}");

    // A previous plan sent as context to `/api/v1/plan` is named from its dates too.
    let context = json!({"tool": "spending_summary", "args": {"period": lying}, "meta": {
        "confidence": "high", "confidence_reasons": [], "locale": "fr", "today": "2026-04-10"}});
    let (status, body) = api(
        &router,
        &alice,
        "POST",
        "/api/v1/plan",
        json!({"message": "et en courses ?", "locale": "fr", "context": context, "today": "2026-04-10"}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert!(!body.to_string().contains("janvier"), "{body}");
}

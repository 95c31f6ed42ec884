//! Runs over HTTP, on SQLite and PostgreSQL: the stream's event ids and `X-Sou-Run`,
//! the trace, re-attaching with `Last-Event-ID` (exactly the missing frames), a plan
//! edited, accepted and refused through the API and the forms, the trace panel on the
//! conversation page, usage and the user's own limit. Another user's run is a 404.

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use backend::{Sou, Store};
use serde_json::{json, Value};

use crate::support::{self, api, location, same_site_form, send};

/// The `(id, data)` of each frame of an event stream.
fn frames(text: &str) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    let mut id = String::new();
    for line in text.lines() {
        if let Some(v) = line.strip_prefix("id: ") {
            id = v.to_string();
        } else if let Some(d) = line.strip_prefix("data: ") {
            out.push((std::mem::take(&mut id), serde_json::from_str(d).unwrap()));
        }
    }
    out
}

backend::on_both_databases!(runs_over_http_on_sqlite, runs_over_http_on_postgres, scenario);

async fn scenario(store: Store, site_root: &std::path::Path) {
    let sou =
        Sou::new(store.clone(), chrono_tz::Europe::Paris).with_today(agent::Date::new(2026, 11, 20).unwrap());
    let router = support::app_router(sou.clone(), site_root);
    let alice = support::sign_up(&sou, "alice").await;
    let bob = support::sign_up(&sou, "bob").await;

    // Each frame has an id, `<run>:<n>`; the run is also in a header.
    let req = support::post_json(
        "/api/v1/chat",
        json!({"message": "combien en courses en octobre 2026", "locale": "fr"}),
    );
    let (status, headers, text) = send(&router, Some(&alice), req).await;
    assert_eq!(status, StatusCode::OK);
    let run = headers.get("x-sou-run").unwrap().to_str().unwrap().to_string();
    let all = frames(&text);
    let ids: Vec<String> = (1..=all.len()).map(|n| format!("{run}:{n}")).collect();
    assert_eq!(all.iter().map(|(id, _)| id.clone()).collect::<Vec<_>>(), ids);
    let conversation = all.last().unwrap().1["conversation_id"].as_str().unwrap().to_string();

    // The trace; nobody else's.
    let (status, trace) = api(&router, &alice, "GET", &format!("/api/v1/runs/{run}"), Value::Null).await;
    assert_eq!(status, StatusCode::OK);
    let kinds: Vec<&str> =
        trace["steps"].as_array().unwrap().iter().map(|s| s["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["parse", "tool", "verify"]);
    assert!(!trace["source_rows"].as_array().unwrap().is_empty());
    let (status, _) = api(&router, &bob, "GET", &format!("/api/v1/runs/{run}"), Value::Null).await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    // Reconnecting after frame 2: exactly the frames after it, with their ids.
    let again = |last: &str, who| {
        let of = last.split(':').next().filter(|r| r.len() == 32).unwrap_or(&run).to_string();
        let req = Request::get(format!("/api/v1/runs/{of}/events"))
            .header("last-event-id", last)
            .body(Body::empty())
            .unwrap();
        let router = router.clone();
        async move { send(&router, Some(who), req).await }
    };
    let (status, _, text) = again(&format!("{run}:2"), &alice).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(frames(&text), all[2..].to_vec());
    let (status, _, text) = again("other:2", &alice).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{text}");
    let (status, _, _) = again(&format!("{run}:2"), &bob).await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    // The page: the answer, each figure's step, "how Sou got this" with its sources.
    let (status, _, page) =
        send(&router, Some(&alice), support::french_page(&format!("/c/{conversation}"))).await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains(r#"data-testid="trace""#), "the trace panel");
    assert_eq!(page.matches(r#"data-testid="trace-step""#).count(), 3);
    assert!(page.contains(&format!(r##"href="#step-{run}-2""##)), "the result links to its step");
    assert!(page.contains(&format!("/runs/{run}/sources?step=2#tx-")), "sources link to their transactions");
    assert!(!page.contains(r#"data-testid="ask-again""#));
    // An answer cut short (the server stopped during it) offers its question again,
    // ready to send in the same conversation.
    let user = alice.user;
    let mut db = store.tenant(user).await.unwrap();
    let stored: String =
        sqlx::query_scalar("SELECT events FROM messages WHERE user_id = $1 AND public_id = $2")
            .bind(user.0)
            .bind(&run)
            .fetch_one(&mut *db)
            .await
            .unwrap();
    let mut events: Vec<Value> = serde_json::from_str(&stored).unwrap();
    let end = events.len() - 1;
    events.insert(end, json!({"type": "error", "code": "interrupted", "message": "Sou s'est arrêté"}));
    sqlx::query("UPDATE messages SET events = $1 WHERE user_id = $2 AND public_id = $3")
        .bind(serde_json::to_string(&events).unwrap())
        .bind(user.0)
        .bind(&run)
        .execute(&mut *db)
        .await
        .unwrap();
    db.commit().await.unwrap();
    let (_, _, page) = send(&router, Some(&alice), support::french_page(&format!("/c/{conversation}"))).await;
    assert!(
        page.contains(
            r##"href="?q=combien%20en%20courses%20en%20octobre%202026#message" data-testid="ask-again""##
        ),
        "ask again"
    );

    // A plan, through the API: edited, accepted, followed; refused once done.
    let req = support::post_json("/api/v1/chat", json!({"message": "monthly review for October 2026"}));
    let (_, headers, text) = send(&router, Some(&alice), req).await;
    let plan_run = headers.get("x-sou-run").unwrap().to_str().unwrap().to_string();
    let proposal = frames(&text);
    let plan = proposal.iter().find(|(_, e)| e["type"] == "plan_proposed").unwrap().1["plan"].clone();
    let steps: Vec<Value> = plan["steps"].as_array().unwrap()[..2].to_vec();
    let uri = format!("/api/v1/runs/{plan_run}");
    let (status, body) = api(&router, &bob, "PATCH", &uri, json!({"steps": steps})).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    let (status, body) = api(&router, &alice, "PATCH", &uri, json!({"steps": []})).await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("invalid_plan"))
    );
    let (status, body) = api(&router, &alice, "PATCH", &uri, json!({"steps": steps})).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["plan"]["steps"].as_array().unwrap().len(), 2);
    let (status, _) = api(&router, &alice, "POST", &format!("{uri}/explode"), Value::Null).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = api(&router, &bob, "POST", &format!("{uri}/accept"), Value::Null).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, body) = api(&router, &alice, "POST", &format!("{uri}/accept"), Value::Null).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (_, _, text) = again(&format!("{plan_run}:{}", proposal.len()), &alice).await;
    let ran = frames(&text);
    assert_eq!(ran.iter().filter(|(_, e)| e["type"] == "step_result").count(), 2, "{ran:?}");
    assert_eq!(ran.last().unwrap().1["type"], "status");
    let (status, body) = api(&router, &alice, "POST", &format!("{uri}/accept"), Value::Null).await;
    assert_eq!((status, body["error"]["code"].as_str()), (StatusCode::CONFLICT, Some("run_state")));

    // A plan refused from its card, without JavaScript: back to the conversation.
    let req = support::post_json("/api/v1/chat", json!({"message": "prépare mon bilan d'octobre 2026"}));
    let (_, headers, text) = send(&router, Some(&alice), req).await;
    let refused = headers.get("x-sou-run").unwrap().to_str().unwrap().to_string();
    let conv = frames(&text).last().unwrap().1["conversation_id"].as_str().unwrap().to_string();
    let (_, _, page) = send(&router, Some(&alice), support::french_page(&format!("/c/{conv}"))).await;
    assert!(page.contains(&format!(r#"action="/runs/{refused}/accept""#)), "the card offers to run it");
    let form = same_site_form(&format!("/runs/{refused}/reject"), &format!("back=%2Fc%2F{conv}"));
    let (status, headers, _) = send(&router, Some(&alice), form).await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    assert_eq!(location(&headers), format!("/c/{conv}#run-{refused}"));
    let (_, _, page) = send(&router, Some(&alice), support::french_page(&format!("/c/{conv}"))).await;
    assert!(page.contains(r#"data-state="rejected""#));
    assert!(!page.contains(&format!(r#"action="/runs/{refused}/accept""#)));
    // Refused again: said on the page.
    let form = same_site_form(&format!("/runs/{refused}/accept"), &format!("back=%2Fc%2F{conv}"));
    let (_, headers, _) = send(&router, Some(&alice), form).await;
    assert_eq!(location(&headers), format!("/c/{conv}?write_error=run_state#run-{refused}"));

    // Usage, and the user's own limit from the API and from Settings.
    let (status, usage) = api(&router, &alice, "GET", "/api/v1/usage", Value::Null).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(usage["spent_eur_micros"], 0);
    let (status, usage) =
        api(&router, &alice, "PUT", "/api/v1/usage/limit", json!({"monthly_eur_micros": 5_000_000})).await;
    assert_eq!((status, usage["own_limit_eur_micros"].as_u64()), (StatusCode::OK, Some(5_000_000)));
    let (status, _) =
        api(&router, &alice, "PUT", "/api/v1/usage/limit", json!({"monthly_eur_micros": -1})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (_, headers, _) = send(&router, Some(&alice), same_site_form("/usage/limit", "limit=beaucoup")).await;
    assert_eq!(location(&headers), "/settings/usage?limit_error=amount&typed=beaucoup");
    let (_, headers, _) = send(&router, Some(&alice), same_site_form("/usage/limit", "limit=12%2C50")).await;
    assert_eq!(location(&headers), "/settings/usage?saved=1");
    let (_, usage) = api(&router, &alice, "GET", "/api/v1/usage", Value::Null).await;
    assert_eq!(usage["own_limit_eur_micros"], 12_500_000);
    let (_, bobs) = api(&router, &bob, "GET", "/api/v1/usage", Value::Null).await;
    assert!(bobs.get("own_limit_eur_micros").is_none(), "{bobs}");
    let _ = header::LOCATION;
}

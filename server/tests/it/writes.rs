//! Writes with the user's approval, on SQLite and PostgreSQL, through the API: a write
//! plan is only proposed (its dry run shown, nothing written); approving runs it once;
//! a replayed, expired, edited or tampered approval is refused; a row changed before
//! the write refuses all of it (nothing half-written); undo restores the rows exactly
//! and refuses after a conflicting change; an approval left approved by a stop runs
//! once when the server starts; another user sees, approves and undoes nothing. The
//! SIGKILL of a real server between approval and write is in `writes_crash`.

use crate::support;

use agent::protocol::ChatEvent;
use agent::{Approval, ApprovalState};
use axum::http::StatusCode;
use axum::Router;
use backend::WriteConfig;
use backend::{Sou, Store, UserId};
use serde_json::{json, Value};

use crate::support::{api, location, same_site_form, send};

/// Posts a write plan to the chat, as a client would; the approval it got.
pub async fn propose(
    router: &Router,
    who: &support::Signed,
    tool: &str,
    args: Value,
) -> (Vec<ChatEvent>, Option<Approval>) {
    let body = json!({"message": "write", "locale": "en", "plan": {"tool": tool, "args": args}});
    let req = support::post_json("/api/v1/chat", body);
    let (status, _, text) = send(router, Some(who), req).await;
    assert_eq!(status, StatusCode::OK, "{text}");
    let events: Vec<ChatEvent> = text
        .lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .map(|d| serde_json::from_str::<ChatEvent>(d).unwrap())
        .collect();
    let approval = events.iter().find_map(|e| match e {
        ChatEvent::ApprovalRequired { approval } => Some((**approval).clone()),
        _ => None,
    });
    (events, approval)
}

/// Every transaction's (id, category id, merchant id) of `user`.
async fn ledger(store: &Store, user: UserId) -> Vec<(i64, Option<i64>, Option<i64>)> {
    let mut db = store.tenant(user).await.unwrap();
    let rows = sqlx::query_as(
        "SELECT id, category_id, merchant_id FROM transactions WHERE user_id = $1 ORDER BY id",
    )
    .bind(user.0)
    .fetch_all(&mut *db)
    .await
    .unwrap();
    db.commit().await.unwrap();
    rows
}

/// The (signed) sum of `user`'s transactions in category `key`.
async fn category_sum(store: &Store, user: UserId, key: &str) -> i64 {
    let mut db = store.tenant(user).await.unwrap();
    let sum: Option<i64> = sqlx::query_scalar(
        "SELECT CAST(SUM(t.amount_minor) AS BIGINT) FROM transactions t JOIN categories c ON c.id = t.category_id
         WHERE t.user_id = $1 AND c.key = $2",
    )
    .bind(user.0)
    .bind(key)
    .fetch_one(&mut *db)
    .await
    .unwrap();
    db.commit().await.unwrap();
    sum.unwrap_or(0)
}

/// Runs `statement` on `user`'s rows ($1 is the user, $2 `text`), as another program
/// or a conflicting change would.
async fn sql(store: &Store, user: UserId, statement: &str, text: &str) {
    let mut db = store.tenant(user).await.unwrap();
    sqlx::query(statement).bind(user.0).bind(text).execute(&mut *db).await.unwrap();
    db.commit().await.unwrap();
}

/// Sets transaction `id`'s category to `key` (`None`: uncategorised).
async fn set_category(store: &Store, user: UserId, id: i64, key: Option<&str>) {
    let category = match key {
        Some(_) => "(SELECT id FROM categories WHERE user_id = $1 AND key = $2)",
        None => "NULL",
    };
    let statement =
        format!("UPDATE transactions SET category_id = {category} WHERE user_id = $1 AND id = {id}");
    let mut db = store.tenant(user).await.unwrap();
    let mut q = sqlx::query(&statement).bind(user.0);
    if let Some(k) = key {
        q = q.bind(k);
    }
    q.execute(&mut *db).await.unwrap();
    db.commit().await.unwrap();
}

fn code(v: &Value) -> &str {
    v["error"]["code"].as_str().unwrap_or("")
}

backend::on_both_databases!(writes_on_sqlite, writes_on_postgres, scenario);

async fn scenario(store: Store, site_root: &std::path::Path) {
    let sou = Sou::new(store.clone(), chrono_tz::Europe::Paris);
    let router = support::app_router(sou.clone(), site_root);
    let alice = support::sign_up(&sou, "alice").await;
    let bob = support::sign_up(&sou, "bob").await;
    let before = ledger(&store, alice.user).await;
    let (shopping, leisure) = (
        category_sum(&store, alice.user, "shopping").await,
        category_sum(&store, alice.user, "leisure").await,
    );

    // A write plan is proposed, not run: its effect is shown, nothing changes.
    let fnac = json!({"to": "leisure", "merchant": "fnac"});
    let (events, approval) = propose(&router, &alice, "recategorise", fnac.clone()).await;
    let approval = approval.expect("an approval_required event");
    assert!(!events.iter().any(|e| matches!(e, ChatEvent::ToolResult(_))), "a write returns no result");
    assert!(matches!(events.last(), Some(ChatEvent::Status { .. })), "the stream ends with its status");
    assert_eq!(approval.state, ApprovalState::Pending);
    let moving = approval.effect.transactions;
    assert!(moving > 0, "the demo ledger has Fnac purchases");
    assert!(
        approval.effect.lines[0].contains(&format!("{moving} transactions move to Leisure")),
        "{:?}",
        approval.effect.lines
    );
    assert_eq!(ledger(&store, alice.user).await, before, "nothing written before the approval");

    // Another user can neither see, approve nor undo it.
    let uri = format!("/api/v1/approvals/{}", approval.id);
    let (status, _) = api(&router, &bob, "GET", &uri, Value::Null).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = api(&router, &bob, "POST", &uri, json!({"action": "approve"})).await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    // Approving something other than what was shown is refused.
    let (status, body) =
        api(&router, &alice, "POST", &uri, json!({"action": "approve", "digest": "0".repeat(64)})).await;
    assert_eq!((status, code(&body)), (StatusCode::CONFLICT, "approval_changed"));
    assert_eq!(ledger(&store, alice.user).await, before);

    // Approved: run once. The sums follow.
    let (status, body) =
        api(&router, &alice, "POST", &uri, json!({"action": "approve", "digest": approval.digest})).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let done: Approval = serde_json::from_value(body).unwrap();
    assert_eq!(done.state, ApprovalState::Executed);
    let change = done.change.expect("the change it made");
    let after = ledger(&store, alice.user).await;
    let changed = before.iter().zip(&after).filter(|(b, a)| b != a).count();
    assert_eq!(changed as u32, moving);
    let moved = category_sum(&store, alice.user, "leisure").await - leisure;
    assert!(moved < 0, "spending moved into Leisure");
    assert_eq!(category_sum(&store, alice.user, "shopping").await, shopping - moved);

    // A replay is refused and writes nothing more.
    let (status, body) = api(&router, &alice, "POST", &uri, json!({"action": "approve"})).await;
    assert_eq!((status, code(&body)), (StatusCode::CONFLICT, "approval_done"));
    let (_, list) = api(&router, &alice, "GET", "/api/v1/changes", Value::Null).await;
    assert_eq!(list["changes"].as_array().unwrap().len(), 1);
    let (_, list) = api(&router, &bob, "GET", "/api/v1/changes", Value::Null).await;
    assert_eq!(list["changes"].as_array().unwrap().len(), 0, "bob's history is his own");

    // Undo: bob cannot; alice gets every row back exactly; a second undo is refused.
    let undo = format!("/api/v1/changes/{}/undo", change.id);
    let (status, _) = api(&router, &bob, "POST", &undo, Value::Null).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, body) = api(&router, &alice, "POST", &undo, Value::Null).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert!(body["undone_at"].is_string());
    assert_eq!(ledger(&store, alice.user).await, before, "undo restores the rows exactly");
    let (status, body) = api(&router, &alice, "POST", &undo, Value::Null).await;
    assert_eq!((status, code(&body)), (StatusCode::CONFLICT, "already_undone"));

    // Undo refuses after a conflicting change, and restores nothing.
    let (_, approval) = propose(&router, &alice, "recategorise", fnac.clone()).await;
    let approval = approval.unwrap();
    let uri = format!("/api/v1/approvals/{}", approval.id);
    let (_, body) = api(&router, &alice, "POST", &uri, json!({"action": "approve"})).await;
    let change: Approval = serde_json::from_value(body).unwrap();
    let change = change.change.unwrap();
    let one = approval.effect.sample[0].id;
    set_category(&store, alice.user, one, None).await;
    let mid = ledger(&store, alice.user).await;
    let (status, body) =
        api(&router, &alice, "POST", &format!("/api/v1/changes/{}/undo", change.id), Value::Null).await;
    assert_eq!((status, code(&body)), (StatusCode::CONFLICT, "conflict"));
    assert_eq!(ledger(&store, alice.user).await, mid, "a refused undo writes nothing");
    // Back to the start for what follows.
    set_category(&store, alice.user, one, Some("leisure")).await;
    let (status, _) =
        api(&router, &alice, "POST", &format!("/api/v1/changes/{}/undo", change.id), Value::Null).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(ledger(&store, alice.user).await, before);

    // A row changed between the dry run and the approval: nothing is written, not
    // even the rows before it; the approval says why.
    let (_, approval) = propose(&router, &alice, "recategorise", fnac.clone()).await;
    let approval = approval.unwrap();
    let last = approval.effect.sample.last().unwrap().id;
    set_category(&store, alice.user, last, None).await;
    let mid = ledger(&store, alice.user).await;
    let uri = format!("/api/v1/approvals/{}", approval.id);
    let (status, body) = api(&router, &alice, "POST", &uri, json!({"action": "approve"})).await;
    assert_eq!((status, code(&body)), (StatusCode::CONFLICT, "conflict"));
    assert_eq!(ledger(&store, alice.user).await, mid, "nothing half-written");
    let (_, body) = api(&router, &alice, "GET", &uri, Value::Null).await;
    assert_eq!(body["state"], "failed");
    set_category(&store, alice.user, last, Some("shopping")).await;
    assert_eq!(ledger(&store, alice.user).await, before);

    // Arguments changed after the approval was given (in the database itself): refused.
    let (_, approval) = propose(&router, &alice, "recategorise", fnac.clone()).await;
    let approval = approval.unwrap();
    sql(&store, alice.user, "UPDATE approvals SET plan = REPLACE(plan, '\"leisure\"', '\"travel\"') WHERE user_id = $1 AND id = $2", &approval.id).await;
    let uri = format!("/api/v1/approvals/{}", approval.id);
    let (status, body) = api(&router, &alice, "POST", &uri, json!({"action": "approve"})).await;
    assert_eq!((status, code(&body)), (StatusCode::CONFLICT, "approval_changed"), "{body}");
    assert_eq!(ledger(&store, alice.user).await, before);

    // Edit: a new dry run and a new approval; the old one is no longer approvable.
    let budget = json!({"category": "restaurants", "amount": {"minor": 30000, "currency": "EUR"}, "from": "2026-12-01"});
    let (_, approval) = propose(&router, &alice, "set_budget", budget).await;
    let approval = approval.unwrap();
    assert!(
        approval.effect.lines[0].contains("€300.00 a month from December 2026"),
        "{:?}",
        approval.effect.lines
    );
    let uri = format!("/api/v1/approvals/{}", approval.id);
    let edited = json!({"category": "restaurants", "amount": {"minor": 35000, "currency": "EUR"}, "from": "2026-12-01"});
    let (status, body) = api(&router, &alice, "POST", &uri, json!({"action": "edit", "args": edited})).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let new: Approval = serde_json::from_value(body).unwrap();
    assert_ne!(new.id, approval.id);
    let (status, body) = api(&router, &alice, "POST", &uri, json!({"action": "approve"})).await;
    assert_eq!((status, code(&body)), (StatusCode::CONFLICT, "approval_superseded"));
    let (status, _) =
        api(&router, &alice, "POST", &format!("/api/v1/approvals/{}", new.id), json!({"action": "approve"}))
            .await;
    assert_eq!(status, StatusCode::OK);
    let status_plan = json!({"tool": "budget_status", "args": {"category": "restaurants", "period": {"start": "2026-12-01", "end": "2027-01-01", "label": "December 2026"}}});
    let req = support::post_json("/api/v1/chat", json!({"message": "budget", "plan": status_plan}));
    let (_, _, text) = send(&router, Some(&alice), req).await;
    assert!(
        text.contains(r#""budget":{"minor":35000,"currency":"EUR"}"#),
        "budget_status uses the new budget: {text}"
    );
    // November keeps the budget it had.
    let november = json!({"tool": "budget_status", "args": {"category": "restaurants", "period": {"start": "2026-11-01", "end": "2026-12-01", "label": "November 2026"}}});
    let req = support::post_json("/api/v1/chat", json!({"message": "budget", "plan": november}));
    let (_, _, text) = send(&router, Some(&alice), req).await;
    assert!(!text.contains(r#""budget":{"minor":35000"#), "{text}");

    // An edit changes only what the card shows: a Restaurants budget stays one, by
    // the API (400) and by the card's form (back with why); nothing changes.
    let budget = json!({"category": "restaurants", "amount": {"minor": 30000, "currency": "EUR"}, "from": "2027-01-01"});
    let approval = propose(&router, &alice, "set_budget", budget).await.1.unwrap();
    let uri = format!("/api/v1/approvals/{}", approval.id);
    let groceries =
        json!({"category": "groceries", "amount": {"minor": 30000, "currency": "EUR"}, "from": "2027-01-01"});
    let (status, body) =
        api(&router, &alice, "POST", &uri, json!({"action": "edit", "args": groceries})).await;
    assert_eq!((status, code(&body)), (StatusCode::BAD_REQUEST, "not_editable"), "{body}");
    assert!(body["error"]["message"].as_str().unwrap_or_default().contains("category"), "{body}");
    let (status, headers, _) = send(
        &router,
        Some(&alice),
        same_site_form(
            &format!("/approvals/{}", approval.id),
            "action=edit&amount=400&currency=EUR&from=2027-01&category=groceries&back=%2Fc%2Fx",
        ),
    )
    .await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    assert!(location(&headers).contains("write_error=not_editable"), "{}", location(&headers));
    let (_, body) = api(&router, &alice, "GET", &uri, Value::Null).await;
    assert_eq!(body["state"], "pending", "{body}");
    assert_eq!(body["plan"]["args"]["category"], "restaurants", "{body}");
    assert_eq!(body["plan"]["args"]["amount"]["minor"], 30000, "{body}");
    assert_eq!(body["digest"], approval.digest);
    // A recategorisation's filters are not the card's either; its `to` is.
    let (_, recat) = propose(&router, &alice, "recategorise", fnac.clone()).await;
    let recat = recat.unwrap();
    let uri = format!("/api/v1/approvals/{}", recat.id);
    let mut wider = fnac.clone();
    wider["text"] = json!("a");
    let (status, body) = api(&router, &alice, "POST", &uri, json!({"action": "edit", "args": wider})).await;
    assert_eq!((status, code(&body)), (StatusCode::BAD_REQUEST, "not_editable"), "{body}");
    let (_, body) = api(&router, &alice, "GET", &uri, Value::Null).await;
    assert_eq!(body["state"], "pending", "{body}");
    assert_eq!(ledger(&store, alice.user).await, before);

    // Rejected: nothing changes, and it cannot be approved after.
    let (_, approval) = propose(
        &router,
        &alice,
        "create_rule",
        json!({"pattern": "fnac", "category": "leisure", "apply_to_past": true}),
    )
    .await;
    let approval = approval.unwrap();
    let uri = format!("/api/v1/approvals/{}", approval.id);
    let (status, _) = api(&router, &alice, "POST", &uri, json!({"action": "reject"})).await;
    assert_eq!(status, StatusCode::OK);
    let (status, body) = api(&router, &alice, "POST", &uri, json!({"action": "approve"})).await;
    assert_eq!((status, code(&body)), (StatusCode::CONFLICT, "approval_decided"));
    assert_eq!(ledger(&store, alice.user).await, before);

    // Expired: refused.
    let hasty = Sou::new(store.clone(), chrono_tz::Europe::Paris)
        .with_writes(WriteConfig { approval_ttl: std::time::Duration::ZERO, ..WriteConfig::default() });
    let hasty_router = support::app_router(hasty, site_root);
    let (_, approval) = propose(&hasty_router, &alice, "recategorise", fnac.clone()).await;
    let uri = format!("/api/v1/approvals/{}", approval.unwrap().id);
    let (status, body) = api(&hasty_router, &alice, "POST", &uri, json!({"action": "approve"})).await;
    assert_eq!((status, code(&body)), (StatusCode::CONFLICT, "approval_expired"));
    assert_eq!(ledger(&store, alice.user).await, before);

    // Approved, then the server stopped before writing: it runs once when it starts.
    let (_, approval) = propose(&router, &alice, "recategorise", fnac.clone()).await;
    let approval = approval.unwrap();
    sql(
        &store,
        alice.user,
        "UPDATE approvals SET state = 'approved' WHERE user_id = $1 AND id = $2",
        &approval.id,
    )
    .await;
    assert_eq!(sou.approvals().resume_approved().await.unwrap(), 1);
    assert_eq!(sou.approvals().resume_approved().await.unwrap(), 0, "once");
    let once = ledger(&store, alice.user).await;
    assert_eq!(before.iter().zip(&once).filter(|(b, a)| b != a).count() as u32, approval.effect.transactions);
    let (_, body) =
        api(&router, &alice, "GET", &format!("/api/v1/approvals/{}", approval.id), Value::Null).await;
    assert_eq!(body["state"], "executed");

    // Two undos of that change at once: one undoes it, the other is refused.
    let undo = format!("/api/v1/changes/{}/undo", body["change"]["id"].as_str().unwrap());
    let (a, b) = tokio::join!(
        api(&router, &alice, "POST", &undo, Value::Null),
        api(&router, &alice, "POST", &undo, Value::Null)
    );
    let mut statuses = [a.0, b.0];
    statuses.sort();
    assert_eq!(statuses, [StatusCode::OK, StatusCode::CONFLICT]);
    assert_eq!(ledger(&store, alice.user).await, before, "undone once");

    // A merge undone after the merged merchant's key was taken again (an import made
    // it anew): refused, nothing written.
    let (_, approval) =
        propose(&router, &alice, "merge_merchants", json!({"into": "monoprix", "merge": ["franprix"]})).await;
    let uri = format!("/api/v1/approvals/{}", approval.unwrap().id);
    let (status, body) = api(&router, &alice, "POST", &uri, json!({"action": "approve"})).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let undo = format!("/api/v1/changes/{}/undo", body["change"]["id"].as_str().unwrap());
    sql(
        &store,
        alice.user,
        "INSERT INTO merchants (user_id, key, name) VALUES ($1, $2, 'Franprix')",
        "franprix",
    )
    .await;
    let merged = ledger(&store, alice.user).await;
    let (status, body) = api(&router, &alice, "POST", &undo, Value::Null).await;
    assert_eq!((status, code(&body)), (StatusCode::CONFLICT, "conflict"), "{body}");
    assert_eq!(ledger(&store, alice.user).await, merged);

    // Without JavaScript: the card's forms, back to the conversation.
    let (_, approval) =
        propose(&router, &alice, "merge_merchants", json!({"into": "fnac", "name": "Fnac Darty"})).await;
    let approval = approval.unwrap();
    let (status, headers, _) = send(
        &router,
        Some(&alice),
        same_site_form(
            &format!("/approvals/{}", approval.id),
            &format!("action=approve&digest={}&back=%2Fc%2Fx", approval.digest),
        ),
    )
    .await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    assert!(location(&headers).starts_with("/c/x#approval-"), "{}", location(&headers));
    let (_, body) =
        api(&router, &alice, "GET", &format!("/api/v1/approvals/{}", approval.id), Value::Null).await;
    assert_eq!(body["state"], "executed");
    let (status, headers, _) =
        send(&router, Some(&bob), same_site_form(&format!("/approvals/{}", approval.id), "action=reject"))
            .await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    assert!(location(&headers).contains("write_error=not_found"), "{}", location(&headers));
}

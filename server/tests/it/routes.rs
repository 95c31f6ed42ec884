//! The server's routes driven in-process with `tower::ServiceExt::oneshot`.

use agent::protocol::{ChatEvent, SseDecoder};
use agent::ToolOutput;
use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use axum::Router;
use backend::{Sou, Store, UserId};
use serde_json::{json, Value};

use crate::support;
use crate::support::post_json;

struct TestApp {
    _dir: tempfile::TempDir,
    store: Store,
    user: UserId,
    who: support::Signed,
    router: Router,
}

async fn app() -> TestApp {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_in(dir.path()).await.unwrap();
    let sou = Sou::new(store.clone(), chrono_tz::Europe::Paris);
    let who = support::sign_up(&sou, "alice").await;
    TestApp { router: support::app_router(sou, dir.path()), _dir: dir, store, user: who.user, who }
}

/// Sends `req` as the test's signed-in user.
async fn send(app: &TestApp, req: Request<Body>) -> (StatusCode, axum::http::HeaderMap, String) {
    support::send(&app.router, Some(&app.who), req).await
}

fn get(uri: &str) -> Request<Body> {
    Request::get(uri).header(header::ACCEPT_LANGUAGE, "en-GB,en;q=0.9").body(Body::empty()).unwrap()
}

async fn sql_groceries_january(app: &TestApp) -> i64 {
    sqlx::query_scalar(
        "SELECT -SUM(t.amount_minor) FROM transactions t JOIN categories c ON c.id = t.category_id
         WHERE t.user_id = $1 AND c.key = 'groceries' AND t.amount_minor < 0
           AND t.date >= '2026-01-01' AND t.date < '2026-02-01'",
    )
    .bind(app.user.0)
    .fetch_one(app.store.pool())
    .await
    .unwrap()
}

fn decode_sse(body: &str) -> Vec<ChatEvent> {
    let mut d = SseDecoder::new();
    d.feed(body.as_bytes())
        .into_iter()
        .inspect(|f| assert_eq!(f.event, "chunk"))
        .map(|f| serde_json::from_str(&f.data).unwrap())
        .collect()
}

#[tokio::test]
async fn home_page_is_server_rendered_with_the_vocabulary() {
    let app = app().await;
    let (status, _, html) = send(&app, get("/")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("<form method=\"post\" action=\"/chat\""), "{html}");
    assert!(html.contains("name=\"message\""));
    assert!(html.contains("Ask about your money"), "English from Accept-Language");
    // The vocabulary is in the page for the browser's parser.
    assert!(html.contains("groceries") && html.contains("Monoprix"));
    assert!(html.contains("/pkg/sou.js") || html.contains("sou.js"), "hydration script");
}

#[tokio::test]
async fn plan_endpoint_answers_with_the_parser() {
    let app = app().await;
    let (status, _, body) = send(
        &app,
        post_json(
            "/api/v1/plan",
            json!({"message": "How much did I spend on groceries in January 2026?", "today": "2026-11-21"}),
        ),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let v: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["plan"]["tool"], "spending_summary");
    assert_eq!(v["plan"]["args"]["category"], "groceries");
    assert_eq!(v["plan"]["args"]["period"]["start"], "2026-01-01");
    assert_eq!(v["plan"]["meta"]["confidence"], "high");

    let (status, _, body) =
        send(&app, post_json("/api/v1/plan", json!({"message": "et en février ?", "locale": "fr"}))).await;
    assert_eq!(status, StatusCode::OK);
    let v: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["clarification"]["reasons"][0]["code"], "missing_context");
}

#[tokio::test]
async fn api_errors_are_specific_json() {
    let app = app().await;
    let cases = [
        (post_json("/api/v1/plan", json!({"message": ""})), StatusCode::BAD_REQUEST, "empty"),
        (post_json("/api/v1/plan", json!({"msg": "x"})), StatusCode::BAD_REQUEST, "msg"),
        (
            post_json("/api/v1/chat", json!({"message": "hi", "plan": {"tool": "rm_rf", "args": {}}})),
            StatusCode::UNPROCESSABLE_ENTITY,
            "rm_rf",
        ),
        (
            post_json("/api/v1/chat", json!({"message": "hi", "conversation_id": "nope"})),
            StatusCode::NOT_FOUND,
            "not found",
        ),
        (
            Request::post("/api/v1/plan")
                .header(header::CONTENT_TYPE, "text/plain")
                .body(Body::from("hi"))
                .unwrap(),
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "Content-Type",
        ),
    ];
    for (req, want, needle) in cases {
        let (status, _, body) = send(&app, req).await;
        assert_eq!(status, want, "{body}");
        let v: Value = serde_json::from_str(&body).unwrap();
        let message = v["error"]["message"].as_str().unwrap();
        assert!(message.contains(needle), "{message}");
    }
}

#[tokio::test]
async fn chat_streams_until_done_with_the_ledger_total() {
    let app = app().await;
    let (status, headers, body) = send(
        &app,
        post_json("/api/v1/chat", json!({"message": "How much did I spend on groceries in January 2026?"})),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert!(headers[header::CONTENT_TYPE].to_str().unwrap().starts_with("text/event-stream"));
    let events = decode_sse(&body);
    assert!(matches!(events.first(), Some(ChatEvent::Plan { .. })));
    assert!(events.last().is_some_and(ChatEvent::is_terminal), "{body}");
    let total = events
        .iter()
        .find_map(|e| match e {
            ChatEvent::ToolResult(ToolOutput::SpendingSummary(r)) => Some(r.total.minor),
            _ => None,
        })
        .expect("a tool_result");
    assert_eq!(total, sql_groceries_january(&app).await);
    assert!(body.contains("\"content\":\"done\""));
}

#[tokio::test]
async fn the_form_works_without_javascript() {
    let app = app().await;
    let form = "message=Combien+j%27ai+d%C3%A9pens%C3%A9+en+courses+en+janvier+2026+%3F&conversation_id=";
    let req = chat_form(form);
    let (status, headers, _) = send(&app, req).await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    let location = headers[header::LOCATION].to_str().unwrap().to_string();
    assert!(location.starts_with("/c/"), "{location}");
    let path = location.split('#').next().unwrap();
    let (status, _, html) = send(&app, get(path)).await;
    assert_eq!(status, StatusCode::OK);
    let total = sql_groceries_january(&app).await;
    assert!(html.contains(&format!("data-minor=\"{total}\"")), "total in the page");
    let shown = agent::Money::new(total, agent::Currency::EUR).format(agent::Locale::Fr);
    assert!(html.contains(&shown), "{shown} not in the page");
    assert!(html.contains("Combien j&#x27;ai dépensé") || html.contains("Combien j'ai dépensé"));

    // A follow-up in the same conversation, still without JavaScript.
    let id = path.trim_start_matches("/c/");
    let req = chat_form(format!("message=et+en+f%C3%A9vrier+%3F&conversation_id={id}"));
    let (status, headers, _) = send(&app, req).await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    assert!(headers[header::LOCATION].to_str().unwrap().starts_with(path));
    let (_, _, html) = send(&app, get(path)).await;
    assert!(html.contains("data-testid=\"clarify\""), "low confidence asks");
    assert!(html.contains("name=\"plan\""), "suggestions are forms");
}

/// Without JavaScript the answer speaks the page's language (Accept-Language) when the
/// message's words do not tell, and a message too long to plan is told so.
#[tokio::test]
async fn the_form_answers_in_the_pages_language() {
    let app = app().await;
    let long = "🙂 ".repeat(1500);
    for (lang, message, want) in [
        ("en-GB,en;q=0.9", "🙂🙂🙂", "did not understand"),
        ("fr-FR,fr;q=0.9", "🙂🙂🙂", "pas compris"),
        ("en-GB,en;q=0.9", long.as_str(), "too long"),
        ("fr-FR,fr;q=0.9", long.as_str(), "trop long"),
    ] {
        let mut req = chat_form(format!("message={}&conversation_id=", urlencode(message)));
        req.headers_mut().insert(header::ACCEPT_LANGUAGE, lang.parse().unwrap());
        let (status, headers, _) = send(&app, req).await;
        assert_eq!(status, StatusCode::SEE_OTHER, "{lang}");
        let location = headers[header::LOCATION].to_str().unwrap();
        let mut page = get(location.split('#').next().unwrap());
        page.headers_mut().insert(header::ACCEPT_LANGUAGE, lang.parse().unwrap());
        let (_, _, html) = send(&app, page).await;
        assert!(html.contains(want), "{lang}: {want:?} not in the answer");
    }
    // A form that cannot be read is answered in the page's language too.
    let mut req = chat_form("message=mon+texte&plan=%7Bbroken");
    req.headers_mut().insert(header::ACCEPT_LANGUAGE, "en".parse().unwrap());
    let (status, _, html) = send(&app, req).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(html.contains("lang=\"en\"") && html.contains("not valid JSON"), "{html}");
}

#[tokio::test]
async fn unknown_conversation_is_404_and_bad_forms_keep_the_text() {
    let app = app().await;
    let (status, _, html) = send(&app, get("/c/does-not-exist")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(html.contains("Page"));
    let req = chat_form("message=mon+texte&plan=%7Bbroken");
    let (status, _, html) = send(&app, req).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(html.contains("mon texte"), "the user's text is given back");
}

#[tokio::test]
async fn tool_catalogue_lists_schemas() {
    let app = app().await;
    let (status, _, body) = send(&app, get("/api/v1/tools")).await;
    assert_eq!(status, StatusCode::OK);
    let v: Value = serde_json::from_str(&body).unwrap();
    let names: Vec<&str> =
        v["tools"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
    // The registry's order: `agent::for_each_tool!`'s, which docs/tools.md follows.
    assert_eq!(names, [agent::ToolCall::READ_NAMES, agent::ToolCall::WRITE_NAMES].concat());
    assert_eq!(names.first(), Some(&"spending_summary"));
    let class = |name: &str| {
        v["tools"].as_array().unwrap().iter().find(|t| t["name"] == name).unwrap()["class"].clone()
    };
    assert_eq!(class("spending_summary"), "read");
    assert_eq!(class("set_budget"), "write");
    // cash_flow offers only time groups.
    let cash_flow = v["tools"].as_array().unwrap().iter().find(|t| t["name"] == "cash_flow").unwrap();
    assert_eq!(
        cash_flow["schema"]["properties"]["group_by"]["enum"],
        json!(["none", "month", "week", "day"])
    );
    assert_eq!(v["tools"][0]["class"], "read");
    assert!(v["tools"][0]["schema"]["properties"]["period"].is_object());
}

fn form(message: &str, plan: &Value) -> Request<Body> {
    let body =
        format!("message={}&plan={}&conversation_id=", urlencode(message), urlencode(&plan.to_string()));
    chat_form(body)
}

/// The chat form as a browser without JavaScript posts it.
fn chat_form(body: impl Into<Body>) -> Request<Body> {
    Request::post("/chat")
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(body.into())
        .unwrap()
}

fn urlencode(s: &str) -> String {
    form_urlencoded::byte_serialize(s.as_bytes()).collect()
}

#[tokio::test]
async fn budget_status_streams_over_the_api() {
    let app = app().await;
    let plan = json!({"tool": "budget_status", "args": {
        "period": {"start": "2026-11-01", "end": "2026-12-01", "label": "November 2026"}
    }});
    let (status, _, body) =
        send(&app, post_json("/api/v1/chat", json!({"message": "my budgets", "plan": plan}))).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let events = decode_sse(&body);
    let r = events
        .iter()
        .find_map(|e| match e {
            ChatEvent::ToolResult(ToolOutput::BudgetStatus(r)) => Some(r.clone()),
            _ => None,
        })
        .expect("a budget_status result");
    let budgets: i64 = sqlx::query_scalar("SELECT SUM(amount_minor) FROM budgets WHERE user_id = $1")
        .bind(app.user.0)
        .fetch_one(app.store.pool())
        .await
        .unwrap();
    assert_eq!(r.budget.minor, budgets);
    assert_eq!(r.lines.len(), 6);
    assert!(events.last().is_some_and(ChatEvent::is_terminal));
}

#[tokio::test]
async fn new_results_render_without_javascript() {
    let app = app().await;
    let p = |start: &str, end: &str| json!({"start": start, "end": end, "label": "période"});
    let cases = [
        (
            json!({"tool": "cash_flow", "args": {"period": p("2026-01-01", "2026-07-01"), "group_by": "month"}}),
            vec![
                "data-tool=\"cash_flow\"",
                "data-testid=\"savings-rate\"",
                "<caption>",
                "scope=\"row\"",
                "bar-in",
            ],
        ),
        (
            json!({"tool": "balances", "args": {"period": p("2026-01-01", "2026-02-01")}}),
            vec!["data-tool=\"balances\"", "Livret A", "<tfoot>", "scope=\"col\""],
        ),
        (
            json!({"tool": "budget_status", "args": {"period": p("2026-11-01", "2026-12-01")}}),
            vec![
                "data-tool=\"budget_status\"",
                "role=\"progressbar\"",
                "aria-valuenow=",
                "data-state=\"over\"",
                "data-state=\"warning\"",
                "data-state=\"ok\"",
                "meter-fill state-over",
            ],
        ),
        (
            json!({"tool": "recurring_payments", "args": {"period": p("2024-11-01", "2026-11-21")}}),
            vec![
                "data-tool=\"recurring_payments\"",
                "Netflix",
                "MAIF",
                "data-cadence=\"yearly\"",
                "<caption>",
            ],
        ),
    ];
    for (plan, needles) in cases {
        let (status, headers, body) = send(&app, form("montre-moi", &plan)).await;
        assert_eq!(status, StatusCode::SEE_OTHER, "{plan}: {body}");
        let location = headers[header::LOCATION].to_str().unwrap().to_string();
        let (status, _, html) = send(&app, get(location.split('#').next().unwrap())).await;
        assert_eq!(status, StatusCode::OK);
        for needle in needles {
            assert!(html.contains(needle), "{needle} missing for {plan}");
        }
    }
}

/// Routers built while a page renders — as tests do, side by side — must not stall the
/// page: listing the app's routes suspends resource loading process-wide, so it is
/// done once per process.
#[tokio::test]
async fn pages_render_while_other_routers_are_built() {
    let app = app().await;
    let sou = Sou::new(app.store.clone(), chrono_tz::Europe::Paris);
    let site = app._dir.path().to_path_buf();
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let builder = {
        let stop = stop.clone();
        std::thread::spawn(move || {
            let mut built = 0;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                drop(support::app_router(sou.clone(), &site));
                built += 1;
            }
            built
        })
    };
    for page in ["/", "/settings", "/datasets", "/rules", "/import"].repeat(4) {
        let sent = tokio::time::timeout(std::time::Duration::from_secs(20), send(&app, get(page))).await;
        let (status, _, html) = sent.unwrap_or_else(|_| panic!("{page} stalled while routers were built"));
        assert_eq!(status, StatusCode::OK, "{page}");
        assert!(html.contains("</html>"), "{page}");
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    assert!(builder.join().unwrap() > 0, "no router was built meanwhile");
}

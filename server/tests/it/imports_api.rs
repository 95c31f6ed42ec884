//! The import API for scripts, with a personal API token, on SQLite and PostgreSQL: a
//! file sent as the body answers with its preview; an unsure layout waits for the one
//! the script names; the run's report counts what the preview counted; bad requests
//! are 4xx with a reason; another user's upload is 404.

use crate::support;

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use axum::Router;
use backend::{Sou, Store};
use secrecy::ExposeSecret;
use serde_json::{json, Value};

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(format!("{}/../backend/tests/fixtures/import/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

/// A request with a bearer token.
fn with(token: &str, method: &str, uri: &str, content_type: &str, body: Vec<u8>) -> Request<Body> {
    Request::builder()
        .method(method)
        .uri(uri)
        .header(header::AUTHORIZATION, format!("Bearer {token}"))
        .header(header::CONTENT_TYPE, content_type)
        .body(Body::from(body))
        .unwrap()
}

async fn call(router: &Router, req: Request<Body>) -> (StatusCode, Value) {
    let (status, _, body) = support::send(router, None, req).await;
    (status, serde_json::from_str(&body).unwrap_or(Value::Null))
}

backend::on_both_databases!(import_api_on_sqlite, import_api_on_postgres, scenario);

async fn scenario(store: Store, site: &std::path::Path) {
    let sou = Sou::new(store, chrono_tz::Europe::Paris);
    let router = support::app_router(sou.clone(), site);
    let alice = support::sign_up(&sou, "alice").await;
    let bob = support::sign_up(&sou, "bob").await;
    let (_, token) = sou.auth().create_token(alice.user, "script").await.unwrap();
    let token = token.expose_secret().to_string();
    let (_, bobs) = sou.auth().create_token(bob.user, "script").await.unwrap();
    let bobs = bobs.expose_secret().to_string();
    let csv = "application/octet-stream";

    // Revolut: the preview says what will be imported and what will not, and why.
    let (status, v) = call(
        &router,
        with(&token, "POST", "/api/v1/imports?name=revolut.csv", csv, fixture("revolut-devises-frais.csv")),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let id = v["id"].as_str().unwrap().to_string();
    assert_eq!(v["mapping"]["layout"], "Revolut");
    assert_eq!(v["total_rows"], 4);
    assert_eq!(v["rejected"][1]["why"], json!({"code": "not_booked", "state": "PENDING"}));
    assert_eq!(v["balances"]["breaks"], json!([]));
    // Bob cannot see it, run it or discard it.
    for (method, uri) in [
        ("GET", format!("/api/v1/imports/{id}")),
        ("POST", format!("/api/v1/imports/{id}/run")),
        ("DELETE", format!("/api/v1/imports/{id}")),
    ] {
        let (status, v) = call(&router, with(&bobs, method, &uri, "application/json", b"{}".to_vec())).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{method} {uri}: {v}");
    }
    let (status, v) = call(
        &router,
        with(
            &token,
            "POST",
            &format!("/api/v1/imports/{id}/run"),
            "application/json",
            json!({"new_account": "Revolut", "wait": true}).to_string().into_bytes(),
        ),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(
        (v["state"].as_str(), v["added"].as_u64(), v["read"].as_u64()),
        (Some("done"), Some(4), Some(4))
    );
    assert_eq!(v["opening"][1]["minor"], 100_000);

    // A layout Sou is unsure of: the run is refused until the script names the column.
    let (status, v) = call(
        &router,
        with(
            &token,
            "POST",
            "/api/v1/imports?name=ancien.csv",
            csv,
            fixture("sans-entete-deux-montants.csv"),
        ),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED);
    let id = v["id"].as_str().unwrap().to_string();
    assert_eq!(v["mapping"]["unsure_amount"], json!([3, 2]));
    let run = |body: Value| {
        with(
            &token,
            "POST",
            &format!("/api/v1/imports/{id}/run"),
            "application/json",
            body.to_string().into_bytes(),
        )
    };
    let (status, e) = call(&router, run(json!({"new_account": "Ancien"}))).await;
    assert_eq!(
        (status, e["error"]["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("layout_unsure")),
        "{e}"
    );
    let (status, v) = call(
        &router,
        with(&token, "GET", &format!("/api/v1/imports/{id}?amounts=signed&amount=3"), csv, Vec::new()),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(v["rows"][0]["amount"]["minor"], -4_567);
    let (status, v) =
        call(&router, run(json!({"mapping": v["mapping"], "new_account": "Ancien", "wait": true}))).await;
    assert_eq!((status, v["added"].as_u64()), (StatusCode::OK, Some(3)), "{v}");
    let (status, v) = call(&router, run(json!({"new_account": "Ancien"}))).await;
    assert_eq!((status, v["error"]["code"].as_str()), (StatusCode::CONFLICT, Some("already_imported")));

    // A file of several accounts: a target for each, else a 400 that says so.
    let (status, v) = call(
        &router,
        with(&token, "POST", "/api/v1/imports?name=tous.qif", csv, fixture("qif-tous-comptes.qif")),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED);
    assert_eq!(v["parts"][1]["name"], "Carte Visa");
    let qif = v["id"].as_str().unwrap().to_string();
    let run_qif = |body: Value| {
        with(
            &token,
            "POST",
            &format!("/api/v1/imports/{qif}/run"),
            "application/json",
            body.to_string().into_bytes(),
        )
    };
    let (status, e) = call(&router, run_qif(json!({"new_account": "Tout"}))).await;
    assert_eq!((status, e["error"]["code"].as_str()), (StatusCode::BAD_REQUEST, Some("parts")), "{e}");
    let (status, v) =
        call(&router, run_qif(json!({"parts": [{}, {"new_account": "Visa"}], "wait": true}))).await;
    assert_eq!((status, v["added"].as_u64()), (StatusCode::OK, Some(3)), "{v}");
    assert_eq!(v["account"], "Compte chèque, Visa");

    // Bad requests say why, and keep nothing.
    for (req, want, code) in [
        (
            with(&token, "POST", "/api/v1/imports?name=x.csv", csv, Vec::new()),
            StatusCode::BAD_REQUEST,
            "empty",
        ),
        (
            with(&token, "POST", "/api/v1/imports?name=x.txt", csv, fixture("pas-un-releve.txt")),
            StatusCode::BAD_REQUEST,
            "unreadable",
        ),
        (
            with(&token, "POST", "/api/v1/imports", "multipart/form-data; boundary=x", b"--x--".to_vec()),
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported_media_type",
        ),
        (
            with(&token, "POST", "/api/v1/imports", csv, vec![b'a'; backend::MAX_IMPORT_BYTES + 70_000]),
            StatusCode::PAYLOAD_TOO_LARGE,
            "too_large",
        ),
        (
            with(&token, "GET", &format!("/api/v1/imports/{id}?amount=x"), csv, Vec::new()),
            StatusCode::BAD_REQUEST,
            "bad_request",
        ),
        (
            with(
                &token,
                "POST",
                &format!("/api/v1/imports/{id}/run"),
                "application/json",
                br#"{"acount": "x"}"#.to_vec(),
            ),
            StatusCode::BAD_REQUEST,
            "bad_request",
        ),
        (
            with("sou_pat_forged", "GET", "/api/v1/imports", csv, Vec::new()),
            StatusCode::UNAUTHORIZED,
            "invalid_token",
        ),
    ] {
        let what = format!("{} {}", req.method(), req.uri());
        let (status, e) = call(&router, req).await;
        assert_eq!((status, e["error"]["code"].as_str()), (want, Some(code)), "{what}: {e}");
    }
    let (status, v) = call(&router, with(&token, "GET", "/api/v1/imports", csv, Vec::new())).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(v["imports"].as_array().unwrap().len(), 3, "{v}");
    let (status, v) = call(&router, with(&bobs, "GET", "/api/v1/imports", csv, Vec::new())).await;
    assert_eq!((status, v["imports"].as_array().map(Vec::len)), (StatusCode::OK, Some(0)));
}

//! Sou's own answer, written without a model, quotes what a bank sent: whoever sends
//! a transfer chooses its label. A label written as a Markdown link or as HTML is
//! imported through the upload form, asked about in the chat form (no JavaScript, no
//! model), and the conversation page shows it as text — no link, no element.

use crate::support;

use std::time::Duration;

use crate::support::{location, same_site_form as form, send, upload, Signed};
use agent::imports::ImportState;
use agent::Locale;
use axum::http::StatusCode;
use backend::{Sou, Store};
use secrecy::{ExposeSecret, SecretString};

const LINK: &str = "[Confirmez votre compte](https://evil.example/login)";
const TAG: &str = "<img src=x onerror=alert(1)>";

backend::on_both_databases!(bank_labels_stay_text_on_sqlite, bank_labels_stay_text_on_postgres, scenario);

async fn scenario(store: Store, site: &std::path::Path) {
    let sou = Sou::new(store, chrono_tz::Europe::Paris);
    let router = support::app_router(sou.clone(), site);
    // An account holding only the imported file, so its transactions are the answer.
    let (account, session) =
        sou.auth().sign_up("alice", &SecretString::from("correct horse battery staple")).await.unwrap();
    let alice =
        Signed { user: account.user, cookie: format!("sou_session={}", session.token.expose_secret()) };

    let csv = format!(
        "Date,Description,Amount\n2026-01-05,{LINK},-999.00\n2026-01-06,{TAG},-888.00\n2026-01-07,Bakery,-3.00\n"
    );
    let (status, headers, body) =
        send(&router, Some(&alice), upload("/import", "bank.csv", csv.as_bytes())).await;
    assert_eq!(status, StatusCode::SEE_OTHER, "{body}");
    let to = location(&headers);
    let id = to.strip_prefix("/import/").unwrap_or_else(|| panic!("{to}")).to_string();
    let (status, _, body) =
        send(&router, Some(&alice), form(&format!("{to}/run"), "mapping=&account=&new_account=Current"))
            .await;
    assert_eq!(status, StatusCode::SEE_OTHER, "{body}");
    let mut state = ImportState::Pending;
    for _ in 0..500 {
        state = sou.imports().state(alice.user, &id, Locale::En).await.unwrap();
        match state {
            ImportState::Running { .. } => tokio::time::sleep(Duration::from_millis(10)).await,
            _ => break,
        }
    }
    assert!(matches!(&state, ImportState::Done(r) if r.added == 3), "{state:?}");

    for question in ["largest transactions in January 2026", "top merchants in January 2026"] {
        let body = format!("message={}&conversation_id=", question.replace(' ', "+"));
        let (status, headers, html) = send(&router, Some(&alice), form("/chat", &body)).await;
        assert_eq!(status, StatusCode::SEE_OTHER, "{question}: {html}");
        let page = location(&headers);
        let page = page.split('#').next().unwrap();
        assert!(page.starts_with("/c/"), "{page}");
        let (status, _, html) = send(&router, Some(&alice), support::french_page(page)).await;
        assert_eq!(status, StatusCode::OK, "{html}");
        let answer = html
            .split(r#"data-testid="answer""#)
            .nth(1)
            .unwrap_or_else(|| panic!("{question}: no answer in {html}"))
            .split("</div>")
            .next()
            .unwrap();
        // Nothing the label wrote became markup anywhere on the page.
        assert!(!html.contains("evil.example/login\""), "{question}: a link to evil.example in {html}");
        assert!(!html.contains("<img"), "{question}: an element from a label in {html}");
        assert!(!answer.contains("<a"), "{question}: {answer}");
        if question.starts_with("largest") {
            // The label is in Sou's sentence, as written.
            assert!(answer.contains(LINK), "{question}: {answer}");
        }
    }
}

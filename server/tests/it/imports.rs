//! Imports and rules at the HTTP edge, on SQLite and PostgreSQL: a multipart upload,
//! the preview page (detected layout, rows, rejected lines), a corrected layout, the
//! import form, the report, a second import that adds nothing, a refused file said
//! once, rules proposed then applied on approval — and nothing of it reachable by
//! another user or by no one.

use crate::support;

use std::time::Duration;

use crate::support::{french_page as page, location, same_site_form as form, send, upload, Signed};
use agent::imports::ImportState;
use agent::Locale;
use axum::http::StatusCode;
use axum::Router;
use backend::{Sou, Store};

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(format!("{}/../backend/tests/fixtures/import/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

async fn finished(sou: &Sou, who: &Signed, id: &str) {
    for _ in 0..500 {
        match sou.imports().state(who.user, id, Locale::Fr).await.unwrap() {
            ImportState::Running { .. } => tokio::time::sleep(Duration::from_millis(10)).await,
            _ => return,
        }
    }
    panic!("the import did not end");
}

backend::on_both_databases!(
    import_and_rules_over_http_on_sqlite,
    import_and_rules_over_http_on_postgres,
    scenario
);

async fn scenario(store: Store, site: &std::path::Path) {
    let sou = Sou::new(store, chrono_tz::Europe::Paris);
    let router: Router = support::app_router(sou.clone(), site);
    let alice = support::sign_up(&sou, "alice").await;
    let bob = support::sign_up(&sou, "bob").await;

    // Upload → the preview page.
    let (status, headers, _) = send(
        &router,
        Some(&alice),
        upload("/import", "relevé janvier.csv", &fixture("fr-banque-latin1.csv")),
    )
    .await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    let to = location(&headers);
    let id = to.strip_prefix("/import/").unwrap().to_string();
    let (status, _, html) = send(&router, Some(&alice), page(&to)).await;
    assert_eq!(status, StatusCode::OK, "{html}");
    for want in [
        "CSV · Windows-1252 (Latin-1) · séparateur « ; » · dates JJ/MM/AAAA · décimale « , » · débit et crédit séparés",
        "4 opérations lues · 3 lignes rejetées · 0 déjà dans ce compte",
        "CB CARREFOUR CITY 31/12",
        "Courses",
        "Ligne 9 : la date « 32/01/2026 » n'est pas une date valide (JJ/MM/AAAA)",
        "value=\"relevé janvier\"",
        "Importer 4 opérations",
    ] {
        assert!(html.contains(want), "preview lacks {want:?}");
    }
    // A layout that does not fit is said; the detected one stays.
    let (_, _, html) = send(&router, Some(&alice), page(&format!("{to}?date=12&order=dmy"))).await;
    assert!(html.contains("data-testid=\"layout-error\""), "{html}");
    // Debit and credit swapped: the amounts change sign.
    let (_, _, html) =
        send(&router, Some(&alice), page(&format!("{to}?amounts=debit_credit&debit=5&credit=4"))).await;
    assert!(html.contains(">45,67\u{a0}€<") && !html.contains("-45,67"), "{html}");

    // Another user and no one reach nothing of it.
    for req in [
        page(&to),
        form(&format!("{to}/run"), "account=&new_account=Mine"),
        form(&format!("{to}/discard"), ""),
    ] {
        let (status, _, body) = send(&router, Some(&bob), req).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
        assert!(!body.contains("CARREFOUR"));
    }
    let (_, _, list) = send(&router, Some(&bob), page("/import")).await;
    assert!(!list.contains("relevé janvier"));
    let (status, headers, _) = send(&router, None, page(&to)).await;
    assert_eq!((status, location(&headers).starts_with("/login")), (StatusCode::SEE_OTHER, true));
    let (status, _, _) = send(&router, None, upload("/import", "x.csv", &fixture("en-bank.csv"))).await;
    assert!(matches!(status, StatusCode::UNAUTHORIZED | StatusCode::SEE_OTHER | StatusCode::FORBIDDEN));

    // Import into a new account; the report.
    let (status, headers, _) =
        send(&router, Some(&alice), form(&format!("{to}/run"), "mapping=&account=&new_account=Compte+BNP"))
            .await;
    assert_eq!((status, location(&headers)), (StatusCode::SEE_OTHER, to.clone()));
    finished(&sou, &alice, &id).await;
    let (_, _, html) = send(&router, Some(&alice), page(&to)).await;
    assert!(html.contains("data-testid=\"report\""), "{html}");
    assert!(html.contains("4 opérations ajoutées au compte « Compte BNP »."), "{html}");
    assert!(html.contains("value=\"4\""), "a full progress bar");
    // The hydrated page reloads its data the way the browser encodes it when an import
    // ends while the page is open: no layout edit at all (an empty struct sends no field).
    let (status, _, body) =
        send(&router, Some(&alice), support::same_site_form("/api/import", &format!("id={id}"))).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert!(body.contains("\"added\":4"), "{body}");
    let (_, _, list) = send(&router, Some(&alice), page("/import")).await;
    assert!(
        list.contains("relevé janvier.csv") && list.contains("4 ajoutées · 0 déjà présente · 3 rejetées")
    );

    // The same file into the same account adds nothing.
    let (_, headers, _) =
        send(&router, Some(&alice), upload("/import", "copie.csv", &fixture("fr-banque-latin1.csv"))).await;
    let again = location(&headers);
    let (_, _, html) = send(&router, Some(&alice), page(&format!("{again}?account=compte_bnp"))).await;
    assert!(html.contains("4 déjà dans ce compte") && html.contains("déjà importée"), "{html}");
    send(&router, Some(&alice), form(&format!("{again}/run"), "account=compte_bnp")).await;
    finished(&sou, &alice, again.strip_prefix("/import/").unwrap()).await;
    let (_, _, html) = send(&router, Some(&alice), page(&again)).await;
    assert!(html.contains("0 opération ajoutée") && html.contains("4 déjà présentes, ignorées"), "{html}");

    // A file Sou cannot read: the reason, once.
    let (_, headers, _) =
        send(&router, Some(&alice), upload("/import", "actions.qif", &fixture("faux.qif"))).await;
    let refused = location(&headers);
    assert!(refused.starts_with("/import?refused="), "{refused}");
    let (_, _, html) = send(&router, Some(&alice), page(&refused)).await;
    assert!(html.contains("Sou n'a pas pu lire ce fichier : this QIF file holds"), "{html}");
    let (_, _, html) = send(&router, Some(&bob), page(&refused)).await;
    assert!(!html.contains("data-testid=\"refused\""), "another user's refusal is not shown");

    // A rule: saved, proposed, applied on approval.
    let (status, headers, _) =
        send(&router, Some(&alice), form("/rules", "pattern=librairie&category=leisure")).await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    let proposal = location(&headers);
    let rule = proposal.strip_prefix("/rules?rule=").unwrap().to_string();
    let (_, _, html) = send(&router, Some(&alice), page(&proposal)).await;
    assert!(html.contains("Elle correspond à 1 opération passée, dont 1 changerait de catégorie."), "{html}");
    assert!(html.contains("CB LIBRAIRIE ÉLÉGANTE"));
    let (status, _, _) = send(&router, Some(&bob), form(&format!("/rules/{rule}/apply"), "")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (_, _, html) = send(&router, Some(&bob), page(&proposal)).await;
    assert!(!html.contains("librairie"), "{html}");
    let (_, headers, _) = send(&router, Some(&alice), form(&format!("/rules/{rule}/apply"), "")).await;
    assert_eq!(location(&headers), "/rules?applied=1");
    let (_, _, html) = send(&router, Some(&alice), page("/rules?applied=1")).await;
    assert!(html.contains("1 opération passée recatégorisée.") && html.contains("librairie"));
    let (_, headers, _) =
        send(&router, Some(&alice), form("/rules", "pattern=%C3%A9&category=leisure")).await;
    let (_, _, html) = send(&router, Some(&alice), page(&location(&headers))).await;
    assert!(html.contains("Le motif doit compter de 2 à 100 caractères"), "{html}");
    let (status, headers, _) = send(&router, Some(&alice), form(&format!("/rules/{rule}/delete"), "")).await;
    assert_eq!((status, location(&headers)), (StatusCode::SEE_OTHER, "/rules".to_string()));
}

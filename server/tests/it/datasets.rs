//! Datasets at the HTTP edge, on SQLite and PostgreSQL: a CSV uploaded as a table,
//! listed with its typed columns and as the model is told; SQL typed in the page runs
//! in the sandbox (a result, a refusal in words); delete; nothing of it reachable by
//! another user.

use crate::support;

use crate::support::{french_page as page, location, send, upload};
use axum::body::Body;
use axum::http::{Request, StatusCode};
use backend::{Sou, Store};

fn sql(q: &str) -> String {
    format!("/datasets?{}", form_urlencoded::Serializer::new(String::new()).append_pair("sql", q).finish())
}

backend::on_both_databases!(datasets_over_http_on_sqlite, datasets_over_http_on_postgres, scenario);

async fn scenario(store: Store, site: &std::path::Path) {
    let sou = Sou::new(store, chrono_tz::Europe::Paris);
    let router = support::app_router(sou.clone(), site);
    let alice = support::sign_up(&sou, "alice").await;
    let bob = support::sign_up(&sou, "bob").await;

    let csv = "Région;Montant;Mois\nNord;1200,50;2026-01\nSud;800;2026-01\nNord;300,25;2026-02\n";
    let (status, headers, _) =
        send(&router, Some(&alice), upload("/datasets", "ventes.csv", csv.as_bytes())).await;
    assert_eq!((status, location(&headers)), (StatusCode::SEE_OTHER, "/datasets?added=ventes".to_string()));
    let (_, _, html) = send(&router, Some(&alice), page("/datasets?added=ventes")).await;
    assert!(html.contains("Table « ventes » créée."), "{html}");
    assert!(html.contains("region (text), montant (number), mois (text)"), "{html}");
    assert!(html.contains("- **ventes**: 3 rows, columns: region (text), montant (number), mois (text)"));

    let (_, _, html) = send(
        &router,
        Some(&alice),
        page(&sql("SELECT region, SUM(montant) AS total FROM ventes GROUP BY region ORDER BY total DESC")),
    )
    .await;
    assert!(html.contains("data-testid=\"query-result\""), "{html}");
    assert!(html.contains("<td class=\"num\">1500,75</td>"), "{html}");
    // Labels then numbers: a bar chart, in SVG, that says every value.
    assert!(html.contains("data-testid=\"chart\" data-kind=\"bar\""), "{html}");
    assert!(
        html.contains("<desc>Diagramme en barres — total / region — Nord : 1500,75; Sud : 800</desc>"),
        "{html}"
    );
    let (_, _, html) = send(
        &router,
        Some(&alice),
        page(&sql("SELECT mois, COUNT(*) FROM ventes GROUP BY mois ORDER BY mois")),
    )
    .await;
    assert!(html.contains("data-kind=\"line\""), "{html}");
    let (_, _, html) = send(&router, Some(&alice), page(&sql("DELETE FROM ventes"))).await;
    assert!(html.contains("Requête refusée : only SELECT queries are allowed, not DELETE."), "{html}");
    let (_, _, html) = send(&router, Some(&alice), page(&sql("SELECT * FROM users"))).await;
    assert!(html.contains("there is no dataset named \"users\" (yours: ventes)"), "{html}");

    // A file that is not a table: the reason, once.
    let (_, headers, _) = send(&router, Some(&alice), upload("/datasets", "bad.csv", b"a;b\n1;2\n3\n")).await;
    let refused = location(&headers);
    let (_, _, html) = send(&router, Some(&alice), page(&refused)).await;
    assert!(
        html.contains("La ligne 3 a 1 valeur(s), l&#x27;en-tête 2.")
            || html.contains("La ligne 3 a 1 valeur(s), l'en-tête 2."),
        "{html}"
    );

    // Bob sees none of it and can query or delete none of it.
    let (_, _, html) = send(&router, Some(&bob), page(&sql("SELECT * FROM ventes"))).await;
    assert!(html.contains("there is no dataset named \"ventes\" (yours: none yet)"), "{html}");
    assert!(!html.contains("Nord"));
    let req = Request::post("/datasets/ventes/delete")
        .header("sec-fetch-site", "same-origin")
        .body(Body::empty())
        .unwrap();
    assert_eq!(send(&router, Some(&bob), req).await.0, StatusCode::NOT_FOUND);
    let (status, headers, _) = send(&router, None, page("/datasets")).await;
    assert_eq!((status, location(&headers).starts_with("/login")), (StatusCode::SEE_OTHER, true));

    let req = Request::post("/datasets/ventes/delete")
        .header("sec-fetch-site", "same-origin")
        .body(Body::empty())
        .unwrap();
    let (status, headers, _) = send(&router, Some(&alice), req).await;
    assert_eq!((status, location(&headers)), (StatusCode::SEE_OTHER, "/datasets".to_string()));
    let (_, _, html) = send(&router, Some(&alice), page("/datasets")).await;
    assert!(
        html.contains("Aucune table pour l&#x27;instant.") || html.contains("Aucune table pour l'instant."),
        "{html}"
    );
}

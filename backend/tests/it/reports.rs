//! Shared reports on SQLite and PostgreSQL. A link's request limit: counted in the
//! database, so two servers on it share the count; requests sent together are each
//! counted; the wait is until the oldest counted request leaves the minute; links are
//! apart. A report as its owner keeps it and as anyone with the link reads it (on
//! PostgreSQL through the owner functions `sou_peek_report` and `sou_view_report`, no
//! user being known yet).

use std::time::Duration;

use backend::{Sou, Store};

const LINK: &str = "AAAAAAAAAAAAAAAAAAAAAA";
const OTHER: &str = "BBBBBBBBBBBBBBBBBBBBBB";

async fn limit(store: Store) {
    let one = Sou::new(store.clone(), chrono_tz::Europe::Paris);
    let two = Sou::new(store, chrono_tz::Europe::Paris);
    let t0 = 1_000_000_i64;

    // 30 at once, half to each server, with 10 allowed: exactly 10 served.
    let burst = futures::future::join_all((0..30).map(|i| {
        let sou = if i % 2 == 0 { one.clone() } else { two.clone() };
        async move { sou.reports().take_request(LINK, 10, t0 + i).await.unwrap() }
    }))
    .await;
    assert_eq!(burst.iter().filter(|r| r.is_ok()).count(), 10, "{burst:?}");

    // Refused until the oldest served leaves the minute.
    // (the served were stamped between t0 and t0 + 29).
    let wait = one.reports().take_request(LINK, 10, t0 + 500).await.unwrap().unwrap_err();
    let (least, most) = (Duration::from_millis(59_500), Duration::from_millis(59_529));
    assert!(wait >= least && wait <= most, "{wait:?}");

    // Another link has its own count.
    assert_eq!(two.reports().take_request(OTHER, 10, t0 + 500).await.unwrap(), Ok(()));

    // A minute later, served again.
    assert_eq!(one.reports().take_request(LINK, 10, t0 + 60_100).await.unwrap(), Ok(()));
}

backend::on_both_databases!(link_limit_on_sqlite, link_limit_on_postgres, |store| limit(store));

async fn kept_and_read(store: Store) {
    use agent::reports::{Figures, Freshness};
    use backend::{NewReport, ReportChange, ReportOptions};

    let user = store.ensure_user("local").await.unwrap();
    assert!(backend::demo::seed(&store, user).await.unwrap());
    let other = store.ensure_user("other").await.unwrap();
    let sou = Sou::new(store, chrono_tz::Europe::Paris).with_today(agent::Date::new(2026, 11, 29).unwrap());
    let reports = sou.reports();
    let month = NewReport::Monthly {
        period: "2026-01".into(),
        pins: Vec::new(),
        options: ReportOptions { mode: Freshness::Snapshot, ..ReportOptions::default() },
    };
    let made = reports.create(user, month, agent::Locale::Fr).await.unwrap();
    assert_eq!(reports.list(user).await.unwrap(), vec![made.clone()]);
    assert!(reports.list(other).await.unwrap().is_empty());
    assert!(reports.get(other, &made.id).await.is_err());

    // Read by anyone with the link: its stamp and its page; only the page is a view.
    let stamp = reports.stamp(&made.id).await.unwrap().unwrap();
    assert!(stamp.starts_with(&made.title), "{stamp}");
    let page = reports.page(&made.id, true, None).await.unwrap().unwrap();
    assert_eq!(
        (page.title.as_str(), page.mode, page.figures),
        (made.title.as_str(), made.mode, made.figures)
    );
    assert!(!page.blocks.is_empty());
    let peeked = reports.page(&made.id, false, None).await.unwrap().unwrap();
    assert_eq!(peeked.blocks, page.blocks);
    assert_eq!(reports.get(user, &made.id).await.unwrap().views, 1);

    // Changed by its owner: the page follows, and so does the stamp.
    let change = ReportChange { figures: Some(Figures::Shares), ..ReportChange::default() };
    assert_eq!(reports.change(user, &made.id, change).await.unwrap().figures, Figures::Shares);
    assert_eq!(reports.page(&made.id, false, None).await.unwrap().unwrap().figures, Figures::Shares);
    assert_ne!(reports.stamp(&made.id).await.unwrap().unwrap(), stamp);

    // Revoked: the link reads nothing, alike an unknown one.
    reports.revoke(user, &made.id).await.unwrap();
    assert!(reports.page(&made.id, true, None).await.unwrap().is_none());
    assert!(reports.stamp(&made.id).await.unwrap().is_none());
    assert!(reports.page(OTHER, false, None).await.unwrap().is_none());
}

backend::on_both_databases!(report_kept_and_read_on_sqlite, report_kept_and_read_on_postgres, |store| {
    kept_and_read(store)
});

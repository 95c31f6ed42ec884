//! A shared link's request limit, on SQLite and PostgreSQL: counted in the database, so
//! two servers on it share the count; requests sent together are each counted; the
//! wait is until the oldest counted request leaves the minute; links are apart.

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

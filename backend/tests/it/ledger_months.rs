//! The monthly roll-up (`ledger_months`) stays exactly the sums of the raw transactions
//! through everything that changes them: the demo ledger, copies, recategorising, moving
//! a line to another month, account or currency, flipping its sign, deleting lines, a
//! category and an account (SQLite sets a deleted category's lines to none, PostgreSQL
//! deletes them), and another user's changes.

use backend::{demo, Store, UserId};

async fn exact(store: &Store, user: UserId, after: &str) {
    let off = backend::testing::ledger_months_mismatches(store, user).await.unwrap();
    assert!(off.is_empty(), "after {after}: {} differences, first {:?}", off.len(), off.first());
}

async fn change(store: &Store, user: UserId, sql: &str) -> u64 {
    let mut tx = store.tenant(user).await.unwrap();
    let n = sqlx::query(sql).bind(user.0).execute(&mut *tx).await.unwrap().rows_affected();
    tx.commit().await.unwrap();
    n
}

async fn roll_up_follows_every_change(store: Store) {
    let alice = store.ensure_user("alice").await.unwrap();
    let bob = store.ensure_user("bob").await.unwrap();
    demo::seed(&store, alice).await.unwrap();
    demo::seed(&store, bob).await.unwrap();
    exact(&store, alice, "the demo ledger").await;
    assert_eq!(backend::testing::grow_ledger(&store, alice, 4000).await.unwrap(), 4000);
    exact(&store, alice, "copies").await;

    let cases = [
        (
            "recategorising",
            "UPDATE transactions SET category_id =
                (SELECT id FROM categories WHERE user_id = $1 AND key = 'leisure')
             WHERE user_id = $1 AND id % 7 = 0",
        ),
        ("removing categories", "UPDATE transactions SET category_id = NULL WHERE user_id = $1 AND id % 11 = 0"),
        ("removing merchants", "UPDATE transactions SET merchant_id = NULL WHERE user_id = $1 AND id % 13 = 0"),
        (
            "moving to another month",
            "UPDATE transactions SET date = '2024-02-29' WHERE user_id = $1 AND id % 17 = 0",
        ),
        ("flipping signs", "UPDATE transactions SET amount_minor = -amount_minor WHERE user_id = $1 AND id % 19 = 0"),
        ("a zero amount", "UPDATE transactions SET amount_minor = 0 WHERE user_id = $1 AND id % 23 = 0"),
        ("another currency", "UPDATE transactions SET currency = 'USD' WHERE user_id = $1 AND id % 29 = 0"),
        (
            "another account",
            "UPDATE transactions SET account_id = (SELECT MAX(id) FROM accounts WHERE user_id = $1)
             WHERE user_id = $1 AND id % 31 = 0",
        ),
        ("a label only", "UPDATE transactions SET raw_label = raw_label || ' x' WHERE user_id = $1 AND id % 5 = 0"),
        ("deleting lines", "DELETE FROM transactions WHERE user_id = $1 AND id % 37 = 0"),
        (
            "deleting a category",
            "DELETE FROM categories WHERE user_id = $1 AND key = 'restaurants'",
        ),
        (
            "deleting an account",
            "DELETE FROM accounts WHERE user_id = $1 AND id = (SELECT MIN(id) FROM accounts WHERE user_id = $1)",
        ),
    ];
    for (what, sql) in cases {
        assert!(change(&store, alice, sql).await > 0, "{what} changed nothing");
        exact(&store, alice, what).await;
    }
    // Bob's roll-up never moved, and matches his own rows.
    exact(&store, bob, "alice's changes").await;
    change(&store, alice, "DELETE FROM transactions WHERE user_id = $1").await;
    exact(&store, alice, "deleting everything").await;
}

#[tokio::test]
async fn roll_up_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    roll_up_follows_every_change(Store::open_in(dir.path()).await.unwrap()).await;
}

#[tokio::test]
async fn roll_up_on_postgres() {
    let fresh = backend::testing::FreshDatabase::create().await.expect("PostgreSQL at 127.0.0.1:5432");
    roll_up_follows_every_change(fresh.open_store().await.unwrap()).await;
    fresh.drop().await;
}

/// Summaries and cash flows read whole months from the roll-up: over periods that start
/// and end mid-month, on month boundaries, across years and into the future, with
/// every grouping and filter, their verification (which reads the rows themselves)
/// finds the same totals and counts; and a roll-up made wrong on purpose is caught.
async fn answers_from_the_roll_up_equal_the_rows(store: Store) {
    use agent::runs::{CheckCode, CheckOutcome};
    use agent::{Locale, ToolCall};
    use serde_json::json;

    let user = store.ensure_user("alice").await.unwrap();
    demo::seed(&store, user).await.unwrap();
    backend::testing::grow_ledger(&store, user, 3100).await.unwrap();
    // Lines in another currency, and lines without a category or merchant.
    change(&store, user, "UPDATE transactions SET currency = 'USD' WHERE user_id = $1 AND id % 41 = 0").await;
    change(&store, user, "UPDATE transactions SET category_id = NULL WHERE user_id = $1 AND id % 43 = 0")
        .await;
    change(&store, user, "UPDATE transactions SET merchant_id = NULL WHERE user_id = $1 AND id % 47 = 0")
        .await;
    let today = agent::Date::new(2026, 11, 20).unwrap();
    let periods = [
        ("2025-01-01", "2026-01-01"),
        ("2025-03-15", "2025-07-09"),
        ("2025-02-01", "2025-03-01"),
        ("2025-02-10", "2025-02-20"),
        ("2025-12-20", "2026-02-10"),
        ("2026-10-05", "2026-12-01"),
    ];
    let mut calls = Vec::new();
    for (start, end) in periods {
        let p = json!({"start": start, "end": end, "label": format!("{start}..{end}")});
        for g in ["none", "category", "merchant", "account", "month", "week"] {
            calls.push(json!({"tool": "spending_summary", "args": {"period": p, "group_by": g}}));
        }
        calls.extend([
            json!({"tool": "spending_summary", "args": {"period": p, "category": "groceries", "group_by": "merchant"}}),
            json!({"tool": "spending_summary", "args": {"period": p, "exclude_merchant": "monoprix", "group_by": "category"}}),
            json!({"tool": "spending_summary", "args": {"period": p, "account": "compte_courant", "group_by": "month"}}),
            json!({"tool": "income_summary", "args": {"period": p, "group_by": "month"}}),
            json!({"tool": "income_summary", "args": {"period": p}}),
            json!({"tool": "cash_flow", "args": {"period": p, "group_by": "month"}}),
            json!({"tool": "cash_flow", "args": {"period": p, "group_by": "none"}}),
        ]);
    }
    let verified = |call: serde_json::Value| {
        let store = store.clone();
        async move {
            let call: ToolCall = serde_json::from_value(call.clone()).unwrap();
            backend::testing::tools::run_checked(&store, user, &call, Locale::En, today).await.unwrap().1
        }
    };
    for call in calls {
        let checks = verified(call.clone()).await;
        assert!(checks.iter().any(|c| c.code == CheckCode::TotalOfSources), "{call}");
        let wrong: Vec<_> = checks
            .iter()
            .filter(|c| c.outcome == CheckOutcome::Failed && c.code != CheckCode::PeriodCoverage)
            .collect();
        assert!(wrong.is_empty(), "{call}: {wrong:?}");
    }
    // A roll-up that lost 1 € in May 2025: the year's answer no longer matches its rows.
    // A cash flow over whole months compared with their rows reads them again from the
    // roll-up, as a summary does.
    let year = json!({"start": "2025-01-01", "end": "2026-01-01", "label": "2025"});
    let flow = json!({"tool": "cash_flow", "args": {"period": year, "group_by": "month"}});
    let checks = verified(flow.clone()).await;
    let sources = checks.iter().find(|c| c.code == CheckCode::TotalOfSources).unwrap();
    assert_eq!(sources.outcome, CheckOutcome::Passed, "{checks:?}");
    assert!(sources.text.contains("roll-up"), "{checks:?}");
    change(&store, user, "UPDATE ledger_months SET debit = debit + 100 WHERE user_id = $1 AND month = '2025-05' AND debit < -100").await;
    for call in [json!({"tool": "spending_summary", "args": {"period": year}}), flow] {
        let checks = verified(call.clone()).await;
        assert!(
            checks.iter().any(|c| c.code == CheckCode::TotalOfSources && c.outcome == CheckOutcome::Failed),
            "{call}: {checks:?}"
        );
    }
}

#[tokio::test]
async fn answers_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    answers_from_the_roll_up_equal_the_rows(Store::open_in(dir.path()).await.unwrap()).await;
}

#[tokio::test]
async fn answers_on_postgres() {
    let fresh = backend::testing::FreshDatabase::create().await.expect("PostgreSQL at 127.0.0.1:5432");
    answers_from_the_roll_up_equal_the_rows(fresh.open_store().await.unwrap()).await;
    fresh.drop().await;
}

/// A summary's check compares each whole month's roll-up with its rows once, records
/// it, and compares a month again only once something in it changed: a line (that
/// month only) or the roll-up itself, which is then caught.
async fn checked_months_are_compared_again_after_a_change(store: Store) {
    use agent::runs::{CheckCode, CheckOutcome};
    use agent::{Locale, ToolCall};
    use serde_json::json;

    let user = store.ensure_user("alice").await.unwrap();
    demo::seed(&store, user).await.unwrap();
    let today = agent::Date::new(2026, 11, 20).unwrap();
    let year = json!({"start": "2025-01-01", "end": "2026-01-01", "label": "2025"});
    let call: ToolCall = serde_json::from_value(
        json!({"tool": "spending_summary", "args": {"period": year, "group_by": "merchant"}}),
    )
    .unwrap();
    let sources = || {
        let (store, call) = (store.clone(), call.clone());
        async move {
            let (_, checks) =
                backend::testing::tools::run_checked(&store, user, &call, Locale::En, today).await.unwrap();
            checks.into_iter().find(|c| c.code == CheckCode::TotalOfSources).unwrap()
        }
    };
    let unchecked = || {
        let store = store.clone();
        async move {
            let mut db = store.tenant_read(user).await.unwrap();
            let months: Vec<String> = sqlx::query_scalar(
                "SELECT month FROM ledger_month_state WHERE user_id = $1 AND month >= '2025-01' AND month < '2026-01'
                 AND (checked IS NULL OR checked <> 1) ORDER BY month",
            )
            .bind(user.0)
            .fetch_all(&mut *db)
            .await
            .unwrap();
            db.commit().await.unwrap();
            months
        }
    };
    assert_eq!(unchecked().await.len(), 12, "the demo's months have never been compared");
    let first = sources().await;
    assert_eq!(first.outcome, CheckOutcome::Passed, "{first:?}");
    assert!(first.text.contains("roll-up"), "{first:?}");
    assert!(unchecked().await.is_empty());

    // One line of March changes: only March is compared again.
    let n = change(
        &store,
        user,
        "UPDATE transactions SET amount_minor = amount_minor - 1
         WHERE id = (SELECT MIN(id) FROM transactions WHERE user_id = $1 AND date >= '2025-03-01' AND date < '2025-04-01')",
    )
    .await;
    assert_eq!(n, 1);
    assert_eq!(unchecked().await, vec!["2025-03".to_string()]);
    let again = sources().await;
    assert_eq!(again.outcome, CheckOutcome::Passed, "{again:?}");
    assert!(unchecked().await.is_empty());

    // A roll-up made wrong in a month compared before: that month is compared again, and
    // the check fails.
    change(
        &store,
        user,
        "UPDATE ledger_months SET debit = debit + 100 WHERE user_id = $1 AND month = '2025-06' AND debit < -100",
    )
    .await;
    assert_eq!(unchecked().await, vec!["2025-06".to_string()]);
    let wrong = sources().await;
    assert_eq!(wrong.outcome, CheckOutcome::Failed, "{wrong:?}");
    assert!(!wrong.text.contains("roll-up"), "{wrong:?}");
}

/// The server's maintenance compares the months that changed, of every user, ahead of
/// questions, at most as many as it is told each time; a month whose roll-up differs
/// from its rows stays to be compared.
async fn maintenance_compares_changed_months(store: Store) {
    let users = [store.ensure_user("alice").await.unwrap(), store.ensure_user("bob").await.unwrap()];
    for user in users {
        demo::seed(&store, user).await.unwrap();
    }
    let unchecked = |user: UserId| {
        let store = store.clone();
        async move {
            let mut db = store.tenant_read(user).await.unwrap();
            let months: Vec<String> = sqlx::query_scalar(
                "SELECT month FROM ledger_month_state WHERE user_id = $1 AND (checked IS NULL OR checked <> 1)
                 ORDER BY month",
            )
            .bind(user.0)
            .fetch_all(&mut *db)
            .await
            .unwrap();
            db.commit().await.unwrap();
            months
        }
    };
    let before = [unchecked(users[0]).await.len(), unchecked(users[1]).await.len()];
    assert!(before[0] >= 12 && before[0] == before[1], "{before:?}");
    change(&store, users[1], "UPDATE ledger_months SET debit = debit + 100 WHERE user_id = $1 AND month = '2025-06' AND debit < -100").await;
    let equal = backend::testing::tools::check_months(&store, 10_000).await.unwrap();
    assert_eq!(equal as usize, before[0] + before[1] - 1);
    assert!(unchecked(users[0]).await.is_empty());
    assert_eq!(unchecked(users[1]).await, vec!["2025-06".to_string()]);

    // Two months of alice's change: one pass told to compare one month compares the first.
    for month in ["2025-03", "2025-04"] {
        let sql = format!(
            "UPDATE transactions SET amount_minor = amount_minor - 1
             WHERE id = (SELECT MIN(id) FROM transactions WHERE user_id = $1 AND substr(date, 1, 7) = '{month}')"
        );
        assert_eq!(change(&store, users[0], &sql).await, 1);
    }
    assert_eq!(backend::testing::tools::check_months(&store, 1).await.unwrap(), 1);
    assert_eq!(unchecked(users[0]).await, vec!["2025-04".to_string()]);
    exact(&store, users[0], "the maintenance's comparisons").await;
}

backend::on_both_databases!(maintenance_on_sqlite, maintenance_on_postgres, |store| {
    maintenance_compares_changed_months(store)
});

#[tokio::test]
async fn checked_months_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    checked_months_are_compared_again_after_a_change(Store::open_in(dir.path()).await.unwrap()).await;
}

#[tokio::test]
async fn checked_months_on_postgres() {
    let fresh = backend::testing::FreshDatabase::create().await.expect("PostgreSQL at 127.0.0.1:5432");
    checked_months_are_compared_again_after_a_change(fresh.open_store().await.unwrap()).await;
    fresh.drop().await;
}

mod recurring_bound {
    //! Recurring payments skip merchants paid more often than `max_payments` allows
    //! (their lines are never read): no series that many payments could be found.
    use agent::Date;
    use backend::testing::tools::recurring::{detect, max_payments, regular_amounts};
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn a_found_series_fits_the_bound(
            offsets in proptest::collection::vec(0i64..400, 2..300),
            amounts in proptest::collection::vec(1i64..5000, 2..300),
        ) {
            let start = Date::new(2025, 1, 1).unwrap();
            let mut days: Vec<i64> = offsets.clone();
            days.sort_unstable();
            let dates: Vec<Date> = days.iter().map(|d| start.add_days(*d)).collect();
            if detect(&dates, true).is_some() {
                prop_assert!(dates.len() as i64 <= 400 / 3 + 1);
            }
            if let Some(close) = regular_amounts(&amounts) {
                let kept = close.iter().filter(|c| **c).count();
                // So a merchant with more than `max_payments` payments keeps more than a
                // cadence allows, and is never found.
                prop_assert!(kept * 2 >= amounts.len());
                prop_assert_eq!(max_payments(400), 2 * (400 / 3 + 1));
            }
        }

        #[test]
        fn dense_regular_series_are_not_found(step in 0i64..6, n in 3usize..200) {
            // Payments closer than 6 days apart are never a cadence.
            let start = Date::new(2025, 1, 1).unwrap();
            let dates: Vec<Date> = (0..n as i64).map(|i| start.add_days(i * step)).collect();
            prop_assert!(detect(&dates, true).is_none());
        }
    }
}

/// Readers that never stop do not keep SQLite's write-ahead log growing: while four
/// readers loop and a writer imports, the log grows; the maintenance's checkpoint
/// truncates it with the readers still reading.
#[tokio::test]
async fn the_write_ahead_log_stays_bounded_under_steady_reads() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_in(dir.path()).await.unwrap();
    let user = store.ensure_user("alice").await.unwrap();
    demo::seed(&store, user).await.unwrap();
    let wal = dir.path().join("sou.db-wal");
    let reading = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let mut readers = Vec::new();
    for _ in 0..4 {
        let (store, reading) = (store.clone(), reading.clone());
        readers.push(tokio::spawn(async move {
            let mut reads = 0u64;
            while reading.load(std::sync::atomic::Ordering::Relaxed) {
                let mut db = store.tenant_read(user).await.unwrap();
                let _: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM transactions WHERE user_id = $1")
                    .bind(user.0)
                    .fetch_one(&mut *db)
                    .await
                    .unwrap();
                db.commit().await.unwrap();
                reads += 1;
            }
            reads
        }));
    }
    // A writer: the ledger copied until it has 40,000 lines, in many transactions.
    backend::testing::grow_ledger(&store, user, 40_000).await.unwrap();
    for round in 0..20 {
        change(&store, user, &format!("UPDATE transactions SET raw_label = raw_label || '{}' WHERE user_id = $1 AND id % 20 = {round}", round % 10)).await;
    }
    let grown = std::fs::metadata(&wal).map(|m| m.len()).unwrap_or(0);
    assert!(grown > 1_000_000, "the log grew: {grown} bytes");
    store.maintain().await.unwrap();
    let after = std::fs::metadata(&wal).map(|m| m.len()).unwrap_or(0);
    reading.store(false, std::sync::atomic::Ordering::Relaxed);
    let mut reads = 0;
    for r in readers {
        reads += r.await.unwrap();
    }
    assert!(reads > 0);
    assert!(after < 64 * 1024, "{grown} bytes before the checkpoint, {after} after");
}

//! Dataset queries take turns, on SQLite and PostgreSQL: Alice starts six slow queries at
//! once (cross joins stopped by the 2 s time limit); two run, one waits its turn, three
//! are refused at once as busy. Meanwhile Bob's trivial query finishes before any of
//! hers: her queries cost him nothing. No timing is asserted but that order (Bob's few
//! milliseconds against her two seconds); the durations are printed.

use std::time::{Duration, Instant};

use agent::datasets::QueryResult;
use backend::testing::datasets;
use backend::DatasetError;
use backend::{Full, QueryLimits};
use backend::{Store, UserError as _};

/// A cross join of her 4-row table 20 times: 4^20 rows, stopped by the time limit.
const SLOW: &str = "SELECT COUNT(*) FROM sales a, sales b, sales c, sales d, sales e, sales f, sales g, \
     sales h, sales i, sales j, sales k, sales l, sales m, sales n, sales o, sales p, sales q, sales r, \
     sales s, sales t";

const SALES: &str = "region;amount\nNord;1200\nSud;800\nNord;300\nEst;50\n";

/// Her share, her queue, the total: the wait is long so that her queued query always
/// gets its turn, however slow the machine.
const LIMITS: QueryLimits = QueryLimits { per_user: 2, queue: 1, total: 4, wait: Duration::from_secs(120) };

async fn one_account_cannot_stall_another(store: Store) {
    let store = store.with_query_limits(LIMITS);
    let alice = store.ensure_user("alice").await.unwrap();
    let bob = store.ensure_user("bob").await.unwrap();
    datasets::create(&store, alice, "sales.csv", SALES.as_bytes()).await.unwrap();
    datasets::create(&store, bob, "sales.csv", b"region,amount\nOuest,999\n").await.unwrap();

    let started = Instant::now();
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    for _ in 0..6 {
        let (store, tx) = (store.clone(), tx.clone());
        tokio::spawn(async move {
            let outcome = datasets::query(&store, alice, SLOW).await;
            let _ = tx.send((outcome, Instant::now()));
        });
    }
    drop(tx);
    // Her three past her share and queue are refused at once: two run, one waits.
    let mut ended: Vec<(Result<QueryResult, DatasetError>, Instant)> = Vec::new();
    while ended.iter().filter(|(o, _)| o.is_err()).count() < 3 {
        let next = tokio::time::timeout(Duration::from_secs(60), rx.recv()).await;
        ended.push(next.expect("her queries answer").expect("her queries answer"));
    }
    let busy: Vec<&DatasetError> = ended.iter().filter_map(|(o, _)| o.as_ref().err()).collect();
    for e in &busy {
        assert!(matches!(e, DatasetError::Busy(Full::User { running: 2 })), "{e}");
        assert_eq!((e.code(), e.kind()), ("busy", backend::ErrorKind::Limited));
    }
    assert_eq!(ended.len(), 3, "none of her slow queries ended yet: {:?}", ended);
    let e = busy[0];
    assert_eq!(
        e.message(agent::Locale::Fr),
        "Trop de requêtes sur ces jeux de données sont en cours (2 à la fois au plus) : réessayez dans un instant."
    );
    assert_eq!(
        e.message(agent::Locale::En),
        "Too many queries on these datasets are running (2 at once at most): try again in a moment."
    );
    assert_eq!(store.query_slots().held(alice), 3, "two run, one waits");

    // Bob's query runs at once, beside hers.
    let asked = Instant::now();
    let r = datasets::query(&store, bob, "SELECT COUNT(*) AS n, MAX(region) FROM sales").await.unwrap();
    let bob_done = Instant::now();
    assert_eq!((r.rows[0][0].text(), r.rows[0][1].text()), ("1".to_string(), "Ouest".to_string()));

    // Hers end at the time limit: the two that ran, then the one that waited.
    while let Some(done) = rx.recv().await {
        ended.push(done);
    }
    let slow: Vec<Instant> = ended
        .iter()
        .filter_map(|(o, at)| match o {
            Err(DatasetError::Timeout) => Some(*at),
            Err(DatasetError::Busy(_)) => None,
            other => panic!("her slow query ended otherwise: {other:?}"),
        })
        .collect();
    assert_eq!(slow.len(), 3, "two ran and the one queued ran after");
    let first_slow = slow.iter().min().copied().unwrap();
    println!(
        "{:?}: Bob's query took {} ms; Alice's first slow query ended after {} ms, her last after {} ms",
        store.dialect(),
        (bob_done - asked).as_millis(),
        (first_slow - started).as_millis(),
        (slow.iter().max().copied().unwrap() - started).as_millis(),
    );
    assert!(bob_done < first_slow, "Bob's query finished before any of Alice's slow ones");
    assert_eq!(store.query_slots().held(alice), 0, "her turns are all given back");
}

backend::on_both_databases!(
    datasets_one_account_cannot_stall_another_on_sqlite,
    datasets_one_account_cannot_stall_another_on_postgres,
    |store| one_account_cannot_stall_another(store)
);

/// A query whose asker went away (the request's future dropped) keeps its turn until
/// the database is done with it: cancelling and asking again gets past no limit.
async fn a_query_given_up_keeps_its_turn_until_it_ends(store: Store) {
    let store = store.with_query_limits(LIMITS);
    let alice = store.ensure_user("alice").await.unwrap();
    datasets::create(&store, alice, "sales.csv", SALES.as_bytes()).await.unwrap();
    let asked = tokio::spawn({
        let store = store.clone();
        async move { datasets::query(&store, alice, SLOW).await.map(|_| ()) }
    });
    let slots = store.query_slots().clone();
    tokio::time::timeout(Duration::from_secs(60), async {
        while slots.held(alice) == 0 {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    })
    .await
    .expect("the query gets its turn");
    asked.abort();
    assert!(asked.await.is_err_and(|e| e.is_cancelled()));
    assert_eq!(slots.held(alice), 1, "the database still works for it: its turn is kept");
    tokio::time::timeout(Duration::from_secs(60), async {
        while slots.held(alice) > 0 {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await
    .expect("the turn is given back once the time limit stopped it");
}

backend::on_both_databases!(
    datasets_a_query_given_up_keeps_its_turn_on_sqlite,
    datasets_a_query_given_up_keeps_its_turn_on_postgres,
    |store| a_query_given_up_keeps_its_turn_until_it_ends(store)
);

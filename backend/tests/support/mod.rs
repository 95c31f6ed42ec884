//! What the backend's test modules share. What the server's tests share too is in
//! `backend::testing` (the `test-support` feature).

use std::sync::OnceLock;

use backend::testing::{Captured, FreshDatabase};
use backend::Store;

/// A fresh PostgreSQL database and Sou's store on it, as Sou's role (see
/// [`FreshDatabase`]); [`FreshDatabase::drop`] removes them.
pub async fn postgres() -> (Store, FreshDatabase) {
    let fresh = FreshDatabase::create().await.expect("PostgreSQL at 127.0.0.1:5432");
    let store = fresh.open_store().await.unwrap();
    (store, fresh)
}

/// Every log line at TRACE level of this process since the first call: the one global
/// subscriber of the tests' binary, installed once. Whatever any test logs meanwhile is
/// in it too, so it serves checks that no line may fail (a key in no line).
pub fn logs() -> Captured {
    static LOGS: OnceLock<Captured> = OnceLock::new();
    LOGS.get_or_init(|| {
        let c = Captured::default();
        let writer = c.clone();
        let _ = tracing_subscriber::fmt()
            .with_max_level(tracing::Level::TRACE)
            .with_writer(move || writer.clone())
            .with_ansi(false)
            .try_init();
        c
    })
    .clone()
}

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

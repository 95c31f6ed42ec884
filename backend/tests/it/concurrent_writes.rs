//! Several users writing at once on one SQLite file: every write waits its turn
//! (`BEGIN IMMEDIATE` and the busy timeout) instead of failing with "database is
//! locked". Each rule creation reads (the user's categories) before it writes, the
//! shape that failed when the transaction began as a reader.

use agent::Locale;
use backend::{Store, UserId};

const USERS: usize = 8;
const RULES_EACH: usize = 10;

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn users_writing_at_once_see_no_error() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_in(dir.path()).await.unwrap();
    let mut users: Vec<UserId> = Vec::new();
    for i in 0..USERS {
        let user = store.ensure_user(&format!("user{i}")).await.unwrap();
        // Categories first, so every creation below reads before it writes.
        backend::Rules::new(store.clone()).list(user, Locale::En).await.unwrap();
        backend::Rules::new(store.clone()).create(user, ("seed rule", "leisure"), Locale::En).await.unwrap();
        users.push(user);
    }

    let tasks: Vec<_> = users
        .iter()
        .map(|&user| {
            let store = store.clone();
            tokio::spawn(async move {
                let mut errors = Vec::new();
                for n in 0..RULES_EACH {
                    let pattern = format!("shop number {n}");
                    if let Err(e) = backend::Rules::new(store.clone())
                        .create(user, (&pattern, "groceries"), Locale::En)
                        .await
                    {
                        errors.push(e.to_string());
                    }
                    if let Err(e) = store.vocabulary(user).await {
                        errors.push(e.to_string());
                    }
                }
                errors
            })
        })
        .collect();
    let mut errors = Vec::new();
    for task in tasks {
        errors.extend(task.await.unwrap());
    }
    assert!(errors.is_empty(), "{} of {} writes failed: {:?}", errors.len(), USERS * RULES_EACH, errors);

    for &user in &users {
        let rules = backend::Rules::new(store.clone()).list(user, Locale::En).await.unwrap();
        assert_eq!(rules.len(), RULES_EACH + 1, "every rule was kept");
    }
}

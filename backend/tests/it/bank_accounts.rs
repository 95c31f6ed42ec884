//! Settings → Accounts on the demo ledger, on SQLite and PostgreSQL: each account's
//! balance is the `balances` tool's, its transactions counted and dated as plain SQL
//! finds them; a rename keeps the key and the old name as an alias (the parser still
//! finds the account by it), and a taken, empty or hidden-character name, or another
//! user's account, changes nothing.

use agent::{Context, Locale, ToolCall, ToolOutput};
use backend::AccountError;
use backend::{BackendError, Sou, Store, UserError, UserId};

fn today() -> agent::Date {
    agent::Date::parse_iso("2026-11-22").unwrap()
}

/// Read as the user (row-level security on PostgreSQL).
async fn scalar(store: &Store, sql: &str, user: UserId) -> i64 {
    let mut db = store.tenant_read(user).await.unwrap();
    let n = sqlx::query_scalar(sql).bind(user.0).fetch_one(&mut *db).await.unwrap();
    db.commit().await.unwrap();
    n
}

async fn lists_and_renames(store: Store, user: UserId, other: UserId) {
    let sou = Sou::new(store.clone(), chrono_tz::UTC);
    let accounts = sou.bank_accounts();
    let all = accounts.list(user, Locale::En, today()).await.unwrap();
    let listed = all.accounts;
    let keys: Vec<&str> = listed.iter().map(|a| a.key.as_str()).collect();
    assert_eq!(keys, ["compte_courant", "livret_a"]);
    assert_eq!(listed[0].name, "Current account");

    // The balances are the tool's, to the cent.
    let call: ToolCall = serde_json::from_value(serde_json::json!({"tool": "balances", "args": {
        "period": {"start": "2026-11-22", "end": "2026-11-23", "label": "today"}}}))
    .unwrap();
    let ToolOutput::Balances(b) =
        backend::testing::tools::run(&store, user, &call, Locale::En, today()).await.unwrap()
    else {
        panic!()
    };
    for a in &listed {
        let tool = b.accounts.iter().find(|t| t.key == a.key).unwrap();
        assert_eq!(a.balance, Some(tool.balance), "{}", a.key);
    }
    assert_eq!(all.total, Some(b.total));
    // Counted and dated as plain SQL finds them.
    let count = scalar(
        &store,
        "SELECT CAST(COUNT(*) AS BIGINT) FROM transactions t JOIN accounts a ON a.id = t.account_id
         WHERE t.user_id = $1 AND a.key = 'compte_courant'",
        user,
    )
    .await;
    assert!(count > 1000, "{count}");
    assert_eq!(listed[0].transactions, count as u64);
    let (first, last) = listed[0].span.unwrap();
    assert!(first < last && last <= today(), "{first} {last}");
    let total: i64 = listed.iter().map(|a| a.transactions as i64).sum();
    assert_eq!(
        total,
        scalar(&store, "SELECT CAST(COUNT(*) AS BIGINT) FROM transactions WHERE user_id = $1", user).await
    );

    // Renamed: the key stays, the old name is an alias, the parser finds it by both.
    accounts.rename(user, "livret_a", "  Épargne   vacances ").await.unwrap();
    let listed = accounts.list(user, Locale::Fr, today()).await.unwrap().accounts;
    assert_eq!(listed[1].key, "livret_a");
    assert_eq!(listed[1].name, "Épargne vacances");
    assert!(listed[1].aliases.iter().any(|a| a == "Livret A"), "{:?}", listed[1].aliases);
    assert_eq!(accounts.list(user, Locale::En, today()).await.unwrap().accounts[1].name, "Épargne vacances");
    let parser = sou.parser(user).await.unwrap();
    let cx = Context { today: today(), locale: Some(Locale::Fr), previous: None };
    for message in ["solde du livret A", "solde de épargne vacances"] {
        let outcome = parser.parse(message, &cx);
        let plan = outcome.plan().unwrap_or_else(|| panic!("{message}: {outcome:?}"));
        assert_eq!(plan.call.filters().account, Some("livret_a"), "{message}");
    }
    // The same name again changes nothing; renaming back drops the alias it becomes.
    accounts.rename(user, "livret_a", "Épargne vacances").await.unwrap();
    accounts.rename(user, "livret_a", "Livret A").await.unwrap();
    let back = &accounts.list(user, Locale::Fr, today()).await.unwrap().accounts[1];
    assert_eq!(back.name, "Livret A");
    assert!(!back.aliases.iter().any(|a| a == "Livret A"), "{:?}", back.aliases);
    assert!(back.aliases.iter().any(|a| a == "Épargne vacances"), "{:?}", back.aliases);

    // Refused: another account's name (case and accents aside), empty, hidden characters.
    let e = accounts.rename(user, "livret_a", "COMPTE  courant").await.unwrap_err();
    assert!(matches!(&e, AccountError::Taken(n) if n == "Compte courant"), "{e:?}");
    assert_eq!(e.code(), "name_taken");
    assert!(e.message(Locale::Fr).contains("« Compte courant »"), "{}", e.message(Locale::Fr));
    assert!(matches!(accounts.rename(user, "livret_a", " ").await, Err(AccountError::Empty)));
    assert!(matches!(
        accounts.rename(user, "livret_a", "Livret\u{202e}B").await,
        Err(AccountError::Characters)
    ));
    // Another user's account is not found, and theirs is untouched.
    assert!(matches!(
        accounts.rename(other, "livret_a", "Pris").await,
        Err(AccountError::Backend(BackendError::NotFound))
    ));
    assert_eq!(accounts.list(user, Locale::Fr, today()).await.unwrap().accounts[1].name, "Livret A");
    assert!(accounts.list(other, Locale::Fr, today()).await.unwrap().accounts.is_empty());
}

#[tokio::test]
async fn accounts_are_listed_with_the_tools_balances_and_renamed_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let (store, user) = crate::support::demo_store(dir.path()).await;
    let other = store.ensure_user("other").await.unwrap();
    lists_and_renames(store, user, other).await;
}

#[tokio::test]
async fn accounts_are_listed_with_the_tools_balances_and_renamed_on_postgres() {
    let fresh = backend::testing::FreshDatabase::create().await.expect("PostgreSQL at 127.0.0.1:5432");
    let store = fresh.open_store().await.unwrap();
    let user = store.ensure_user("local").await.unwrap();
    assert!(backend::demo::seed(&store, user).await.unwrap());
    let other = store.ensure_user("other").await.unwrap();
    lists_and_renames(store, user, other).await;
    fresh.drop().await;
}

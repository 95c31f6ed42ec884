//! The finance tools on the demo ledger, with expected values from plain SQL: the
//! schema's migration of older databases, savings and refunds, account filters, cash
//! flow, balances, budgets and recurring payments, and each tool through the chat
//! pipeline.

use std::borrow::Cow;

use agent::protocol::ChatEvent;
use agent::{BudgetState, Cadence, ToolOutput};
use backend::{BackendError, ChatRequest, Sou, Store, UserId};
use futures::StreamExt;
use serde_json::json;

use super::{call, d, demo_store, demo_today, period, run_at, scalar};

// ---------------------------------------------------------------------------------
// Schema.

#[tokio::test]
async fn migration_keys_existing_accounts_and_budgets_stay_with_their_user() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sou.db");
    let url = format!("sqlite://{}?mode=rwc", path.display());
    // A database as it was before 0002: only the first migration applied.
    {
        let pool = sqlx::SqlitePool::connect(&url).await.unwrap();
        let all =
            sqlx::migrate::Migrator::new(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations"))
                .await
                .unwrap();
        let first = all.iter().next().cloned().unwrap();
        assert_eq!(first.version, 1);
        let only_first = sqlx::migrate::Migrator {
            migrations: Cow::Owned(vec![first]),
            ..sqlx::migrate::Migrator::DEFAULT
        };
        only_first.run(&pool).await.unwrap();
        sqlx::query("INSERT INTO users (id, name) VALUES (1, 'old'), (2, 'other')")
            .execute(&pool)
            .await
            .unwrap();
        sqlx::query(
            "INSERT INTO accounts (user_id, name, kind, currency) VALUES
               (1, 'Compte courant', 'checking', 'EUR'), (1, 'Livret A', 'savings', 'EUR'),
               (1, 'Joint', 'checking', 'EUR'), (1, 'joint', 'checking', 'EUR'),
               (2, 'Compte courant', 'checking', 'EUR')",
        )
        .execute(&pool)
        .await
        .unwrap();
        pool.close().await;
    }
    let store = Store::open(&url).await.unwrap();
    let keys: Vec<(i64, String, String)> =
        sqlx::query_as("SELECT user_id, name, key FROM accounts ORDER BY id")
            .fetch_all(store.pool())
            .await
            .unwrap();
    let keys: Vec<(i64, &str, &str)> = keys.iter().map(|(u, n, k)| (*u, n.as_str(), k.as_str())).collect();
    assert_eq!(
        keys,
        [
            (1, "Compte courant", "compte_courant"),
            (1, "Livret A", "livret_a"),
            (1, "Joint", "account_3"),
            (1, "joint", "account_4"),
            (2, "Compte courant", "compte_courant"),
        ]
    );
    let vocab = store.vocabulary(UserId(1)).await.unwrap();
    assert_eq!(vocab.accounts.len(), 4);
    assert_eq!(vocab.accounts[1].name_en, "Livret A", "no English name: the name");

    // Budgets: positive, monthly, on one of the owner's categories.
    for (user, key) in [(1, "groceries"), (2, "groceries")] {
        sqlx::query(
            "INSERT INTO categories (user_id, key, name_fr, name_en) VALUES ($1, $2, 'Courses', 'Groceries')",
        )
        .bind(user)
        .bind(key)
        .execute(store.pool())
        .await
        .unwrap();
    }
    let insert = |user: i64, category_of: i64, amount: i64, period: &'static str| {
        let pool = store.pool().clone();
        async move {
            sqlx::query(
                "INSERT INTO budgets (user_id, category_id, amount_minor, currency, period)
                 SELECT $1, id, $3, 'EUR', $4 FROM categories WHERE user_id = $2",
            )
            .bind(user)
            .bind(category_of)
            .bind(amount)
            .bind(period)
            .execute(&pool)
            .await
        }
    };
    let err = insert(1, 2, 10_000, "month").await.unwrap_err();
    assert!(err.to_string().contains("same user"), "{err}");
    assert!(insert(1, 1, 0, "month").await.is_err(), "a budget is positive");
    assert!(insert(1, 1, 10_000, "week").await.is_err(), "budgets are monthly");
    insert(1, 1, 10_000, "month").await.unwrap();
    assert!(insert(1, 1, 20_000, "month").await.is_err(), "one budget per category");
    sqlx::query("DELETE FROM users WHERE id = 1").execute(store.pool()).await.unwrap();
    assert_eq!(scalar(&store, "SELECT count(*) FROM budgets WHERE user_id = $1", UserId(1)).await, 0);
}

// ---------------------------------------------------------------------------------
// The demo ledger.

#[tokio::test]
async fn demo_savings_are_mirrored_and_refunds_are_credits() {
    let (_dir, store, user) = demo_store().await;
    // Every transfer out of the current account arrives on the Livret A the same day.
    let debits = scalar(
        &store,
        "SELECT count(*) FROM transactions t JOIN categories c ON c.id = t.category_id
         JOIN accounts a ON a.id = t.account_id
         WHERE t.user_id = $1 AND c.key = 'savings' AND a.key = 'compte_courant' AND t.amount_minor < 0",
        user,
    )
    .await;
    let mirrored = scalar(
        &store,
        "SELECT count(*) FROM transactions o JOIN accounts ao ON ao.id = o.account_id
         JOIN transactions i ON i.user_id = o.user_id AND i.date = o.date AND i.amount_minor = -o.amount_minor
         JOIN accounts ai ON ai.id = i.account_id
         JOIN categories co ON co.id = o.category_id JOIN categories ci ON ci.id = i.category_id
         WHERE o.user_id = $1 AND ao.key = 'compte_courant' AND ai.key = 'livret_a'
           AND co.key = 'savings' AND ci.key = 'savings'",
        user,
    )
    .await;
    assert!(debits >= 24);
    assert_eq!(mirrored, debits);

    // Refunds: credits in expense categories, listed by direction.
    let all = period("2024-11-01", "2026-11-21");
    let c = call(
        "list_transactions",
        json!({"period": all, "category": "shopping", "direction": "credit", "limit": 500}),
    );
    let ToolOutput::ListTransactions(r) = run_at(&store, user, &c, demo_today()).await.unwrap() else {
        panic!()
    };
    let (count, sum): (i64, i64) = sqlx::query_as(
        "SELECT count(*), SUM(t.amount_minor) FROM transactions t JOIN categories c ON c.id = t.category_id
         WHERE t.user_id = $1 AND c.key = 'shopping' AND t.amount_minor > 0",
    )
    .bind(user.0)
    .fetch_one(store.pool())
    .await
    .unwrap();
    assert!(count >= 3, "{count} refunds");
    assert_eq!((i64::from(r.count), r.net.minor), (count, sum));
    assert!(r.transactions.iter().all(|t| t.amount.minor > 0 && t.label == "REMBOURSEMENT AMAZON"));
    assert_eq!(r.direction, Some(agent::Direction::Credit));
    // Health reimbursements too; and debits plus credits are every line.
    let c = call("list_transactions", json!({"period": all, "category": "health", "direction": "credit"}));
    let ToolOutput::ListTransactions(r) = run_at(&store, user, &c, demo_today()).await.unwrap() else {
        panic!()
    };
    assert!(r.transactions.iter().any(|t| t.label.contains("HARMONIE MUTUELLE REMB SANTE")));
    let count_of = |direction: Option<&str>| {
        let mut args = json!({"period": period("2025-01-01", "2026-01-01"), "limit": 1});
        if let Some(dir) = direction {
            args["direction"] = dir.into();
        }
        call("list_transactions", args)
    };
    let mut counts = Vec::new();
    for dir in [None, Some("debit"), Some("credit")] {
        let ToolOutput::ListTransactions(r) =
            run_at(&store, user, &count_of(dir), demo_today()).await.unwrap()
        else {
            panic!()
        };
        counts.push(i64::from(r.count));
    }
    let debits_2025 = scalar(
        &store,
        "SELECT count(*) FROM transactions WHERE user_id = $1 AND amount_minor < 0 AND date >= '2025-01-01' AND date < '2026-01-01'",
        user,
    )
    .await;
    assert_eq!(counts[1], debits_2025);
    assert_eq!(counts[0], counts[1] + counts[2]);
}

#[tokio::test]
async fn account_filters_and_groups() {
    let (_dir, store, user) = demo_store().await;
    let year = period("2025-01-01", "2026-01-01");
    // Income by account: salaries on the current account, interest on the Livret A.
    let c = call("income_summary", json!({"period": year, "group_by": "account"}));
    let ToolOutput::IncomeSummary(r) = run_at(&store, user, &c, demo_today()).await.unwrap() else {
        panic!()
    };
    let per_account: Vec<(i64, String)> = sqlx::query_as(
        "SELECT SUM(t.amount_minor), a.key FROM transactions t JOIN accounts a ON a.id = t.account_id
         JOIN categories c ON c.id = t.category_id
         WHERE t.user_id = $1 AND c.kind = 'income' AND t.amount_minor > 0
           AND t.date >= '2025-01-01' AND t.date < '2026-01-01'
         GROUP BY a.key ORDER BY 1 DESC",
    )
    .bind(user.0)
    .fetch_all(store.pool())
    .await
    .unwrap();
    let groups: Vec<(i64, String)> = r.groups.iter().map(|g| (g.total.minor, g.key.clone())).collect();
    assert_eq!(groups, per_account);
    assert_eq!(r.groups[1].label, "Livret A");
    assert_eq!(r.groups[0].label, "Current account");
    let interest = per_account[1].0;

    // The Livret A alone: twelve transfers in and the interest.
    let c = call("list_transactions", json!({"period": year, "account": "livret_a"}));
    let ToolOutput::ListTransactions(r) = run_at(&store, user, &c, demo_today()).await.unwrap() else {
        panic!()
    };
    assert_eq!(r.count, 13);
    assert_eq!(r.net.minor, 12 * 30_000 + interest);
    assert_eq!(r.account.as_ref().map(|a| a.label.as_str()), Some("Livret A"));
    assert!(r.transactions.iter().all(|t| t.account == "Livret A"));

    // Spending happens on the current account only.
    let c = call("spending_summary", json!({"period": year, "group_by": "account"}));
    let ToolOutput::SpendingSummary(all) = run_at(&store, user, &c, demo_today()).await.unwrap() else {
        panic!()
    };
    assert_eq!(all.groups.len(), 1);
    assert_eq!(all.groups[0].key, "compte_courant");
    assert_eq!(all.groups[0].total, all.total);
    let c = call("spending_summary", json!({"period": year, "account": "livret_a"}));
    let ToolOutput::SpendingSummary(r) = run_at(&store, user, &c, demo_today()).await.unwrap() else {
        panic!()
    };
    assert_eq!((r.total.minor, r.count), (0, 0));

    // Compare the Livret A's income between two years: interest against interest.
    let c = call(
        "compare_periods",
        json!({"flow": "income", "current": year, "reference": period("2024-01-01", "2025-01-01"), "account": "livret_a"}),
    );
    let ToolOutput::ComparePeriods(r) = run_at(&store, user, &c, demo_today()).await.unwrap() else {
        panic!()
    };
    assert_eq!((r.current.total.minor, r.reference.total.minor), (interest, 4_075));
    assert_eq!(r.account.map(|a| a.key), Some("livret_a".to_string()));

    // An account the user does not have.
    let c = call("balances", json!({"period": year, "account": "swiss_bank"}));
    let err = run_at(&store, user, &c, demo_today()).await.unwrap_err();
    assert!(matches!(&err, BackendError::BadRequest(m) if m.contains("swiss_bank")), "{err}");
}

#[tokio::test]
async fn cash_flow_matches_independent_sums() {
    let (_dir, store, user) = demo_store().await;
    let in_2025 = "t.user_id = $1 AND t.date >= '2025-01-01' AND t.date < '2026-01-01'";
    let q = |what: &str| {
        format!(
            "SELECT COALESCE(SUM(t.amount_minor), 0) FROM transactions t LEFT JOIN categories c ON c.id = t.category_id
             WHERE {in_2025} AND ({what})"
        )
    };
    let income = scalar(&store, &q("c.kind = 'income' OR (c.id IS NULL AND t.amount_minor > 0)"), user).await;
    let spending =
        -scalar(&store, &q("c.kind = 'expense' OR (c.id IS NULL AND t.amount_minor < 0)"), user).await;
    let net = scalar(&store, &q("c.id IS NULL OR c.kind <> 'transfer'"), user).await;
    let refunds = scalar(&store, &q("c.kind = 'expense' AND t.amount_minor > 0"), user).await;
    let lines = scalar(
        &store,
        &format!(
            "SELECT count(*) FROM transactions t LEFT JOIN categories c ON c.id = t.category_id
             WHERE {in_2025} AND (c.id IS NULL OR c.kind <> 'transfer')"
        ),
        user,
    )
    .await;
    assert!(refunds > 0);

    let year = period("2025-01-01", "2026-01-01");
    let c = call("cash_flow", json!({"period": year, "group_by": "month"}));
    let ToolOutput::CashFlow(r) = run_at(&store, user, &c, demo_today()).await.unwrap() else { panic!() };
    assert_eq!((r.income.minor, r.spending.minor, r.net.minor), (income, spending, net));
    assert_eq!(net, income - spending);
    assert_eq!(r.source_count as i64, lines);
    assert_eq!(r.source_ids.len(), (lines as usize).min(agent::SOURCE_PAGE), "the first page of the sources");
    // The rate is the nearest whole number of basis points to net / income.
    let rate = r.savings_rate_basis_points.unwrap();
    assert!(rate > 0);
    assert!(
        (i128::from(rate) * i128::from(income) - i128::from(net) * 10_000).abs() * 2 <= i128::from(income)
    );
    // Consistent with spending_summary: the same debits, minus the refunds.
    let c = call("spending_summary", json!({"period": year}));
    let ToolOutput::SpendingSummary(s) = run_at(&store, user, &c, demo_today()).await.unwrap() else {
        panic!()
    };
    assert_eq!(r.spending.minor, s.total.minor - refunds);
    // Twelve months, in order, adding up; March on its own matches SQL.
    assert_eq!(r.rows.len(), 12);
    assert_eq!(r.rows[0].key, "2025-01-01");
    assert_eq!(r.rows[2].label, "March 2025");
    assert!(r.rows.windows(2).all(|w| w[0].key < w[1].key));
    assert_eq!(r.rows.iter().map(|x| x.income.minor).sum::<i64>(), income);
    assert_eq!(r.rows.iter().map(|x| x.spending.minor).sum::<i64>(), spending);
    assert_eq!(r.rows.iter().map(|x| x.net.minor).sum::<i64>(), net);
    let march_net = scalar(
        &store,
        "SELECT SUM(t.amount_minor) FROM transactions t LEFT JOIN categories c ON c.id = t.category_id
         WHERE t.user_id = $1 AND t.date >= '2025-03-01' AND t.date < '2025-04-01' AND (c.id IS NULL OR c.kind <> 'transfer')",
        user,
    )
    .await;
    assert_eq!(r.rows[2].net.minor, march_net);

    // The Livret A: the transfers are not income, the interest is.
    let c = call("cash_flow", json!({"period": year, "account": "livret_a"}));
    let ToolOutput::CashFlow(r) = run_at(&store, user, &c, demo_today()).await.unwrap() else { panic!() };
    let interest = scalar(
        &store,
        "SELECT amount_minor FROM transactions WHERE user_id = $1 AND raw_label = 'INTERETS CREDITEURS 2025'",
        user,
    )
    .await;
    assert_eq!((r.income.minor, r.spending.minor, r.net.minor), (interest, 0, interest));
    assert_eq!(r.savings_rate_basis_points, Some(10_000));
    assert!(r.rows.is_empty());
}

#[tokio::test]
async fn balances_are_the_opening_balance_plus_every_line() {
    let (_dir, store, user) = demo_store().await;
    let sql_balance = |account: &'static str, day: &'static str| {
        let store = store.clone();
        async move {
            sqlx::query_scalar::<_, i64>(
                "SELECT a.opening_balance_minor + COALESCE(SUM(t.amount_minor), 0)
                 FROM accounts a LEFT JOIN transactions t ON t.account_id = a.id AND t.date <= $3
                 WHERE a.user_id = $1 AND a.key = $2 GROUP BY a.id",
            )
            .bind(user.0)
            .bind(account)
            .bind(day)
            .fetch_one(store.pool())
            .await
            .unwrap()
        }
    };
    // The end of March 2025.
    let c = call("balances", json!({"period": period("2025-03-01", "2025-04-01")}));
    let ToolOutput::Balances(r) = run_at(&store, user, &c, demo_today()).await.unwrap() else { panic!() };
    assert_eq!(r.date, d("2025-03-31"));
    let expected = [
        ("compte_courant", sql_balance("compte_courant", "2025-03-31").await),
        ("livret_a", sql_balance("livret_a", "2025-03-31").await),
    ];
    let got: Vec<(&str, i64)> = r.accounts.iter().map(|a| (a.key.as_str(), a.balance.minor)).collect();
    assert_eq!(got, expected);
    assert_eq!(r.total.minor, expected[0].1 + expected[1].1);
    assert_eq!(r.accounts[1].kind, "savings");
    // The Livret A: 8 000 € opening, five transfers of 300 € and the 2024 interest by then.
    assert_eq!(expected[1].1, 800_000 + 5 * 30_000 + 4_075);
    // A period running into the future stops at today.
    let c =
        call("balances", json!({"period": period("2026-01-01", "2027-01-01"), "account": "compte_courant"}));
    let ToolOutput::Balances(r) = run_at(&store, user, &c, demo_today()).await.unwrap() else { panic!() };
    assert_eq!(r.date, demo_today());
    assert_eq!(r.accounts.len(), 1);
    assert_eq!(r.accounts[0].balance.minor, sql_balance("compte_courant", "2026-11-22").await);
    assert_eq!(r.total, r.accounts[0].balance);
    assert!(r.total.minor > 0, "the demo household is not overdrawn");
}

/// Balances read whole months from the roll-up and the edges from the rows: on days
/// across the ledger (month ends, firsts, the middle of a month, the opening day's
/// month) every account's balance is its opening balance plus every line from its
/// opening day to that day, as plain SQL over the rows says.
#[tokio::test]
async fn balances_on_any_day_equal_the_rows() {
    let (_dir, store, user) = demo_store().await;
    // An opening day in the middle of a month, with lines before it in that month.
    sqlx::query("UPDATE accounts SET opening_date = '2025-06-12' WHERE user_id = $1 AND key = 'livret_a'")
        .bind(user.0)
        .execute(store.pool())
        .await
        .unwrap();
    let mut day = d("2025-01-01");
    while day <= demo_today() {
        let c = call("balances", json!({"period": period(&day.to_string(), &day.add_days(1).to_string())}));
        let ToolOutput::Balances(r) = run_at(&store, user, &c, demo_today()).await.unwrap() else { panic!() };
        let rows: Vec<(String, i64)> = sqlx::query_as(
            "SELECT a.key, a.opening_balance_minor + CAST(COALESCE(SUM(t.amount_minor), 0) AS BIGINT)
             FROM accounts a LEFT JOIN transactions t ON t.account_id = a.id AND t.date <= $2
                  AND (a.opening_date IS NULL OR t.date >= a.opening_date)
             WHERE a.user_id = $1 AND a.key IS NOT NULL AND (a.opening_date IS NULL OR a.opening_date <= $2)
             GROUP BY a.id, a.key, a.opening_balance_minor ORDER BY a.id",
        )
        .bind(user.0)
        .bind(day.to_string())
        .fetch_all(store.pool())
        .await
        .unwrap();
        let got: Vec<(String, i64)> = r.accounts.iter().map(|a| (a.key.clone(), a.balance.minor)).collect();
        assert_eq!(got, rows, "on {day}");
        day = day.add_days(if day.day() == 1 { 11 } else { 9 });
    }
}

#[tokio::test]
async fn demo_budgets_in_november_2026() {
    let (_dir, store, user) = demo_store().await;
    let november = period("2026-11-01", "2026-12-01");
    let c = call("budget_status", json!({"period": november}));
    let ToolOutput::BudgetStatus(r) = run_at(&store, user, &c, demo_today()).await.unwrap() else { panic!() };
    let expected: Vec<(String, i64, i64)> = sqlx::query_as(
        "SELECT c.key, b.amount_minor,
                MAX(0, COALESCE((SELECT -SUM(t.amount_minor) FROM transactions t WHERE t.category_id = c.id
                                  AND t.date >= '2026-11-01' AND t.date < '2026-12-01'), 0))
         FROM budgets b JOIN categories c ON c.id = b.category_id WHERE b.user_id = $1",
    )
    .bind(user.0)
    .fetch_all(store.pool())
    .await
    .unwrap();
    assert_eq!(expected.len(), 6);
    assert_eq!(r.lines.len(), 6);
    assert_eq!(r.months, 1);
    for (key, budget, spent) in &expected {
        let line = r.lines.iter().find(|l| &l.category.key == key).unwrap();
        assert_eq!((line.budget.minor, line.spent.minor), (*budget, *spent), "{key}");
        assert_eq!(line.remaining.minor, budget - spent);
        let want = if spent * 100 < budget * 80 {
            BudgetState::Ok
        } else if spent <= budget {
            BudgetState::Warning
        } else {
            BudgetState::Over
        };
        assert_eq!(line.state, want, "{key}");
    }
    for state in [BudgetState::Ok, BudgetState::Warning, BudgetState::Over] {
        assert!(r.lines.iter().any(|l| l.state == state), "no {state:?} budget in November 2026");
    }
    assert!(r.lines.windows(2).all(|w| w[0].used_basis_points >= w[1].used_basis_points));
    assert_eq!(r.budget.minor, expected.iter().map(|e| e.1).sum::<i64>());
    assert_eq!(r.spent.minor, expected.iter().map(|e| e.2).sum::<i64>());
    // 22 of November's 30 days.
    assert_eq!(r.elapsed_basis_points, Some(7333));

    // One category; a past month has no elapsed share; an unknown category is an error.
    let c =
        call("budget_status", json!({"period": period("2026-10-01", "2026-11-01"), "category": "groceries"}));
    let ToolOutput::BudgetStatus(r) = run_at(&store, user, &c, demo_today()).await.unwrap() else { panic!() };
    assert_eq!(r.lines.len(), 1);
    assert_eq!(r.elapsed_basis_points, None);
    let groceries_october = scalar(
        &store,
        "SELECT -SUM(t.amount_minor) FROM transactions t JOIN categories c ON c.id = t.category_id
         WHERE t.user_id = $1 AND c.key = 'groceries' AND t.date >= '2026-10-01' AND t.date < '2026-11-01'",
        user,
    )
    .await;
    assert_eq!(r.lines[0].spent.minor, groceries_october);
    let c = call("budget_status", json!({"period": november, "category": "unicorns"}));
    assert!(matches!(run_at(&store, user, &c, demo_today()).await, Err(BackendError::BadRequest(_))));
    // A category without a budget has no line.
    let c = call("budget_status", json!({"period": november, "category": "housing"}));
    let ToolOutput::BudgetStatus(r) = run_at(&store, user, &c, demo_today()).await.unwrap() else { panic!() };
    assert!(r.lines.is_empty());
    assert_eq!(r.budget.minor, 0);
}

#[tokio::test]
async fn demo_recurring_payments_are_the_bills_not_the_groceries() {
    let (_dir, store, user) = demo_store().await;
    let all = period("2024-11-01", "2026-11-21");
    let c = call("recurring_payments", json!({"period": all}));
    let ToolOutput::RecurringPayments(r) = run_at(&store, user, &c, demo_today()).await.unwrap() else {
        panic!()
    };
    let mut found: Vec<&str> =
        r.items.iter().filter_map(|i| i.merchant.as_ref().map(|m| m.key.as_str())).collect();
    found.sort_unstable();
    assert_eq!(
        found,
        [
            "basic_fit",
            "edf",
            "foncia",
            "free_mobile",
            "harmonie_mutuelle",
            "maif",
            "netflix",
            "ratp",
            "spotify"
        ]
    );
    assert_eq!(r.items.len(), found.len(), "every series here has a merchant");
    assert!(r.items.windows(2).all(|w| w[0].yearly_cost.minor >= w[1].yearly_cost.minor));
    assert_eq!(r.items[0].label, "Foncia");
    let yearly: i64 = r.items.iter().map(|i| i.yearly_cost.minor).sum();
    assert_eq!(r.yearly_total.minor, yearly);
    assert_eq!(r.monthly_total.minor, (yearly + 6) / 12);
    let item =
        |key: &str| r.items.iter().find(|i| i.merchant.as_ref().is_some_and(|m| m.key == key)).unwrap();
    // Netflix: 11 payments at 13,49 €, then 14 at 14,99 €: the median is the new price.
    let netflix = item("netflix");
    assert_eq!((netflix.cadence, netflix.amount.minor, netflix.count), (Cadence::Monthly, 1_499, 25));
    assert_eq!(netflix.yearly_cost.minor, 12 * 1_499);
    assert_eq!(netflix.category.as_ref().map(|c| c.key.as_str()), Some("subscriptions"));
    let ids: Vec<i64> = sqlx::query_scalar(
        "SELECT t.id FROM transactions t JOIN merchants m ON m.id = t.merchant_id
         WHERE t.user_id = $1 AND m.key = 'netflix' ORDER BY t.date",
    )
    .bind(user.0)
    .fetch_all(store.pool())
    .await
    .unwrap();
    assert_eq!(netflix.source_ids, ids);
    assert_eq!(item("spotify").next_date, d("2026-12-20"));
    // EDF: monthly instalments; the October adjustments are not part of the series.
    let edf = item("edf");
    let edf_debits = scalar(
        &store,
        "SELECT count(*) FROM transactions t JOIN merchants m ON m.id = t.merchant_id
         WHERE t.user_id = $1 AND m.key = 'edf' AND t.amount_minor < 0",
        user,
    )
    .await;
    assert_eq!((edf.cadence, edf.count, edf_debits), (Cadence::Monthly, 25, 27));
    assert_eq!(edf.next_date, d("2026-12-10"));
    // The home insurance, yearly.
    let maif = item("maif");
    assert_eq!((maif.cadence, maif.count, maif.amount.minor), (Cadence::Yearly, 3, 22_560));
    assert_eq!((maif.last_date, maif.next_date), (d("2026-11-08"), d("2027-11-08")));
    assert_eq!(maif.yearly_cost, maif.amount);

    // Groceries: dozens of visits, none of them a recurring payment.
    let visits = scalar(
        &store,
        "SELECT count(*) FROM transactions t JOIN merchants m ON m.id = t.merchant_id
         WHERE t.user_id = $1 AND m.key = 'carrefour'",
        user,
    )
    .await;
    assert!(visits > 100, "{visits} visits");
    for args in
        [json!({"period": all, "merchant": "carrefour"}), json!({"period": all, "category": "groceries"})]
    {
        let ToolOutput::RecurringPayments(r) =
            run_at(&store, user, &call("recurring_payments", args), demo_today()).await.unwrap()
        else {
            panic!()
        };
        assert!(r.items.is_empty(), "{:?}", r.items.iter().map(|i| &i.label).collect::<Vec<_>>());
        assert_eq!(r.yearly_total.minor, 0);
    }
    // Savings transfers are not payments, unless asked for by category.
    let c = call("recurring_payments", json!({"period": all, "category": "savings"}));
    let ToolOutput::RecurringPayments(r) = run_at(&store, user, &c, demo_today()).await.unwrap() else {
        panic!()
    };
    assert_eq!(r.items.len(), 1);
    assert_eq!((r.items[0].label.as_str(), r.items[0].amount.minor), ("LIVRET A", 30_000));

    // Two yearly payments a year apart need 13 months of lookback.
    let c =
        call("recurring_payments", json!({"period": period("2025-11-08", "2026-11-09"), "merchant": "maif"}));
    let ToolOutput::RecurringPayments(r) = run_at(&store, user, &c, demo_today()).await.unwrap() else {
        panic!()
    };
    assert!(r.items.is_empty());
    let c =
        call("recurring_payments", json!({"period": period("2025-10-01", "2026-11-21"), "merchant": "maif"}));
    let ToolOutput::RecurringPayments(r) = run_at(&store, user, &c, demo_today()).await.unwrap() else {
        panic!()
    };
    assert_eq!(r.items.len(), 1);
    assert_eq!((r.items[0].cadence, r.items[0].count), (Cadence::Yearly, 2));
}

// ---------------------------------------------------------------------------------
// Through the chat pipeline.

#[tokio::test]
async fn chat_runs_each_new_tool_from_a_chosen_plan() {
    let (_dir, store, user) = demo_store().await;
    let sou = Sou::new(store.clone(), chrono_tz::Europe::Paris);
    let p = period("2026-10-01", "2026-11-01");
    let plans = [
        json!({"tool": "cash_flow", "args": {"period": p, "group_by": "week"}}),
        json!({"tool": "balances", "args": {"period": p}}),
        json!({"tool": "budget_status", "args": {"period": p}}),
        json!({"tool": "recurring_payments", "args": {"period": period("2025-11-01", "2026-11-01")}}),
        json!({"tool": "list_transactions", "args": {"period": p, "direction": "credit", "account": "compte_courant"}}),
    ];
    for plan in plans {
        let stream = sou
            .chat(user, ChatRequest { message: "ok".into(), plan: Some(plan.clone()), ..Default::default() })
            .await
            .unwrap();
        let events: Vec<ChatEvent> = stream.events.collect().await;
        let kinds: Vec<&str> = events
            .iter()
            .map(|e| match e {
                ChatEvent::Plan { .. } => "plan",
                ChatEvent::ToolResult(_) => "tool_result",
                ChatEvent::Token { .. } => "token",
                ChatEvent::Status { .. } => "status",
                _ => "other",
            })
            .collect();
        assert_eq!(kinds, ["plan", "tool_result", "token", "status"], "{plan}: {events:?}");
        let ChatEvent::ToolResult(output) = &events[1] else { panic!() };
        let tool = serde_json::to_value(output).unwrap()["tool_name"].clone();
        assert_eq!(tool, plan["tool"]);
    }
    // An unknown account in a chosen plan is an error event, then done.
    let plan = json!({"tool": "balances", "args": {"period": p, "account": "offshore"}});
    let stream = sou
        .chat(user, ChatRequest { message: "ok".into(), plan: Some(plan), ..Default::default() })
        .await
        .unwrap();
    let events: Vec<ChatEvent> = stream.events.collect().await;
    assert!(events
        .iter()
        .any(|e| matches!(e, ChatEvent::Error { message, .. } if message.contains("offshore"))));
    assert!(events.last().is_some_and(ChatEvent::is_terminal));
}

/// `activity` on the demo ledger, against plain SQL: Carrefour's debits in 2025 counted,
/// added up and averaged, the first, the last and the largest found; the salary's credits
/// from Acme; a merchant with none says so. Its checks pass, and PostgreSQL gives the same.
#[tokio::test]
async fn activity_counts_a_merchants_lines_and_finds_their_ends() {
    let (_dir, store, user) = demo_store().await;
    let year = period("2025-01-01", "2026-01-01");
    let lines = |merchant: &str, side: &str, order: &str| {
        format!(
            "SELECT {{}} FROM transactions WHERE user_id = $1 AND date >= '2025-01-01' AND date < '2026-01-01'
             AND amount_minor {side} 0 AND currency = 'EUR'
             AND merchant_id = (SELECT id FROM merchants WHERE user_id = $1 AND key = '{merchant}') {order}"
        )
    };
    let at = |what: &str, sql: &str| sql.replacen("{}", what, 1);
    let carrefour = lines("carrefour", "<", "");
    let n = scalar(&store, &at("count(*)", &carrefour), user).await;
    let total = -scalar(&store, &at("SUM(amount_minor)", &carrefour), user).await;
    let id_of = |order: &str| at("id", &lines("carrefour", "<", &format!("ORDER BY {order} LIMIT 1")));
    let first = scalar(&store, &id_of("date, id"), user).await;
    let last = scalar(&store, &id_of("date DESC, id DESC"), user).await;
    let largest = scalar(&store, &id_of("ABS(amount_minor) DESC, date DESC, id DESC"), user).await;
    assert!(n > 3, "the demo ledger has Carrefour all year");

    let c = call("activity", json!({"period": year, "merchant": "carrefour"}));
    let (output, checks) =
        backend::testing::tools::run_checked(&store, user, &c, agent::Locale::Fr, demo_today())
            .await
            .unwrap();
    let failed: Vec<_> = checks.iter().filter(|c| c.outcome == agent::runs::CheckOutcome::Failed).collect();
    assert!(failed.is_empty(), "{failed:?}");
    let ToolOutput::Activity(r) = &output else { panic!("{output:?}") };
    assert_eq!((i64::from(r.count), r.total.minor, r.source_count as i64), (n, total, n));
    assert_eq!(r.average.map(|m| m.minor), Some((total + n / 2) / n));
    let ids = [&r.first, &r.last, &r.largest].map(|t| t.as_ref().map(|t| t.id));
    assert_eq!(ids, [Some(first), Some(last), Some(largest)]);
    assert_eq!(r.source_ids.first(), Some(&last), "newest first");
    assert_eq!(r.source_ids.len(), (n as usize).min(agent::SOURCE_PAGE));
    let sentence = output.answer(agent::Locale::Fr);
    assert!(sentence.starts_with(&format!("{n} dépenses chez Carrefour — ")), "{sentence}");

    // Money in: the salary, from Acme.
    let acme = lines("acme", ">", "");
    let c = call("activity", json!({"period": year, "merchant": "acme", "direction": "credit"}));
    let ToolOutput::Activity(salary) = run_at(&store, user, &c, demo_today()).await.unwrap() else {
        panic!()
    };
    let paid = scalar(&store, &at("count(*)", &acme), user).await;
    assert!(paid >= 12, "a salary each month");
    assert_eq!(
        (i64::from(salary.count), salary.total.minor),
        (paid, scalar(&store, &at("SUM(amount_minor)", &acme), user).await)
    );
    let sentence = ToolOutput::Activity(salary).answer(agent::Locale::En);
    assert!(sentence.starts_with(&format!("{paid} credits from ACME SAS — ")), "{sentence}");

    // None: said, with no row and no average.
    let c = call("activity", json!({"period": period("2025-01-01", "2025-01-02"), "merchant": "air_france"}));
    let none = run_at(&store, user, &c, demo_today()).await.unwrap();
    let ToolOutput::Activity(r) = &none else { panic!() };
    assert_eq!((r.count, r.average, r.first.is_none(), r.source_ids.len()), (0, None, true, 0));
    assert!(none.answer(agent::Locale::En).starts_with("No transactions at Air France — "));

    // The same on PostgreSQL.
    let fresh = backend::testing::FreshDatabase::create().await.expect("PostgreSQL at 127.0.0.1:5432");
    let pg = fresh.open_store().await.unwrap();
    let pg_user = pg.ensure_user("local").await.unwrap();
    assert!(backend::demo::seed(&pg, pg_user).await.unwrap());
    let c = call("activity", json!({"period": year, "merchant": "carrefour"}));
    let ToolOutput::Activity(mut a) = run_at(&pg, pg_user, &c, demo_today()).await.unwrap() else { panic!() };
    let ToolOutput::Activity(mut b) = run_at(&store, user, &c, demo_today()).await.unwrap() else { panic!() };
    // Ids differ between the two databases; everything else is the same.
    for r in [&mut a, &mut b] {
        r.source_ids.clear();
        for t in [&mut r.first, &mut r.last, &mut r.largest].into_iter().flatten() {
            t.id = 0;
        }
    }
    assert_eq!(a, b);
}

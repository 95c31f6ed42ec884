//! The finance tools on small ledgers built here by hand, with expected values worked
//! out on paper: cash flow, balances, budgets and recurring payments.

use agent::{BudgetState, Cadence, ToolCall, ToolOutput};
use backend::{Store, UserId};
use serde_json::json;

use super::{call, d, period, run_at};

// ---------------------------------------------------------------------------------
// A hand-built ledger.

struct Ledger {
    store: Store,
    user: UserId,
}

impl Ledger {
    async fn new(store: &Store, name: &str) -> Ledger {
        let user = store.ensure_user(name).await.unwrap();
        for (key, kind) in [
            ("groceries", "expense"),
            ("restaurants", "expense"),
            ("shopping", "expense"),
            ("leisure", "expense"),
            ("income", "income"),
            ("savings", "transfer"),
        ] {
            sqlx::query(
                "INSERT INTO categories (user_id, key, name_fr, name_en, kind) VALUES ($1, $2, $2, $2, $3)",
            )
            .bind(user.0)
            .bind(key)
            .bind(kind)
            .execute(store.pool())
            .await
            .unwrap();
        }
        Ledger { store: store.clone(), user }
    }

    async fn account(&self, key: &str, kind: &str, opening: i64, opened: &str) {
        sqlx::query(
            "INSERT INTO accounts (user_id, key, name, kind, currency, opening_balance_minor, opening_date)
             VALUES ($1, $2, $2, $3, 'EUR', $4, $5)",
        )
        .bind(self.user.0)
        .bind(key)
        .bind(kind)
        .bind(opening)
        .bind(opened)
        .execute(self.store.pool())
        .await
        .unwrap();
    }

    async fn merchant(&self, key: &str) {
        sqlx::query("INSERT INTO merchants (user_id, key, name) VALUES ($1, $2, $2)")
            .bind(self.user.0)
            .bind(key)
            .execute(self.store.pool())
            .await
            .unwrap();
    }

    async fn budget(&self, category: &str, amount: i64) {
        sqlx::query(
            "INSERT INTO budgets (user_id, category_id, amount_minor, currency)
             SELECT $1, id, $3, 'EUR' FROM categories WHERE user_id = $1 AND key = $2",
        )
        .bind(self.user.0)
        .bind(category)
        .bind(amount)
        .execute(self.store.pool())
        .await
        .unwrap();
    }

    /// One bank line; `category` and `merchant` are keys or `None`.
    #[allow(clippy::too_many_arguments)] // (a test's table row, read as one line)
    async fn line(
        &self,
        account: &str,
        date: &str,
        amount: i64,
        label: &str,
        category: Option<&str>,
        merchant: Option<&str>,
    ) {
        sqlx::query(
            "INSERT INTO transactions (user_id, account_id, date, amount_minor, currency, raw_label,
                                       merchant_id, category_id, dedupe_hash)
             VALUES ($1, (SELECT id FROM accounts WHERE user_id = $1 AND key = $2), $3, $4, 'EUR', $5,
                     (SELECT id FROM merchants WHERE user_id = $1 AND key = $7),
                     (SELECT id FROM categories WHERE user_id = $1 AND key = $6),
                     $2 || $3 || $5 || $4)",
        )
        .bind(self.user.0)
        .bind(account)
        .bind(date)
        .bind(amount)
        .bind(label)
        .bind(category)
        .bind(merchant)
        .execute(self.store.pool())
        .await
        .unwrap();
    }

    async fn run(&self, c: &ToolCall, today: &str) -> ToolOutput {
        run_at(&self.store, self.user, c, d(today)).await.unwrap()
    }
}

/// January to March 2026 of a small household, worked out by hand:
///
/// | month | income | spending | net |
/// |---|---|---|---|
/// | January | 2 000 + 10 − 10 = 2 000,00 | 500 + 80 + 30 + 50 − 40 − 50 + 20 = 590,00 | 1 410,00 |
/// | February | 2 000,00 | 1 999,90 | 0,10 |
/// | March | 2 000,00 | 2 000,10 | −0,10 |
async fn household(store: &Store) -> Ledger {
    let l = Ledger::new(store, "household").await;
    l.account("courant", "checking", 100_000, "2026-01-01").await;
    l.account("epargne", "savings", 50_000, "2026-02-15").await;
    let c = "courant";
    // Before the account's opening date: in no balance.
    l.line(c, "2025-12-31", -9_999, "CB OLD", Some("groceries"), None).await;
    l.line(c, "2026-01-05", 200_000, "VIR SALAIRE", Some("income"), None).await;
    l.line(c, "2026-01-06", -50_000, "CB SUPER", Some("groceries"), None).await;
    l.line(c, "2026-01-07", -8_000, "CB RESTO", Some("restaurants"), None).await;
    l.line(c, "2026-01-08", -3_000, "CB SHOP", Some("shopping"), None).await;
    l.line(c, "2026-01-09", 4_000, "REMBOURSEMENT SHOP", Some("shopping"), None).await;
    l.line(c, "2026-01-10", 5_000, "REMBOURSEMENT SUPER", Some("groceries"), None).await;
    l.line(c, "2026-01-11", -2_000, "CB INCONNU", None, None).await;
    l.line(c, "2026-01-12", 1_000, "VIR INCONNU", None, None).await;
    l.line(c, "2026-01-13", -30_000, "VIR EPARGNE", Some("savings"), None).await;
    l.line(c, "2026-01-14", -1_000, "SALAIRE CORRECTION", Some("income"), None).await;
    l.line(c, "2026-01-15", -5_000, "CB CINE", Some("leisure"), None).await;
    l.line(c, "2026-02-05", 200_000, "VIR SALAIRE", Some("income"), None).await;
    l.line(c, "2026-02-06", -199_990, "CB SUPER", Some("groceries"), None).await;
    l.line("epargne", "2026-02-20", 30_000, "VIR DEPUIS COURANT", Some("savings"), None).await;
    l.line(c, "2026-03-05", 200_000, "VIR SALAIRE", Some("income"), None).await;
    l.line(c, "2026-03-06", -200_010, "CB SUPER", Some("groceries"), None).await;
    l.budget("groceries", 40_000).await;
    l.budget("restaurants", 10_000).await;
    l.budget("shopping", 10_000).await;
    l.budget("leisure", 5_000).await;
    l
}

// ---------------------------------------------------------------------------------
// The hand-built household.

#[tokio::test]
async fn cash_flow_by_hand() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_in(dir.path()).await.unwrap();
    let l = household(&store).await;
    let q1 = period("2026-01-01", "2026-04-01");
    let ToolOutput::CashFlow(r) =
        l.run(&call("cash_flow", json!({"period": q1, "group_by": "month"})), "2026-04-10").await
    else {
        panic!()
    };
    let rows: Vec<(&str, i64, i64, i64)> =
        r.rows.iter().map(|x| (x.key.as_str(), x.income.minor, x.spending.minor, x.net.minor)).collect();
    assert_eq!(
        rows,
        [
            ("2026-01-01", 200_000, 59_000, 141_000),
            ("2026-02-01", 200_000, 199_990, 10),
            ("2026-03-01", 200_000, 200_010, -10),
        ]
    );
    assert_eq!((r.income.minor, r.spending.minor, r.net.minor), (600_000, 459_000, 141_000));
    assert_eq!(r.savings_rate_basis_points, Some(2_350));
    // 0,10 € on 2 000 € is half a basis point: rounded away from zero, both ways.
    let month = |start: &str, end: &str| call("cash_flow", json!({"period": period(start, end)}));
    let rate = |o: ToolOutput| match o {
        ToolOutput::CashFlow(r) => r.savings_rate_basis_points,
        _ => panic!(),
    };
    assert_eq!(rate(l.run(&month("2026-02-01", "2026-03-01"), "2026-04-10").await), Some(1));
    assert_eq!(rate(l.run(&month("2026-03-01", "2026-04-01"), "2026-04-10").await), Some(-1));
    assert_eq!(rate(l.run(&month("2026-01-01", "2026-02-01"), "2026-04-10").await), Some(7_050));
    // No income, no rate.
    assert_eq!(rate(l.run(&month("2026-04-01", "2026-05-01"), "2026-04-10").await), None);
    // By week: January's first line is on Monday 5 January.
    let ToolOutput::CashFlow(r) = l
        .run(
            &call("cash_flow", json!({"period": period("2026-01-01", "2026-02-01"), "group_by": "week"})),
            "2026-04-10",
        )
        .await
    else {
        panic!()
    };
    assert_eq!(r.rows.iter().map(|x| x.key.as_str()).collect::<Vec<_>>(), ["2026-01-05", "2026-01-12"]);
    assert_eq!(r.rows.iter().map(|x| x.net.minor).sum::<i64>(), 141_000);
}

#[tokio::test]
async fn balances_by_hand() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_in(dir.path()).await.unwrap();
    let l = household(&store).await;
    let balances = |o: ToolOutput| match o {
        ToolOutput::Balances(r) => (
            r.date,
            r.accounts.iter().map(|a| (a.key.clone(), a.balance.minor)).collect::<Vec<_>>(),
            r.total.minor,
        ),
        _ => panic!(),
    };
    let at = |start: &str, end: &str| call("balances", json!({"period": period(start, end)}));
    // End of January: 1 000 € + January's lines (the 31 December one is before opening);
    // the savings account opens on 15 February.
    let (date, accounts, total) = balances(l.run(&at("2026-01-01", "2026-02-01"), "2026-03-31").await);
    assert_eq!(date, d("2026-01-31"));
    assert_eq!(accounts, [("courant".to_string(), 211_000)]);
    assert_eq!(total, 211_000);
    let (_, accounts, total) = balances(l.run(&at("2026-02-01", "2026-03-01"), "2026-03-31").await);
    assert_eq!(accounts, [("courant".to_string(), 211_010), ("epargne".to_string(), 80_000)]);
    assert_eq!(total, 291_010);
    // This year, asked on 5 March: March's salary is in, the 6 March line is not yet.
    let (date, accounts, _) = balances(l.run(&at("2026-01-01", "2027-01-01"), "2026-03-05").await);
    assert_eq!(date, d("2026-03-05"));
    assert_eq!(accounts[0], ("courant".to_string(), 411_010));
    let one = call("balances", json!({"period": period("2026-01-01", "2027-01-01"), "account": "epargne"}));
    let (_, accounts, total) = balances(l.run(&one, "2026-03-05").await);
    assert_eq!((accounts, total), (vec![("epargne".to_string(), 80_000)], 80_000));
}

#[tokio::test]
async fn budgets_by_hand() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_in(dir.path()).await.unwrap();
    let l = household(&store).await;
    let january = call("budget_status", json!({"period": period("2026-01-01", "2026-02-01")}));
    let ToolOutput::BudgetStatus(r) = l.run(&january, "2026-01-20").await else { panic!() };
    let lines: Vec<(&str, i64, i64, i64, i64, BudgetState)> = r
        .lines
        .iter()
        .map(|x| {
            (
                x.category.key.as_str(),
                x.budget.minor,
                x.spent.minor,
                x.remaining.minor,
                x.used_basis_points,
                x.state,
            )
        })
        .collect();
    assert_eq!(
        lines,
        [
            // 500 € of shopping less a 50 € refund.
            ("groceries", 40_000, 45_000, -5_000, 11_250, BudgetState::Over),
            // Exactly the budget is still a warning, not over.
            ("leisure", 5_000, 5_000, 0, 10_000, BudgetState::Warning),
            // Exactly 80 % is a warning.
            ("restaurants", 10_000, 8_000, 2_000, 8_000, BudgetState::Warning),
            // Refunded more than bought: nothing spent.
            ("shopping", 10_000, 0, 10_000, 0, BudgetState::Ok),
        ]
    );
    assert_eq!((r.budget.minor, r.spent.minor, r.months), (65_000, 58_000, 1));
    // 20 of January's 31 days: 64.516… %.
    assert_eq!(r.elapsed_basis_points, Some(6_452));
    // Mid-January to early February touches two months: two budgets each.
    let two =
        call("budget_status", json!({"period": period("2026-01-15", "2026-02-10"), "category": "groceries"}));
    let ToolOutput::BudgetStatus(r) = l.run(&two, "2026-06-01").await else { panic!() };
    assert_eq!(r.months, 2);
    assert_eq!((r.lines[0].budget.minor, r.lines[0].spent.minor), (80_000, 199_990));
    assert_eq!(r.elapsed_basis_points, None);
}

#[tokio::test]
async fn recurring_by_hand() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_in(dir.path()).await.unwrap();
    let l = Ledger::new(&store, "recurring").await;
    l.account("courant", "checking", 0, "2025-01-01").await;
    l.merchant("gym").await;
    l.merchant("superette").await;
    let c = "courant";
    // Weekly, no merchant: grouped by label without its date.
    for (i, day) in ["2026-01-05", "2026-01-12", "2026-01-19", "2026-01-26", "2026-02-02", "2026-02-09"]
        .iter()
        .enumerate()
    {
        l.line(c, day, -2_500, &format!("CB PANIER BIO {i:02}/01"), Some("groceries"), None).await;
    }
    // Quarterly water bills around 90 €.
    for (day, amount) in
        [("2025-01-10", 9_000), ("2025-04-10", 9_300), ("2025-07-10", 8_800), ("2025-10-10", 9_100)]
    {
        l.line(c, day, -amount, "PRLV SEPA EAU DE PARIS", None, None).await;
    }
    // A monthly gym membership, and its one-off registration fee.
    for day in ["2025-09-03", "2025-10-03", "2025-11-03", "2025-12-03", "2026-01-03"] {
        l.line(c, day, -3_000, "PRLV GYM", Some("leisure"), Some("gym")).await;
    }
    l.line(c, "2025-09-01", -15_000, "GYM INSCRIPTION", Some("leisure"), Some("gym")).await;
    // The corner shop: several times a week, varying amounts.
    for (day, amount) in [
        ("2026-01-02", 1_250),
        ("2026-01-03", 4_380),
        ("2026-01-07", 890),
        ("2026-01-09", 2_750),
        ("2026-01-14", 6_120),
        ("2026-01-15", 1_730),
        ("2026-01-21", 3_300),
    ] {
        l.line(c, day, -amount, "CB SUPERETTE", Some("groceries"), Some("superette")).await;
    }
    // Monthly savings: a transfer, not a payment.
    for day in ["2025-10-28", "2025-11-28", "2025-12-28"] {
        l.line(c, day, -10_000, "VIR EPARGNE", Some("savings"), None).await;
    }
    let ToolOutput::RecurringPayments(r) = l
        .run(&call("recurring_payments", json!({"period": period("2025-01-01", "2026-03-01")})), "2026-03-01")
        .await
    else {
        panic!()
    };
    let items: Vec<(&str, Cadence, i64, u32, String, i64)> = r
        .items
        .iter()
        .map(|i| {
            (
                i.label.as_str(),
                i.cadence,
                i.amount.minor,
                i.count,
                i.next_date.to_string(),
                i.yearly_cost.minor,
            )
        })
        .collect();
    assert_eq!(
        items,
        [
            ("PANIER BIO", Cadence::Weekly, 2_500, 6, "2026-02-16".to_string(), 130_000),
            // Median of 88, 90, 91, 93 €: 90,50 €.
            ("EAU DE PARIS", Cadence::Quarterly, 9_050, 4, "2026-01-10".to_string(), 36_200),
            // The registration fee is not part of the membership.
            ("gym", Cadence::Monthly, 3_000, 5, "2026-02-03".to_string(), 36_000),
        ]
    );
    assert!(r.items[2].merchant.is_some() && r.items[0].merchant.is_none());
    assert_eq!(r.items[0].category.as_ref().map(|c| c.key.as_str()), Some("groceries"));
    assert_eq!((r.yearly_total.minor, r.monthly_total.minor), (202_200, 16_850));
}

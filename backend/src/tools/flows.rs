//! The ledger as a whole: money in and out over a period, account balances, and
//! monthly budgets against what their categories cost.

use std::collections::BTreeMap;

use agent::{
    AccountBalance, BalancesArgs, BalancesResult, BudgetArgs, BudgetLine, BudgetState, BudgetStatusResult,
    CashFlowArgs, CashFlowResult, CashFlowRow, Currency, Date, EntityRef, Locale, Money,
};
use sqlx::AnyConnection;

use super::Known;
use crate::error::BackendError;
use crate::ids::UserId;

use super::ledger::*;
use super::rollup::{self, By};

/// What a group of lines brings in and takes out. Per line: an income category's
/// amount is income, another category's is spending (a refund lowers it), an
/// uncategorised line is income if it is a credit.
fn in_and_out(s: &rollup::Sums) -> (i64, i64) {
    match s.kind.as_deref() {
        Some("income") => (s.debit.saturating_add(s.credit), 0),
        Some(_) => (0, s.debit.saturating_add(s.credit).saturating_neg()),
        None => (s.credit, s.debit.saturating_neg()),
    }
}

/// A cash flow's income, spending and lines read again, for verification: from the
/// rows alone, except the whole months `checked` (found equal to their rows since they
/// last changed, `tools/checked.rs`), which are read from the roll-up.
pub(super) async fn cash_flow_from_rows(
    db: &mut AnyConnection,
    user: UserId,
    a: &CashFlowArgs,
    currency: Currency,
    checked: Option<(Date, Date)>,
) -> Result<(i64, i64, u64), BackendError> {
    let filters = Filters { account: a.account.as_deref(), ..Filters::new(&a.period) };
    // The roll-up covers exactly the period's whole months, those `checked` names.
    let rolled = checked.is_some() && checked == rollup::whole_months(a.period.start, a.period.end);
    let sums = rollup::sums(db, user, &filters, currency, By::Nothing, rolled).await?;
    let mut out = (0i64, 0i64, 0u64);
    for s in sums.iter().filter(|s| s.currency == currency && s.kind.as_deref() != Some("transfer")) {
        let (i, o) = in_and_out(s);
        out = (out.0.saturating_add(i), out.1.saturating_add(o), out.2 + s.lines as u64);
    }
    Ok(out)
}

/// The lines a cash flow counts (in the main currency, transfers left out), newest
/// first: `limit` of them after the first `offset`.
pub(super) async fn cash_flow_lines(
    db: &mut AnyConnection,
    user: UserId,
    a: &CashFlowArgs,
    currency: Currency,
    locale: Locale,
    (limit, offset): (usize, usize),
) -> Result<Vec<Row_>, BackendError> {
    let filters = Filters { account: a.account.as_deref(), ..Filters::new(&a.period) };
    let filter = "AND t.currency = $11 AND (t.category_id IS NULL
        OR t.category_id NOT IN (SELECT id FROM categories WHERE user_id = $1 AND kind = 'transfer'))";
    let sql = lines_sql(&filters, filter, "t.date DESC, t.id DESC", (limit, offset));
    let rows = filters.bind(&sql, user, currency)?.bind(currency.as_str()).fetch_all(&mut *db).await?;
    rows.iter().map(|r| decode(r, locale)).collect()
}

/// Money in and out over a period, transfers between the user's own accounts left out.
///
/// Income is every amount booked in an income category (a reversed salary line
/// lowers it) plus uncategorised credits; spending is minus every amount booked in an
/// expense category — so a refund lowers it — plus uncategorised debits. Hence
/// `net = income − spending` is the sum of every non-transfer line, and spending is
/// `spending_summary`'s total minus the refunds of the period. Only lines in the
/// ledger's main currency count.
pub(super) async fn cash_flow(
    db: &mut AnyConnection,
    user: UserId,
    known: &Known,
    a: &CashFlowArgs,
    locale: Locale,
) -> Result<CashFlowResult, BackendError> {
    let Scope { account, currency, .. } =
        scope(db, user, known, Names { account: a.account.as_deref(), ..Names::default() }, locale).await?;
    let filters = Filters { account: a.account.as_deref(), ..Filters::new(&a.period) };
    let by = match a.group_by {
        agent::GroupBy::Month => By::Month,
        agent::GroupBy::Week | agent::GroupBy::Day => By::Day,
        _ => By::Nothing,
    };
    let sums = rollup::sums(db, user, &filters, currency, by, true).await?;
    let mut income = 0i64;
    let mut spending = 0i64;
    let mut source_count = 0u64;
    let mut buckets: BTreeMap<Date, (String, i64, i64)> = BTreeMap::new();
    for s in sums.iter().filter(|s| s.currency == currency && s.kind.as_deref() != Some("transfer")) {
        let (money_in, money_out) = in_and_out(s);
        income = income.saturating_add(money_in);
        spending = spending.saturating_add(money_out);
        source_count += s.lines as u64;
        let day = match by {
            By::Month => Date::parse_iso(&format!("{}-01", s.group)),
            _ => Date::parse_iso(&s.group),
        };
        if let Some((start, label)) = day.and_then(|d| time_bucket(d, a.group_by, locale)) {
            let b = buckets.entry(start).or_insert_with(|| (label, 0, 0));
            b.1 = b.1.saturating_add(money_in);
            b.2 = b.2.saturating_add(money_out);
        }
    }
    // The newest lines counted, the first of the sources.
    let lines = cash_flow_lines(db, user, a, currency, locale, (agent::SOURCE_PAGE, 0)).await?;
    let source_ids: Vec<i64> = lines.iter().map(|r| r.row.id).collect();
    let net = income.saturating_sub(spending);
    let rows = buckets
        .into_iter()
        .map(|(start, (label, income, spending))| CashFlowRow {
            key: start.to_string(),
            label,
            income: Money::new(income, currency),
            spending: Money::new(spending, currency),
            net: Money::new(income.saturating_sub(spending), currency),
        })
        .collect();
    Ok(CashFlowResult {
        period: a.period.clone(),
        account,
        group_by: a.group_by,
        income: Money::new(income, currency),
        spending: Money::new(spending, currency),
        net: Money::new(net, currency),
        savings_rate_basis_points: basis_points(net, income),
        rows,
        source_ids,
        source_count,
    })
}

/// The columns of an account `a` an [`AccountRow`] reads.
macro_rules! account_columns {
    () => {
        "a.id, a.key, a.name, COALESCE(a.name_en, a.name) AS name_en, a.kind, a.currency,
         a.opening_balance_minor, a.opening_date"
    };
}
pub(crate) use account_columns;

/// An account as stored: its names (in English, the French one when it has none), kind,
/// currency and opening.
#[derive(sqlx::FromRow)]
pub(crate) struct AccountRow {
    pub(crate) id: i64,
    pub(crate) key: String,
    pub(crate) name: String,
    pub(crate) name_en: String,
    pub(crate) kind: String,
    pub(crate) currency: String,
    pub(crate) opening_balance_minor: i64,
    pub(crate) opening_date: Option<String>,
}

/// Each account's balance at the close of `min(period.end − 1 day, today)`: its
/// opening balance plus every line from its opening date to that day. Accounts opened
/// after that day are left out; the total adds the accounts kept in the main currency.
pub(super) async fn balances(
    db: &mut AnyConnection,
    user: UserId,
    known: &Known,
    a: &BalancesArgs,
    locale: Locale,
    today: Date,
) -> Result<BalancesResult, BackendError> {
    let Scope { currency, .. } =
        scope(db, user, known, Names { account: a.account.as_deref(), ..Names::default() }, locale).await?;
    let date = a.period.end.add_days(-1).min(today);
    let rows: Vec<AccountRow> = sqlx::query_as(concat!(
        "SELECT ",
        account_columns!(),
        "
         FROM accounts a
         WHERE a.user_id = $1 AND a.key IS NOT NULL AND ($3 IS NULL OR a.key = $3)
           AND (a.opening_date IS NULL OR a.opening_date <= $2)
         ORDER BY a.id"
    ))
    .bind(user.0)
    .bind(date.to_string())
    .bind(a.account.as_deref())
    .fetch_all(&mut *db)
    .await?;
    // What moved each account from its opening day to `date`: the whole months between
    // from the monthly roll-up; the opening day's month (from that day) and `date`'s month
    // (up to that day) from the transactions. Every bound is computed here, so that each
    // range is an index range on both databases.
    let this_month = date.first_of_month();
    let mut moved = Vec::with_capacity(rows.len());
    for r in &rows {
        let id = r.id;
        let opening: Option<Date> = r.opening_date.as_deref().and_then(Date::parse_iso);
        let after_month = opening.map(month_key).unwrap_or_default();
        let from = opening.map_or(this_month, |o| o.max(this_month));
        // The opening month, from the opening day, when it is not `date`'s.
        let (open_from, open_to) = match opening {
            Some(o) if o < this_month => (o, o.first_of_month().add_months(1).min(this_month)),
            _ => (this_month, this_month),
        };
        let sum: i64 = sqlx::query_scalar(
            "SELECT CAST(COALESCE((SELECT SUM(l.debit + l.credit) FROM ledger_months l
                        WHERE l.user_id = $1 AND l.account_id = $2 AND l.month > $3 AND l.month < $4), 0)
                 + COALESCE((SELECT SUM(t.amount_minor) FROM transactions t
                        WHERE t.user_id = $1 AND t.account_id = $2 AND t.date >= $5 AND t.date <= $6), 0)
                 + COALESCE((SELECT SUM(t.amount_minor) FROM transactions t
                        WHERE t.user_id = $1 AND t.account_id = $2 AND t.date >= $7 AND t.date < $8), 0) AS BIGINT)",
        )
        .bind(user.0)
        .bind(id)
        .bind(after_month)
        .bind(month_key(date))
        .bind(from.to_string())
        .bind(date.to_string())
        .bind(open_from.to_string())
        .bind(open_to.to_string())
        .fetch_one(&mut *db)
        .await?;
        moved.push(sum);
    }
    let mut accounts = Vec::with_capacity(rows.len());
    let mut total = 0i64;
    for (r, moved) in rows.into_iter().zip(moved) {
        let account_currency = Currency::new(&r.currency)
            .ok_or_else(|| BackendError::Corrupt(format!("account currency {:?}", r.currency)))?;
        let balance = r.opening_balance_minor.saturating_add(moved);
        if account_currency == currency {
            total = total.saturating_add(balance);
        }
        accounts.push(AccountBalance {
            key: r.key,
            label: match locale {
                Locale::Fr => r.name,
                Locale::En => r.name_en,
            },
            kind: r.kind,
            balance: Money::new(balance, account_currency),
        });
    }
    Ok(BalancesResult { period: a.period.clone(), date, accounts, total: Money::new(total, currency) })
}

/// A budget from its first month (its amount; none: removed from then), with its
/// category's key and names.
#[derive(sqlx::FromRow)]
struct BudgetRow {
    category_id: i64,
    start_month: String,
    amount_minor: Option<i64>,
    key: String,
    name_fr: String,
    name_en: String,
}

/// Calendar months a period touches: January 15 to March 2 touches three.
pub(super) fn months_touched(p: &agent::Period) -> u32 {
    let last = p.end.add_days(-1);
    let index = |d: Date| i64::from(d.year()) * 12 + i64::from(d.month());
    u32::try_from(index(last) - index(p.start) + 1).unwrap_or(0)
}

/// `YYYY-MM` of a date: the key of its month in the `budgets` table.
pub(crate) fn month_key(d: Date) -> String {
    format!("{:04}-{:02}", d.year(), d.month())
}

/// The budget each category has in `month` (`YYYY-MM`): its latest row starting at or
/// before it; a row without an amount ended the budget. `rows` are (category id,
/// start month, amount) sorted by start month.
pub(crate) fn budget_in(rows: &[(i64, String, Option<i64>)], category: i64, month: &str) -> Option<i64> {
    rows.iter().rfind(|(c, start, _)| *c == category && start.as_str() <= month).and_then(|r| r.2)
}

/// Each monthly budget (in the main currency) against what its category cost over the
/// period: every line of the category counts, so a refund lowers what was spent; a
/// category refunded more than it cost has spent nothing. A budget counts once for
/// each month the period touches, with the amount it had that month.
pub(super) async fn budget_status(
    db: &mut AnyConnection,
    user: UserId,
    known: &Known,
    a: &BudgetArgs,
    locale: Locale,
    today: Date,
) -> Result<BudgetStatusResult, BackendError> {
    let Scope { currency, .. } =
        scope(db, user, known, Names { category: a.category.as_deref(), ..Names::default() }, locale).await?;
    let months = months_touched(&a.period);
    let budgets: Vec<BudgetRow> = sqlx::query_as(
        "SELECT b.category_id, b.start_month, b.amount_minor, c.key, c.name_fr, c.name_en
         FROM budgets b
         JOIN categories c ON c.id = b.category_id AND c.user_id = b.user_id
         WHERE b.user_id = $1 AND b.period = 'month' AND b.currency = $2 AND ($3 IS NULL OR c.key = $3)
         ORDER BY b.start_month",
    )
    .bind(user.0)
    .bind(currency.as_str())
    .bind(a.category.as_deref())
    .fetch_all(&mut *db)
    .await?;
    let history: Vec<(i64, String, Option<i64>)> =
        budgets.iter().map(|r| (r.category_id, r.start_month.clone(), r.amount_minor)).collect();
    let month_keys: Vec<String> =
        (0..months).map(|i| month_key(a.period.start.first_of_month().add_months(i as i32))).collect();
    // Each category with a budget in at least one month, with the period's total budget.
    let mut categories: BTreeMap<i64, (i64, &BudgetRow)> = BTreeMap::new();
    for r in &budgets {
        let id = r.category_id;
        if categories.contains_key(&id) {
            continue;
        }
        let total =
            month_keys.iter().filter_map(|m| budget_in(&history, id, m)).fold(0i64, i64::saturating_add);
        if total > 0 {
            categories.insert(id, (total, r));
        }
    }
    let spent_rows: Vec<(i64, i64)> = sqlx::query_as(
        "SELECT t.category_id, CAST(-SUM(t.amount_minor) AS BIGINT) FROM transactions t
         WHERE t.user_id = $1 AND t.category_id IS NOT NULL AND t.currency = $2 AND t.date >= $3 AND t.date < $4
         GROUP BY t.category_id",
    )
    .bind(user.0)
    .bind(currency.as_str())
    .bind(a.period.start.to_string())
    .bind(a.period.end.to_string())
    .fetch_all(&mut *db)
    .await?;
    let spent_in = |id: i64| spent_rows.iter().find(|(c, _)| *c == id).map_or(0, |r| r.1);
    let rows: Vec<(String, String, String, i64, i64)> = categories
        .iter()
        .map(|(id, (total, r))| (r.key.clone(), r.name_fr.clone(), r.name_en.clone(), *total, spent_in(*id)))
        .collect();
    let mut lines = Vec::with_capacity(rows.len());
    let (mut total_budget, mut total_spent) = (0i64, 0i64);
    for (key, name_fr, name_en, budget, spent) in rows {
        let spent = spent.max(0);
        // Exact comparisons decide the state; the rounded percentage is for display.
        let state = if i128::from(spent) * 10 < i128::from(budget) * 8 {
            BudgetState::Ok
        } else if spent <= budget {
            BudgetState::Warning
        } else {
            BudgetState::Over
        };
        total_budget = total_budget.saturating_add(budget);
        total_spent = total_spent.saturating_add(spent);
        lines.push(BudgetLine {
            category: EntityRef {
                key,
                label: match locale {
                    Locale::Fr => name_fr,
                    Locale::En => name_en,
                },
            },
            budget: Money::new(budget, currency),
            spent: Money::new(spent, currency),
            remaining: Money::new(budget.saturating_sub(spent), currency),
            used_basis_points: basis_points(spent, budget).unwrap_or(0),
            state,
        });
    }
    lines.sort_by(|x, y| {
        y.used_basis_points.cmp(&x.used_basis_points).then_with(|| x.category.label.cmp(&y.category.label))
    });
    let elapsed_basis_points = (a.period.start <= today && today < a.period.end).then(|| {
        let elapsed = today.to_days() - a.period.start.to_days() + 1;
        let length = a.period.end.to_days() - a.period.start.to_days();
        basis_points(elapsed, length).unwrap_or(0)
    });
    Ok(BudgetStatusResult {
        period: a.period.clone(),
        months,
        lines,
        budget: Money::new(total_budget, currency),
        spent: Money::new(total_spent, currency),
        elapsed_basis_points,
    })
}

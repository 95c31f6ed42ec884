//! Tool implementations. Each takes a validated call and the user it runs for; every
//! query is scoped by `user_id`. Money is integer minor units throughout.

use std::collections::BTreeMap;

use agent::{
    AccountBalance, BalancesArgs, BalancesResult, BudgetArgs, BudgetLine, BudgetState, BudgetStatusResult,
    CashFlowArgs, CashFlowResult, CashFlowRow, Currency, DatasetInfoResult, DatasetResult, Date, Direction,
    EntityRef, Group, GroupBy, ListOrder, ListTransactionsArgs, Locale, Money, RecurringArgs, RecurringItem,
    RecurringResult, SummaryArgs, SummaryResult, ToolCall, ToolOutput, TransactionListResult, TransactionRow,
};
use sqlx::Row;

use crate::datasets;
use crate::error::BackendError;
use crate::ids::UserId;
use crate::store::Store;
use sqlx::AnyConnection;

/// Rows returned inside a spending summary; the total always covers every row.
pub const SUMMARY_ROWS: usize = 100;

/// Runs a validated call. `today` is the date the plan was made against (the plan's
/// `meta.today`): balances never look past it and budgets say how much of a current
/// period has elapsed.
pub async fn run(
    store: &Store,
    user: UserId,
    call: &ToolCall,
    locale: Locale,
    today: Date,
) -> Result<ToolOutput, BackendError> {
    if call.is_dataset() {
        return dataset_tool(store, user, call, locale).await;
    }
    let mut tx = store.tenant_read(user).await?;
    let db = &mut *tx;
    let output = match call {
        ToolCall::SpendingSummary(a) => {
            summary(db, user, a, Flow::Out, locale).await.map(ToolOutput::SpendingSummary)
        }
        ToolCall::IncomeSummary(a) => {
            summary(db, user, a, Flow::In, locale).await.map(ToolOutput::IncomeSummary)
        }
        ToolCall::ComparePeriods(a) => compare(db, user, a, locale).await.map(ToolOutput::ComparePeriods),
        ToolCall::ListTransactions(a) => {
            list_transactions(db, user, a, locale).await.map(ToolOutput::ListTransactions)
        }
        ToolCall::CashFlow(a) => cash_flow(db, user, a, locale).await.map(ToolOutput::CashFlow),
        ToolCall::Balances(a) => balances(db, user, a, locale, today).await.map(ToolOutput::Balances),
        ToolCall::BudgetStatus(a) => {
            budget_status(db, user, a, locale, today).await.map(ToolOutput::BudgetStatus)
        }
        ToolCall::RecurringPayments(a) => {
            recurring_payments(db, user, a, locale).await.map(ToolOutput::RecurringPayments)
        }
        ToolCall::QueryDataset(_) | ToolCall::RunSql(_) | ToolCall::DatasetInfo(_) => {
            return dataset_tool(store, user, call, locale).await;
        }
    }?;
    tx.commit().await?;
    Ok(output)
}

/// The analyst tools: they read datasets through the SQL sandbox, not the ledger.
async fn dataset_tool(
    store: &Store,
    user: UserId,
    call: &ToolCall,
    locale: Locale,
) -> Result<ToolOutput, BackendError> {
    let shown = |e: datasets::DatasetError| match e {
        datasets::DatasetError::Db(e) => BackendError::Db(e),
        e => BackendError::BadRequest(e.message(locale)),
    };
    match call {
        ToolCall::QueryDataset(a) => {
            let result = datasets::query_plan(store, user, a, locale).await.map_err(shown)?;
            let title = agent::analyst::title(a, locale);
            let chart = agent::chart::shaped(&result, &title, a.chart);
            Ok(ToolOutput::QueryDataset(DatasetResult {
                dataset: Some(a.dataset.clone()),
                title,
                result,
                chart,
            }))
        }
        ToolCall::RunSql(a) => {
            let result = datasets::query(store, user, &a.sql).await.map_err(shown)?;
            let title = match locale {
                Locale::Fr => "Requête SQL",
                Locale::En => "SQL query",
            }
            .to_string();
            let chart = agent::chart::suggest(&result, &title);
            Ok(ToolOutput::RunSql(DatasetResult { dataset: None, title, result, chart }))
        }
        _ => {
            let list = datasets::list(store, user).await.map_err(shown)?;
            let dialect = match store.dialect() {
                crate::ids::Dialect::Sqlite => "sqlite",
                crate::ids::Dialect::Postgres => "postgresql",
            };
            Ok(ToolOutput::DatasetInfo(DatasetInfoResult { datasets: list, dialect: dialect.to_string() }))
        }
    }
}

struct Row_ {
    row: TransactionRow,
    merchant_key: Option<String>,
    category_key: Option<String>,
    /// `expense`, `income` or `transfer`; `None` for an uncategorised line.
    category_kind: Option<String>,
    account_key: Option<String>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Entity {
    Category,
    Merchant,
    Account,
}

/// A category, merchant or account key the user does not have is an error the user
/// can act on.
async fn entity(
    db: &mut AnyConnection,
    user: UserId,
    kind: Entity,
    key: Option<&str>,
    locale: Locale,
) -> Result<Option<EntityRef>, BackendError> {
    let Some(key) = key else { return Ok(None) };
    let (sql, what) = match kind {
        Entity::Category => {
            ("SELECT name_fr, name_en FROM categories WHERE user_id = $1 AND key = $2", "category")
        }
        Entity::Merchant => ("SELECT name, name FROM merchants WHERE user_id = $1 AND key = $2", "merchant"),
        Entity::Account => {
            ("SELECT name, COALESCE(name_en, name) FROM accounts WHERE user_id = $1 AND key = $2", "account")
        }
    };
    let row = sqlx::query(sql).bind(user.0).bind(key).fetch_optional(&mut *db).await?;
    let Some(row) = row else {
        return Err(BackendError::BadRequest(format!("unknown {what} {key:?}")));
    };
    let label: String = match locale {
        Locale::Fr => row.get(0),
        Locale::En => row.get(1),
    };
    Ok(Some(EntityRef { key: key.to_string(), label }))
}

/// The resolved filters of a call and the user's main currency.
struct Scope {
    category: Option<EntityRef>,
    merchant: Option<EntityRef>,
    account: Option<EntityRef>,
    currency: Currency,
}

async fn scope(
    db: &mut AnyConnection,
    user: UserId,
    category: Option<&str>,
    merchant: Option<&str>,
    account: Option<&str>,
    locale: Locale,
) -> Result<Scope, BackendError> {
    Ok(Scope {
        category: entity(db, user, Entity::Category, category, locale).await?,
        merchant: entity(db, user, Entity::Merchant, merchant, locale).await?,
        account: entity(db, user, Entity::Account, account, locale).await?,
        currency: crate::store::currency(&mut *db, user).await?,
    })
}

/// Every transaction query starts here. The joins repeat the user scope so that a row
/// pointing at someone else's account, merchant or category shows nothing of it.
const SELECT: &str = "
    SELECT t.id, t.date, t.raw_label, t.amount_minor, t.currency,
           a.name, COALESCE(a.name_en, a.name), a.key,
           m.key, m.name, c.key, c.name_fr, c.name_en, c.kind
    FROM transactions t
    JOIN accounts a ON a.id = t.account_id AND a.user_id = t.user_id
    LEFT JOIN merchants m ON m.id = t.merchant_id AND m.user_id = t.user_id
    LEFT JOIN categories c ON c.id = t.category_id AND c.user_id = t.user_id
    WHERE t.user_id = $1 AND t.date >= $2 AND t.date < $3
      AND ($4 IS NULL OR c.key = $4)
      AND ($5 IS NULL OR m.key = $5)
      AND ($6 IS NULL OR abs(t.amount_minor) >= $6)
      AND ($7 IS NULL OR abs(t.amount_minor) <= $7)
      AND ($8 IS NULL OR a.key = $8)";

/// The filters every transaction query shares: parameters $1 to $8 of [`SELECT`].
struct Filters<'a> {
    period: &'a agent::Period,
    category: Option<&'a str>,
    merchant: Option<&'a str>,
    account: Option<&'a str>,
    amount_min: Option<Money>,
    amount_max: Option<Money>,
}

type AnyQuery<'q> = sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>>;

impl<'a> Filters<'a> {
    fn new(period: &'a agent::Period) -> Filters<'a> {
        Filters { period, category: None, merchant: None, account: None, amount_min: None, amount_max: None }
    }

    fn bind<'q>(&self, sql: &'q str, user: UserId, currency: Currency) -> Result<AnyQuery<'q>, BackendError>
    where
        'a: 'q,
    {
        Ok(sqlx::query(sql)
            .bind(user.0)
            .bind(self.period.start.to_string())
            .bind(self.period.end.to_string())
            .bind(self.category)
            .bind(self.merchant)
            .bind(bound(self.amount_min, currency)?)
            .bind(bound(self.amount_max, currency)?)
            .bind(self.account))
    }

    async fn fetch(
        &self,
        db: &mut AnyConnection,
        sql: &str,
        user: UserId,
        currency: Currency,
        locale: Locale,
    ) -> Result<Vec<Row_>, BackendError> {
        let rows = self.bind(sql, user, currency)?.fetch_all(&mut *db).await?;
        rows.iter().map(|r| decode(r, locale)).collect()
    }
}

/// An amount bound in the ledger's currency; another currency is the user's mistake
/// to hear about, not something to convert silently.
fn bound(m: Option<Money>, currency: Currency) -> Result<Option<i64>, BackendError> {
    match m {
        None => Ok(None),
        Some(m) if m.currency == currency => Ok(Some(m.minor)),
        Some(m) => Err(BackendError::BadRequest(format!(
            "amounts in {} cannot filter a ledger kept in {currency}",
            m.currency
        ))),
    }
}

fn decode(r: &sqlx::any::AnyRow, locale: Locale) -> Result<Row_, BackendError> {
    let date: String = r.get(1);
    let currency: String = r.get(4);
    let (account, category_label): (String, Option<String>) = match locale {
        Locale::Fr => (r.get(5), r.get(11)),
        Locale::En => (r.get(6), r.get(12)),
    };
    Ok(Row_ {
        row: TransactionRow {
            id: r.get(0),
            date: Date::parse_iso(&date)
                .ok_or_else(|| BackendError::Corrupt(format!("transaction date {date:?}")))?,
            label: r.get(2),
            amount: Money::new(
                r.get(3),
                Currency::new(&currency)
                    .ok_or_else(|| BackendError::Corrupt(format!("currency {currency:?}")))?,
            ),
            account,
            merchant: r.get(9),
            category: category_label,
        },
        account_key: r.get(7),
        merchant_key: r.get(8),
        category_key: r.get(10),
        category_kind: r.get(13),
    })
}

/// `n / d` rounded half away from zero; `d` must be positive.
fn div_round(n: i128, d: i128) -> i128 {
    let (q, r) = (n / d, n % d);
    if 2 * r.abs() >= d {
        q + n.signum()
    } else {
        q
    }
}

/// `part / whole` in hundredths of a percent, rounded half away from zero.
fn basis_points(part: i64, whole: i64) -> Option<i64> {
    (whole > 0).then(|| {
        let bp = div_round(i128::from(part) * 10_000, i128::from(whole));
        i64::try_from(bp).unwrap_or(if bp < 0 { i64::MIN } else { i64::MAX })
    })
}

/// The time bucket of a date: its first day and how people name it.
fn time_bucket(d: Date, group_by: GroupBy, locale: Locale) -> Option<(Date, String)> {
    match group_by {
        GroupBy::Month => {
            let m = d.first_of_month();
            Some((m, agent::period::month_label(m, locale)))
        }
        GroupBy::Week => {
            let monday = d.add_days(-i64::from(d.weekday()));
            let label = match locale {
                Locale::Fr => format!("semaine du {}", agent::period::day_label(monday, locale)),
                Locale::En => format!("week of {}", agent::period::day_label(monday, locale)),
            };
            Some((monday, label))
        }
        GroupBy::Day => Some((d, agent::period::day_label(d, locale))),
        GroupBy::None | GroupBy::Category | GroupBy::Merchant | GroupBy::Account => None,
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Flow {
    /// Spending: money going out of expense categories.
    Out,
    /// Income: money coming into income categories.
    In,
}

async fn summary(
    db: &mut AnyConnection,
    user: UserId,
    a: &SummaryArgs,
    flow: Flow,
    locale: Locale,
) -> Result<SummaryResult, BackendError> {
    let Scope { category, merchant, account, currency } =
        scope(db, user, a.category.as_deref(), a.merchant.as_deref(), a.account.as_deref(), locale).await?;
    // Without a category filter, spending counts expense categories (and uncategorised
    // lines) and income counts income categories (and uncategorised lines): savings
    // transfers are neither, and a refund is not income.
    let (sign, kind) = match flow {
        Flow::Out => ("t.amount_minor < 0", "expense"),
        Flow::In => ("t.amount_minor > 0", "income"),
    };
    let sql = format!(
        "{SELECT} AND {sign} AND ($4 IS NOT NULL OR c.kind IS NULL OR c.kind = '{kind}')
         ORDER BY t.date DESC, t.id DESC"
    );
    let filters = Filters {
        category: a.category.as_deref(),
        merchant: a.merchant.as_deref(),
        account: a.account.as_deref(),
        amount_min: a.amount_min,
        amount_max: a.amount_max,
        ..Filters::new(&a.period)
    };
    let rows = filters.fetch(db, &sql, user, currency, locale).await?;

    let mut total = 0i64;
    let mut count = 0u32;
    let mut others: BTreeMap<Currency, i64> = BTreeMap::new();
    let mut groups: BTreeMap<String, Group> = BTreeMap::new();
    let uncategorised = match locale {
        Locale::Fr => "Sans catégorie",
        Locale::En => "Uncategorised",
    };
    let no_merchant = match locale {
        Locale::Fr => "Sans marchand",
        Locale::En => "No merchant",
    };
    for r in &rows {
        let spent = r.row.amount.minor.saturating_abs();
        if r.row.amount.currency != currency {
            *others.entry(r.row.amount.currency).or_default() += spent;
            continue;
        }
        total = total.saturating_add(spent);
        count += 1;
        let (key, label) = match a.group_by {
            GroupBy::None => continue,
            GroupBy::Category => (
                r.category_key.clone().unwrap_or_default(),
                r.row.category.clone().unwrap_or_else(|| uncategorised.to_string()),
            ),
            GroupBy::Merchant => (
                r.merchant_key.clone().unwrap_or_default(),
                r.row.merchant.clone().unwrap_or_else(|| no_merchant.to_string()),
            ),
            GroupBy::Account => (r.account_key.clone().unwrap_or_default(), r.row.account.clone()),
            GroupBy::Month | GroupBy::Week | GroupBy::Day => {
                let Some((start, label)) = time_bucket(r.row.date, a.group_by, locale) else { continue };
                let key = start.to_string();
                // Months are keyed "2026-01", weeks by their Monday, days by the date.
                let key = if a.group_by == GroupBy::Month { key[..7].to_string() } else { key };
                (key, label)
            }
        };
        let g = groups.entry(key.clone()).or_insert_with(|| Group {
            key,
            label,
            total: Money::new(0, currency),
            count: 0,
        });
        g.total.minor = g.total.minor.saturating_add(spent);
        g.count += 1;
    }
    let mut groups: Vec<Group> = groups.into_values().collect();
    if a.group_by.is_time() {
        groups.sort_by(|x, y| x.key.cmp(&y.key));
    } else {
        groups.sort_by(|x, y| y.total.minor.cmp(&x.total.minor).then(x.label.cmp(&y.label)));
    }
    if let Some(n) = a.top {
        groups.truncate(n as usize);
    }
    let chart =
        a.group_by.is_time().then(|| summary_chart(&groups, a, flow, &category, &merchant, locale)).flatten();
    let source_ids = rows.iter().map(|r| r.row.id).collect();
    let truncated = rows.len() > SUMMARY_ROWS;
    let transactions = rows.into_iter().take(SUMMARY_ROWS).map(|r| r.row).collect();
    Ok(SummaryResult {
        period: a.period.clone(),
        category,
        merchant,
        account,
        group_by: a.group_by,
        total: Money::new(total, currency),
        count,
        other_currencies: others.into_iter().map(|(c, m)| Money::new(m, c)).collect(),
        groups,
        chart,
        transactions,
        transactions_truncated: truncated,
        source_ids,
    })
}

/// A summary's months, weeks or days as a line: "Dépenses par mois — Courses, 2025".
fn summary_chart(
    groups: &[Group],
    a: &SummaryArgs,
    flow: Flow,
    category: &Option<EntityRef>,
    merchant: &Option<EntityRef>,
    locale: Locale,
) -> Option<agent::chart::ChartSpec> {
    let what = match (flow, locale) {
        (Flow::Out, Locale::Fr) => "Dépenses",
        (Flow::Out, Locale::En) => "Spending",
        (Flow::In, Locale::Fr) => "Revenus",
        (Flow::In, Locale::En) => "Income",
    };
    // "par mois" names the line; "mois", its axis.
    let by = agent::parser::group_label(a.group_by, locale);
    let unit = by.split_once(' ').map_or(by, |(_, unit)| unit);
    let scope = merchant.as_ref().or(category.as_ref()).map(|e| format!("{}, ", e.label)).unwrap_or_default();
    let title = format!("{what} {by} — {scope}{}", a.period.label);
    agent::chart::over_time(groups, &title, unit, &what.to_lowercase())
}

/// The same summary over two periods, and the change between them.
async fn compare(
    db: &mut AnyConnection,
    user: UserId,
    a: &agent::CompareArgs,
    locale: Locale,
) -> Result<agent::CompareResult, BackendError> {
    let flow = match a.flow {
        agent::Flow::Spending => Flow::Out,
        agent::Flow::Income => Flow::In,
    };
    let args = |period: &agent::Period| SummaryArgs {
        period: period.clone(),
        category: a.category.clone(),
        merchant: a.merchant.clone(),
        account: a.account.clone(),
        amount_min: None,
        amount_max: None,
        group_by: GroupBy::None,
        top: None,
    };
    let current = summary(db, user, &args(&a.current), flow, locale).await?;
    let reference = summary(db, user, &args(&a.reference), flow, locale).await?;
    let difference = current.total.minor.saturating_sub(reference.total.minor);
    let change_basis_points = (reference.total.minor != 0).then(|| {
        i64::try_from(i128::from(difference) * 10_000 / i128::from(reference.total.minor)).unwrap_or(i64::MAX)
    });
    Ok(agent::CompareResult {
        flow: a.flow,
        category: current.category.clone(),
        merchant: current.merchant.clone(),
        account: current.account.clone(),
        difference: Money::new(difference, current.total.currency),
        change_basis_points,
        current: agent::PeriodTotal { period: current.period, total: current.total, count: current.count },
        reference: agent::PeriodTotal {
            period: reference.period,
            total: reference.total,
            count: reference.count,
        },
    })
}

async fn list_transactions(
    db: &mut AnyConnection,
    user: UserId,
    a: &ListTransactionsArgs,
    locale: Locale,
) -> Result<TransactionListResult, BackendError> {
    let Scope { category, merchant, account, currency } =
        scope(db, user, a.category.as_deref(), a.merchant.as_deref(), a.account.as_deref(), locale).await?;
    // Case-insensitive in both databases (SQLite's LIKE is, PostgreSQL's is not).
    let pattern = a.text.as_ref().map(|t| {
        let escaped = t.replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_");
        format!("%{escaped}%")
    });
    let direction = match a.direction {
        None => "",
        Some(Direction::Debit) => "AND t.amount_minor < 0",
        Some(Direction::Credit) => "AND t.amount_minor > 0",
    };
    let order = match a.order {
        ListOrder::Newest => "t.date DESC, t.id DESC",
        ListOrder::Largest => "ABS(t.amount_minor) DESC, t.date DESC, t.id DESC",
    };
    let sql =
        format!("{SELECT} {direction} AND ($9 IS NULL OR LOWER(t.raw_label) LIKE LOWER($9) ESCAPE '\\') ORDER BY {order}");
    let filters = Filters {
        category: a.category.as_deref(),
        merchant: a.merchant.as_deref(),
        account: a.account.as_deref(),
        amount_min: a.amount_min,
        amount_max: a.amount_max,
        ..Filters::new(&a.period)
    };
    let rows = filters.bind(&sql, user, currency)?.bind(pattern).fetch_all(&mut *db).await?;
    let rows = rows.iter().map(|r| decode(r, locale)).collect::<Result<Vec<_>, _>>()?;
    let net = rows
        .iter()
        .filter(|r| r.row.amount.currency == currency)
        .fold(0i64, |acc, r| acc.saturating_add(r.row.amount.minor));
    let count = u32::try_from(rows.len()).unwrap_or(u32::MAX);
    let limit = a.limit as usize;
    Ok(TransactionListResult {
        period: a.period.clone(),
        category,
        merchant,
        account,
        direction: a.direction,
        order: a.order,
        text: a.text.clone(),
        count,
        truncated: rows.len() > limit,
        net: Money::new(net, currency),
        source_ids: rows.iter().map(|r| r.row.id).collect(),
        transactions: rows.into_iter().take(limit).map(|r| r.row).collect(),
    })
}

/// Money in and out over a period, transfers between the user's own accounts left out.
///
/// Income is every amount booked in an income category (a reversed salary line
/// lowers it) plus uncategorised credits; spending is minus every amount booked in an
/// expense category — so a refund lowers it — plus uncategorised debits. Hence
/// `net = income − spending` is the sum of every non-transfer line, and spending is
/// `spending_summary`'s total minus the refunds of the period. Only lines in the
/// ledger's main currency count.
async fn cash_flow(
    db: &mut AnyConnection,
    user: UserId,
    a: &CashFlowArgs,
    locale: Locale,
) -> Result<CashFlowResult, BackendError> {
    let Scope { account, currency, .. } = scope(db, user, None, None, a.account.as_deref(), locale).await?;
    let sql = format!("{SELECT} AND (c.kind IS NULL OR c.kind <> 'transfer') ORDER BY t.date, t.id");
    let filters = Filters { account: a.account.as_deref(), ..Filters::new(&a.period) };
    let rows = filters.fetch(db, &sql, user, currency, locale).await?;
    let mut income = 0i64;
    let mut spending = 0i64;
    let mut buckets: BTreeMap<Date, (String, i64, i64)> = BTreeMap::new();
    let mut source_ids = Vec::new();
    for r in rows.iter().filter(|r| r.row.amount.currency == currency) {
        let amount = r.row.amount.minor;
        let is_income = match r.category_kind.as_deref() {
            Some("income") => true,
            Some(_) => false,
            None => amount > 0,
        };
        let (money_in, money_out) = if is_income { (amount, 0) } else { (0, -amount) };
        income = income.saturating_add(money_in);
        spending = spending.saturating_add(money_out);
        source_ids.push(r.row.id);
        if let Some((start, label)) = time_bucket(r.row.date, a.group_by, locale) {
            let b = buckets.entry(start).or_insert_with(|| (label, 0, 0));
            b.1 = b.1.saturating_add(money_in);
            b.2 = b.2.saturating_add(money_out);
        }
    }
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
    })
}

/// Each account's balance at the close of `min(period.end − 1 day, today)`: its
/// opening balance plus every line from its opening date to that day. Accounts opened
/// after that day are left out; the total adds the accounts kept in the main currency.
async fn balances(
    db: &mut AnyConnection,
    user: UserId,
    a: &BalancesArgs,
    locale: Locale,
    today: Date,
) -> Result<BalancesResult, BackendError> {
    let Scope { currency, .. } = scope(db, user, None, None, a.account.as_deref(), locale).await?;
    let date = a.period.end.add_days(-1).min(today);
    let rows = sqlx::query(
        "SELECT a.key, a.name, COALESCE(a.name_en, a.name), a.kind, a.currency, a.opening_balance_minor,
                CAST(COALESCE((SELECT SUM(t.amount_minor) FROM transactions t
                          WHERE t.user_id = a.user_id AND t.account_id = a.id AND t.date <= $2
                            AND (a.opening_date IS NULL OR t.date >= a.opening_date)), 0) AS BIGINT)
         FROM accounts a
         WHERE a.user_id = $1 AND a.key IS NOT NULL AND ($3 IS NULL OR a.key = $3)
           AND (a.opening_date IS NULL OR a.opening_date <= $2)
         ORDER BY a.id",
    )
    .bind(user.0)
    .bind(date.to_string())
    .bind(a.account.as_deref())
    .fetch_all(&mut *db)
    .await?;
    let mut accounts = Vec::with_capacity(rows.len());
    let mut total = 0i64;
    for r in rows {
        let code: String = r.get(4);
        let account_currency = Currency::new(&code)
            .ok_or_else(|| BackendError::Corrupt(format!("account currency {code:?}")))?;
        let opening: i64 = r.get(5);
        let moved: i64 = r.get(6);
        let balance = opening.saturating_add(moved);
        if account_currency == currency {
            total = total.saturating_add(balance);
        }
        accounts.push(AccountBalance {
            key: r.get(0),
            label: match locale {
                Locale::Fr => r.get(1),
                Locale::En => r.get(2),
            },
            kind: r.get(3),
            balance: Money::new(balance, account_currency),
        });
    }
    Ok(BalancesResult { period: a.period.clone(), date, accounts, total: Money::new(total, currency) })
}

/// Calendar months a period touches: January 15 to March 2 touches three.
fn months_touched(p: &agent::Period) -> u32 {
    let last = p.end.add_days(-1);
    let index = |d: Date| i64::from(d.year()) * 12 + i64::from(d.month());
    u32::try_from(index(last) - index(p.start) + 1).unwrap_or(0)
}

/// Each monthly budget (in the main currency) against what its category cost over the
/// period: every line of the category counts, so a refund lowers what was spent; a
/// category refunded more than it cost has spent nothing.
async fn budget_status(
    db: &mut AnyConnection,
    user: UserId,
    a: &BudgetArgs,
    locale: Locale,
    today: Date,
) -> Result<BudgetStatusResult, BackendError> {
    let Scope { currency, .. } = scope(db, user, a.category.as_deref(), None, None, locale).await?;
    let months = months_touched(&a.period);
    let rows = sqlx::query(
        "SELECT c.key, c.name_fr, c.name_en, b.amount_minor,
                CAST(COALESCE((SELECT -SUM(t.amount_minor) FROM transactions t
                          WHERE t.user_id = b.user_id AND t.category_id = b.category_id
                            AND t.currency = b.currency AND t.date >= $2 AND t.date < $3), 0) AS BIGINT)
         FROM budgets b
         JOIN categories c ON c.id = b.category_id AND c.user_id = b.user_id
         WHERE b.user_id = $1 AND b.period = 'month' AND b.currency = $4 AND ($5 IS NULL OR c.key = $5)",
    )
    .bind(user.0)
    .bind(a.period.start.to_string())
    .bind(a.period.end.to_string())
    .bind(currency.as_str())
    .bind(a.category.as_deref())
    .fetch_all(&mut *db)
    .await?;
    let mut lines = Vec::with_capacity(rows.len());
    let (mut total_budget, mut total_spent) = (0i64, 0i64);
    for r in rows {
        let monthly: i64 = r.get(3);
        let budget = monthly.saturating_mul(i64::from(months));
        let spent = r.get::<i64, _>(4).max(0);
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
                key: r.get(0),
                label: match locale {
                    Locale::Fr => r.get(1),
                    Locale::En => r.get(2),
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

/// Recurring payments: how a series of debits must look to count as one.
pub mod recurring {
    use agent::{Cadence, Date};

    /// Payments a series needs; a yearly one needs only two when the period covers at
    /// least 13 months.
    pub const MIN_PAYMENTS: usize = 3;
    pub const MIN_YEARLY_PAYMENTS: usize = 2;
    /// The share of intervals (in percent) that must fit the cadence.
    pub const REGULAR_INTERVALS_PERCENT: usize = 75;
    /// Each payment within this many percent of the median amount…
    pub const AMOUNT_TOLERANCE_PERCENT: i64 = 20;
    /// …or the median absolute deviation at most this many percent of it.
    pub const MAD_TOLERANCE_PERCENT: i64 = 10;

    /// The cadence whose window (in days) contains `days`.
    pub fn cadence_of(days: i64) -> Option<Cadence> {
        match days {
            6..=8 => Some(Cadence::Weekly),
            27..=33 => Some(Cadence::Monthly),
            85..=95 => Some(Cadence::Quarterly),
            355..=375 => Some(Cadence::Yearly),
            _ => None,
        }
    }

    pub fn next_date(last: Date, cadence: Cadence) -> Date {
        match cadence {
            Cadence::Weekly => last.add_days(7),
            Cadence::Monthly => last.add_months_keep_day(1),
            Cadence::Quarterly => last.add_months_keep_day(3),
            Cadence::Yearly => last.add_months_keep_day(12),
        }
    }

    pub fn per_year(cadence: Cadence) -> i64 {
        match cadence {
            Cadence::Weekly => 52,
            Cadence::Monthly => 12,
            Cadence::Quarterly => 4,
            Cadence::Yearly => 1,
        }
    }

    /// The median, the mean of the two middle values for an even count (rounded half
    /// away from zero). `None` when empty.
    pub fn median(values: &[i64]) -> Option<i64> {
        let mut v = values.to_vec();
        v.sort_unstable();
        let n = v.len();
        match n {
            0 => None,
            _ if n % 2 == 1 => v.get(n / 2).copied(),
            _ => {
                let (a, b) = (i128::from(*v.get(n / 2 - 1)?), i128::from(*v.get(n / 2)?));
                i64::try_from(super::div_round(a + b, 2)).ok()
            }
        }
    }

    /// Whether an amount is within [`AMOUNT_TOLERANCE_PERCENT`] of the median.
    pub fn close_to(amount: i64, median: i64) -> bool {
        let m = i128::from(median);
        (i128::from(amount) - m).abs() * 100 <= m * i128::from(AMOUNT_TOLERANCE_PERCENT)
    }

    /// Which of these amounts (positive) make up a stable series: all of them when each
    /// is close to the median; the close ones when the median absolute deviation is
    /// small (a yearly adjustment among fixed instalments); `None` otherwise.
    pub fn regular_amounts(amounts: &[i64]) -> Option<Vec<bool>> {
        let median = median(amounts)?;
        if median <= 0 {
            return None;
        }
        let close: Vec<bool> = amounts.iter().map(|a| close_to(*a, median)).collect();
        if close.iter().all(|c| *c) {
            return Some(close);
        }
        let deviations: Vec<i64> = amounts.iter().map(|a| (a - median).saturating_abs()).collect();
        let mad = self::median(&deviations)?;
        (i128::from(mad) * 100 <= i128::from(median) * i128::from(MAD_TOLERANCE_PERCENT)).then_some(close)
    }

    /// The cadence of payments on these dates (sorted), if they are regular enough.
    /// `long_lookback`: the period covers at least 13 months.
    pub fn detect(dates: &[Date], long_lookback: bool) -> Option<Cadence> {
        let intervals: Vec<i64> = dates.windows(2).map(|w| w[1].to_days() - w[0].to_days()).collect();
        let cadence = cadence_of(median(&intervals)?)?;
        let needed = match cadence {
            Cadence::Yearly if long_lookback => MIN_YEARLY_PAYMENTS,
            _ => MIN_PAYMENTS,
        };
        if dates.len() < needed {
            return None;
        }
        let fitting = intervals.iter().filter(|d| cadence_of(**d) == Some(cadence)).count();
        (fitting * 100 >= intervals.len() * REGULAR_INTERVALS_PERCENT).then_some(cadence)
    }

    /// A bank label without its dates, card numbers and payment-method words:
    /// "PRLV SEPA MAIF ASSURANCE 12/03" -> "MAIF ASSURANCE".
    pub fn normalise_label(label: &str) -> String {
        const NOISE: &[&str] = &["CB", "CARTE", "PRLV", "SEPA", "VIR", "PERMANENT", "PAIEMENT"];
        let words: Vec<String> = label
            .split_whitespace()
            .map(str::to_uppercase)
            .filter(|w| !w.chars().any(|c| c.is_ascii_digit()))
            .collect();
        let start = words.iter().take_while(|w| NOISE.contains(&w.as_str())).count();
        let kept = words.get(start..).unwrap_or_default();
        if kept.is_empty() {
            words.join(" ")
        } else {
            kept.join(" ")
        }
    }
}

/// Debits that repeat at a regular interval with a stable amount, found over the
/// period. Series are the debits of one merchant, or of one normalised label when
/// there is no merchant; transfers are left out unless their category is asked for.
/// Only lines in the main currency count.
async fn recurring_payments(
    db: &mut AnyConnection,
    user: UserId,
    a: &RecurringArgs,
    locale: Locale,
) -> Result<RecurringResult, BackendError> {
    let Scope { category, merchant, currency, .. } =
        scope(db, user, a.category.as_deref(), a.merchant.as_deref(), None, locale).await?;
    let sql = format!(
        "{SELECT} AND t.amount_minor < 0 AND ($4 IS NOT NULL OR c.kind IS NULL OR c.kind = 'expense')
         ORDER BY t.date, t.id"
    );
    let filters = Filters {
        category: a.category.as_deref(),
        merchant: a.merchant.as_deref(),
        ..Filters::new(&a.period)
    };
    let rows = filters.fetch(db, &sql, user, currency, locale).await?;
    let mut series: BTreeMap<String, Vec<&Row_>> = BTreeMap::new();
    for r in rows.iter().filter(|r| r.row.amount.currency == currency) {
        let key = match &r.merchant_key {
            Some(k) => format!("m:{k}"),
            None => format!("l:{}", recurring::normalise_label(&r.row.label)),
        };
        series.entry(key).or_default().push(r);
    }
    let long_lookback = a.period.start.add_months_keep_day(13) <= a.period.end;
    let mut items = Vec::new();
    for lines in series.values() {
        // Amounts first: payments far from the typical one (a yearly adjustment among
        // fixed instalments) are not part of the recurring payment.
        let amounts: Vec<i64> = lines.iter().map(|r| r.row.amount.minor.saturating_neg()).collect();
        let Some(regular) = recurring::regular_amounts(&amounts) else { continue };
        let lines: Vec<&Row_> =
            lines.iter().zip(&regular).filter(|(_, keep)| **keep).map(|(r, _)| *r).collect();
        let (Some(first), Some(last)) = (lines.first(), lines.last()) else { continue };
        let dates: Vec<Date> = lines.iter().map(|r| r.row.date).collect();
        let Some(cadence) = recurring::detect(&dates, long_lookback) else { continue };
        let amounts: Vec<i64> = lines.iter().map(|r| r.row.amount.minor.saturating_neg()).collect();
        let Some(amount) = recurring::median(&amounts) else { continue };
        // The series' category: the one most of its payments are booked in.
        let mut categories: BTreeMap<(&str, &str), usize> = BTreeMap::new();
        for r in &lines {
            if let (Some(k), Some(l)) = (r.category_key.as_deref(), r.row.category.as_deref()) {
                *categories.entry((k, l)).or_default() += 1;
            }
        }
        let category = categories
            .into_iter()
            .max_by(|x, y| x.1.cmp(&y.1).then(y.0.cmp(&x.0)))
            .map(|((key, label), _)| EntityRef { key: key.to_string(), label: label.to_string() });
        let merchant = match (&first.merchant_key, &first.row.merchant) {
            (Some(key), Some(label)) => Some(EntityRef { key: key.clone(), label: label.clone() }),
            _ => None,
        };
        let label = merchant
            .as_ref()
            .map(|m| m.label.clone())
            .unwrap_or_else(|| recurring::normalise_label(&first.row.label));
        items.push(RecurringItem {
            merchant,
            label,
            category,
            cadence,
            amount: Money::new(amount, currency),
            count: u32::try_from(lines.len()).unwrap_or(u32::MAX),
            first_date: first.row.date,
            last_date: last.row.date,
            next_date: recurring::next_date(last.row.date, cadence),
            yearly_cost: Money::new(amount.saturating_mul(recurring::per_year(cadence)), currency),
            source_ids: lines.iter().map(|r| r.row.id).collect(),
        });
    }
    items.sort_by(|x, y| y.yearly_cost.minor.cmp(&x.yearly_cost.minor).then_with(|| x.label.cmp(&y.label)));
    let yearly_total = items.iter().fold(0i64, |acc, i| acc.saturating_add(i.yearly_cost.minor));
    let monthly_total = i64::try_from(div_round(i128::from(yearly_total), 12)).unwrap_or(i64::MAX);
    Ok(RecurringResult {
        period: a.period.clone(),
        category,
        merchant,
        items,
        monthly_total: Money::new(monthly_total, currency),
        yearly_total: Money::new(yearly_total, currency),
    })
}

#[cfg(test)]
mod tests {
    use super::recurring::{detect, median, normalise_label, regular_amounts};
    use super::*;
    use agent::Cadence;

    fn d(s: &str) -> Date {
        Date::parse_iso(s).unwrap()
    }

    #[test]
    fn rounding_is_half_away_from_zero() {
        assert_eq!(div_round(5, 2), 3);
        assert_eq!(div_round(-5, 2), -3);
        assert_eq!(div_round(4, 3), 1);
        assert_eq!(div_round(-4, 3), -1);
        // 0.10 € of net on 2 000 € of income is half a basis point.
        assert_eq!(basis_points(10, 200_000), Some(1));
        assert_eq!(basis_points(-10, 200_000), Some(-1));
        assert_eq!(basis_points(9, 200_000), Some(0));
        assert_eq!(basis_points(1, 0), None);
        assert_eq!(basis_points(1, 3), Some(3333));
        assert_eq!(basis_points(2, 3), Some(6667));
    }

    #[test]
    fn months_touched_counts_calendar_months() {
        let p = |a: &str, b: &str| agent::Period {
            start: d(a),
            end: d(b),
            label: String::new(),
            words: String::new(),
        };
        assert_eq!(months_touched(&p("2026-11-01", "2026-12-01")), 1);
        assert_eq!(months_touched(&p("2026-11-30", "2026-12-01")), 1);
        assert_eq!(months_touched(&p("2026-01-15", "2026-03-03")), 3);
        assert_eq!(months_touched(&p("2026-01-15", "2026-03-01")), 2);
        assert_eq!(months_touched(&p("2025-12-31", "2026-01-02")), 2);
        assert_eq!(months_touched(&p("2026-01-01", "2027-01-01")), 12);
    }

    #[test]
    fn medians_and_stable_amounts() {
        assert_eq!(median(&[]), None);
        assert_eq!(median(&[3, 1, 2]), Some(2));
        assert_eq!(median(&[1, 2, 3, 4]), Some(3));
        assert_eq!(median(&[1349, 1349, 1499, 1499]), Some(1424));
        // Every amount within 20 %: all kept.
        assert_eq!(regular_amounts(&[1349, 1349, 1499]), Some(vec![true, true, true]));
        // Fixed instalments and one adjustment: the adjustment is dropped.
        let edf = [8900, 8900, 8900, 4200, 8900, 9400, 9400];
        assert_eq!(regular_amounts(&edf), Some(vec![true, true, true, false, true, true, true]));
        // Shopping-like amounts are not a series.
        assert_eq!(regular_amounts(&[850, 6500, 2300, 4100, 1200, 5600]), None);
        assert_eq!(regular_amounts(&[2000, 4000, 6000, 4000, 2000, 6000]), None);
    }

    #[test]
    fn cadences_need_regular_intervals_and_enough_payments() {
        let dates = |v: &[&str]| v.iter().map(|s| d(s)).collect::<Vec<_>>();
        let monthly = dates(&["2026-01-31", "2026-02-28", "2026-03-31", "2026-04-30"]);
        assert_eq!(detect(&monthly, false), Some(Cadence::Monthly));
        assert_eq!(detect(&monthly[..2], true), None, "two monthly payments are not enough");
        let weekly = dates(&["2026-01-05", "2026-01-12", "2026-01-19", "2026-01-27"]);
        assert_eq!(detect(&weekly, false), Some(Cadence::Weekly));
        let quarterly = dates(&["2025-01-10", "2025-04-10", "2025-07-10", "2025-10-10"]);
        assert_eq!(detect(&quarterly, false), Some(Cadence::Quarterly));
        let yearly = dates(&["2024-11-08", "2025-11-08"]);
        assert_eq!(detect(&yearly, true), Some(Cadence::Yearly));
        assert_eq!(detect(&yearly, false), None, "two payments need a 13-month lookback");
        // A median that fits but intervals all over the place: 3 of 6 fit.
        let erratic = dates(&[
            "2026-01-01",
            "2026-01-31",
            "2026-03-02",
            "2026-03-05",
            "2026-04-04",
            "2026-04-06",
            "2026-06-20",
        ]);
        assert_eq!(detect(&erratic, false), None);
        // Shopping several times a week.
        let groceries =
            dates(&["2026-01-02", "2026-01-03", "2026-01-07", "2026-01-09", "2026-01-14", "2026-01-15"]);
        assert_eq!(detect(&groceries, false), None);
    }

    #[test]
    fn labels_lose_dates_and_payment_words() {
        assert_eq!(normalise_label("PRLV SEPA MAIF ASSURANCE HABITATION"), "MAIF ASSURANCE HABITATION");
        assert_eq!(normalise_label("CB NETFLIX.COM 15/01"), "NETFLIX.COM");
        assert_eq!(normalise_label("RETRAIT DAB 12/03 PARIS 11"), "RETRAIT DAB PARIS");
        assert_eq!(normalise_label("VIR SEPA"), "VIR SEPA");
    }
}

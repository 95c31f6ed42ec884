//! Tool implementations. Each takes a validated call and the user it runs for; every
//! query is scoped by `user_id`.

use std::collections::BTreeMap;

use agent::{
    Currency, EntityRef, Group, GroupBy, ListTransactionsArgs, Locale, Money, SummaryArgs, SummaryResult,
    ToolCall, ToolOutput, TransactionListResult, TransactionRow,
};
use sqlx::Row;

use crate::error::BackendError;
use crate::store::{Store, UserId};

/// Rows returned inside a spending summary; the total always covers every row.
pub const SUMMARY_ROWS: usize = 100;

pub async fn run(
    store: &Store,
    user: UserId,
    call: &ToolCall,
    locale: Locale,
) -> Result<ToolOutput, BackendError> {
    match call {
        ToolCall::SpendingSummary(a) => {
            summary(store, user, a, Flow::Out, locale).await.map(ToolOutput::SpendingSummary)
        }
        ToolCall::IncomeSummary(a) => {
            summary(store, user, a, Flow::In, locale).await.map(ToolOutput::IncomeSummary)
        }
        ToolCall::ComparePeriods(a) => compare(store, user, a, locale).await.map(ToolOutput::ComparePeriods),
        ToolCall::ListTransactions(a) => {
            list_transactions(store, user, a, locale).await.map(ToolOutput::ListTransactions)
        }
    }
}

struct Row_ {
    row: TransactionRow,
    merchant_key: Option<String>,
    category_key: Option<String>,
}

/// A category or merchant key the user does not have is an error the user can act on.
async fn entity(
    store: &Store,
    user: UserId,
    table: &'static str,
    key: Option<&str>,
    locale: Locale,
) -> Result<Option<EntityRef>, BackendError> {
    let Some(key) = key else { return Ok(None) };
    let sql = match table {
        "categories" => "SELECT name_fr, name_en FROM categories WHERE user_id = ?1 AND key = ?2",
        _ => "SELECT name, name FROM merchants WHERE user_id = ?1 AND key = ?2",
    };
    let row = sqlx::query(sql).bind(user.0).bind(key).fetch_optional(store.pool()).await?;
    let Some(row) = row else {
        let what = if table == "categories" { "category" } else { "merchant" };
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
    currency: Currency,
}

async fn scope(
    store: &Store,
    user: UserId,
    category: Option<&str>,
    merchant: Option<&str>,
    locale: Locale,
) -> Result<Scope, BackendError> {
    Ok(Scope {
        category: entity(store, user, "categories", category, locale).await?,
        merchant: entity(store, user, "merchants", merchant, locale).await?,
        currency: store.currency(user).await?,
    })
}

const SELECT: &str = "
    SELECT t.id, t.date, t.raw_label, t.amount_minor, t.currency, a.name,
           m.key, m.name, c.key, c.name_fr, c.name_en
    FROM transactions t
    JOIN accounts a ON a.id = t.account_id
    LEFT JOIN merchants m ON m.id = t.merchant_id
    LEFT JOIN categories c ON c.id = t.category_id
    WHERE t.user_id = ?1 AND t.date >= ?2 AND t.date < ?3
      AND (?4 IS NULL OR c.key = ?4)
      AND (?5 IS NULL OR m.key = ?5)
      AND (?6 IS NULL OR abs(t.amount_minor) >= ?6)
      AND (?7 IS NULL OR abs(t.amount_minor) <= ?7)";

/// The filters every transaction query shares: parameters ?1 to ?7 of [`SELECT`].
struct Filters<'a> {
    period: &'a agent::Period,
    category: Option<&'a str>,
    merchant: Option<&'a str>,
    amount_min: Option<Money>,
    amount_max: Option<Money>,
}

type SqliteQuery<'q> = sqlx::query::Query<'q, sqlx::Sqlite, sqlx::sqlite::SqliteArguments<'q>>;

impl<'a> Filters<'a> {
    fn bind<'q>(
        &self,
        sql: &'q str,
        user: UserId,
        currency: Currency,
    ) -> Result<SqliteQuery<'q>, BackendError>
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
            .bind(bound(self.amount_max, currency)?))
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

fn decode(r: &sqlx::sqlite::SqliteRow, locale: Locale) -> Result<Row_, BackendError> {
    let date: String = r.get(1);
    let currency: String = r.get(4);
    let category_label: Option<String> = match locale {
        Locale::Fr => r.get(9),
        Locale::En => r.get(10),
    };
    Ok(Row_ {
        row: TransactionRow {
            id: r.get(0),
            date: agent::Date::parse_iso(&date)
                .ok_or_else(|| BackendError::Corrupt(format!("transaction date {date:?}")))?,
            label: r.get(2),
            amount: Money::new(
                r.get(3),
                Currency::new(&currency)
                    .ok_or_else(|| BackendError::Corrupt(format!("currency {currency:?}")))?,
            ),
            account: r.get(5),
            merchant: r.get(7),
            category: category_label,
        },
        merchant_key: r.get(6),
        category_key: r.get(8),
    })
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Flow {
    /// Spending: money going out of expense categories.
    Out,
    /// Income: money coming into income categories.
    In,
}

async fn summary(
    store: &Store,
    user: UserId,
    a: &SummaryArgs,
    flow: Flow,
    locale: Locale,
) -> Result<SummaryResult, BackendError> {
    let Scope { category, merchant, currency } =
        scope(store, user, a.category.as_deref(), a.merchant.as_deref(), locale).await?;
    // Without a category filter, spending counts expense categories (and uncategorised
    // lines) and income counts income categories (and uncategorised lines): savings
    // transfers are neither, and a refund is not income.
    let (sign, kind) = match flow {
        Flow::Out => ("t.amount_minor < 0", "expense"),
        Flow::In => ("t.amount_minor > 0", "income"),
    };
    let sql = format!(
        "{SELECT} AND {sign} AND (?4 IS NOT NULL OR c.kind IS NULL OR c.kind = '{kind}')
         ORDER BY t.date DESC, t.id DESC"
    );
    let filters = Filters {
        period: &a.period,
        category: a.category.as_deref(),
        merchant: a.merchant.as_deref(),
        amount_min: a.amount_min,
        amount_max: a.amount_max,
    };
    let rows = filters.bind(&sql, user, currency)?.fetch_all(store.pool()).await?;
    let rows = rows.iter().map(|r| decode(r, locale)).collect::<Result<Vec<_>, _>>()?;

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
            GroupBy::Month => {
                let m = r.row.date.first_of_month();
                (m.to_string()[..7].to_string(), agent::period::month_label(m, locale))
            }
            GroupBy::Week => {
                let monday = r.row.date.add_days(-i64::from(r.row.date.weekday()));
                let label = match locale {
                    Locale::Fr => format!("semaine du {}", agent::period::day_label(monday, locale)),
                    Locale::En => format!("week of {}", agent::period::day_label(monday, locale)),
                };
                (monday.to_string(), label)
            }
            GroupBy::Day => (r.row.date.to_string(), agent::period::day_label(r.row.date, locale)),
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
    let source_ids = rows.iter().map(|r| r.row.id).collect();
    let truncated = rows.len() > SUMMARY_ROWS;
    let transactions = rows.into_iter().take(SUMMARY_ROWS).map(|r| r.row).collect();
    Ok(SummaryResult {
        period: a.period.clone(),
        category,
        merchant,
        group_by: a.group_by,
        total: Money::new(total, currency),
        count,
        other_currencies: others.into_iter().map(|(c, m)| Money::new(m, c)).collect(),
        groups,
        transactions,
        transactions_truncated: truncated,
        source_ids,
    })
}

/// The same summary over two periods, and the change between them.
async fn compare(
    store: &Store,
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
        amount_min: None,
        amount_max: None,
        group_by: GroupBy::None,
        top: None,
    };
    let current = summary(store, user, &args(&a.current), flow, locale).await?;
    let reference = summary(store, user, &args(&a.reference), flow, locale).await?;
    let difference = current.total.minor.saturating_sub(reference.total.minor);
    let change_basis_points = (reference.total.minor != 0).then(|| {
        i64::try_from(i128::from(difference) * 10_000 / i128::from(reference.total.minor)).unwrap_or(i64::MAX)
    });
    Ok(agent::CompareResult {
        flow: a.flow,
        category: current.category.clone(),
        merchant: current.merchant.clone(),
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
    store: &Store,
    user: UserId,
    a: &ListTransactionsArgs,
    locale: Locale,
) -> Result<TransactionListResult, BackendError> {
    let Scope { category, merchant, currency } =
        scope(store, user, a.category.as_deref(), a.merchant.as_deref(), locale).await?;
    let pattern = a.text.as_ref().map(|t| {
        let escaped = t.replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_");
        format!("%{escaped}%")
    });
    let sql = format!(
        "{SELECT} AND (?8 IS NULL OR t.raw_label LIKE ?8 ESCAPE '\\') ORDER BY t.date DESC, t.id DESC"
    );
    let filters = Filters {
        period: &a.period,
        category: a.category.as_deref(),
        merchant: a.merchant.as_deref(),
        amount_min: a.amount_min,
        amount_max: a.amount_max,
    };
    let rows = filters.bind(&sql, user, currency)?.bind(pattern).fetch_all(store.pool()).await?;
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
        text: a.text.clone(),
        count,
        truncated: rows.len() > limit,
        net: Money::new(net, currency),
        source_ids: rows.iter().map(|r| r.row.id).collect(),
        transactions: rows.into_iter().take(limit).map(|r| r.row).collect(),
    })
}

//! Sums over a period without reading its rows: the whole months from the monthly
//! roll-up (`ledger_months`, kept by triggers), the days before the first whole month
//! and after the last one from `transactions`. The same sums read from the rows alone
//! are what verification compares them with.

use std::collections::HashMap;

use agent::{Currency, Date, Locale};
use sqlx::AnyConnection;

use super::ledger::{Entity, Filters};
use crate::error::BackendError;
use crate::ids::UserId;

/// What the sums are grouped by.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum By {
    Nothing,
    Category,
    Merchant,
    Account,
    Month,
    /// Days: for weeks and days (the roll-up does not have them).
    Day,
}

/// [`Sums`] as the query reads them.
#[derive(sqlx::FromRow)]
struct SumsRow {
    currency: String,
    grp: String,
    kind: Option<String>,
    debit: i64,
    credit: i64,
    debits: i64,
    credits: i64,
    lines: i64,
}

/// One group's sums, in one currency, for one kind of category (`None`: no category).
pub(super) struct Sums {
    pub(super) currency: Currency,
    /// The group: a category, merchant or account id (0 for none), a `YYYY-MM` month, a
    /// `YYYY-MM-DD` day, or empty.
    pub(super) group: String,
    pub(super) kind: Option<String>,
    /// Debits added up (negative or 0) and credits (positive or 0), and how many of each.
    pub(super) debit: i64,
    pub(super) credit: i64,
    pub(super) debits: i64,
    pub(super) credits: i64,
    /// Every line, zero amounts included.
    pub(super) lines: i64,
}

impl Sums {
    pub(super) fn id(&self) -> i64 {
        self.group.parse().unwrap_or(0)
    }

    /// Whether these lines count for a total of `kind` (`expense`, `income`): lines
    /// without a category do, and any category when the call names one (`named`); the
    /// same rule as [`super::ledger::of_kind`] in SQL.
    pub(super) fn counts_as(&self, kind: &str, named: bool) -> bool {
        named || self.kind.as_deref().is_none_or(|k| k == kind)
    }
}

/// The same filters on the roll-up, for the months from `$11` to `$12` (exclusive).
pub(super) const ROLLED: &str = "l.user_id = $1 AND l.month >= $11 AND l.month < $12
      AND ($4 IS NULL OR l.category_id = (SELECT id FROM categories WHERE user_id = $1 AND key = $4))
      AND ($5 IS NULL OR l.merchant_id = (SELECT id FROM merchants WHERE user_id = $1 AND key = $5))
      AND ($8 IS NULL OR l.account_id = (SELECT id FROM accounts WHERE user_id = $1 AND key = $8))
      AND ($9 IS NULL OR l.category_id <> (SELECT id FROM categories WHERE user_id = $1 AND key = $9))
      AND ($10 IS NULL OR l.merchant_id <> (SELECT id FROM merchants WHERE user_id = $1 AND key = $10))";

/// The whole months of `[start, end)`: their first day and the day after the last one,
/// if there is at least one.
pub(super) fn whole_months(start: Date, end: Date) -> Option<(Date, Date)> {
    let first = if start.day() == 1 { start } else { start.first_of_month().add_months(1) };
    let last = end.first_of_month();
    (first < last).then_some((first, last))
}

pub(super) fn month(d: Date) -> String {
    format!("{:04}-{:02}", d.year(), d.month())
}

/// The sums of the rows `filters` match, grouped `by`, in every currency and kind of
/// category; from the roll-up where it can (`rolled`, whole months, no amount bounds),
/// else from the rows alone.
pub(super) async fn sums(
    db: &mut AnyConnection,
    user: UserId,
    filters: &Filters<'_>,
    currency: Currency,
    by: By,
    rolled: bool,
) -> Result<Vec<Sums>, BackendError> {
    let (start, end) = (filters.period.start, filters.period.end);
    let bounded = filters.amount_min.is_some() || filters.amount_max.is_some();
    let months = (rolled && !bounded && by != By::Day).then(|| whole_months(start, end)).flatten();
    // Without whole months: the rows from start to end, and nothing from the roll-up.
    let (first, last) = months.unwrap_or((end, end));
    let (group_l, group_t) = match by {
        By::Nothing => ("''", "''".to_string()),
        By::Category => ("CAST(l.category_id AS TEXT)", "CAST(COALESCE(t.category_id, 0) AS TEXT)".into()),
        By::Merchant => ("CAST(l.merchant_id AS TEXT)", "CAST(COALESCE(t.merchant_id, 0) AS TEXT)".into()),
        By::Account => ("CAST(l.account_id AS TEXT)", "CAST(t.account_id AS TEXT)".into()),
        By::Month => ("l.month", "substr(t.date, 1, 7)".into()),
        By::Day => ("l.month", "t.date".into()),
    };
    let raw = |from: u8, to: u8| {
        format!(
            "SELECT t.currency, {group_t} AS grp, COALESCE(t.category_id, 0) AS category_id,
                    CASE WHEN t.amount_minor < 0 THEN t.amount_minor ELSE 0 END AS debit,
                    CASE WHEN t.amount_minor > 0 THEN t.amount_minor ELSE 0 END AS credit,
                    CASE WHEN t.amount_minor < 0 THEN 1 ELSE 0 END AS debits,
                    CASE WHEN t.amount_minor > 0 THEN 1 ELSE 0 END AS credits, 1 AS n
             FROM transactions t WHERE {}",
            filters.matching(from, to)
        )
    };
    let sql = format!(
        "SELECT g.currency, g.grp, c.kind, CAST(SUM(g.debit) AS BIGINT) AS debit,
                CAST(SUM(g.credit) AS BIGINT) AS credit, CAST(SUM(g.debits) AS BIGINT) AS debits,
                CAST(SUM(g.credits) AS BIGINT) AS credits, CAST(SUM(g.n) AS BIGINT) AS lines
         FROM (
             SELECT l.currency, {group_l} AS grp, l.category_id, l.debit, l.credit, l.debits, l.credits, l.n
             FROM ledger_months l WHERE {ROLLED}
             UNION ALL {}
             UNION ALL {}
         ) g
         LEFT JOIN categories c ON c.id = g.category_id AND c.user_id = $1
         GROUP BY g.currency, g.grp, c.kind",
        raw(2, 13),
        raw(14, 3),
    );
    let rows: Vec<SumsRow> = filters
        .bind_as(&sql, user, currency)?
        .bind(month(first))
        .bind(month(last))
        .bind(first.to_string())
        .bind(last.to_string())
        .fetch_all(&mut *db)
        .await?;
    rows.into_iter()
        .map(|r| {
            Ok(Sums {
                currency: Currency::new(&r.currency)
                    .ok_or_else(|| BackendError::Corrupt(format!("currency {:?}", r.currency)))?,
                group: r.grp,
                kind: r.kind,
                debit: r.debit,
                credit: r.credit,
                debits: r.debits,
                credits: r.credits,
                lines: r.lines,
            })
        })
        .collect()
}

/// The keys and names of the user's categories, merchants or accounts among `ids`.
pub(super) async fn names(
    db: &mut AnyConnection,
    user: UserId,
    entity: Entity,
    ids: &[i64],
    locale: Locale,
) -> Result<HashMap<i64, (String, String)>, BackendError> {
    let mut out = HashMap::new();
    let name = match (entity, locale) {
        (Entity::Category, Locale::Fr) => "SELECT id, key, name_fr FROM categories",
        (Entity::Category, Locale::En) => "SELECT id, key, name_en FROM categories",
        (Entity::Merchant, _) => "SELECT id, key, name FROM merchants",
        (Entity::Account, Locale::Fr) => "SELECT id, key, name FROM accounts",
        (Entity::Account, Locale::En) => "SELECT id, key, COALESCE(name_en, name) FROM accounts",
    };
    for chunk in ids.chunks(500) {
        let marks: Vec<String> = (0..chunk.len()).map(|i| format!("${}", i + 2)).collect();
        let sql = format!("{name} WHERE user_id = $1 AND id IN ({})", marks.join(", "));
        let mut q = sqlx::query_as::<_, (i64, Option<String>, String)>(&sql).bind(user.0);
        for id in chunk {
            q = q.bind(*id);
        }
        for (id, key, name) in q.fetch_all(&mut *db).await? {
            out.insert(id, (key.unwrap_or_default(), name));
        }
    }
    Ok(out)
}

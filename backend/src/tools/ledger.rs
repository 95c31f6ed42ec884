//! What every ledger tool shares: the transaction query ([`lines_sql`]) and its
//! filters, the user's keys resolved to names, a row decoded, and the arithmetic and
//! time buckets of the answers.

use sqlx::any::AnyArguments;
use sqlx::Arguments as _;
use std::collections::BTreeMap;

use agent::{Currency, Date, EntityRef, GroupBy, Locale, Money, TransactionRow};
use sqlx::{AnyConnection, Row};

use super::Known;
use crate::error::BackendError;
use crate::ids::UserId;

pub(super) struct Row_ {
    pub(super) row: TransactionRow,
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Entity {
    Category,
    Merchant,
    Account,
}

/// A category, merchant or account key the user does not have is an error the user
/// can act on. Named from what the caller knows of the user's vocabulary when it has
/// the key, else read.
pub(super) async fn entity(
    db: &mut AnyConnection,
    user: UserId,
    known: &Known,
    kind: Entity,
    key: Option<&str>,
    locale: Locale,
) -> Result<Option<EntityRef>, BackendError> {
    let Some(key) = key else { return Ok(None) };
    if let Some(label) = known.label(kind, key, locale) {
        return Ok(Some(EntityRef { key: key.to_string(), label }));
    }
    let (sql, what) = match kind {
        Entity::Category => {
            ("SELECT name_fr, name_en FROM categories WHERE user_id = $1 AND key = $2", "category")
        }
        Entity::Merchant => ("SELECT name, name FROM merchants WHERE user_id = $1 AND key = $2", "merchant"),
        Entity::Account => {
            ("SELECT name, COALESCE(name_en, name) FROM accounts WHERE user_id = $1 AND key = $2", "account")
        }
    };
    let row: Option<(String, String)> =
        sqlx::query_as(sql).bind(user.0).bind(key).fetch_optional(&mut *db).await?;
    let Some((fr, en)) = row else {
        return Err(BackendError::BadRequest(format!("unknown {what} {key:?}")));
    };
    let label = locale.pick(fr, en);
    Ok(Some(EntityRef { key: key.to_string(), label }))
}

/// The category and the merchant a call leaves out, resolved to names; leaving out
/// what the call filters on leaves nothing, which is a mistake to hear about.
pub(super) async fn excluded(
    db: &mut AnyConnection,
    user: UserId,
    known: &Known,
    [category, merchant]: [&Option<String>; 2],
    [kept_category, kept_merchant]: [&Option<String>; 2],
    locale: Locale,
) -> Result<Vec<EntityRef>, BackendError> {
    let (category, merchant) = (category.as_deref(), merchant.as_deref());
    if category.is_some() && category == kept_category.as_deref()
        || merchant.is_some() && merchant == kept_merchant.as_deref()
    {
        return Err(BackendError::BadRequest("a filter cannot also be left out".into()));
    }
    let mut out = Vec::new();
    out.extend(entity(db, user, known, Entity::Merchant, merchant, locale).await?);
    out.extend(entity(db, user, known, Entity::Category, category, locale).await?);
    Ok(out)
}

/// The resolved filters of a call and the user's main currency.
pub(super) struct Scope {
    pub(super) category: Option<EntityRef>,
    pub(super) merchant: Option<EntityRef>,
    pub(super) account: Option<EntityRef>,
    pub(super) currency: Currency,
}

/// The category, merchant and account a call names (by name or key), where it names them.
#[derive(Clone, Copy, Default)]
pub(super) struct Names<'a> {
    pub category: Option<&'a str>,
    pub merchant: Option<&'a str>,
    pub account: Option<&'a str>,
}

impl<'a> Names<'a> {
    /// A summary's three.
    pub fn of(a: &'a agent::SummaryArgs) -> Names<'a> {
        Names {
            category: a.category.as_deref(),
            merchant: a.merchant.as_deref(),
            account: a.account.as_deref(),
        }
    }
}

pub(super) async fn scope(
    db: &mut AnyConnection,
    user: UserId,
    known: &Known,
    Names { category, merchant, account }: Names<'_>,
    locale: Locale,
) -> Result<Scope, BackendError> {
    Ok(Scope {
        category: entity(db, user, known, Entity::Category, category, locale).await?,
        merchant: entity(db, user, known, Entity::Merchant, merchant, locale).await?,
        account: entity(db, user, known, Entity::Account, account, locale).await?,
        currency: match known.currency() {
            Some(c) => c,
            None => crate::store::currency(&mut *db, user).await?,
        },
    })
}

/// The columns every transaction query reads, named as [`TransactionColumns`] reads them.
macro_rules! columns {
    () => {
        "
    SELECT t.id, t.date, t.raw_label, t.amount_minor, t.currency,
           a.name AS account_fr, COALESCE(a.name_en, a.name) AS account_en,
           m.name AS merchant, c.name_fr AS category_fr, c.name_en AS category_en"
    };
}

/// A transaction as [`columns!`] selects it.
#[derive(sqlx::FromRow)]
struct TransactionColumns {
    id: i64,
    date: String,
    raw_label: String,
    amount_minor: i64,
    currency: String,
    account_fr: String,
    account_en: String,
    merchant: Option<String>,
    category_fr: Option<String>,
    category_en: Option<String>,
}

/// The joins that name a transaction's account, merchant and category; they repeat the
/// user scope so that a row pointing at someone else's shows nothing of it.
macro_rules! joins {
    () => {
        "
    JOIN accounts a ON a.id = t.account_id AND a.user_id = t.user_id
    LEFT JOIN merchants m ON m.id = t.merchant_id AND m.user_id = t.user_id
    LEFT JOIN categories c ON c.id = t.category_id AND c.user_id = t.user_id"
    };
}

/// Lines without a category of a kind other than `kind` (the user's categories only):
/// what a summary counts when no category is named.
pub(super) fn of_kind(kind: &str) -> String {
    format!(
        "(t.category_id IS NULL
          OR t.category_id NOT IN (SELECT id FROM categories WHERE user_id = $1 AND kind <> '{kind}'))"
    )
}

/// Every matching transaction, named, in `order`; `filter` adds conditions on `t`.
/// The lines are chosen on `transactions` alone, then named: joined first, SQLite
/// would walk the period's lines account by account.
pub(super) fn every_line(filters: &Filters<'_>, filter: &str, order: &str) -> String {
    format!(
        "{} FROM (SELECT t.id FROM transactions t WHERE {} {filter}) p
         JOIN transactions t ON t.id = p.id {} ORDER BY {order}",
        columns!(),
        filters.matching(2, 3),
        joins!()
    )
}

/// The matching transactions (and `filter`, on `t`), in `order`: `limit` of them after
/// the first `offset`, then named. The page is chosen on `transactions` alone, which
/// its (user, date, id) index gives newest first without sorting the period.
pub(super) fn lines_sql(
    filters: &Filters<'_>,
    filter: &str,
    order: &str,
    (limit, offset): (usize, usize),
) -> String {
    format!(
        "{} FROM (SELECT t.id FROM transactions t WHERE {} {filter}
                  ORDER BY {order} LIMIT {limit} OFFSET {offset}) p
         JOIN transactions t ON t.id = p.id {}
         ORDER BY {order}",
        columns!(),
        filters.matching(2, 3),
        joins!()
    )
}

/// What the lines matching `filters` and `condition` add up to, and how many there are:
/// in `currency`, and in each other currency. `condition` (on `t`) may use `$11`,
/// bound to `text`. One pass sums the main currency and counts the others; a second,
/// grouped by currency, runs only when there are others. A `GROUP BY` alone would
/// sort every line of the period first.
pub(super) async fn totals(
    db: &mut AnyConnection,
    user: UserId,
    filters: &Filters<'_>,
    condition: &str,
    text: Option<&str>,
    currency: Currency,
) -> Result<((i64, i64), BTreeMap<Currency, (i64, i64)>), BackendError> {
    let main = format!(
        "SELECT CAST(COALESCE(SUM(CASE WHEN t.currency = $12 THEN t.amount_minor ELSE 0 END), 0) AS BIGINT),
                CAST(COALESCE(SUM(CASE WHEN t.currency = $12 THEN 1 ELSE 0 END), 0) AS BIGINT),
                CAST(COUNT(*) AS BIGINT)
         FROM transactions t WHERE {} {condition}",
        filters.matching(2, 3)
    );
    let (sum, n, all): (i64, i64, i64) = filters
        .bind_as(&main, user, currency)?
        .bind(text)
        .bind(currency.as_str())
        .fetch_one(&mut *db)
        .await?;
    let mut others = BTreeMap::new();
    if all > n {
        let rest = format!(
            "SELECT t.currency, CAST(SUM(t.amount_minor) AS BIGINT), CAST(COUNT(*) AS BIGINT)
             FROM transactions t WHERE {} {condition} AND t.currency <> $12 GROUP BY t.currency",
            filters.matching(2, 3)
        );
        let rows: Vec<(String, i64, i64)> = filters
            .bind_as(&rest, user, currency)?
            .bind(text)
            .bind(currency.as_str())
            .fetch_all(&mut *db)
            .await?;
        for (code, sum, n) in rows {
            let c =
                Currency::new(&code).ok_or_else(|| BackendError::Corrupt(format!("currency {code:?}")))?;
            others.insert(c, (sum, n));
        }
    }
    Ok(((sum, n), others))
}

/// The filters every transaction query shares: parameters $1 to $10 of [`Filters::matching`].
pub(super) struct Filters<'a> {
    pub(super) period: &'a agent::Period,
    pub(super) category: Option<&'a str>,
    pub(super) merchant: Option<&'a str>,
    pub(super) account: Option<&'a str>,
    pub(super) amount_min: Option<Money>,
    pub(super) amount_max: Option<Money>,
    /// A category and a merchant left out; lines with none stay in.
    pub(super) exclude_category: Option<&'a str>,
    pub(super) exclude_merchant: Option<&'a str>,
}

pub(super) type AnyQuery<'q> = sqlx::query::Query<'q, sqlx::Any, AnyArguments<'q>>;
pub(super) type AnyQueryAs<'q, T> = sqlx::query::QueryAs<'q, sqlx::Any, T, AnyArguments<'q>>;

/// One more argument.
fn put<'q, T>(args: &mut AnyArguments<'q>, value: T) -> Result<(), BackendError>
where
    T: 'q + sqlx::Encode<'q, sqlx::Any> + sqlx::Type<sqlx::Any>,
{
    args.add(value).map_err(|e| BackendError::Corrupt(format!("a filter could not be bound: {e}")))
}

impl<'a> Filters<'a> {
    pub(super) fn new(period: &'a agent::Period) -> Filters<'a> {
        Filters {
            period,
            category: None,
            merchant: None,
            account: None,
            amount_min: None,
            amount_max: None,
            exclude_category: None,
            exclude_merchant: None,
        }
    }

    /// Every filter a call may have: its period, the keys it names, its amount bounds.
    pub(super) fn of(
        period: &'a agent::Period,
        [category, merchant, account]: [&'a Option<String>; 3],
        amount_min: Option<Money>,
        amount_max: Option<Money>,
    ) -> Filters<'a> {
        Filters {
            period,
            category: category.as_deref(),
            merchant: merchant.as_deref(),
            account: account.as_deref(),
            amount_min,
            amount_max,
            exclude_category: None,
            exclude_merchant: None,
        }
    }

    /// The conditions of these filters on `t`, the period from `$from` to `$to`. Every
    /// statement binds the same parameters ($1 to $10, see [`Self::bind`]): a filter that
    /// is not set only names its parameter (`… IS NULL`, which holds), and one that is set
    /// is a plain condition, so that the index on (user, category, date) or (user,
    /// merchant, date) can serve it.
    pub(super) fn matching(&self, from: u8, to: u8) -> String {
        let when = |set: bool, n: u8, kind: &str, condition: &str| {
            if set {
                condition.to_string()
            } else {
                format!("CAST(${n} AS {kind}) IS NULL")
            }
        };
        [
            format!("t.user_id = $1 AND t.date >= ${from} AND t.date < ${to}"),
            when(
                self.category.is_some(),
                4,
                "TEXT",
                "t.category_id = (SELECT id FROM categories WHERE user_id = $1 AND key = $4)",
            ),
            when(
                self.merchant.is_some(),
                5,
                "TEXT",
                "t.merchant_id = (SELECT id FROM merchants WHERE user_id = $1 AND key = $5)",
            ),
            when(self.amount_min.is_some(), 6, "BIGINT", "abs(t.amount_minor) >= $6"),
            when(self.amount_max.is_some(), 7, "BIGINT", "abs(t.amount_minor) <= $7"),
            when(
                self.account.is_some(),
                8,
                "TEXT",
                "t.account_id = (SELECT id FROM accounts WHERE user_id = $1 AND key = $8)",
            ),
            when(
                self.exclude_category.is_some(),
                9,
                "TEXT",
                "(t.category_id IS NULL OR t.category_id <> (SELECT id FROM categories WHERE user_id = $1 AND key = $9))",
            ),
            when(
                self.exclude_merchant.is_some(),
                10,
                "TEXT",
                "(t.merchant_id IS NULL OR t.merchant_id <> (SELECT id FROM merchants WHERE user_id = $1 AND key = $10))",
            ),
        ]
        .join("\n      AND ")
    }

    /// The same filters, leaving out a category and a merchant.
    pub(super) fn excluding(self, category: Option<&'a str>, merchant: Option<&'a str>) -> Filters<'a> {
        Filters { exclude_category: category, exclude_merchant: merchant, ..self }
    }

    /// `sql` with the filters bound as `$1` to `$10`; the caller binds what follows.
    pub(super) fn bind<'q>(
        &self,
        sql: &'q str,
        user: UserId,
        currency: Currency,
    ) -> Result<AnyQuery<'q>, BackendError>
    where
        'a: 'q,
    {
        Ok(sqlx::query_with(sql, self.arguments(user, currency)?))
    }

    /// The same, read as rows of `T`.
    pub(super) fn bind_as<'q, T>(
        &self,
        sql: &'q str,
        user: UserId,
        currency: Currency,
    ) -> Result<AnyQueryAs<'q, T>, BackendError>
    where
        'a: 'q,
        T: for<'r> sqlx::FromRow<'r, sqlx::any::AnyRow>,
    {
        Ok(sqlx::query_as_with(sql, self.arguments(user, currency)?))
    }

    /// `$1` to `$10`: the user, the period, then each filter (`NULL` when absent).
    fn arguments<'q>(&self, user: UserId, currency: Currency) -> Result<AnyArguments<'q>, BackendError>
    where
        'a: 'q,
    {
        let mut args = AnyArguments::default();
        put(&mut args, user.0)?;
        put(&mut args, self.period.start.to_string())?;
        put(&mut args, self.period.end.to_string())?;
        put(&mut args, self.category)?;
        put(&mut args, self.merchant)?;
        put(&mut args, bound(self.amount_min, currency)?)?;
        put(&mut args, bound(self.amount_max, currency)?)?;
        put(&mut args, self.account)?;
        put(&mut args, self.exclude_category)?;
        put(&mut args, self.exclude_merchant)?;
        Ok(args)
    }

    pub(super) async fn fetch(
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
pub(super) fn bound(m: Option<Money>, currency: Currency) -> Result<Option<i64>, BackendError> {
    match m {
        None => Ok(None),
        Some(m) if m.currency == currency => Ok(Some(m.minor)),
        Some(m) => Err(BackendError::BadRequest(format!(
            "amounts in {} cannot filter a ledger kept in {currency}",
            m.currency
        ))),
    }
}

pub(super) fn decode(r: &sqlx::any::AnyRow, locale: Locale) -> Result<Row_, BackendError> {
    let t = <TransactionColumns as sqlx::FromRow<_>>::from_row(r)?;
    let (account, category) = match locale {
        Locale::Fr => (t.account_fr, t.category_fr),
        Locale::En => (t.account_en, t.category_en),
    };
    Ok(Row_ {
        row: TransactionRow {
            id: t.id,
            date: Date::parse_iso(&t.date)
                .ok_or_else(|| BackendError::Corrupt(format!("transaction date {:?}", t.date)))?,
            label: t.raw_label,
            amount: Money::new(
                t.amount_minor,
                Currency::new(&t.currency)
                    .ok_or_else(|| BackendError::Corrupt(format!("currency {:?}", t.currency)))?,
            ),
            account,
            merchant: t.merchant,
            category,
        },
    })
}

/// `n / d` rounded half away from zero; `d` must be positive.
pub(super) fn div_round(n: i128, d: i128) -> i128 {
    let (q, r) = (n / d, n % d);
    if 2 * r.abs() >= d {
        q + n.signum()
    } else {
        q
    }
}

/// `part / whole` in hundredths of a percent, rounded half away from zero.
pub(super) fn basis_points(part: i64, whole: i64) -> Option<i64> {
    (whole > 0).then(|| {
        let bp = div_round(i128::from(part) * 10_000, i128::from(whole));
        i64::try_from(bp).unwrap_or(if bp < 0 { i64::MIN } else { i64::MAX })
    })
}

/// The time bucket of a date: its first day and how people name it.
pub(super) fn time_bucket(d: Date, group_by: GroupBy, locale: Locale) -> Option<(Date, String)> {
    match group_by {
        GroupBy::Month => {
            let m = d.first_of_month();
            Some((m, agent::wording::month_label(m, locale)))
        }
        GroupBy::Week => {
            let monday = d.add_days(-i64::from(d.weekday()));
            let label = match locale {
                Locale::Fr => format!("semaine du {}", agent::wording::day_label(monday, locale)),
                Locale::En => format!("week of {}", agent::wording::day_label(monday, locale)),
            };
            Some((monday, label))
        }
        GroupBy::Day => Some((d, agent::wording::day_label(d, locale))),
        GroupBy::None | GroupBy::Category | GroupBy::Merchant | GroupBy::Account => None,
    }
}

/// The same columns as [`lines_sql`], for rows named by id (`+ 0`: found by id, not by
/// scanning the user's rows).
const SELECT_IDS: &str = concat!(
    columns!(),
    "
    FROM transactions t",
    joins!(),
    "
    WHERE t.user_id + 0 = $1 AND t.id IN "
);

/// The user's transactions among `ids` (another user's id finds nothing), read in
/// batches of a few hundred; in no particular order.
pub(super) async fn by_ids(
    db: &mut AnyConnection,
    user: UserId,
    ids: &[i64],
    locale: Locale,
) -> Result<Vec<Row_>, BackendError> {
    among(db, user, ids, SELECT_IDS, |r| decode(r, locale)).await
}

/// The date and amount of each of the user's transactions among `ids`, as [`by_ids`]
/// finds them, without their names.
pub(super) async fn dated_by_ids(
    db: &mut AnyConnection,
    user: UserId,
    ids: &[i64],
) -> Result<Vec<(Date, Money)>, BackendError> {
    let select = "SELECT t.date, t.amount_minor, t.currency FROM transactions t
                  JOIN accounts a ON a.id = t.account_id AND a.user_id = t.user_id
                  WHERE t.user_id + 0 = $1 AND t.id IN ";
    among(db, user, ids, select, |r| {
        let (date, minor, currency): (String, i64, String) = (r.get(0), r.get(1), r.get(2));
        let date = Date::parse_iso(&date)
            .ok_or_else(|| BackendError::Corrupt(format!("transaction date {date:?}")))?;
        let currency = Currency::new(&currency)
            .ok_or_else(|| BackendError::Corrupt(format!("currency {currency:?}")))?;
        Ok((date, Money::new(minor, currency)))
    })
    .await
}

/// `select` (ending in `IN `, the user bound as `$1`) over `ids`, a few hundred at a
/// time, each row decoded.
async fn among<T>(
    db: &mut AnyConnection,
    user: UserId,
    ids: &[i64],
    select: &str,
    decode: impl Fn(&sqlx::any::AnyRow) -> Result<T, BackendError>,
) -> Result<Vec<T>, BackendError> {
    let mut out = Vec::with_capacity(ids.len());
    for chunk in ids.chunks(500) {
        let marks: Vec<String> = (0..chunk.len()).map(|i| format!("${}", i + 2)).collect();
        let sql = format!("{select}({})", marks.join(", "));
        let mut q = sqlx::query(&sql).bind(user.0);
        for id in chunk {
            q = q.bind(*id);
        }
        for r in q.fetch_all(&mut *db).await? {
            out.push(decode(&r)?);
        }
    }
    Ok(out)
}

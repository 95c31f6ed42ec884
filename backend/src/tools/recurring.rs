//! Recurring payments: how a series of debits must look to count as one (the
//! detection, pure and tested), and the tool that finds them in the ledger.

use std::collections::BTreeMap;

use agent::{Cadence, Date, EntityRef, Locale, Money, RecurringArgs, RecurringItem, RecurringResult};
use sqlx::AnyConnection;

use super::Known;
use crate::error::BackendError;
use crate::ids::UserId;

use super::ledger::*;

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
            i64::try_from(div_round(a + b, 2)).ok()
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

/// The most payments a series over `days` days can have and still be found: the
/// median interval must be at least 6 days, so at most `days / 3 + 1` payments fit a
/// cadence, and at least half of a series' payments are the regular ones it keeps.
pub fn max_payments(days: i64) -> i64 {
    2 * (days.max(0) / 3 + 1)
}

/// A debit as the query reads it.
#[derive(sqlx::FromRow)]
struct LineRow {
    id: i64,
    date: String,
    raw_label: String,
    amount_minor: i64,
    merchant_id: Option<i64>,
    category_id: Option<i64>,
}

/// A debit as finding a series needs it: its amount as a positive number.
struct Line {
    id: i64,
    date: Date,
    label: String,
    amount: i64,
    merchant: Option<i64>,
    category: Option<i64>,
}

fn dedup(mut ids: Vec<i64>) -> Vec<i64> {
    ids.sort_unstable();
    ids.dedup();
    ids
}

/// The merchants whose lines can make a series: over the period, by the monthly roll-up,
/// at least [`MIN_YEARLY_PAYMENTS`] debits (in the main currency, of the kinds a
/// recurring payment counts) and no more than any series can have.
async fn candidate_merchants(
    db: &mut AnyConnection,
    user: UserId,
    filters: &Filters<'_>,
    any_kind: bool,
    currency: agent::Currency,
) -> Result<Vec<i64>, BackendError> {
    let sums = super::rollup::sums(db, user, filters, currency, super::rollup::By::Merchant, true).await?;
    let mut debits: BTreeMap<i64, i64> = BTreeMap::new();
    for s in sums.iter().filter(|s| s.currency == currency && s.counts_as("expense", any_kind)) {
        *debits.entry(s.id()).or_default() += s.debits;
    }
    let days = filters.period.end.to_days() - filters.period.start.to_days();
    let fits = |n: i64| n >= MIN_YEARLY_PAYMENTS as i64 && n <= max_payments(days);
    Ok(debits.into_iter().filter(|(id, n)| *id != 0 && fits(*n)).map(|(id, _)| id).collect())
}

/// Debits that repeat at a regular interval with a stable amount, found over the
/// period. Series are the debits of one merchant, or of one normalised label when
/// there is no merchant; transfers are left out unless their category is asked for.
/// Only lines in the main currency count.
pub(super) async fn recurring_payments(
    db: &mut AnyConnection,
    user: UserId,
    known: &Known,
    a: &RecurringArgs,
    locale: Locale,
) -> Result<RecurringResult, BackendError> {
    let Scope { category, merchant, currency, .. } = scope(
        db,
        user,
        known,
        Names { category: a.category.as_deref(), merchant: a.merchant.as_deref(), account: None },
        locale,
    )
    .await?;
    let filters = Filters {
        category: a.category.as_deref(),
        merchant: a.merchant.as_deref(),
        ..Filters::new(&a.period)
    };
    // Only the lines that can make a series are read: those without a merchant (grouped
    // by label), and those of a merchant paid at least twice but no more often than a
    // series can be (not groceries several times a week). Counted from the roll-up.
    let candidates = candidate_merchants(db, user, &filters, a.category.is_some(), currency).await?;
    // Two reads, each served by the (user, merchant, date) index; one `OR` of both
    // would read every line of the period. Only what finding a series needs is read:
    // the names of the few that are found come after.
    let ids: Vec<String> = candidates.iter().map(i64::to_string).collect();
    let mut wanted = vec!["t.merchant_id IS NULL".to_string()];
    if !ids.is_empty() {
        wanted.push(format!("t.merchant_id IN ({})", ids.join(", ")));
    }
    let mut lines = Vec::new();
    for merchants in wanted {
        let sql = format!(
            "SELECT t.id, t.date, t.raw_label, t.amount_minor, t.merchant_id, t.category_id
             FROM transactions t
             WHERE {} AND t.amount_minor < 0 AND t.currency = $11 AND ($4 IS NOT NULL OR {}) AND {merchants}",
            filters.matching(2, 3),
            of_kind("expense")
        );
        let rows: Vec<LineRow> =
            filters.bind_as(&sql, user, currency)?.bind(currency.as_str()).fetch_all(&mut *db).await?;
        for r in rows {
            lines.push(Line {
                id: r.id,
                date: Date::parse_iso(&r.date)
                    .ok_or_else(|| BackendError::Corrupt(format!("transaction date {:?}", r.date)))?,
                label: r.raw_label,
                amount: r.amount_minor.saturating_neg(),
                merchant: r.merchant_id,
                category: r.category_id,
            });
        }
    }
    lines.sort_by_key(|l| (l.date, l.id));
    let mut series: BTreeMap<(i64, String), Vec<&Line>> = BTreeMap::new();
    for l in &lines {
        let key = match l.merchant {
            Some(m) => (m, String::new()),
            None => (0, normalise_label(&l.label)),
        };
        series.entry(key).or_default().push(l);
    }
    let long_lookback = a.period.start.add_months_keep_day(13) <= a.period.end;
    let mut found = Vec::new();
    for lines in series.into_values() {
        // Amounts first: payments far from the typical one (a yearly adjustment among
        // fixed instalments) are not part of the recurring payment.
        let amounts: Vec<i64> = lines.iter().map(|l| l.amount).collect();
        let Some(regular) = regular_amounts(&amounts) else { continue };
        let lines: Vec<&Line> =
            lines.iter().zip(&regular).filter(|(_, keep)| **keep).map(|(l, _)| *l).collect();
        let dates: Vec<Date> = lines.iter().map(|l| l.date).collect();
        let Some(cadence) = detect(&dates, long_lookback) else { continue };
        let amounts: Vec<i64> = lines.iter().map(|l| l.amount).collect();
        let Some(amount) = median(&amounts) else { continue };
        found.push((lines, cadence, amount));
    }
    // The names of the series found: their merchants and categories.
    let merchant_ids: Vec<i64> = found.iter().filter_map(|(lines, ..)| lines.first()?.merchant).collect();
    let category_ids: Vec<i64> =
        found.iter().flat_map(|(lines, ..)| lines.iter().filter_map(|l| l.category)).collect();
    let merchants = super::rollup::names(db, user, Entity::Merchant, &merchant_ids, locale).await?;
    let categories = super::rollup::names(db, user, Entity::Category, &dedup(category_ids), locale).await?;
    let entity = |names: &std::collections::HashMap<i64, (String, String)>, id: i64| {
        names.get(&id).map(|(key, label)| EntityRef { key: key.clone(), label: label.clone() })
    };
    let mut items = Vec::new();
    for (lines, cadence, amount) in found {
        let (Some(first), Some(last)) = (lines.first(), lines.last()) else { continue };
        // The series' category: the one most of its payments are booked in.
        let mut counted: BTreeMap<(&str, &str), usize> = BTreeMap::new();
        for l in &lines {
            if let Some((k, label)) = l.category.and_then(|c| categories.get(&c)) {
                *counted.entry((k.as_str(), label.as_str())).or_default() += 1;
            }
        }
        let category = counted
            .into_iter()
            .max_by(|x, y| x.1.cmp(&y.1).then(y.0.cmp(&x.0)))
            .map(|((key, label), _)| EntityRef { key: key.to_string(), label: label.to_string() });
        let merchant = first.merchant.and_then(|m| entity(&merchants, m));
        let label =
            merchant.as_ref().map(|m| m.label.clone()).unwrap_or_else(|| normalise_label(&first.label));
        items.push(RecurringItem {
            merchant,
            label,
            category,
            cadence,
            amount: Money::new(amount, currency),
            count: u32::try_from(lines.len()).unwrap_or(u32::MAX),
            first_date: first.date,
            last_date: last.date,
            next_date: next_date(last.date, cadence),
            yearly_cost: Money::new(amount.saturating_mul(per_year(cadence)), currency),
            source_ids: lines.iter().map(|l| l.id).collect(),
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

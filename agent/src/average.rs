//! Averages of a total over a period: per month, week, day or transaction. Pure
//! integer arithmetic on minor units — no `f64` touches money.
//!
//! Months are calendar months: a whole month counts 1, a month the period covers in
//! part counts its share of days (1–21 November is 21/30), and a month with no
//! transaction counts as zero — "average monthly spend in 2025" divides by 12 even if
//! March had none.

use crate::args::{AveragePer, Period};
use crate::date::Date;
use crate::money::Money;
use crate::tools::Average;

/// A common multiple of every month's length (28, 29, 30, 31 days): a month's share of
/// days is a whole number of these units.
const MONTH_UNITS: i128 = 377_580;

/// `total` (positive) over `period`, or over `count` transactions, per `per`; `None`
/// when there is nothing to divide by (no transaction, an empty period).
pub fn average(total: Money, count: u32, period: &Period, per: AveragePer) -> Option<Average> {
    let days = i128::from(period.end.to_days() - period.start.to_days());
    // The divisor as a fraction `num / den`.
    let (num, den) = match per {
        AveragePer::Day => (days, 1),
        AveragePer::Week => (days, 7),
        AveragePer::Transaction => (i128::from(count), 1),
        AveragePer::Month => (month_units(period.start, period.end), MONTH_UNITS),
    };
    if num <= 0 {
        return None;
    }
    // total ÷ (num / den) = total × den ÷ num.
    let amount = i64::try_from(div_round(i128::from(total.minor) * den, num)).ok()?;
    let over_hundredths = u64::try_from(div_round(num * 100, den)).ok()?;
    Some(Average { per, amount: Money::new(amount, total.currency), over_hundredths })
}

/// The months `[start, end)` covers, in `1 / MONTH_UNITS` of a month.
fn month_units(start: Date, end: Date) -> i128 {
    let mut units = 0i128;
    let mut first = start.first_of_month();
    while first < end {
        let next = first.add_months(1);
        let from = if start > first { start } else { first };
        let to = if end < next { end } else { next };
        let covered = i128::from(to.to_days() - from.to_days());
        let length = i128::from(next.to_days() - first.to_days());
        units += covered * (MONTH_UNITS / length);
        first = next;
    }
    units
}

/// `n / d` rounded half away from zero; `d > 0`.
fn div_round(n: i128, d: i128) -> i128 {
    let (q, r) = (n / d, n % d);
    if 2 * r.abs() >= d {
        q + n.signum()
    } else {
        q
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::locale::Locale;
    use crate::money::Currency;
    use crate::period;

    fn eur(minor: i64) -> Money {
        Money::new(minor, Currency::new("EUR").unwrap())
    }

    #[test]
    fn a_year_is_twelve_months_and_a_month_without_spending_counts_as_zero() {
        let y = period::year(2025, Locale::Fr).unwrap();
        let a = average(eur(120_000), 3, &y, AveragePer::Month).unwrap();
        assert_eq!((a.amount.minor, a.over_hundredths), (10_000, 1200));
        // 365 days is 52.14 weeks.
        let w = average(eur(36_500), 3, &y, AveragePer::Week).unwrap();
        assert_eq!((w.amount.minor, w.over_hundredths), (700, 5214));
        let d = average(eur(36_500), 3, &y, AveragePer::Day).unwrap();
        assert_eq!((d.amount.minor, d.over_hundredths), (100, 36500));
        let t = average(eur(100), 3, &y, AveragePer::Transaction).unwrap();
        assert_eq!((t.amount.minor, t.over_hundredths), (33, 300));
    }

    #[test]
    fn a_month_in_part_counts_its_share_of_days() {
        // 1 January to 21 November 2026 included: 10 months and 21/30 of November.
        let p = period::range(Date::new(2026, 1, 1).unwrap(), Date::new(2026, 11, 22).unwrap(), Locale::En);
        let a = average(eur(1_070_000), 1, &p, AveragePer::Month).unwrap();
        assert_eq!(a.over_hundredths, 1070);
        assert_eq!(a.amount.minor, 100_000);
        // February 2024 has 29 days: 15 of them are 15/29 of a month.
        let feb = period::range(Date::new(2024, 2, 1).unwrap(), Date::new(2024, 2, 16).unwrap(), Locale::En);
        assert_eq!(month_units(feb.start, feb.end), 15 * MONTH_UNITS / 29);
    }

    #[test]
    fn nothing_to_divide_by_is_no_average() {
        let y = period::year(2025, Locale::Fr).unwrap();
        assert_eq!(average(eur(0), 0, &y, AveragePer::Transaction), None);
        let empty = Period { end: y.start, ..y };
        assert_eq!(average(eur(100), 1, &empty, AveragePer::Month), None);
    }

    #[test]
    fn halves_round_away_from_zero() {
        assert_eq!(div_round(5, 2), 3);
        assert_eq!(div_round(-5, 2), -3);
        assert_eq!(div_round(4, 3), 1);
    }
}

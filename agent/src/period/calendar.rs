//! The periods Sou names — a day, a week, a month, a quarter, a year, a range of
//! days — and the arithmetic between them: a step back or forth, the period before,
//! the period a comparison means.

use crate::args::Period;
use crate::date::Date;
use crate::locale::Locale;
use crate::wording;

pub fn month(start: Date, locale: Locale) -> Period {
    let start = start.first_of_month();
    Period {
        start,
        end: start.add_months(1),
        label: wording::month_label(start, locale),
        words: String::new(),
    }
}

pub fn year(y: i32, locale: Locale) -> Option<Period> {
    let start = Date::new(y, 1, 1)?;
    Some(Period {
        start,
        end: start.add_months(12),
        label: wording::year_label(y, locale),
        words: String::new(),
    })
}

pub(super) fn week(monday: Date, locale: Locale) -> Period {
    Period {
        start: monday,
        end: monday.add_days(7),
        label: wording::week_label(monday, locale),
        words: String::new(),
    }
}

pub(super) fn day(d: Date, locale: Locale) -> Period {
    Period { start: d, end: d.add_days(1), label: wording::day_label(d, locale), words: String::new() }
}

/// The period Sou uses when the message names none.
pub fn default_period(today: Date, locale: Locale) -> Period {
    month(today, locale)
}

/// Today, as a one-day period: what "my balance" means.
pub fn today(today: Date, locale: Locale) -> Period {
    let mut p = day(today, locale);
    p.label = wording::today_label(&p.label, locale);
    p
}

/// The last `n` months up to and including today: the look-back for recurring payments.
pub fn last_months(today: Date, n: u32, locale: Locale) -> Period {
    let end = today.add_days(1);
    let start = today.add_months_keep_day(-(n as i32)).add_days(1);
    let mut p = range(start, end, locale);
    p.label = wording::last_months_label(n, &p.label, locale);
    p
}

/// Everything up to and including today (from 2000): where "the last time", "the first
/// time" and "since when" look when the message names no period.
pub fn ever(today: Date, locale: Locale) -> Period {
    let start = Date::new(2000, 1, 1).unwrap_or(today);
    let label = locale.pick("tout l'historique", "all history").to_string();
    Period { start, end: today.add_days(1), label, words: String::new() }
}

/// A unit a follow-up can step by: "le mois précédent", "the year after".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    Day,
    Week,
    Month,
    Quarter,
    Year,
}

/// The `unit` that contains `p.start`, moved by `n` units: "the month before" a plan on
/// January 2026 is December 2025, whatever today is.
pub fn step(p: &Period, unit: Unit, n: i32, locale: Locale) -> Period {
    match unit {
        Unit::Day => day(p.start.add_days(i64::from(n)), locale),
        Unit::Week => {
            let monday = p.start.add_days(-i64::from(p.start.weekday()));
            week(monday.add_days(7 * i64::from(n)), locale)
        }
        Unit::Month => month(p.start.first_of_month().add_months(n), locale),
        Unit::Quarter => {
            let first = p.start.first_of_month().add_months(-(((p.start.month() - 1) % 3) as i32));
            let start = first.add_months(3 * n);
            quarter(start.year(), (start.month() - 1) / 3 + 1, locale)
                .unwrap_or_else(|| range(start, start.add_months(3), locale))
        }
        // A year before a whole year is the previous year; before January 2026 it is
        // January 2025, the same stretch of days a year earlier.
        Unit::Year => {
            let whole_year = p.start.day() == 1 && p.start.month() == 1 && p.start.add_months(12) == p.end;
            match year(p.start.year() + n, locale) {
                Some(y) if whole_year => y,
                _ => range(p.start.add_months_keep_day(12 * n), p.end.add_months_keep_day(12 * n), locale),
            }
        }
    }
}

pub(super) fn quarter(year: i32, q: u32, locale: Locale) -> Option<Period> {
    let start = Date::new(year, (q - 1) * 3 + 1, 1)?;
    Some(Period {
        start,
        end: start.add_months(3),
        label: wording::quarter_label(year, q, locale),
        words: String::new(),
    })
}

/// A period named the way Sou names it: a month, a quarter, a year, or a range of days.
pub fn range(start: Date, end: Date, locale: Locale) -> Period {
    let whole_year = start.day() == 1 && start.month() == 1 && start.add_months(12) == end;
    let whole_quarter =
        start.day() == 1 && (start.month() - 1).is_multiple_of(3) && start.add_months(3) == end;
    if whole_year {
        if let Some(p) = year(start.year(), locale) {
            return p;
        }
    }
    if whole_quarter {
        if let Some(p) = quarter(start.year(), (start.month() - 1) / 3 + 1, locale) {
            return p;
        }
    }
    let label = wording::range_label(start, end, locale);
    Period { start, end, label, words: String::new() }
}

/// The period of the same length just before `p`: the previous month, quarter or year,
/// or as many days before.
pub fn preceding(p: &Period, locale: Locale) -> Period {
    let months = months_between(p.start, p.end);
    match months {
        Some(n) => range(p.start.add_months(-n), p.start, locale),
        None => {
            let days = p.end.to_days() - p.start.to_days();
            range(p.start.add_days(-days), p.start, locale)
        }
    }
}

/// Whole months from `a` to `b` when both are first days of a month.
fn months_between(a: Date, b: Date) -> Option<i32> {
    if a.day() != 1 || b.day() != 1 {
        return None;
    }
    let n = (b.year() - a.year()) * 12 + b.month() as i32 - a.month() as i32;
    (n > 0).then_some(n)
}

/// What "compared with `reference`" means for `current`: "janvier 2026 vs 2025" is
/// January 2025 — a whole year as reference for a shorter period shifts the period
/// into that year. Otherwise the reference is taken as said.
pub fn against(current: &Period, reference: &Period, locale: Locale) -> Period {
    let whole_year = reference.start.day() == 1
        && reference.start.month() == 1
        && reference.start.add_months(12) == reference.end;
    let within_a_year = current.end.to_days() - current.start.to_days() < 365;
    if whole_year && within_a_year {
        let years = reference.start.year() - current.start.year();
        let start = current.start.add_months_keep_day(12 * years);
        let end = current.end.add_months_keep_day(12 * years);
        if start < end {
            return range(start, end, locale);
        }
    }
    reference.clone()
}

/// "more than last year", "moins que le mois dernier": a whole year or month named
/// only as what to compare with means the current one so far, against the same days
/// of that one — this year to date against the same dates last year. `None` when
/// `reference` is not a whole year or month already over.
pub fn to_date_against(reference: &Period, today: Date, locale: Locale) -> Option<(Period, Period)> {
    let end = today.add_days(1);
    let r = reference;
    let whole_year = r.start.day() == 1 && r.start.month() == 1 && r.start.add_months(12) == r.end;
    let whole_month = r.start.day() == 1 && r.start.add_months(1) == r.end;
    if whole_year && r.start.year() < today.year() {
        let start = Date::new(today.year(), 1, 1)?;
        let mut current = range(start, end, locale);
        current.label = wording::year_to_date_label(&current.label, locale);
        let years = today.year() - r.start.year();
        let reference = range(r.start, end.add_months_keep_day(-12 * years), locale);
        return Some((current, reference));
    }
    if whole_month && r.end <= today.first_of_month() {
        let current = range(today.first_of_month(), end, locale);
        let days = i64::from(today.day());
        let ref_end = r.start.add_days(days).min(r.end);
        return Some((current, range(r.start, ref_end, locale)));
    }
    None
}

/// "this quarter vs last quarter", "cet automne par rapport à l'an dernier": a period
/// under way (`current`) against one like it already over (`reference`) — the current
/// one so far, against as many days of the other (counted in months and days when
/// both start on the 1st). `None` when `current` is not under way, `reference` is not
/// over or the two are not alike in length.
pub fn so_far_against(
    current: &Period,
    reference: &Period,
    today: Date,
    locale: Locale,
) -> Option<(Period, Period)> {
    let end = today.add_days(1);
    let len = |p: &Period| p.end.to_days() - p.start.to_days();
    let under_way = current.start <= today && end < current.end;
    if !under_way || reference.end > current.start || (len(current) - len(reference)).abs() > 3 {
        return None;
    }
    let ref_end = if current.start.day() == 1 && reference.start.day() == 1 {
        let index = |d: Date| d.year() * 12 + d.month() as i32;
        let months = index(today) - index(current.start);
        reference.start.add_months(months).add_days(i64::from(today.day()))
    } else {
        reference.start.add_days(end.to_days() - current.start.to_days())
    };
    Some((range(current.start, end, locale), range(reference.start, ref_end.min(reference.end), locale)))
}

/// Every period of a call named again from its dates alone, in `locale`, with no words:
/// a plan sent by a client carries a label and words that are not trusted (one saying
/// "janvier 2026" over March would be repeated in the answer and a shared report).
pub fn renamed(call: &mut crate::tool::ToolCall, locale: Locale) {
    use crate::tool::ToolCall;
    let mut periods: Vec<&mut Period> = Vec::new();
    match call {
        ToolCall::ComparePeriods(a) => periods.extend([&mut a.current, &mut a.reference]),
        ToolCall::QueryDataset(a) => {
            if let Some(p) = a.period.as_mut() {
                p.label = wording::range_label(p.start, p.end, locale);
            }
        }
        other => periods.extend(other.period_mut()),
    }
    for p in periods {
        *p = range(p.start, p.end, locale);
    }
}

/// The same period named in another language (its words stay the user's).
pub fn relabel(p: Period, locale: Locale) -> Period {
    let is_month = p.start.day() == 1 && p.start.add_months(1) == p.end;
    let is_year = p.start.day() == 1 && p.start.month() == 1 && p.start.add_months(12) == p.end;
    let label = if is_month {
        wording::month_label(p.start, locale)
    } else if is_year {
        year(p.start.year(), locale).map(|y| y.label).unwrap_or(p.label.clone())
    } else {
        p.label.clone()
    };
    Period { label, ..p }
}

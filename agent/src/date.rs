//! A proleptic Gregorian calendar date, small enough for the browser bundle.
//!
//! The parser only needs "first of month", "add months" and day arithmetic, so this
//! is a few dozen lines instead of a date crate. Serialized as `YYYY-MM-DD`.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Date {
    year: i32,
    month: u8,
    day: u8,
}

impl Date {
    /// A valid date, or `None` (31 February, month 13, years outside 1..=9999).
    pub fn new(year: i32, month: u32, day: u32) -> Option<Date> {
        if !(1..=9999).contains(&year) || !(1..=12).contains(&month) || day == 0 {
            return None;
        }
        let month = month as u8;
        if day > u32::from(days_in_month(year, month)) {
            return None;
        }
        Some(Date { year, month, day: day as u8 })
    }

    pub fn year(self) -> i32 {
        self.year
    }
    pub fn month(self) -> u32 {
        u32::from(self.month)
    }
    pub fn day(self) -> u32 {
        u32::from(self.day)
    }

    pub fn first_of_month(self) -> Date {
        Date { day: 1, ..self }
    }

    /// The first day of the month `n` months away from this date's month.
    pub fn add_months(self, n: i32) -> Date {
        let index = self.year * 12 + i32::from(self.month) - 1 + n;
        let year = index.div_euclid(12).clamp(1, 9999);
        let month = (index.rem_euclid(12) + 1) as u8;
        Date { year, month, day: 1 }
    }

    /// The same day `n` months away, clamped to the month's length (31 Jan + 1 = 28 Feb).
    pub fn add_months_keep_day(self, n: i32) -> Date {
        let first = self.add_months(n);
        let day = self.day.min(days_in_month(first.year, first.month));
        Date { day, ..first }
    }

    pub fn add_days(self, n: i64) -> Date {
        Date::from_days(self.to_days() + n)
    }

    /// 0 = Monday … 6 = Sunday.
    pub fn weekday(self) -> u32 {
        // 1970-01-01 was a Thursday (3).
        (self.to_days() + 3).rem_euclid(7) as u32
    }

    /// Days since 1970-01-01 (Howard Hinnant's `days_from_civil`).
    pub fn to_days(self) -> i64 {
        let y = i64::from(self.year) - i64::from(self.month <= 2);
        let era = y.div_euclid(400);
        let yoe = y - era * 400;
        let m = i64::from(self.month);
        let mp = (m + 9) % 12;
        let doy = (153 * mp + 2) / 5 + i64::from(self.day) - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        era * 146_097 + doe - 719_468
    }

    pub fn from_days(z: i64) -> Date {
        let z = z + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z - era * 146_097;
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = (doy - (153 * mp + 2) / 5 + 1) as u8;
        let month = if mp < 10 { mp + 3 } else { mp - 9 } as u8;
        let year = (yoe + era * 400 + i64::from(month <= 2)) as i32;
        Date { year: year.clamp(1, 9999), month, day }
    }

    /// Parses `YYYY-MM-DD`.
    pub fn parse_iso(s: &str) -> Option<Date> {
        let b = s.as_bytes();
        if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
            return None;
        }
        let year = s.get(0..4)?.parse().ok()?;
        let month = s.get(5..7)?.parse().ok()?;
        let day = s.get(8..10)?.parse().ok()?;
        Date::new(year, month, day)
    }
}

pub fn days_in_month(year: i32, month: u8) -> u8 {
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        _ if (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 => 29,
        _ => 28,
    }
}

impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

impl Serialize for Date {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Date {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        Date::parse_iso(&s)
            .ok_or_else(|| serde::de::Error::custom(format!("invalid date {s:?}, expected YYYY-MM-DD")))
    }
}

#[cfg(feature = "schema")]
impl schemars::JsonSchema for Date {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Date".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "format": "date",
            "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$",
            "description": "A calendar date, YYYY-MM-DD"
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_days() {
        for z in -719_000..2_900_000i64 {
            if z % 997 != 0 {
                continue;
            }
            let d = Date::from_days(z);
            assert_eq!(d.to_days(), z, "{d}");
        }
        assert_eq!(Date::new(1970, 1, 1).map(Date::to_days), Some(0));
        assert_eq!(Date::new(2026, 11, 21).map(Date::weekday), Some(5));
    }

    #[test]
    fn months_and_validation() {
        let d = Date::new(2026, 1, 31).unwrap();
        assert_eq!(d.add_months(1).to_string(), "2026-02-01");
        assert_eq!(d.add_months(-1).to_string(), "2025-12-01");
        assert_eq!(d.add_months(-13).to_string(), "2024-12-01");
        assert!(Date::new(2025, 2, 29).is_none());
        assert!(Date::new(2024, 2, 29).is_some());
        assert_eq!(Date::parse_iso("2026-02-28"), Date::new(2026, 2, 28));
        assert_eq!(Date::parse_iso("2026-2-28"), None);
        assert_eq!(Date::parse_iso("2026-02-30"), None);
    }
}

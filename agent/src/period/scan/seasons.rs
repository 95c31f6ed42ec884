//! Seasons: "l'été dernier", "cet hiver", "summer 2025", "au printemps"; "winter 2025",
//! which may be either of two winters.

use super::{Hit, Scanner};
use crate::args::Period;
use crate::date::Date;
#[cfg(feature = "readings")]
use crate::period::calendar::range;
use crate::wording;

impl Scanner<'_> {
    /// "l'été dernier", "cet hiver", "summer 2025", "last winter": meteorological
    /// seasons (spring from March, summer from June, autumn from September, winter from
    /// December; "winter 2026" is the one whose January is in 2026).
    pub(super) fn season(&self, i: usize) -> Option<(Period, usize)> {
        // The season word, with an optional article or qualifier before it.
        let (lead, s) = match self.word(i)? {
            "l" | "cet" | "cette" | "this" | "last" | "the" | "en" | "in" | "le" | "au" | "over"
            | "during" => (true, i + 1),
            _ => (false, i),
        };
        let w = self.word(s)?;
        let (start_month, fr, en) = match w {
            "printemps" | "spring" => (3, "printemps", "spring"),
            "ete" | "summer" => (6, "été", "summer"),
            "automne" | "autumn" | "fall" => (9, "automne", "autumn"),
            "hiver" | "winter" => (12, "hiver", "winter"),
            _ => return None,
        };
        let before = if lead { self.word(i) } else { None };
        let after = self.word(s + 1);
        let y = self.year(s + 1);
        let last_word = matches!(after, Some("dernier" | "passe")) || before == Some("last");
        let this_word = matches!(before, Some("cet" | "cette" | "this"));
        // "été" is also "been", "fall" a verb: without a year or qualifier, no season.
        if y.is_none()
            && !last_word
            && !this_word
            && !matches!(before, Some("l" | "the" | "en" | "in" | "au" | "over" | "during"))
        {
            return None;
        }
        // "winter 2025" may be the one that ends in 2025 or the one that starts in it:
        // read by `winter_of`, which asks which.
        if start_month == 12 && y.is_some() && !last_word && !this_word {
            return None;
        }
        let start_of = |year: i32| {
            let y = if start_month == 12 { year - 1 } else { year };
            Date::new(y, start_month, 1)
        };
        let (start, last) = match y {
            Some(y) => (start_of(y)?, s + 1),
            None => {
                // The latest such season that has started; "dernier" wants one that ended.
                let mut year = self.today.year() + 1;
                let mut start = start_of(year)?;
                while start > self.today || (last_word && start.add_months(3) > self.today) {
                    year -= 1;
                    start = start_of(year)?;
                }
                (start, if matches!(after, Some("dernier" | "passe")) { s + 1 } else { s })
            }
        };
        let end = start.add_months(3);
        let label_year = end.add_days(-1).year();
        let label = wording::season_label(fr, en, label_year, self.locale);
        Some((Period { start, end, label, words: String::new() }, last))
    }

    /// The browser's parser reads "cet hiver" one way, the latest winter begun; the
    /// server asks which (feature `readings`).
    #[cfg(not(feature = "readings"))]
    pub(super) fn this_season_either(&self, _: usize) -> Option<Hit> {
        None
    }

    /// "cet hiver" at the end of November: the winter that starts in two days, or the
    /// one that ended in March? Outside its season, "this <season>" whose next one is
    /// less than two months away is either; both are offered.
    #[cfg(feature = "readings")]
    pub(super) fn this_season_either(&self, i: usize) -> Option<Hit> {
        if !matches!(self.word(i)?, "cet" | "cette" | "this") || self.year(i + 2).is_some() {
            return None;
        }
        let start_month = match self.word(i + 1)? {
            "printemps" | "spring" => 3,
            "ete" | "summer" => 6,
            "automne" | "autumn" | "fall" => 9,
            "hiver" | "winter" => 12,
            _ => return None,
        };
        let mut started = Date::new(self.today.year(), start_month, 1)?;
        if started > self.today {
            started = started.add_months(-12);
        }
        let next = started.add_months(12);
        let in_season = self.today < started.add_months(3);
        if in_season || next > self.today.add_days(62) {
            return None;
        }
        let season = |start: Date| range(start, start.add_months(3), self.locale);
        let parts = vec![season(started), season(next)];
        Some(Hit { period: parts[0].clone(), last: i + 1, parts, apart: true, wrapped: false })
    }

    /// The browser's parser leaves "winter 2025" unread (it would not fit its bundle);
    /// the server reads it (feature `readings`).
    #[cfg(not(feature = "readings"))]
    pub(super) fn winter_of(&self, _: usize) -> Option<Hit> {
        None
    }

    /// "l'hiver 2025", "winter 2025": the winter that ends in 2025 or the one that
    /// starts in it, both offered; "hiver 2025-2026", "winter 2025/26": the one between.
    #[cfg(feature = "readings")]
    pub(super) fn winter_of(&self, i: usize) -> Option<Hit> {
        let s = if matches!(self.word(i)?, "l" | "the" | "en" | "in" | "le") { i + 1 } else { i };
        if !matches!(self.word(s)?, "hiver" | "winter") {
            return None;
        }
        let y = self.year(s + 1)?;
        let next = self
            .number(s + 2)
            .map(i64::from)
            .filter(|&n| n == i64::from(y + 1) || n == i64::from((y + 1) % 100));
        let winter = |first: i32| -> Option<Period> {
            let start = Date::new(first, 12, 1)?;
            Some(range(start, start.add_months(3), self.locale))
        };
        if next.is_some() && self.tokens.get(s + 2).is_some_and(|t| t.start > self.tokens[s + 1].end) {
            let period = winter(y)?;
            return Some(Hit { period, last: s + 2, parts: vec![], apart: false, wrapped: false });
        }
        let parts = vec![winter(y - 1)?, winter(y)?];
        Some(Hit { period: parts[0].clone(), last: s + 1, parts, apart: true, wrapped: false })
    }
}

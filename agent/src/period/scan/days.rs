//! Days and weeks named by their place in the calendar: "mardi dernier", "last
//! Tuesday", "la semaine du 9 novembre", "last December".

use super::{latest_month, month_word, Scanner};
use crate::args::Period;
#[cfg(feature = "readings")]
use crate::period::calendar::week;
use crate::period::calendar::{day, month};

/// A day of the week's number, Monday 0.
pub(crate) fn weekday_number(w: &str) -> Option<i64> {
    Some(match w {
        "lundi" | "monday" => 0,
        "mardi" | "tuesday" => 1,
        "mercredi" | "wednesday" => 2,
        "jeudi" | "thursday" => 3,
        "vendredi" | "friday" => 4,
        "samedi" | "saturday" => 5,
        "dimanche" | "sunday" => 6,
        _ => return None,
    })
}

impl Scanner<'_> {
    /// "last December": the latest December that is over.
    pub(super) fn last_month_named(&self, i: usize) -> Option<(Period, usize)> {
        if !self.is(i, &["last"]) {
            return None;
        }
        let (m, _) = month_word(self.word(i + 1)?)?;
        let start = latest_month(m, self.today)?;
        let start = if start == self.today.first_of_month() { start.add_months(-12) } else { start };
        Some((month(start, self.locale), i + 1))
    }

    /// "la semaine du 9 novembre", "the week of 9 November": the week (Monday to
    /// Sunday) that holds that day.
    #[cfg(not(feature = "readings"))]
    pub(super) fn week_of(&self, _: usize) -> Option<(Period, usize)> {
        None
    }

    #[cfg(feature = "readings")]
    pub(super) fn week_of(&self, i: usize) -> Option<(Period, usize)> {
        let j = i + usize::from(self.is(i, &["la", "the"]));
        // "the week commencing the 9th of November", "week starting 9 November".
        let of = self.is(j + 1, &["du", "de", "of", "commencing", "beginning", "starting"]);
        if !self.is(j, &["semaine", "week"]) || !of {
            return None;
        }
        let k = j + 2 + usize::from(self.is(j + 2, &["le", "the"]));
        let (d, last) = self.date(k)?;
        let monday = d.add_days(-i64::from(d.weekday()));
        Some((week(monday, self.locale), last))
    }

    /// "mardi dernier", "last Tuesday", "samedi", "on Saturday": the latest such day —
    /// before today when "dernier" or "last" says so, else today or before.
    pub(super) fn weekday(&self, i: usize) -> Option<(Period, usize)> {
        let lead = self.is(i, &["last", "ce", "on", "this"]);
        let k = i + usize::from(lead);
        let n = weekday_number(self.word(k)?)?;
        // "lundi 16 novembre": a date, read as one.
        if self.date(k + 1).is_some() {
            return None;
        }
        let after = self.is(k + 1, &["dernier", "passe"]);
        let before_today = after || self.is(i, &["last"]);
        let back = (i64::from(self.today.weekday()) - n).rem_euclid(7);
        let back = if back == 0 && before_today { 7 } else { back };
        let d = self.today.add_days(-back);
        Some((day(d, self.locale), if after { k + 1 } else { k }))
    }
}

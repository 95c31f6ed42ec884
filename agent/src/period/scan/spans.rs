//! Stretches of time said from a point: "the last 3 months", "il y a 2 mois", "depuis
//! le 15", "du 1er au 15 janvier", "entre mars et juin".

use super::*;
use crate::text::number_word;

impl Scanner<'_> {
    /// "les 3 derniers mois", "the last 90 days", "past 2 weeks": a rolling window that
    /// ends today (included).
    pub(super) fn rolling(&self, i: usize) -> Option<(Period, usize)> {
        let mut j = i;
        if self.is(j, &["les", "the", "over", "in", "dans", "sur"]) {
            j += 1;
        }
        if self.is(j, &["the"]) {
            j += 1;
        }
        // "depuis 3 mois", "for 2 weeks now": as long up to today.
        let lead = self
            .is(j, &["last", "past", "derniers", "dernieres", "dernier", "previous", "trailing", "rolling"])
            || (self.is(j, &["depuis", "since"])
                && self.number(j + 1).or_else(|| self.word(j + 1).and_then(number_word)).is_some());
        if lead {
            j += 1;
        }
        // "the past fortnight": two weeks.
        if lead && self.is(j, &["fortnight"]) {
            let end = self.today.add_days(1);
            let mut p = range(end.add_days(-14), end, self.locale);
            p.label = wording::rolling_label(2, 'w', &p.label, self.locale);
            return Some((p, j));
        }
        // "the past 6 months", "the past six months", "les trois derniers mois".
        let n = self.number(j).or_else(|| self.word(j).and_then(number_word))?;
        let mut k = j + 1;
        if !lead && self.is(k, &["derniers", "dernieres", "dernier"]) {
            k += 1;
        }
        let unit = unit_word(self.word(k)?)?;
        let trailing =
            self.is(k + 1, &["derniers", "dernieres", "dernier", "passes", "passees", "glissants"]);
        // "the two weeks ending today", "the 12 months up to today".
        let to_today = if self.is(k + 1, &["ending", "until", "to"]) && self.is(k + 2, &["today"]) {
            2
        } else if self.is(k + 1, &["up"]) && self.is(k + 2, &["to"]) && self.is(k + 3, &["today"]) {
            3
        } else {
            0
        };
        if !lead && !trailing && to_today == 0 && !self.is(j + 1, &["derniers", "dernieres", "dernier"]) {
            return None;
        }
        let last = if trailing { k + 1 } else { k + to_today };
        if n == 0 || n > 120 {
            return None;
        }
        let end = self.today.add_days(1);
        let start = match unit {
            'd' => end.add_days(-i64::from(n)),
            'w' => end.add_days(-7 * i64::from(n)),
            'm' => self.today.add_months_keep_day(-(n as i32)).add_days(1),
            _ => self.today.add_months_keep_day(-12 * n as i32).add_days(1),
        };
        let mut p = range(start, end, self.locale);
        p.label = wording::rolling_label(n, unit, &p.label, self.locale);
        Some((p, last))
    }

    /// "il y a 2 mois", "3 months ago": that calendar month; "il y a 3 jours", "2 days
    /// ago": that day. (Weeks ago — that week, or that day? — and "a month ago" stay
    /// unread, and ask.)
    pub(super) fn ago(&self, i: usize) -> Option<(Period, usize)> {
        let french = self.is(i, &["il"]) && self.is(i + 1, &["y"]) && self.is(i + 2, &["a"]);
        let j = if french { i + 3 } else { i };
        let n = self.number(j)?;
        let unit = unit_word(self.word(j + 1)?)?;
        let last = if french {
            j + 1
        } else if self.is(j + 2, &["ago"]) {
            j + 2
        } else {
            return None;
        };
        match unit {
            'm' if (2..=36).contains(&n) => {
                Some((month(self.today.first_of_month().add_months(-(n as i32)), self.locale), last))
            }
            'd' if (1..=366).contains(&n) => {
                Some((day(self.today.add_days(-i64::from(n)), self.locale), last))
            }
            _ => None,
        }
    }

    /// "de mars à mai 2026", "from March to May", "entre janvier et mars 2025",
    /// "du 1er au 15 janvier", "depuis mars", "since 12/01/2026".
    pub(super) fn span(&self, i: usize) -> Option<(Period, usize)> {
        let w = self.word(i)?;
        if matches!(w, "depuis" | "since") {
            return self.since(i);
        }
        // "1 December 2024 through 31 December 2024", "2026-06-15 to 2026-07-15": two
        // whole dates joined, no "from" before.
        if let Some(found) = self.dates_joined(i) {
            return Some(found);
        }
        if !matches!(w, "de" | "du" | "from" | "between" | "entre") {
            return None;
        }
        // "entre janvier et mars", "between … and …"; "de janvier à mars", "from … to …":
        // "de novembre 2025 et novembre 2026" is two months, not the year between.
        let joiners: &[&str] = if matches!(w, "between" | "entre") {
            &["et", "and", "a", "au", "to"]
        } else {
            &["a", "au", "to", "until", "till", "through", "jusqu"]
        };
        // "entre le 1er et le 15 mars", "between the 1st and the 15th".
        let first = i + 1 + usize::from(self.is(i + 1, &["le", "the"]));
        // Two days: "du 1er au 15 janvier 2026", "from 12/01/2026 to 15/01/2026".
        if let Some((d1, l1)) = self.date(first) {
            return self.date_to_date(d1, l1, joiners);
        }
        if let Some((day1, l1)) = self.day_number(first) {
            return self.day_to_date(day1, l1, joiners);
        }
        self.month_to_month(i, joiners)
    }

    /// "depuis mars", "since 12/01/2026", "depuis le 15", "since Monday": from then up
    /// to today (included).
    fn since(&self, i: usize) -> Option<(Period, usize)> {
        let mut j = if self.is(i + 1, &["le", "the"]) { i + 2 } else { i + 1 };
        // "depuis (le) début (de) septembre", "since the start of June", "since early June".
        let start_of = self.is(j, &["debut", "start", "beginning", "early"]);
        if start_of {
            j += 1;
            if self.is(j, &["de", "d", "of", "du"]) {
                j += 1;
            }
            if self.is(j, &["the"]) {
                j += 1;
            }
        }
        // "depuis le mois de mars", "since the month of March".
        if self.is(j, &["mois", "month"]) && self.is(j + 1, &["de", "d", "of"]) {
            j += 2;
        }
        let end = self.today.add_days(1);
        let (start, last) = self.since_start(i, j, start_of)?;
        let last = self.until_today(last);
        (start < end).then(|| (range(start, end, self.locale), last))
    }

    /// The day a "since" at `i` starts from, its words read from `j` (after "the start
    /// of" when `start_of`), and the last token used.
    fn since_start(&self, i: usize, j: usize, start_of: bool) -> Option<(Date, usize)> {
        let found = if let Some((d, last)) = self.date(j) {
            (d, last)
        } else if let Some((m, year, last)) = self.month_year(j, true) {
            let start = match year {
                Some(y) => Date::new(y, m, 1)?,
                None => latest_month(m, self.today)?,
            };
            (start, last)
        } else if let Some(y) = self.year(j) {
            (Date::new(y, 1, 1)?, j)
        } else if let Some((d, l)) = self.day_number(j).filter(|_| self.is(i + 1, &["le", "the"])) {
            // "since the 15th", "depuis le 15 (du mois)": this month's, or last
            // month's when this month's is still ahead.
            let this = Date::new(self.today.year(), self.today.month(), d)?;
            let start = if this <= self.today { this } else { this.add_months_keep_day(-1) };
            let month_said = (self.is(l + 1, &["du", "of"]) && self.is(l + 2, &["mois", "month"]))
                .then_some(l + 2)
                .or_else(|| {
                    (self.is(l + 1, &["of"]) && self.is(l + 2, &["the"]) && self.is(l + 3, &["month"]))
                        .then_some(l + 3)
                });
            (start, month_said.unwrap_or(l))
        } else if let Some((p, l)) = (!start_of).then(|| self.weekday(j)).flatten() {
            // "depuis lundi", "since Monday": from the latest one.
            (p.start, l)
        } else if start_of && self.is(j, &["mois", "month"]) {
            // "depuis le début du mois": this month so far.
            (self.today.first_of_month(), j)
        } else if start_of && self.is(j, &["annee", "year"]) {
            (Date::new(self.today.year(), 1, 1)?, j)
        } else {
            return None;
        };
        Some(found)
    }

    /// The last token of a "since" ending at `last`, with "… jusqu'à aujourd'hui", "…
    /// until today", "… to date" after it read: as said.
    fn until_today(&self, last: usize) -> usize {
        let until: &[&[&str]] = &[
            &["jusqu", "a", "aujourd", "hui"],
            &["jusqu", "a", "maintenant"],
            &["jusqu", "aujourd", "hui"],
            &["a", "ce", "jour"],
            &["until", "today"],
            &["till", "today"],
            &["until", "now"],
            &["till", "now"],
            &["to", "date"],
            &["till", "date"],
            &["up", "to", "today"],
        ];
        until
            .iter()
            .find(|p| p.iter().enumerate().all(|(k, w)| self.is(last + 1 + k, &[w])))
            .map_or(last, |p| last + p.len())
    }

    /// Two whole dates, each with its year, joined by "to", "through", "au" from `i`.
    fn dates_joined(&self, i: usize) -> Option<(Period, usize)> {
        if let Some((d1, l1)) = self.date(i) {
            if self.is(l1 + 1, &["to", "through", "thru", "until", "till", "au"]) {
                if let Some((d2, l2)) = self.date(l1 + 2) {
                    let dated = |a: usize, b: usize| {
                        (a..=b)
                            .any(|j| self.year(j).is_some() || self.tokens[j].norm.matches('-').count() == 2)
                    };
                    let years = dated(i, l1) && dated(l1 + 2, l2);
                    if years && d1 <= d2 {
                        return Some((range(d1, d2.add_days(1), self.locale), l2));
                    }
                }
            }
        }
        None
    }

    /// Where the second of two days said starts, the first ending at `l1`: after the
    /// joiner, and an article ("au", "le", "the").
    fn second_day(&self, l1: usize) -> usize {
        l1 + 2 + usize::from(self.is(l1 + 2, &["au", "a", "le", "the"]))
    }

    /// From the date `d1` (ending at `l1`) to a date after a joiner: both days included.
    fn date_to_date(&self, d1: Date, l1: usize, joiners: &[&str]) -> Option<(Period, usize)> {
        if self.is(l1 + 1, joiners) {
            let (mut d2, l2) = self.date(self.second_day(l1))?;
            // "between 1 September and 30 November": the end follows the start, even
            // past today, when no year says otherwise.
            if d2 < d1 && !(self.second_day(l1)..=l2).any(|j| self.year(j).is_some()) {
                d2 = d2.add_months_keep_day(12);
            }
            return (d1 <= d2).then(|| (range(d1, d2.add_days(1), self.locale), l2));
        }
        None
    }

    /// From the day `day1` (ending at `l1`) to a date after a joiner, whose month and
    /// year it shares: "du 1er au 15 janvier".
    fn day_to_date(&self, day1: u32, l1: usize, joiners: &[&str]) -> Option<(Period, usize)> {
        if self.is(l1 + 1, joiners) {
            let (d2, l2) = self.date(self.second_day(l1))?;
            let d1 = Date::new(d2.year(), d2.month(), day1)?;
            return (d1 <= d2).then(|| (range(d1, d2.add_days(1), self.locale), l2));
        }
        None
    }

    /// Two months: "de mars à mai 2026", from the month after `i`; a year said once is
    /// both's.
    fn month_to_month(&self, i: usize, joiners: &[&str]) -> Option<(Period, usize)> {
        let (m1, y1, l1) = self.month_year(i + 1, true)?;
        if !self.is(l1 + 1, joiners) {
            return None;
        }
        let (m2, y2, l2) = self.month_year(l1 + 2, true)?;
        let end_month = match (y2, y1) {
            (Some(y), _) => Date::new(y, m2, 1)?,
            (None, Some(y)) => {
                let d = Date::new(y, m2, 1)?;
                if m2 < m1 {
                    d.add_months(12)
                } else {
                    d
                }
            }
            (None, None) => latest_month(m2, self.today)?,
        };
        let start = match y1 {
            Some(y) => Date::new(y, m1, 1)?,
            None => {
                let d = Date::new(end_month.year(), m1, 1)?;
                if d > end_month {
                    d.add_months(-12)
                } else {
                    d
                }
            }
        };
        (start <= end_month).then(|| (range(start, end_month.add_months(1), self.locale), l2))
    }
}

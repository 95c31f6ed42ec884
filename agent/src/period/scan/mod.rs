//! Reading periods out of a message's tokens: months, seasons, quarters, dates,
//! spans ("de janvier à mars"), rolling windows ("the last 90 days") and relative
//! words ("le mois dernier"), resolved against `today`.

mod days;
#[cfg(feature = "readings")]
pub(crate) use days::weekday_number;
mod seasons;
mod spans;

use super::calendar::{day, month, quarter, range, year};
use super::relative::{resolve, Relative, RELATIVE};
use crate::args::Period;
use crate::date::Date;
use crate::locale::Locale;
use crate::text::{Token, TokenKind};
use crate::wording;

/// A month word: (month number, whether it is only a month when a year or a
/// preposition vouches for it — "may", "sept", "mar", "apr").
pub(crate) fn month_word(w: &str) -> Option<(u32, bool)> {
    let m = match w {
        "janvier" | "january" | "janv" | "jan" => (1, false),
        "fevrier" | "february" | "fevr" | "fev" | "feb" | "febuary" => (2, false),
        "mars" | "march" => (3, false),
        "mar" => (3, true),
        "avril" | "april" | "avr" => (4, false),
        // Also an interest rate ("my card's APR").
        "apr" => (4, true),
        "mai" => (5, false),
        "may" => (5, true),
        "juin" | "june" | "jun" => (6, false),
        "juillet" | "july" | "juil" | "jul" => (7, false),
        "aout" | "august" | "aug" => (8, false),
        "septembre" | "september" | "sep" => (9, false),
        "sept" => (9, true),
        "octobre" | "october" | "oct" => (10, false),
        "novembre" | "november" | "nov" => (11, false),
        "decembre" | "december" | "dec" => (12, false),
        _ => return None,
    };
    Some(m)
}

pub(super) fn year_number(t: &Token) -> Option<i32> {
    if t.kind != TokenKind::Number || t.norm.len() != 4 {
        return None;
    }
    let y: i32 = t.norm.parse().ok()?;
    (1970..=2100).contains(&y).then_some(y)
}

const PREPOSITIONS: &[&str] = &[
    "en", "in", "for", "de", "d", "du", "since", "depuis", "pour", "during", "pendant", "of", "au", "on",
    "vs", "versus", "than", "contre",
];

/// Reads periods out of tokens. Every matcher looks at position `i` and returns the
/// period and the index of the last token it used.
pub(super) struct Scanner<'a> {
    pub tokens: &'a [Token],
    pub used: &'a [bool],
    pub today: Date,
    pub locale: Locale,
}

/// The latest month `m` (first day) that has begun by `today`.
fn latest_month(m: u32, today: Date) -> Option<Date> {
    let this_year = Date::new(today.year(), m, 1)?;
    Some(if this_year > today { this_year.add_months(-12) } else { this_year })
}

fn ordinal_word(w: &str) -> Option<u32> {
    match w {
        "premier" | "1er" | "first" | "1st" => Some(1),
        "deuxieme" | "second" | "seconde" | "2e" | "2eme" | "2nd" => Some(2),
        "troisieme" | "third" | "3e" | "3eme" | "3rd" => Some(3),
        "quatrieme" | "dernier" | "fourth" | "4e" | "4eme" | "4th" => Some(4),
        _ => None,
    }
}

fn unit_word(w: &str) -> Option<char> {
    match w {
        // "last 3 mo", "2 yrs", "6 wks": the units as people shorten them.
        "jour" | "jours" | "day" | "days" | "j" | "d" => Some('d'),
        "semaine" | "semaines" | "week" | "weeks" | "wk" | "wks" | "sem" => Some('w'),
        "mois" | "month" | "months" | "mo" | "mos" | "mth" | "mths" => Some('m'),
        "an" | "ans" | "annee" | "annees" | "year" | "years" | "yr" | "yrs" => Some('y'),
        _ => None,
    }
}

impl Scanner<'_> {
    fn free(&self, i: usize) -> bool {
        i < self.tokens.len() && !self.used.get(i).copied().unwrap_or(true)
    }

    /// The normalised word at `i`, if free.
    fn word(&self, i: usize) -> Option<&str> {
        self.free(i).then(|| self.tokens[i].norm.as_str())
    }

    fn is(&self, i: usize, words: &[&str]) -> bool {
        self.word(i).is_some_and(|w| words.contains(&w))
    }

    /// A small whole number at `i` ("3", "12"), if free.
    fn number(&self, i: usize) -> Option<u32> {
        let t = self.tokens.get(i).filter(|_| self.free(i))?;
        if t.kind != TokenKind::Number || t.norm.len() > 4 || !t.norm.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        t.norm.parse().ok()
    }

    fn year(&self, i: usize) -> Option<i32> {
        self.tokens.get(i).filter(|_| self.free(i)).and_then(year_number)
    }

    /// "12", "1er", "1st", "12th": a day of the month, and the last token used.
    fn day_number(&self, i: usize) -> Option<(u32, usize)> {
        let d = self.number(i)?;
        if !(1..=31).contains(&d) {
            return None;
        }
        let suffix = self.word(i + 1).is_some_and(|w| matches!(w, "er" | "st" | "nd" | "rd" | "th" | "e"));
        let adjacent = self.tokens.get(i + 1).is_some_and(|n| n.start == self.tokens[i].end);
        Some(if suffix && adjacent { (d, i + 1) } else { (d, i) })
    }

    /// A month word at `i`, with an optional year after it: (month, year, last).
    fn month_year(&self, i: usize, needs_support_ok: bool) -> Option<(u32, Option<i32>, usize)> {
        let (m, needs_support) = month_word(self.word(i)?)?;
        if let Some(y) = self.year(i + 1) {
            return Some((m, Some(y), i + 1));
        }
        if self.is(i + 1, &["de", "of"]) {
            if let Some(y) = self.year(i + 2) {
                return Some((m, Some(y), i + 2));
            }
        }
        let preposition = i > 0 && PREPOSITIONS.contains(&self.tokens[i - 1].norm.as_str());
        if needs_support && !preposition && !needs_support_ok {
            return None;
        }
        Some((m, None, i))
    }

    /// A calendar day: "12/01/2026", "2026-01-12", "12 janvier 2026", "January 12, 2026".
    fn date(&self, i: usize) -> Option<(Date, usize)> {
        let t = self.tokens.get(i).filter(|_| self.free(i))?;
        // "Monday 16 November", "lundi 16 novembre": the day named twice — read only if
        // both say the same day.
        if let Some(n) = days::weekday_number(&t.norm) {
            let (d, last) = self.date(i + 1)?;
            return (i64::from(d.weekday()) == n).then_some((d, last));
        }
        if t.kind == TokenKind::Number && (t.norm.contains('/') || t.norm.contains('-')) {
            return self.numeric_date(&t.norm).map(|d| (d, i));
        }
        if let Some((d, last_day)) = self.day_number(i) {
            // "the 20th of September".
            let of = usize::from(self.is(last_day + 1, &["of"]));
            if let Some((m, year, last)) = self.month_year(last_day + 1 + of, true) {
                let y = year.unwrap_or_else(|| self.today.year());
                let date = Date::new(y, m, d)?;
                // Without a year, the latest such day not in the future.
                let date = match year {
                    None if date > self.today => Date::new(y - 1, m, d)?,
                    _ => date,
                };
                return Some((date, last));
            }
            return None;
        }
        let (m, _) = month_word(self.word(i)?)?;
        let (d, mut last) = self.day_number(i + 1)?;
        let year = self.year(last + 1);
        if year.is_some() {
            last += 1;
        }
        let y = year.unwrap_or_else(|| self.today.year());
        let date = Date::new(y, m, d)?;
        let date = match year {
            None if date > self.today => Date::new(y - 1, m, d)?,
            _ => date,
        };
        Some((date, last))
    }

    /// Dates written with digits: 12/01/2026 is 12 January in French; in English, a
    /// date either way round (12/01, 01/10: day first in Europe, month first in the US)
    /// is left unread — asked, not guessed — and one that fits one way only (25/12,
    /// 12/25) is read that way. ISO 2026-01-12 is the same everywhere.
    fn numeric_date(&self, s: &str) -> Option<Date> {
        if let Some(d) = Date::parse_iso(s) {
            return Some(d);
        }
        let parts: Vec<&str> = s.split('/').collect();
        let (a, b, y) = match parts.as_slice() {
            [a, b, y] => (a.parse::<u32>().ok()?, b.parse::<u32>().ok()?, Some(y)),
            [a, b] => (a.parse::<u32>().ok()?, b.parse::<u32>().ok()?, None),
            _ => return None,
        };
        let year = match y {
            Some(y) if y.len() == 4 => y.parse::<i32>().ok()?,
            Some(y) if y.len() == 2 => 2000 + y.parse::<i32>().ok()?,
            Some(_) => return None,
            None => self.today.year(),
        };
        let (day, month) = match self.locale {
            Locale::Fr => (a, b),
            Locale::En if a > 12 => (a, b),
            Locale::En if b > 12 || a == b => (b, a),
            Locale::En => return None,
        };
        let date = Date::new(year, month, day)?;
        Some(match y {
            None if date > self.today => Date::new(year - 1, month, day)?,
            _ => date,
        })
    }

    fn relative(&self, i: usize) -> Option<(Period, usize)> {
        // The longest phrase that fits: "this year so far", not "this year".
        let mut best: Option<(Relative, usize)> = None;
        let first = self.word(i)?;
        for (pattern, rel) in RELATIVE {
            if pattern[0] != first || best.is_some_and(|(_, n)| n >= pattern.len()) {
                continue;
            }
            let n = pattern.len();
            if i + n <= self.tokens.len()
                && (i..i + n).all(|j| self.free(j))
                && pattern.iter().zip(&self.tokens[i..i + n]).all(|(p, t)| *p == t.norm)
            {
                // "du mois de mars" names March, not this month.
                if pattern.last() == Some(&"mois")
                    && self.is(
                        i + n,
                        &["de", "d", "dernier", "precedent", "passe", "prochain", "suivant", "en", "avant"],
                    )
                {
                    continue;
                }
                // "de l'année dernière", "de l'année 2025", "of the year before": another year.
                if matches!(pattern.first(), Some(&"de" | &"of" | &"du" | &"dans"))
                    && matches!(pattern.last(), Some(&"annee" | &"year" | &"semaine" | &"trimestre"))
                    && (self.is(
                        i + n,
                        &[
                            "derniere",
                            "passee",
                            "precedente",
                            "prochaine",
                            "suivante",
                            "dernier",
                            "passe",
                            "precedent",
                            "prochain",
                            "suivant",
                            "d",
                            "du",
                            "before",
                            "after",
                        ],
                    ) || self.year(i + n).is_some()
                        // ("de l'année en cours", "en 2025"; not "…, en excluant".)
                        || (self.is(i + n, &["en"])
                            && (self.year(i + n + 1).is_some()
                                || self.is(i + n + 1, &["cours"])
                                || self.month_year(i + n + 1, true).is_some())))
                {
                    continue;
                }
                best = Some((*rel, n));
            }
        }
        best.map(|(rel, n)| (resolve(rel, self.today, self.locale), i + n - 1))
    }

    /// The year a quarter or a half ending at `last` belongs to: "2025", "de 2025",
    /// "of last year", "de l'an dernier", "of the year" (this one), with the last token
    /// used; `None` when the message names none.
    fn year_after(&self, last: usize) -> Option<(i32, usize)> {
        if let Some(y) = self.year(last + 1) {
            return Some((y, last + 1));
        }
        let of = self.is(last + 1, &["de", "of", "du", "d"]);
        let j = if of { last + 2 } else { last + 1 };
        if of {
            if let Some(y) = self.year(j) {
                return Some((y, j));
            }
            // "of the year", "de l'année": this one.
            let article = usize::from(self.is(j, &["the", "l", "cette", "this"]));
            if self.is(j + article, &["year", "annee"]) && !self.is(j + article + 1, &["derniere", "passee"])
            {
                return Some((self.today.year(), j + article));
            }
        }
        // "last year", "de l'an dernier": a relative whole year.
        let (p, l) = self.relative(j)?;
        let whole_year = p.start.day() == 1 && p.start.month() == 1 && p.start.add_months(12) == p.end;
        whole_year.then(|| (p.start.year(), l))
    }

    /// "premier semestre 2026", "the first half of 2025", "H1 2025", "S2",
    /// "second half of last year", "la première moitié de l'année".
    #[cfg(not(feature = "readings"))]
    fn half(&self, _: usize) -> Option<(Period, usize)> {
        None
    }

    #[cfg(feature = "readings")]
    fn half(&self, i: usize) -> Option<(Period, usize)> {
        let j = i + usize::from(self.is(i, &["le", "la", "the"]));
        let (h, last) = if self.is(j, &["h", "s"]) {
            let h = self.number(j + 1).filter(|h| (1..=2).contains(h))?;
            let adjacent = self.tokens.get(j + 1).is_some_and(|n| n.start == self.tokens[j].end);
            if !adjacent {
                return None;
            }
            (h, j + 1)
        } else {
            let (h, after) = match self.number(j).filter(|n| (1..=2).contains(n)) {
                Some(n) => {
                    let suffix = self
                        .word(j + 1)
                        .is_some_and(|w| matches!(w, "er" | "e" | "eme" | "st" | "nd" | "re" | "ere"));
                    (n, if suffix { j + 2 } else { j + 1 })
                }
                None => (
                    match self.word(j)? {
                        "premier" | "premiere" | "first" | "1er" | "1st" => 1,
                        "deuxieme" | "second" | "seconde" | "2e" | "2eme" | "2nd" => 2,
                        // "le dernier semestre", "the last half": the last one that ended,
                        // unless a year says which ("le dernier semestre 2025").
                        "last" | "dernier" | "derniere" => 0,
                        _ => return None,
                    },
                    j + 1,
                ),
            };
            if !self.is(after, &["semestre", "half", "moitie"]) {
                return None;
            }
            (h, after)
        };
        if h > 2 {
            return None;
        }
        let (h, last) = match (h, self.year_after(last)) {
            (0, Some((y, l))) => return self.half_period(y, 2, l),
            (0, None) if self.today.month() >= 7 => return self.half_period(self.today.year(), 1, last),
            (0, None) => return self.half_period(self.today.year() - 1, 2, last),
            (h, _) => (h, last),
        };
        let (year, last) = match self.year_after(last) {
            Some(found) => found,
            // The latest such half that has begun.
            None if h == 2 && self.today.month() < 7 => (self.today.year() - 1, last),
            None => (self.today.year(), last),
        };
        self.half_period(year, h, last)
    }

    #[cfg(feature = "readings")]
    fn half_period(&self, year: i32, h: u32, last: usize) -> Option<(Period, usize)> {
        let start = Date::new(year, (h - 1) * 6 + 1, 1)?;
        let label = wording::half_label(year, h, self.locale);
        Some((Period { start, end: start.add_months(6), label, words: String::new() }, last))
    }

    /// Months joined by "and"/"et"/"or"/"ou", by a comma or nothing ("janvier, février
    /// et mars"), or by "to"/"à"/"au"/"through"/"until"/"jusqu'à": "juin et juillet 2025",
    /// "January to March", "décembre 2025 et janvier 2026", "janvier ou mars". A year
    /// names the months before it that have none ("June and July 2025"). A range
    /// ("to") is one period; a list's months are `apart`, each asked for, and, in the
    /// order typed, its `parts`.
    fn months(&self, i: usize) -> Option<Hit> {
        let (m, y, mut last) = self.month_year(i, true)?;
        let mut named = vec![(m, y)];
        let (mut through, mut either) = (false, false);
        loop {
            let j = last + 1;
            let to = self.is(j, &["to", "through", "thru", "until", "till", "a", "au", "jusqu"]);
            let and = self.is(j, &["and", "et", "or", "ou"]);
            let k = if self.is(j, &["jusqu"]) && self.is(j + 1, &["a", "en"]) {
                j + 2
            } else if to || and {
                j + 1
            } else {
                j
            };
            let Some((m, y, l)) = self.month_year(k, true) else { break };
            either |= self.is(j, &["or", "ou"]);
            through |= to;
            named.push((m, y));
            last = l;
            if to {
                break;
            }
        }
        if named.len() < 2 || (through && named.len() > 2) {
            return None;
        }
        // "compare octobre à septembre": with no "de" or "from" before it, and no year, a
        // span ending a month or two before the month it starts with is no span (a year?),
        // but two months set against each other.
        let from = i > 0 && self.is(i - 1, &["de", "d", "du", "from"]);
        let back = named[0].0.saturating_sub(named[1].0);
        if through && !from && named.iter().all(|(_, y)| y.is_none()) && (1..=2).contains(&back) {
            return None;
        }
        // Years: a stated year carries forward to the months after it, then back to
        // the months before it; with none, the last month is the latest such month.
        // Going back, a later month number means the year before.
        let mut years: Vec<Option<i32>> = named.iter().map(|(_, y)| *y).collect();
        // Whether a year was carried over a turn of the year ("décembre et janvier 2026"):
        // the months are then read as written in date order, which a comparison cannot
        // assume ("compare mars et janvier 2026").
        let mut wrapped = false;
        for k in 1..named.len() {
            if years[k].is_none() {
                if let Some(prev) = years[k - 1] {
                    wrapped |= named[k].0 < named[k - 1].0;
                    years[k] = Some(if named[k].0 < named[k - 1].0 { prev + 1 } else { prev });
                }
            }
        }
        let n = named.len();
        if years[n - 1].is_none() {
            years[n - 1] = Some(latest_month(named[n - 1].0, self.today)?.year());
        }
        for k in (0..n - 1).rev() {
            if years[k].is_none() {
                let next = years[k + 1]?;
                wrapped |= named[k].0 > named[k + 1].0;
                years[k] = Some(if named[k].0 > named[k + 1].0 { next - 1 } else { next });
            }
        }
        let mut starts: Vec<Date> = Vec::with_capacity(n);
        for (k, (m, _)) in named.iter().enumerate() {
            starts.push(Date::new(years[k]?, *m, 1)?);
        }
        if through {
            let (a, b) = (starts[0], starts[1]);
            return (a <= b).then(|| Hit {
                period: range(a, b.add_months(1), self.locale),
                last,
                parts: vec![],
                apart: false,
                wrapped: false,
            });
        }
        let mut sorted = starts.clone();
        sorted.sort_unstable();
        sorted.dedup();
        let (first, end) = (*sorted.first()?, sorted.last()?.add_months(1));
        let contiguous = sorted.windows(2).all(|w| w[0].add_months(1) == w[1]);
        let mut parts: Vec<Period> = Vec::new();
        for d in &starts {
            if !parts.iter().any(|p| p.start == *d) {
                parts.push(month(*d, self.locale));
            }
        }
        Some(Hit {
            period: range(first, end, self.locale),
            last,
            parts,
            // Months joined by "and" are each asked for ("courses oct et nov": October's
            // and November's), not their sum: apart, like months that do not follow
            // each other. ("entre mars et juin", "from June to July" are one period.)
            apart: either || !contiguous || named.len() > 1,
            wrapped,
        })
    }

    /// "Q1 2026", "T2", "1er trimestre 2026", "the third quarter of 2025".
    fn quarter(&self, i: usize) -> Option<(Period, usize)> {
        let (q, mut last) = if self.is(i, &["q", "t"]) {
            let q = self.number(i + 1)?;
            let adjacent = self.tokens.get(i + 1).is_some_and(|n| n.start == self.tokens[i].end);
            if !adjacent {
                return None;
            }
            (q, i + 1)
        } else {
            let (q, after) = match self.number(i) {
                Some(n) => {
                    let suffix = self
                        .word(i + 1)
                        .is_some_and(|w| matches!(w, "er" | "e" | "eme" | "st" | "nd" | "rd" | "th"));
                    (n, if suffix { i + 2 } else { i + 1 })
                }
                None => (ordinal_word(self.word(i)?)?, i + 1),
            };
            if !self.is(after, &["trimestre", "quarter"]) {
                return None;
            }
            (q, after)
        };
        if !(1..=4).contains(&q) {
            return None;
        }
        let year = self.year_after(last).map(|(y, l)| {
            last = l;
            y
        });
        // "le dernier trimestre" with no year: the last one that ended, as "le dernier
        // semestre" (with a year, the fourth: "le dernier trimestre 2025").
        let said_last = self.is(i, &["dernier", "derniere"]);
        if year.is_none() && said_last {
            let this = Date::new(self.today.year(), (self.today.month() - 1) / 3 * 3 + 1, 1)?;
            let start = this.add_months(-3);
            return Some((quarter(start.year(), (start.month() - 1) / 3 + 1, self.locale)?, last));
        }
        let year = match year {
            Some(y) => y,
            // The latest such quarter that has begun.
            None => {
                let start = Date::new(self.today.year(), (q - 1) * 3 + 1, 1)?;
                if start > self.today {
                    self.today.year() - 1
                } else {
                    self.today.year()
                }
            }
        };
        Some((quarter(year, q, self.locale)?, last))
    }

    /// "janvier 2026", "in December", "2026-01" (ISO month).
    fn month(&self, i: usize) -> Option<(Period, usize)> {
        if let Some(t) = self.tokens.get(i).filter(|_| self.free(i)) {
            if t.kind == TokenKind::Number && t.norm.len() == 7 && t.norm.as_bytes()[4] == b'-' {
                let y: i32 = t.norm.get(..4)?.parse().ok()?;
                let m: u32 = t.norm.get(5..)?.parse().ok()?;
                return Some((month(Date::new(y, m, 1)?, self.locale), i));
            }
        }
        let (m, year, mut last) = self.month_year(i, false)?;
        let start = match year {
            Some(y) => Date::new(y, m, 1)?,
            None => latest_month(m, self.today)?,
        };
        // "November last year", "novembre de l'an dernier": that month a year back.
        let last_year: &[&[&str]] = &[
            &["last", "year"],
            &["l", "an", "dernier"],
            &["de", "l", "an", "dernier"],
            &["l", "annee", "derniere"],
            &["de", "l", "annee", "derniere"],
        ];
        if year.is_none() {
            if let Some(p) =
                last_year.iter().find(|p| p.iter().enumerate().all(|(k, w)| self.is(last + 1 + k, &[w])))
            {
                let start = Date::new(self.today.year() - 1, m, 1)?;
                return Some((month(start, self.locale), last + p.len()));
            }
        }
        // "décembre dernier", "novembre passé": the latest that is over.
        let over = year.is_none() && self.is(last + 1, &["dernier", "passe"]);
        if over {
            last += 1;
        }
        let start = if over && start == self.today.first_of_month() { start.add_months(-12) } else { start };
        Some((month(start, self.locale), last))
    }

    pub(super) fn at(&self, i: usize) -> Option<Hit> {
        if !self.free(i) {
            return None;
        }
        let one = |(period, last): (Period, usize)| Hit {
            period,
            last,
            parts: vec![],
            apart: false,
            wrapped: false,
        };
        if let Some(hit) = self.this_season_either(i) {
            return Some(hit);
        }
        let hit = self.read_at(i, &one)?;
        #[cfg(feature = "readings")]
        let hit = self.to_date(i, hit, &one);
        Some(hit)
    }

    /// "Q4 so far", "ce mois-ci jusqu'ici", "so far in 2026": a current period up to
    /// today. (On the server only: in the browser "so far" stays unread.)
    #[cfg(feature = "readings")]
    fn to_date(&self, i: usize, hit: Hit, one: &dyn Fn((Period, usize)) -> Hit) -> Hit {
        let n = match (self.word(hit.last + 1), self.word(hit.last + 2)) {
            (Some("so"), Some("far")) | (Some("to" | "a"), Some("date")) | (Some("jusqu"), Some("ici")) => 2,
            _ => 0,
        };
        let w = |j: usize| self.tokens.get(j).map_or("", |t| t.norm.as_str());
        let before = i >= 2
            && ((w(i - 2) == "so" && w(i - 1) == "far")
                || (i >= 3
                    && w(i - 3) == "so"
                    && w(i - 2) == "far"
                    && matches!(w(i - 1), "in" | "this" | "for")));
        let current = hit.period.start <= self.today && self.today < hit.period.end;
        if (n == 0 && !before) || !current || !hit.parts.is_empty() {
            return hit;
        }
        one((range(hit.period.start, self.today.add_days(1), self.locale), hit.last + n))
    }

    fn read_at(&self, i: usize, one: &dyn Fn((Period, usize)) -> Hit) -> Option<Hit> {
        self.relative(i)
            .or_else(|| self.week_of(i))
            .or_else(|| self.weekday(i))
            .or_else(|| self.last_month_named(i))
            .or_else(|| self.season(i))
            .or_else(|| self.rolling(i))
            .or_else(|| self.ago(i))
            .or_else(|| self.span(i))
            .or_else(|| self.quarter(i))
            .or_else(|| self.half(i))
            .map(one)
            .or_else(|| self.winter_of(i))
            .or_else(|| self.months(i))
            .or_else(|| self.date(i).map(|(d, last)| one((day(d, self.locale), last))))
            .or_else(|| self.month(i).map(one))
            .or_else(|| self.year_so_far(i).map(one))
            .or_else(|| Some(one((year(self.year(i)?, self.locale)?, i))))
    }

    /// "2026 so far", "2026 jusqu'ici", "2026 to date": this year up to today.
    #[cfg(not(feature = "readings"))]
    fn year_so_far(&self, _: usize) -> Option<(Period, usize)> {
        None
    }

    #[cfg(feature = "readings")]
    fn year_so_far(&self, i: usize) -> Option<(Period, usize)> {
        let y = self.year(i)?;
        let n = match (self.word(i + 1), self.word(i + 2)) {
            (Some("so"), Some("far")) | (Some("to"), Some("date")) => 2,
            (Some("jusqu"), Some("ici")) => 2,
            (Some("jusqu"), Some("a")) if self.is(i + 3, &["present", "maintenant"]) => 3,
            _ => return None,
        };
        (y == self.today.year()).then(|| (resolve(Relative::YearToDate, self.today, self.locale), i + n))
    }
}

/// A period read at one position: the range, its last token, and the months a list
/// named ("juin et juillet", "janvier ou mars"), `apart` when they are not one stretch.
pub(super) struct Hit {
    pub period: Period,
    pub last: usize,
    pub parts: Vec<Period>,
    pub apart: bool,
    pub wrapped: bool,
}

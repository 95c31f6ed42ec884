//! Periods: the words people use for a time range, resolved against `today`.

use crate::text::{Token, TokenKind};
use crate::{Date, Locale, Period};

const MONTHS_FR: [&str; 12] = [
    "janvier",
    "février",
    "mars",
    "avril",
    "mai",
    "juin",
    "juillet",
    "août",
    "septembre",
    "octobre",
    "novembre",
    "décembre",
];
const MONTHS_EN: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

/// A month word: (month number, whether it is only a month when a year or a
/// preposition vouches for it — "may", "sept", "mar").
fn month_word(w: &str) -> Option<(u32, bool)> {
    let m = match w {
        "janvier" | "january" | "janv" | "jan" => (1, false),
        "fevrier" | "february" | "fevr" | "fev" | "feb" | "febuary" => (2, false),
        "mars" | "march" => (3, false),
        "mar" => (3, true),
        "avril" | "april" | "avr" | "apr" => (4, false),
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

fn year_number(t: &Token) -> Option<i32> {
    if t.kind != TokenKind::Number || t.norm.len() != 4 {
        return None;
    }
    let y: i32 = t.norm.parse().ok()?;
    (1970..=2100).contains(&y).then_some(y)
}

const PREPOSITIONS: &[&str] =
    &["en", "in", "for", "de", "d", "du", "since", "depuis", "pour", "during", "pendant", "of", "au", "on"];

pub fn month_label(start: Date, locale: Locale) -> String {
    let i = (start.month() as usize).saturating_sub(1).min(11);
    match locale {
        Locale::Fr => format!("{} {}", MONTHS_FR[i], start.year()),
        Locale::En => format!("{} {}", MONTHS_EN[i], start.year()),
    }
}

pub fn day_label(d: Date, locale: Locale) -> String {
    let i = (d.month() as usize).saturating_sub(1).min(11);
    match locale {
        Locale::Fr => format!("{} {} {}", d.day(), MONTHS_FR[i], d.year()),
        Locale::En => format!("{} {} {}", d.day(), MONTHS_EN[i], d.year()),
    }
}

pub fn month(start: Date, locale: Locale) -> Period {
    let start = start.first_of_month();
    Period { start, end: start.add_months(1), label: month_label(start, locale), words: String::new() }
}

pub fn year(y: i32, locale: Locale) -> Option<Period> {
    let start = Date::new(y, 1, 1)?;
    Some(Period {
        start,
        end: start.add_months(12),
        label: match locale {
            Locale::Fr => format!("année {y}"),
            Locale::En => format!("year {y}"),
        },
        words: String::new(),
    })
}

fn week(monday: Date, locale: Locale) -> Period {
    Period {
        start: monday,
        end: monday.add_days(7),
        label: match locale {
            Locale::Fr => format!("semaine du {}", day_label(monday, locale)),
            Locale::En => format!("week of {}", day_label(monday, locale)),
        },
        words: String::new(),
    }
}

fn day(d: Date, locale: Locale) -> Period {
    Period { start: d, end: d.add_days(1), label: day_label(d, locale), words: String::new() }
}

/// The period Sou uses when the message names none.
pub fn default_period(today: Date, locale: Locale) -> Period {
    month(today, locale)
}

/// Today, as a one-day period: what "my balance" means.
pub fn today(today: Date, locale: Locale) -> Period {
    let mut p = day(today, locale);
    p.label = match locale {
        Locale::Fr => format!("aujourd'hui ({})", p.label),
        Locale::En => format!("today ({})", p.label),
    };
    p
}

/// The last `n` months up to and including today: the look-back for recurring payments.
pub fn last_months(today: Date, n: u32, locale: Locale) -> Period {
    let end = today.add_days(1);
    let start = today.add_months_keep_day(-(n as i32)).add_days(1);
    let mut p = range(start, end, locale);
    p.label = match locale {
        Locale::Fr => format!("{n} derniers mois ({})", p.label),
        Locale::En => format!("last {n} months ({})", p.label),
    };
    p
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

/// Relative phrases, as normalised words, and what they resolve to.
#[derive(Clone, Copy)]
enum Relative {
    ThisMonth,
    LastMonth,
    NextMonth,
    NextYear,
    ThisYear,
    LastYear,
    ThisWeek,
    LastWeek,
    Today,
    Yesterday,
    DayBeforeYesterday,
    ThisQuarter,
    LastQuarter,
    YearToDate,
}

const RELATIVE: &[(&[&str], Relative)] = &[
    (&["le", "mois", "dernier"], Relative::LastMonth),
    (&["mois", "dernier"], Relative::LastMonth),
    (&["le", "mois", "precedent"], Relative::LastMonth),
    (&["mois", "precedent"], Relative::LastMonth),
    (&["le", "mois", "passe"], Relative::LastMonth),
    (&["mois", "passe"], Relative::LastMonth),
    (&["last", "month"], Relative::LastMonth),
    (&["previous", "month"], Relative::LastMonth),
    (&["le", "mois", "d", "avant"], Relative::LastMonth),
    (&["mois", "d", "avant"], Relative::LastMonth),
    (&["the", "month", "before"], Relative::LastMonth),
    (&["the", "previous", "month"], Relative::LastMonth),
    (&["le", "mois", "suivant"], Relative::NextMonth),
    (&["mois", "suivant"], Relative::NextMonth),
    (&["le", "mois", "d", "apres"], Relative::NextMonth),
    (&["the", "following", "month"], Relative::NextMonth),
    (&["the", "month", "after"], Relative::NextMonth),
    (&["next", "month"], Relative::NextMonth),
    (&["le", "mois", "prochain"], Relative::NextMonth),
    (&["mois", "prochain"], Relative::NextMonth),
    (&["ce", "mois", "ci"], Relative::ThisMonth),
    (&["ce", "mois"], Relative::ThisMonth),
    (&["mois", "en", "cours"], Relative::ThisMonth),
    (&["du", "mois"], Relative::ThisMonth),
    (&["this", "month"], Relative::ThisMonth),
    (&["current", "month"], Relative::ThisMonth),
    (&["cette", "annee"], Relative::ThisYear),
    (&["annee", "en", "cours"], Relative::ThisYear),
    (&["this", "year"], Relative::ThisYear),
    (&["current", "year"], Relative::ThisYear),
    (&["l", "an", "dernier"], Relative::LastYear),
    (&["an", "dernier"], Relative::LastYear),
    (&["l", "annee", "derniere"], Relative::LastYear),
    (&["annee", "derniere"], Relative::LastYear),
    (&["l", "an", "passe"], Relative::LastYear),
    (&["an", "passe"], Relative::LastYear),
    (&["l", "annee", "passee"], Relative::LastYear),
    (&["annee", "passee"], Relative::LastYear),
    (&["last", "year"], Relative::LastYear),
    (&["previous", "year"], Relative::LastYear),
    (&["l", "annee", "precedente"], Relative::LastYear),
    (&["annee", "precedente"], Relative::LastYear),
    (&["l", "annee", "d", "avant"], Relative::LastYear),
    (&["the", "year", "before"], Relative::LastYear),
    (&["the", "previous", "year"], Relative::LastYear),
    (&["l", "annee", "suivante"], Relative::NextYear),
    (&["annee", "suivante"], Relative::NextYear),
    (&["the", "following", "year"], Relative::NextYear),
    (&["the", "year", "after"], Relative::NextYear),
    (&["cette", "semaine"], Relative::ThisWeek),
    (&["this", "week"], Relative::ThisWeek),
    (&["la", "semaine", "derniere"], Relative::LastWeek),
    (&["semaine", "derniere"], Relative::LastWeek),
    (&["la", "semaine", "passee"], Relative::LastWeek),
    (&["semaine", "passee"], Relative::LastWeek),
    (&["last", "week"], Relative::LastWeek),
    (&["la", "semaine", "precedente"], Relative::LastWeek),
    (&["semaine", "precedente"], Relative::LastWeek),
    (&["la", "semaine", "d", "avant"], Relative::LastWeek),
    (&["the", "week", "before"], Relative::LastWeek),
    (&["previous", "week"], Relative::LastWeek),
    (&["ce", "trimestre", "ci"], Relative::ThisQuarter),
    (&["ce", "trimestre"], Relative::ThisQuarter),
    (&["this", "quarter"], Relative::ThisQuarter),
    (&["le", "trimestre", "dernier"], Relative::LastQuarter),
    (&["trimestre", "dernier"], Relative::LastQuarter),
    (&["le", "trimestre", "precedent"], Relative::LastQuarter),
    (&["trimestre", "precedent"], Relative::LastQuarter),
    (&["last", "quarter"], Relative::LastQuarter),
    (&["previous", "quarter"], Relative::LastQuarter),
    (&["depuis", "le", "debut", "de", "l", "annee"], Relative::YearToDate),
    (&["depuis", "le", "debut", "de", "cette", "annee"], Relative::YearToDate),
    (&["depuis", "debut", "annee"], Relative::YearToDate),
    (&["depuis", "janvier", "dernier"], Relative::YearToDate),
    (&["year", "to", "date"], Relative::YearToDate),
    (&["ytd"], Relative::YearToDate),
    (&["since", "the", "start", "of", "the", "year"], Relative::YearToDate),
    (&["since", "the", "beginning", "of", "the", "year"], Relative::YearToDate),
    (&["so", "far", "this", "year"], Relative::YearToDate),
    (&["this", "year", "so", "far"], Relative::YearToDate),
    (&["avant", "hier"], Relative::DayBeforeYesterday),
    (&["aujourd", "hui"], Relative::Today),
    (&["today"], Relative::Today),
    (&["hier"], Relative::Yesterday),
    (&["yesterday"], Relative::Yesterday),
];

fn resolve(rel: Relative, today: Date, locale: Locale) -> Period {
    match rel {
        Relative::ThisMonth => month(today, locale),
        Relative::LastMonth => month(today.add_months(-1), locale),
        Relative::NextMonth => month(today.add_months(1), locale),
        Relative::NextYear => year(today.year() + 1, locale).unwrap_or_else(|| month(today, locale)),
        Relative::ThisYear => year(today.year(), locale).unwrap_or_else(|| month(today, locale)),
        Relative::LastYear => year(today.year() - 1, locale).unwrap_or_else(|| month(today, locale)),
        Relative::ThisWeek => week(today.add_days(-i64::from(today.weekday())), locale),
        Relative::LastWeek => week(today.add_days(-i64::from(today.weekday()) - 7), locale),
        Relative::Today => day(today, locale),
        Relative::Yesterday => day(today.add_days(-1), locale),
        Relative::DayBeforeYesterday => day(today.add_days(-2), locale),
        Relative::ThisQuarter => {
            let q = (today.month() - 1) / 3 + 1;
            quarter(today.year(), q, locale).unwrap_or_else(|| month(today, locale))
        }
        Relative::LastQuarter => {
            let start = Date::new(today.year(), ((today.month() - 1) / 3) * 3 + 1, 1)
                .map_or(today, |d| d.add_months(-3));
            quarter(start.year(), (start.month() - 1) / 3 + 1, locale).unwrap_or_else(|| month(today, locale))
        }
        Relative::YearToDate => {
            let start = Date::new(today.year(), 1, 1).unwrap_or(today);
            let mut p = range(start, today.add_days(1), locale);
            p.label = match locale {
                Locale::Fr => format!("depuis le début de l'année ({})", p.label),
                Locale::En => format!("year to date ({})", p.label),
            };
            p
        }
    }
}

/// A period found in the message and the tokens it used.
pub struct Found {
    pub period: Period,
    pub first: usize,
    pub last: usize,
}

/// Reads periods out of tokens. Every matcher looks at position `i` and returns the
/// period and the index of the last token it used.
struct Scanner<'a> {
    tokens: &'a [Token],
    used: &'a [bool],
    today: Date,
    locale: Locale,
}

const QUARTER_FR: [&str; 4] = ["1er trimestre", "2e trimestre", "3e trimestre", "4e trimestre"];

fn quarter(year: i32, q: u32, locale: Locale) -> Option<Period> {
    let start = Date::new(year, (q - 1) * 3 + 1, 1)?;
    let i = (q as usize).saturating_sub(1).min(3);
    Some(Period {
        start,
        end: start.add_months(3),
        label: match locale {
            Locale::Fr => format!("{} {year}", QUARTER_FR[i]),
            Locale::En => format!("Q{q} {year}"),
        },
        words: String::new(),
    })
}

/// A period named the way Sou names it: a month, a quarter, a year, or a range of days.
pub fn range(start: Date, end: Date, locale: Locale) -> Period {
    let last = end.add_days(-1);
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
    let label = if start.add_months(1) == end && start.day() == 1 {
        month_label(start, locale)
    } else if start.day() == 1 && end.day() == 1 {
        let last_month = end.add_months(-1);
        match locale {
            Locale::Fr => format!("{} – {}", month_label(start, locale), month_label(last_month, locale)),
            Locale::En => format!("{} – {}", month_label(start, locale), month_label(last_month, locale)),
        }
    } else if start == last {
        day_label(start, locale)
    } else {
        match locale {
            Locale::Fr => format!("du {} au {}", day_label(start, locale), day_label(last, locale)),
            Locale::En => format!("{} to {}", day_label(start, locale), day_label(last, locale)),
        }
    };
    Period { start, end, label, words: String::new() }
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
        "jour" | "jours" | "day" | "days" => Some('d'),
        "semaine" | "semaines" | "week" | "weeks" => Some('w'),
        "mois" | "month" | "months" => Some('m'),
        "an" | "ans" | "annee" | "annees" | "year" | "years" => Some('y'),
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
        if t.kind == TokenKind::Number && (t.norm.contains('/') || t.norm.contains('-')) {
            return self.numeric_date(&t.norm).map(|d| (d, i));
        }
        if let Some((d, last_day)) = self.day_number(i) {
            if let Some((m, year, last)) = self.month_year(last_day + 1, true) {
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

    /// Dates written with digits, in the locale's order: 12/01/2026 is 12 January in
    /// French and December 1st in English; ISO 2026-01-12 is the same everywhere.
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
            // English: month first, unless the first number cannot be a month.
            Locale::En if a > 12 => (a, b),
            Locale::En => (b, a),
        };
        let date = Date::new(year, month, day)?;
        Some(match y {
            None if date > self.today => Date::new(year - 1, month, day)?,
            _ => date,
        })
    }

    fn relative(&self, i: usize) -> Option<(Period, usize)> {
        for (pattern, rel) in RELATIVE {
            let n = pattern.len();
            if i + n <= self.tokens.len()
                && (i..i + n).all(|j| self.free(j))
                && pattern.iter().zip(&self.tokens[i..i + n]).all(|(p, t)| *p == t.norm)
            {
                // "du mois de mars" names March, not this month.
                if pattern.last() == Some(&"mois")
                    && self
                        .is(i + n, &["de", "d", "dernier", "precedent", "passe", "prochain", "suivant", "en"])
                {
                    continue;
                }
                return Some((resolve(*rel, self.today, self.locale), i + n - 1));
            }
        }
        None
    }

    /// "les 3 derniers mois", "the last 90 days", "past 2 weeks": a rolling window that
    /// ends today (included).
    fn rolling(&self, i: usize) -> Option<(Period, usize)> {
        let mut j = i;
        if self.is(j, &["les", "the", "over", "in", "dans", "sur"]) {
            j += 1;
        }
        if self.is(j, &["the"]) {
            j += 1;
        }
        let lead = self.is(j, &["last", "past", "derniers", "dernieres", "previous"]);
        if lead {
            j += 1;
        }
        let n = self.number(j)?;
        let mut k = j + 1;
        if !lead && self.is(k, &["derniers", "dernieres"]) {
            k += 1;
        }
        let unit = unit_word(self.word(k)?)?;
        let trailing = self.is(k + 1, &["derniers", "dernieres", "passes", "passees"]);
        if !lead && !trailing && !self.is(j + 1, &["derniers", "dernieres"]) {
            return None;
        }
        let last = if trailing { k + 1 } else { k };
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
        let what = match (self.locale, unit) {
            (Locale::Fr, 'd') => format!("{n} derniers jours"),
            (Locale::Fr, 'w') => format!("{n} dernières semaines"),
            (Locale::Fr, 'm') => format!("{n} derniers mois"),
            (Locale::Fr, _) => format!("{n} dernières années"),
            (Locale::En, 'd') => format!("last {n} days"),
            (Locale::En, 'w') => format!("last {n} weeks"),
            (Locale::En, 'm') => format!("last {n} months"),
            (Locale::En, _) => format!("last {n} years"),
        };
        p.label = format!("{what} ({})", p.label);
        Some((p, last))
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
        let year = if let Some(y) = self.year(last + 1) {
            last += 1;
            Some(y)
        } else if self.is(last + 1, &["de", "of", "du"]) && self.year(last + 2).is_some() {
            last += 2;
            self.year(last)
        } else {
            None
        };
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

    /// "de mars à mai 2026", "from March to May", "entre janvier et mars 2025",
    /// "du 1er au 15 janvier", "depuis mars", "since 12/01/2026".
    fn span(&self, i: usize) -> Option<(Period, usize)> {
        let w = self.word(i)?;
        if matches!(w, "depuis" | "since") {
            let j = if self.is(i + 1, &["le", "the"]) { i + 2 } else { i + 1 };
            let end = self.today.add_days(1);
            if let Some((d, last)) = self.date(j) {
                return (d < end).then(|| (range(d, end, self.locale), last));
            }
            if let Some((m, year, last)) = self.month_year(j, true) {
                let start = match year {
                    Some(y) => Date::new(y, m, 1)?,
                    None => latest_month(m, self.today)?,
                };
                return (start < end).then(|| (range(start, end, self.locale), last));
            }
            if let Some(y) = self.year(j) {
                let start = Date::new(y, 1, 1)?;
                return (start < end).then(|| (range(start, end, self.locale), j));
            }
            return None;
        }
        if !matches!(w, "de" | "du" | "from" | "between" | "entre") {
            return None;
        }
        let joiners: &[&str] = &["a", "au", "to", "until", "till", "through", "et", "and", "jusqu"];
        // "entre le 1er et le 15 mars", "between the 1st and the 15th".
        let first = i + 1 + usize::from(self.is(i + 1, &["le", "the"]));
        let second = |l1: usize| l1 + 2 + usize::from(self.is(l1 + 2, &["au", "a", "le", "the"]));
        // Two days: "du 1er au 15 janvier 2026", "from 12/01/2026 to 15/01/2026".
        if let Some((d1, l1)) = self.date(first) {
            if self.is(l1 + 1, joiners) {
                let (d2, l2) = self.date(second(l1))?;
                return (d1 <= d2).then(|| (range(d1, d2.add_days(1), self.locale), l2));
            }
            return None;
        }
        if let Some((day1, l1)) = self.day_number(first) {
            if self.is(l1 + 1, joiners) {
                let (d2, l2) = self.date(second(l1))?;
                let d1 = Date::new(d2.year(), d2.month(), day1)?;
                return (d1 <= d2).then(|| (range(d1, d2.add_days(1), self.locale), l2));
            }
            return None;
        }
        // Two months: "de mars à mai 2026".
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

    /// "janvier 2026", "in December", "2026-01" (ISO month).
    fn month(&self, i: usize) -> Option<(Period, usize)> {
        if let Some(t) = self.tokens.get(i).filter(|_| self.free(i)) {
            if t.kind == TokenKind::Number && t.norm.len() == 7 && t.norm.as_bytes()[4] == b'-' {
                let y: i32 = t.norm.get(..4)?.parse().ok()?;
                let m: u32 = t.norm.get(5..)?.parse().ok()?;
                return Some((month(Date::new(y, m, 1)?, self.locale), i));
            }
        }
        let (m, year, last) = self.month_year(i, false)?;
        let start = match year {
            Some(y) => Date::new(y, m, 1)?,
            None => latest_month(m, self.today)?,
        };
        Some((month(start, self.locale), last))
    }

    /// "l'été dernier", "cet hiver", "summer 2025", "last winter": meteorological
    /// seasons (spring from March, summer from June, autumn from September, winter from
    /// December; "winter 2026" is the one whose January is in 2026).
    fn season(&self, i: usize) -> Option<(Period, usize)> {
        // The season word, with an optional article or qualifier before it.
        let (lead, s) = match self.word(i)? {
            "l" | "cet" | "cette" | "this" | "last" | "the" | "en" | "in" | "le" => (true, i + 1),
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
        if y.is_none() && !last_word && !this_word && !matches!(before, Some("l" | "the" | "en" | "in")) {
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
        let label = match self.locale {
            Locale::Fr => format!("{fr} {label_year}"),
            Locale::En => format!("{en} {label_year}"),
        };
        Some((Period { start, end, label, words: String::new() }, last))
    }

    fn at(&self, i: usize) -> Option<(Period, usize)> {
        if !self.free(i) {
            return None;
        }
        self.relative(i)
            .or_else(|| self.season(i))
            .or_else(|| self.rolling(i))
            .or_else(|| self.span(i))
            .or_else(|| self.quarter(i))
            .or_else(|| self.date(i).map(|(d, last)| (day(d, self.locale), last)))
            .or_else(|| self.month(i))
            .or_else(|| Some((year(self.year(i)?, self.locale)?, i)))
    }
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

/// Every period named in `tokens`, in order, skipping tokens already `used`.
pub fn find_all(tokens: &[Token], used: &[bool], message: &str, today: Date, locale: Locale) -> Vec<Found> {
    let scanner = Scanner { tokens, used, today, locale };
    let mut found = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        match scanner.at(i) {
            Some((mut period, last)) => {
                period.words = message.get(tokens[i].start..tokens[last].end).unwrap_or_default().to_string();
                found.push(Found { period, first: i, last });
                i = last + 1;
            }
            None => i += 1,
        }
    }
    found
}

/// The first period named in `tokens`.
pub fn find(tokens: &[Token], used: &[bool], message: &str, today: Date, locale: Locale) -> Option<Found> {
    find_all(tokens, used, message, today, locale).into_iter().next()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::tokenize;

    fn find_in(msg: &str) -> Option<(String, String, String)> {
        let today = Date::new(2026, 11, 21)?;
        let tokens = tokenize(msg);
        let used = vec![false; tokens.len()];
        find(&tokens, &used, msg, today, Locale::Fr)
            .map(|f| (f.period.start.to_string(), f.period.end.to_string(), f.period.words))
    }

    #[test]
    fn months_years_relative() {
        let p = |a: &str, b: &str, w: &str| Some((a.to_string(), b.to_string(), w.to_string()));
        assert_eq!(find_in("en janvier 2026"), p("2026-01-01", "2026-02-01", "janvier 2026"));
        assert_eq!(find_in("in December"), p("2025-12-01", "2026-01-01", "December"));
        assert_eq!(find_in("en novembre"), p("2026-11-01", "2026-12-01", "novembre"));
        assert_eq!(find_in("le mois dernier"), p("2026-10-01", "2026-11-01", "le mois dernier"));
        assert_eq!(find_in("in 2025"), p("2025-01-01", "2026-01-01", "2025"));
        assert_eq!(find_in("cette semaine"), p("2026-11-16", "2026-11-23", "cette semaine"));
        assert_eq!(find_in("aujourd'hui"), p("2026-11-21", "2026-11-22", "aujourd'hui"));
        assert_eq!(find_in("may I ask"), None);
        assert_eq!(find_in("in may"), p("2026-05-01", "2026-06-01", "may"));
        assert_eq!(find_in("sept euros"), None);
        assert_eq!(find_in("année 9999"), None);
    }

    #[test]
    fn seasons() {
        let p = |a: &str, b: &str, w: &str| Some((a.to_string(), b.to_string(), w.to_string()));
        assert_eq!(find_in("l'été dernier"), p("2026-06-01", "2026-09-01", "l'été dernier"));
        assert_eq!(find_in("cet hiver"), p("2025-12-01", "2026-03-01", "cet hiver"));
        assert_eq!(find_in("summer 2025"), p("2025-06-01", "2025-09-01", "summer 2025"));
        assert_eq!(find_in("last winter"), p("2025-12-01", "2026-03-01", "last winter"));
        assert_eq!(find_in("hiver 2026"), p("2025-12-01", "2026-03-01", "hiver 2026"));
        assert_eq!(find_in("j'ai été payé"), None);
    }

    #[test]
    fn steps_from_a_period() {
        let jan = month(Date::new(2026, 1, 1).unwrap(), Locale::Fr);
        let prev = step(&jan, Unit::Month, -1, Locale::Fr);
        assert_eq!(
            (prev.start.to_string(), prev.end.to_string()),
            ("2025-12-01".into(), "2026-01-01".into())
        );
        let a_year_before = step(&jan, Unit::Year, -1, Locale::Fr);
        assert_eq!(a_year_before.start.to_string(), "2025-01-01");
        assert_eq!(a_year_before.end.to_string(), "2025-02-01");
        let y2025 = year(2025, Locale::En).unwrap();
        assert_eq!(step(&y2025, Unit::Year, -1, Locale::En).label, "year 2024");
        let q = step(&jan, Unit::Quarter, 1, Locale::En);
        assert_eq!((q.start.to_string(), q.end.to_string()), ("2026-04-01".into(), "2026-07-01".into()));
    }
}

//! Periods: the words people use for a time range, resolved against `today`. This
//! module finds them in a message; `calendar` makes and moves them, `scan` reads them,
//! `relative` names the relative phrases ("le mois dernier") and what they resolve to.

mod calendar;
mod relative;
mod scan;
#[cfg(feature = "readings")]
pub(crate) use scan::{month_word, weekday_number};
#[cfg(test)]
mod tests;

pub use calendar::{
    against, default_period, ever, last_months, month, preceding, range, relabel, renamed, so_far_against,
    step, to_date_against, today, year, Unit,
};

use crate::args::Period;
use crate::date::Date;
use crate::locale::Locale;
use crate::text::Token;
use scan::Scanner;

/// A period found in the message and the tokens it used.
pub struct Found {
    pub period: Period,
    pub first: usize,
    pub last: usize,
    /// The months of a list ("juin et juillet", "janvier et mars"); empty for one period.
    pub parts: Vec<Period>,
    /// The list's months are not one stretch ("janvier et mars") or are alternatives
    /// ("June or July"): the message asks about each, not the range that spans them.
    pub apart: bool,
    /// A month's year was carried over a turn of the year ("décembre et janvier 2026"):
    /// right for a list read in date order, a guess for two months compared.
    pub wrapped: bool,
}

impl Found {
    /// The periods a comparison reads here: each month of a list, else the period.
    pub fn each(self) -> Vec<Found> {
        if self.parts.is_empty() {
            return vec![self];
        }
        let (first, last) = (self.first, self.last);
        self.parts
            .into_iter()
            .map(|period| Found { period, first, last, parts: vec![], apart: false, wrapped: false })
            .collect()
    }
}

/// Every period named in `tokens`, in order, skipping tokens already `used`.
pub fn find_all(tokens: &[Token], used: &[bool], message: &str, today: Date, locale: Locale) -> Vec<Found> {
    let scanner = Scanner { tokens, used, today, locale };
    let mut found = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        match scanner.at(i) {
            Some(scan::Hit { mut period, last, parts, apart, wrapped }) => {
                period.words = message.get(tokens[i].start..tokens[last].end).unwrap_or_default().to_string();
                found.push(Found { period, first: lead_in(tokens, used, i), last, parts, apart, wrapped });
                i = last + 1;
            }
            None => i += 1,
        }
    }
    found
}

/// Where a period's words begin, with what only names its unit before it: "le mois
/// de mars", "the month of May", "l'année 2026", "the year 2025".
fn lead_in(tokens: &[Token], used: &[bool], i: usize) -> usize {
    let w = |j: usize| if used[j] { "" } else { tokens[j].norm.as_str() };
    // ("which month of 2026", "quel mois de l'an dernier": a month asked for within a
    // year — the month is the question's, not the period's.)
    let month_named = scan::month_word(&tokens[i].norm).is_some();
    if i >= 2 && month_named && matches!(w(i - 2), "mois" | "month") && matches!(w(i - 1), "de" | "d" | "of")
    {
        return i - 2;
    }
    if i >= 1 && matches!(w(i - 1), "annee" | "year") && scan::year_number(&tokens[i]).is_some() {
        return i - 1;
    }
    i
}

/// A word that names a time (a month, a year, a half) on its own: left over after the
/// period was read, it is a second period the plan would leave out.
pub fn is_time_word(t: &Token) -> bool {
    scan::month_word(&t.norm).is_some_and(|(_, ambiguous)| !ambiguous)
        || scan::year_number(t).is_some()
        || matches!(
            t.norm.as_str(),
            "semestre"
                | "semestres"
                | "semester"
                | "half"
                | "moitie"
                | "trimestre"
                | "trimestres"
                | "quarter"
                | "quarters"
                // A part of a period ("fin 2025", "mid-October", "early last year"):
                // left over, the plan would run over the whole of it.
                | "fin"
                | "debut"
                | "mi"
                | "milieu"
                | "end"
                | "beginning"
                | "start"
                | "mid"
                | "middle"
                | "early"
                | "late"
                | "around"
                | "autour"
                | "vers"
                | "before"
                | "after"
                | "avant"
                | "apres"
                | "ago"
                | "weekend"
                | "week"
                | "semaine"
                | "day"
                | "jour"
                | "jours"
                | "days"
                | "weeks"
                | "semaines"
        )
}

/// The first period named in `tokens`.
pub fn find(tokens: &[Token], used: &[bool], message: &str, today: Date, locale: Locale) -> Option<Found> {
    find_all(tokens, used, message, today, locale).into_iter().next()
}

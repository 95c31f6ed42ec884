//! Relative periods in words — "le mois dernier", "this quarter", "year to date" — and
//! the range each names on a given day.

use super::calendar::{day, month, quarter, range, week, year};
use crate::args::Period;
use crate::date::Date;
use crate::locale::Locale;
use crate::wording;

/// Relative phrases, as normalised words, and what they resolve to.
#[derive(Clone, Copy)]
pub(super) enum Relative {
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
    /// "this month last year", "ce mois-ci l'an dernier": this month, a year back ("the
    /// same month last year" is said of another month: not read).
    ThisMonthLastYear,
    YearToDate,
    /// "MTD", "month to date": this month up to today.
    MonthToDate,
    /// "LTM", "TTM": the twelve months up to today.
    TwelveMonths,
    MonthBeforeLast,
    WeekBeforeLast,
    YearBeforeLast,
    ThisWeekend,
    LastWeekend,
    WeekendBeforeLast,
}

pub(super) const RELATIVE: &[(&[&str], Relative)] = &[
    // The one before the last, before "the month before" can take its first words.
    (&["the", "month", "before", "last"], Relative::MonthBeforeLast),
    (&["month", "before", "last"], Relative::MonthBeforeLast),
    (&["le", "mois", "avant", "dernier"], Relative::MonthBeforeLast),
    (&["mois", "avant", "dernier"], Relative::MonthBeforeLast),
    (&["le", "mois", "d", "avant", "dernier"], Relative::MonthBeforeLast),
    (&["mois", "d", "avant", "dernier"], Relative::MonthBeforeLast),
    (&["l", "avant", "dernier", "mois"], Relative::MonthBeforeLast),
    (&["avant", "dernier", "mois"], Relative::MonthBeforeLast),
    (&["le", "mois", "d", "avant", "le", "mois", "dernier"], Relative::MonthBeforeLast),
    (&["mois", "d", "avant", "le", "mois", "dernier"], Relative::MonthBeforeLast),
    (&["the", "week", "before", "last"], Relative::WeekBeforeLast),
    (&["week", "before", "last"], Relative::WeekBeforeLast),
    (&["la", "semaine", "avant", "derniere"], Relative::WeekBeforeLast),
    (&["semaine", "avant", "derniere"], Relative::WeekBeforeLast),
    (&["l", "avant", "derniere", "semaine"], Relative::WeekBeforeLast),
    (&["avant", "derniere", "semaine"], Relative::WeekBeforeLast),
    (&["la", "semaine", "d", "avant", "la", "semaine", "derniere"], Relative::WeekBeforeLast),
    (&["semaine", "d", "avant", "la", "semaine", "derniere"], Relative::WeekBeforeLast),
    (&["the", "year", "before", "last"], Relative::YearBeforeLast),
    (&["year", "before", "last"], Relative::YearBeforeLast),
    (&["l", "annee", "avant", "derniere"], Relative::YearBeforeLast),
    (&["annee", "avant", "derniere"], Relative::YearBeforeLast),
    (&["l", "avant", "derniere", "annee"], Relative::YearBeforeLast),
    (&["avant", "derniere", "annee"], Relative::YearBeforeLast),
    (&["this", "month", "last", "year"], Relative::ThisMonthLastYear),
    (&["ce", "mois", "ci", "l", "an", "dernier"], Relative::ThisMonthLastYear),
    (&["ce", "mois", "l", "an", "dernier"], Relative::ThisMonthLastYear),
    // "hier soir", "last night", "ce matin", "this morning": that day.
    (&["hier", "soir"], Relative::Yesterday),
    (&["hier", "midi"], Relative::Yesterday),
    (&["hier", "matin"], Relative::Yesterday),
    (&["last", "night"], Relative::Yesterday),
    (&["yesterday", "evening"], Relative::Yesterday),
    (&["yesterday", "morning"], Relative::Yesterday),
    (&["ce", "soir"], Relative::Today),
    (&["ce", "matin"], Relative::Today),
    (&["ce", "midi"], Relative::Today),
    (&["this", "morning"], Relative::Today),
    (&["tonight"], Relative::Today),
    (&["the", "day", "before", "yesterday"], Relative::DayBeforeYesterday),
    (&["day", "before", "yesterday"], Relative::DayBeforeYesterday),
    (&["the", "weekend", "before", "last"], Relative::WeekendBeforeLast),
    (&["weekend", "before", "last"], Relative::WeekendBeforeLast),
    (&["le", "weekend", "d", "avant"], Relative::WeekendBeforeLast),
    (&["le", "week", "end", "d", "avant"], Relative::WeekendBeforeLast),
    // "la fin de semaine" is the weekend in Québec.
    (&["la", "fin", "de", "semaine", "d", "avant"], Relative::WeekendBeforeLast),
    (&["la", "fin", "de", "semaine", "passee"], Relative::LastWeekend),
    (&["fin", "de", "semaine", "passee"], Relative::LastWeekend),
    (&["la", "fin", "de", "semaine", "derniere"], Relative::LastWeekend),
    (&["fin", "de", "semaine", "derniere"], Relative::LastWeekend),
    (&["cette", "fin", "de", "semaine"], Relative::ThisWeekend),
    (&["this", "weekend"], Relative::ThisWeekend),
    (&["this", "week", "end"], Relative::ThisWeekend),
    (&["ce", "weekend"], Relative::ThisWeekend),
    (&["ce", "week", "end"], Relative::ThisWeekend),
    (&["last", "weekend"], Relative::LastWeekend),
    (&["last", "week", "end"], Relative::LastWeekend),
    (&["le", "weekend", "dernier"], Relative::LastWeekend),
    (&["le", "week", "end", "dernier"], Relative::LastWeekend),
    (&["weekend", "dernier"], Relative::LastWeekend),
    (&["week", "end", "dernier"], Relative::LastWeekend),
    (&["le", "weekend", "passe"], Relative::LastWeekend),
    (&["le", "week", "end", "passe"], Relative::LastWeekend),
    (&["weekend", "passe"], Relative::LastWeekend),
    (&["week", "end", "passe"], Relative::LastWeekend),
    // "les dépenses de la semaine": this week.
    (&["de", "la", "semaine"], Relative::ThisWeek),
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
    (&["semaine", "en", "cours"], Relative::ThisWeek),
    (&["du", "mois"], Relative::ThisMonth),
    (&["this", "month"], Relative::ThisMonth),
    (&["current", "month"], Relative::ThisMonth),
    (&["cette", "annee"], Relative::ThisYear),
    // ("cette anne": the é and its e lost in typing.)
    (&["cette", "anne"], Relative::ThisYear),
    (&["de", "l", "annee"], Relative::ThisYear),
    (&["dans", "l", "annee"], Relative::ThisYear),
    (&["of", "the", "year"], Relative::ThisYear),
    (&["annee", "en", "cours"], Relative::ThisYear),
    // A person's financial year ("l'exercice en cours") is the calendar year.
    (&["exercice", "en", "cours"], Relative::ThisYear),
    (&["exercice", "precedent"], Relative::LastYear),
    (&["this", "year"], Relative::ThisYear),
    (&["this", "yr"], Relative::ThisYear),
    (&["last", "yr"], Relative::LastYear),
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
    (&["this", "wk"], Relative::ThisWeek),
    (&["last", "wk"], Relative::LastWeek),
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
    // "les dépenses du trimestre": this one (unless another follows, see `relative`).
    (&["du", "trimestre"], Relative::ThisQuarter),
    (&["ce", "trimestre", "ci"], Relative::ThisQuarter),
    (&["ce", "trimestre"], Relative::ThisQuarter),
    (&["this", "quarter"], Relative::ThisQuarter),
    (&["le", "trimestre", "dernier"], Relative::LastQuarter),
    (&["trimestre", "dernier"], Relative::LastQuarter),
    (&["le", "trimestre", "precedent"], Relative::LastQuarter),
    (&["trimestre", "precedent"], Relative::LastQuarter),
    (&["le", "trimestre", "passe"], Relative::LastQuarter),
    (&["trimestre", "passe"], Relative::LastQuarter),
    (&["last", "quarter"], Relative::LastQuarter),
    (&["previous", "quarter"], Relative::LastQuarter),
    (&["depuis", "le", "debut", "de", "l", "annee"], Relative::YearToDate),
    (&["depuis", "le", "debut", "de", "cette", "annee"], Relative::YearToDate),
    (&["depuis", "debut", "annee"], Relative::YearToDate),
    (&["depuis", "janvier", "dernier"], Relative::YearToDate),
    (&["year", "to", "date"], Relative::YearToDate),
    (&["ytd"], Relative::YearToDate),
    (&["mtd"], Relative::MonthToDate),
    (&["month", "to", "date"], Relative::MonthToDate),
    (&["ltm"], Relative::TwelveMonths),
    (&["ttm"], Relative::TwelveMonths),
    (&["since", "the", "start", "of", "the", "year"], Relative::YearToDate),
    (&["since", "the", "beginning", "of", "the", "year"], Relative::YearToDate),
    (&["so", "far", "this", "year"], Relative::YearToDate),
    (&["this", "year", "so", "far"], Relative::YearToDate),
    (&["avant", "hier"], Relative::DayBeforeYesterday),
    (&["aujourd", "hui"], Relative::Today),
    (&["today"], Relative::Today),
    (&["todays"], Relative::Today),
    (&["hier"], Relative::Yesterday),
    (&["yesterday"], Relative::Yesterday),
    // "yesterdays transactions", typed without the apostrophe.
    (&["yesterdays"], Relative::Yesterday),
];

pub(super) fn resolve(rel: Relative, today: Date, locale: Locale) -> Period {
    match rel {
        Relative::ThisMonth => month(today, locale),
        Relative::LastMonth => month(today.add_months(-1), locale),
        Relative::ThisMonthLastYear => month(today.add_months(-12), locale),
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
        Relative::MonthBeforeLast => month(today.add_months(-2), locale),
        Relative::YearBeforeLast => year(today.year() - 2, locale).unwrap_or_else(|| month(today, locale)),
        Relative::WeekBeforeLast => week(today.add_days(-i64::from(today.weekday()) - 14), locale),
        Relative::ThisWeekend | Relative::LastWeekend | Relative::WeekendBeforeLast => {
            let back = match rel {
                Relative::LastWeekend => 7,
                Relative::WeekendBeforeLast => 14,
                _ => 0,
            };
            let saturday = today.add_days(5 - i64::from(today.weekday()) - back);
            let mut p = range(saturday, saturday.add_days(2), locale);
            p.label = wording::weekend_label(saturday, locale);
            p
        }
        Relative::MonthToDate => {
            let start = Date::new(today.year(), today.month(), 1).unwrap_or(today);
            range(start, today.add_days(1), locale)
        }
        Relative::TwelveMonths => {
            let end = today.add_days(1);
            let mut p = range(today.add_months_keep_day(-12).add_days(1), end, locale);
            p.label = wording::rolling_label(12, 'm', &p.label, locale);
            p
        }
        Relative::YearToDate => {
            let start = Date::new(today.year(), 1, 1).unwrap_or(today);
            let mut p = range(start, today.add_days(1), locale);
            p.label = wording::year_to_date_label(&p.label, locale);
            p
        }
    }
}

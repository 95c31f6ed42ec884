//! Every label Sou shows the user, in French or English: the names of periods,
//! breakdowns, question kinds and dataset aggregates, and the one-line titles of
//! plans. Only words: no parsing, no arithmetic on dates.

use crate::{Date, Locale};

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

const QUARTER_FR: [&str; 4] = ["1er trimestre", "2e trimestre", "3e trimestre", "4e trimestre"];

/// "janvier 2026", "January 2026".
pub fn month_label(start: Date, locale: Locale) -> String {
    let i = (start.month() as usize).saturating_sub(1).min(11);
    match locale {
        Locale::Fr => format!("{} {}", MONTHS_FR[i], start.year()),
        Locale::En => format!("{} {}", MONTHS_EN[i], start.year()),
    }
}

/// "3 janvier 2026", "3 January 2026".
pub fn day_label(d: Date, locale: Locale) -> String {
    let i = (d.month() as usize).saturating_sub(1).min(11);
    match locale {
        Locale::Fr => format!("{} {} {}", d.day(), MONTHS_FR[i], d.year()),
        Locale::En => format!("{} {} {}", d.day(), MONTHS_EN[i], d.year()),
    }
}

/// "année 2026", "year 2026".
pub fn year_label(y: i32, locale: Locale) -> String {
    match locale {
        Locale::Fr => format!("année {y}"),
        Locale::En => format!("year {y}"),
    }
}

/// "semaine du 5 janvier 2026", "week of 5 January 2026".
pub fn week_label(monday: Date, locale: Locale) -> String {
    match locale {
        Locale::Fr => format!("semaine du {}", day_label(monday, locale)),
        Locale::En => format!("week of {}", day_label(monday, locale)),
    }
}

/// "1er trimestre 2026", "Q1 2026".
pub fn quarter_label(year: i32, q: u32, locale: Locale) -> String {
    let i = (q as usize).saturating_sub(1).min(3);
    match locale {
        Locale::Fr => format!("{} {year}", QUARTER_FR[i]),
        Locale::En => format!("Q{q} {year}"),
    }
}

/// Today, around its day's label: "aujourd'hui (3 janvier 2026)".
pub fn today_label(day: &str, locale: Locale) -> String {
    match locale {
        Locale::Fr => format!("aujourd'hui ({day})"),
        Locale::En => format!("today ({day})"),
    }
}

/// The look-back of `n` months, around its range's label: "12 derniers mois (…)".
pub fn last_months_label(n: u32, range: &str, locale: Locale) -> String {
    match locale {
        Locale::Fr => format!("{n} derniers mois ({range})"),
        Locale::En => format!("last {n} months ({range})"),
    }
}

/// The year so far, around its range's label: "depuis le début de l'année (…)".
pub fn year_to_date_label(range: &str, locale: Locale) -> String {
    match locale {
        Locale::Fr => format!("depuis le début de l'année ({range})"),
        Locale::En => format!("year to date ({range})"),
    }
}

/// A rolling window of `n` days (`'d'`), weeks (`'w'`), months (`'m'`) or years,
/// around its range's label: "3 derniers mois (…)", "last 90 days (…)".
pub fn rolling_label(n: u32, unit: char, range: &str, locale: Locale) -> String {
    let what = match (locale, unit) {
        (Locale::Fr, 'd') => format!("{n} derniers jours"),
        (Locale::Fr, 'w') => format!("{n} dernières semaines"),
        (Locale::Fr, 'm') => format!("{n} derniers mois"),
        (Locale::Fr, _) => format!("{n} dernières années"),
        (Locale::En, 'd') => format!("last {n} days"),
        (Locale::En, 'w') => format!("last {n} weeks"),
        (Locale::En, 'm') => format!("last {n} months"),
        (Locale::En, _) => format!("last {n} years"),
    };
    format!("{what} ({range})")
}

/// A season by its French and English names and the year it ends in: "été 2025".
pub fn season_label(fr: &str, en: &str, year: i32, locale: Locale) -> String {
    match locale {
        Locale::Fr => format!("{fr} {year}"),
        Locale::En => format!("{en} {year}"),
    }
}

/// The days `[start, end)` as Sou names them: a month, months ("janvier 2026 – mars
/// 2026"), a day, or a range of days ("du 3 janvier 2026 au 9 janvier 2026").
pub fn range_label(start: Date, end: Date, locale: Locale) -> String {
    let last = end.add_days(-1);
    if start.add_months(1) == end && start.day() == 1 {
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
    }
}

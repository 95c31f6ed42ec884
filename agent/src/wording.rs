//! Every label Sou shows the user, in French or English: the names of periods,
//! breakdowns, question kinds and dataset aggregates, and the one-line titles of
//! plans. Only words: no parsing, no arithmetic on dates.

use crate::args::GroupBy;
use crate::date::Date;
use crate::locale::Locale;

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

/// "week-end du 28 novembre 2026", "weekend of 28 November 2026".
pub fn weekend_label(saturday: Date, locale: Locale) -> String {
    match locale {
        Locale::Fr => format!("week-end du {}", day_label(saturday, locale)),
        Locale::En => format!("weekend of {}", day_label(saturday, locale)),
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

/// "1er semestre 2025", "H1 2025".
pub fn half_label(year: i32, h: u32, locale: Locale) -> String {
    match (locale, h) {
        (Locale::Fr, 1) => format!("1er semestre {year}"),
        (Locale::Fr, _) => format!("2e semestre {year}"),
        (Locale::En, _) => format!("H{h} {year}"),
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

/// "hors Deliveroo, Loyer", "excluding Deliveroo": what a figure leaves out; `None`
/// when nothing is.
pub fn excluding<S: AsRef<str>>(names: &[S], locale: Locale) -> Option<String> {
    if names.is_empty() {
        return None;
    }
    let names = names.iter().map(AsRef::as_ref).collect::<Vec<_>>().join(", ");
    Some(match locale {
        Locale::Fr => format!("hors {names}"),
        Locale::En => format!("excluding {names}"),
    })
}

/// "par mois", "per transaction".
pub fn per_label(per: crate::args::AveragePer, locale: Locale) -> &'static str {
    use crate::args::AveragePer as P;
    match (locale, per) {
        (Locale::Fr, P::Month) => "par mois",
        (Locale::Fr, P::Week) => "par semaine",
        (Locale::Fr, P::Day) => "par jour",
        (Locale::Fr, P::Transaction) => "par opération",
        (Locale::En, P::Month) => "per month",
        (Locale::En, P::Week) => "per week",
        (Locale::En, P::Day) => "per day",
        (Locale::En, P::Transaction) => "per transaction",
    }
}

pub fn group_label(g: GroupBy, locale: Locale) -> &'static str {
    match (g, locale) {
        (GroupBy::None, _) => "",
        (GroupBy::Category, Locale::Fr) => "par catégorie",
        (GroupBy::Category, Locale::En) => "by category",
        (GroupBy::Merchant, Locale::Fr) => "par marchand",
        (GroupBy::Merchant, Locale::En) => "by merchant",
        (GroupBy::Account, Locale::Fr) => "par compte",
        (GroupBy::Account, Locale::En) => "by account",
        (GroupBy::Month, Locale::Fr) => "par mois",
        (GroupBy::Month, Locale::En) => "by month",
        (GroupBy::Week, Locale::Fr) => "par semaine",
        (GroupBy::Week, Locale::En) => "by week",
        (GroupBy::Day, Locale::Fr) => "par jour",
        (GroupBy::Day, Locale::En) => "by day",
    }
}

/// Which transactions a write changes: names (merchant, category), label text, amounts,
/// transactions chosen one by one, a period.
#[cfg(feature = "writes")]
pub(crate) struct Which<'a> {
    pub names: [Option<&'a str>; 2],
    pub text: Option<&'a str>,
    pub amounts: (Option<crate::money::Money>, Option<crate::money::Money>),
    pub ids: usize,
    pub period: Option<&'a crate::args::Period>,
}

/// What a filter keeps, in words: "Amazon, texte « prime », plus de 50 € — mars 2026".
#[cfg(feature = "writes")]
pub(crate) fn which_words(
    vocab: &crate::vocab::Vocabulary,
    which: Which<'_>,
    locale: crate::locale::Locale,
) -> String {
    let Which { names, text, amounts, ids, period } = which;
    let mut parts: Vec<String> = names.into_iter().flatten().map(|k| vocab.label_of(k, locale)).collect();
    if let Some(t) = text {
        parts.push(locale.pick(format!("libellé « {t} »"), format!("label “{t}”")));
    }
    let amounts = crate::amount::describe(amounts.0, amounts.1, locale);
    if !amounts.is_empty() {
        parts.push(amounts);
    }
    if ids > 0 {
        parts.push(match (locale, ids) {
            (crate::locale::Locale::Fr, 1) => "1 opération choisie".to_string(),
            (crate::locale::Locale::Fr, n) => format!("{n} opérations choisies"),
            (crate::locale::Locale::En, 1) => "1 chosen transaction".to_string(),
            (crate::locale::Locale::En, n) => format!("{n} chosen transactions"),
        });
    }
    let mut out = parts.join(", ");
    if let Some(p) = period {
        if !out.is_empty() {
            out.push_str(" — ");
        }
        out.push_str(&p.label);
    }
    out
}

//! Every label Sou shows the user, in French or English: the names of periods,
//! breakdowns, question kinds and dataset aggregates, and the one-line titles of
//! plans. Only words: no parsing, no arithmetic on dates.

use crate::amount;
use crate::parser::intent::Kind;
use crate::vocab::Vocabulary;
use crate::{Aggregate, DatasetOrder, Date, DateBucket, GroupBy, Locale, QueryDatasetArgs, ToolCall};

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

/// One line saying what a call computes: "Dépenses en Courses — janvier 2026": its
/// filters in words, then each tool's own words (in its file, `crate::tool`).
pub fn describe(vocab: &Vocabulary, call: &ToolCall, locale: Locale) -> String {
    if let Some(write) = describe_write(vocab, call, locale) {
        return write;
    }
    let period = call.period().map_or("", |p| p.label.as_str());
    let (min, max) = call.amounts();
    let amounts = amount::describe(min, max, locale);
    let names: Vec<String> = [call.merchant().or(call.category()), call.account()]
        .into_iter()
        .flatten()
        .map(|k| vocab.label_of(k, locale))
        .collect();
    let name = (!names.is_empty()).then(|| names.join(", "));
    let filter = match (name, amounts.is_empty()) {
        (Some(n), false) => Some(format!("{n}, {amounts}")),
        (Some(n), true) => Some(n),
        (None, false) => Some(amounts),
        (None, true) => None,
    };
    // "Restaurants hors Deliveroo", "excluding Rent".
    let (ex_category, ex_merchant) = call.excluded();
    let left_out: Vec<String> =
        [ex_merchant, ex_category].into_iter().flatten().map(|k| vocab.label_of(k, locale)).collect();
    let filter = match (filter, excluding(&left_out, locale)) {
        (f, None) => f,
        (None, Some(but)) => Some(but),
        (Some(f), Some(but)) => Some(format!("{f} {but}")),
    };
    call.title(&crate::tool::Heading { filter, period }, locale)
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
pub fn per_label(per: crate::AveragePer, locale: Locale) -> &'static str {
    use crate::AveragePer as P;
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

pub(crate) fn kind_label(kind: Kind, locale: Locale) -> &'static str {
    match (locale, kind) {
        (Locale::Fr, Kind::Income) => "total des revenus",
        (Locale::En, Kind::Income) => "total income",
        (Locale::Fr, Kind::List) => "liste des opérations",
        (Locale::En, Kind::List) => "list of transactions",
        (Locale::Fr, Kind::Spending) => "total des dépenses",
        (Locale::En, Kind::Spending) => "total spending",
        (Locale::Fr, Kind::CashFlow) => "entrées et sorties",
        (Locale::En, Kind::CashFlow) => "cash flow",
        (Locale::Fr, Kind::Balance) => "solde des comptes",
        (Locale::En, Kind::Balance) => "account balances",
        (Locale::Fr, Kind::Budget) => "suivi des budgets",
        (Locale::En, Kind::Budget) => "budget status",
        (Locale::Fr, Kind::Recurring) => "paiements récurrents",
        (Locale::En, Kind::Recurring) => "recurring payments",
    }
}

/// "ventes (montant, region; vendeur = Alice)" — the dataset, the columns a plan
/// reads and its conditions.
pub fn shape_text(a: &QueryDatasetArgs, locale: Locale) -> String {
    let columns: Vec<&str> = a.measure.iter().chain(a.group_by.iter()).map(String::as_str).collect();
    let conditions = conditions_text(a, locale);
    match (columns.is_empty(), conditions.is_empty()) {
        (true, true) => a.dataset.clone(),
        (false, true) => format!("{} ({})", a.dataset, columns.join(", ")),
        (true, false) => format!("{} ({conditions})", a.dataset),
        (false, false) => format!("{} ({}; {conditions})", a.dataset, columns.join(", ")),
    }
}

/// A plan's conditions in words: "vendeur = Alice, quantite > 10, day : 2025".
fn conditions_text(a: &QueryDatasetArgs, locale: Locale) -> String {
    let mut parts: Vec<String> =
        a.filters.iter().map(|f| format!("{} {} {}", f.column, f.op.symbol(), f.value)).collect();
    if let Some(p) = &a.period {
        let label = if p.label.is_empty() { format!("{} → {}", p.start, p.end) } else { p.label.clone() };
        let colon = if locale == Locale::Fr { " :" } else { ":" };
        parts.push(format!("{}{colon} {label}", p.column));
    }
    parts.join(", ")
}

/// The aggregate in words: "somme", "average", "nombre de lignes".
pub fn aggregate_label(a: Aggregate, locale: Locale) -> &'static str {
    match (a, locale) {
        (Aggregate::Sum, Locale::Fr) => "somme",
        (Aggregate::Sum, Locale::En) => "sum",
        (Aggregate::Avg, Locale::Fr) => "moyenne",
        (Aggregate::Avg, Locale::En) => "average",
        (Aggregate::Count, Locale::Fr) => "nombre de lignes",
        (Aggregate::Count, Locale::En) => "number of rows",
        (Aggregate::Min, _) => "minimum",
        (Aggregate::Max, _) => "maximum",
    }
}

/// The column name of the aggregate in the result: `somme_montant`, `average_amount`,
/// `maximum_amount`, `nombre`, `count`.
pub fn value_column(a: &QueryDatasetArgs, locale: Locale) -> String {
    match (&a.measure, a.aggregate, locale) {
        (_, Aggregate::Count, Locale::Fr) => "nombre".into(),
        (_, Aggregate::Count, Locale::En) => "count".into(),
        (Some(m), agg, _) => format!("{}_{m}", aggregate_label(agg, locale)),
        (None, agg, _) => aggregate_label(agg, locale).into(),
    }
}

/// What a plan asks, in words: "Somme de montant par region — ventes",
/// "Top 5 region : somme de montant — ventes".
pub fn dataset_title(a: &QueryDatasetArgs, locale: Locale) -> String {
    let what = match (&a.measure, a.aggregate) {
        (Some(m), agg) if agg != Aggregate::Count => match locale {
            Locale::Fr => format!("{} de {m}", aggregate_label(agg, locale)),
            Locale::En => format!("{} of {m}", aggregate_label(agg, locale)),
        },
        (_, agg) => aggregate_label(agg, locale).to_string(),
    };
    let group = match (&a.group_by, a.bucket) {
        (Some(g), Some(b)) => Some(format!("{} ({g})", bucket_label(b, locale))),
        (g, _) => g.clone(),
    };
    let body = match (&group, a.limit, locale) {
        (Some(g), Some(n), Locale::Fr) => format!("Top {n} {g} : {what}"),
        (Some(g), Some(n), Locale::En) => format!("Top {n} {g} by {what}"),
        (Some(g), None, Locale::Fr) => format!("{} par {g}", capitalise(&what)),
        (Some(g), None, Locale::En) => format!("{} by {g}", capitalise(&what)),
        (None, _, _) => capitalise(&what),
    };
    let body = match (a.order, a.limit, locale) {
        (DatasetOrder::ValueAsc, Some(_), Locale::Fr) => {
            body.replacen("Top", "Les", 1) + " (les plus faibles)"
        }
        (DatasetOrder::ValueAsc, Some(_), Locale::En) => body.replacen("Top", "Bottom", 1),
        _ => body,
    };
    let conditions = conditions_text(a, locale);
    if conditions.is_empty() {
        format!("{body} — {}", a.dataset)
    } else {
        format!("{body} — {}, {conditions}", a.dataset)
    }
}

/// What a bucket is called in a result's header: "mois", "quarter".
pub fn bucket_label(b: DateBucket, locale: Locale) -> &'static str {
    match (b, locale) {
        (DateBucket::Month, Locale::Fr) => "mois",
        (DateBucket::Month, Locale::En) => "month",
        (DateBucket::Quarter, Locale::Fr) => "trimestre",
        (DateBucket::Quarter, Locale::En) => "quarter",
        (DateBucket::Year, Locale::Fr) => "année",
        (DateBucket::Year, Locale::En) => "year",
    }
}

/// `s` with its first letter in upper case. Only for Sou's own words, which start with
/// an ASCII letter ([`aggregate_label`]): no Unicode case table in the browser bundle.
fn capitalise(s: &str) -> String {
    let mut s = s.to_string();
    if let Some(first) = s.get_mut(..1) {
        first.make_ascii_uppercase();
    }
    s
}

/// Which transactions a write changes: names (merchant, category), label text, amounts,
/// transactions chosen one by one, a period.
#[cfg(feature = "writes")]
pub(crate) struct Which<'a> {
    pub names: [Option<&'a str>; 2],
    pub text: Option<&'a str>,
    pub amounts: (Option<crate::Money>, Option<crate::Money>),
    pub ids: usize,
    pub period: Option<&'a crate::Period>,
}

/// What a filter keeps, in words: "Amazon, texte « prime », plus de 50 € — mars 2026".
#[cfg(feature = "writes")]
pub(crate) fn which_words(vocab: &crate::Vocabulary, which: Which<'_>, locale: crate::Locale) -> String {
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
            (crate::Locale::Fr, 1) => "1 opération choisie".to_string(),
            (crate::Locale::Fr, n) => format!("{n} opérations choisies"),
            (crate::Locale::En, 1) => "1 chosen transaction".to_string(),
            (crate::Locale::En, n) => format!("{n} chosen transactions"),
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

/// The browser's line for a write (its bundle has no room for the wording below; the
/// server's rendering of the answer, which replaces it, has the full line).
#[cfg(not(feature = "writes"))]
fn describe_write(_: &crate::Vocabulary, call: &crate::ToolCall, locale: crate::Locale) -> Option<String> {
    call.is_write().then(|| locale.pick("Modification à approuver", "Change to approve").to_string())
}

/// One line saying what a write does: "Budget Restaurants : 300,00 € par mois à partir
/// de décembre 2026". `None` for a read.
#[cfg(feature = "writes")]
fn describe_write(
    vocab: &crate::Vocabulary,
    call: &crate::ToolCall,
    locale: crate::Locale,
) -> Option<String> {
    call.write_title(vocab, locale)
}

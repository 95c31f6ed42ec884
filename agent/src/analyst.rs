//! Questions about datasets (analyst mode, seed 004) that need no model: "total
//! montant par région", "average salary by department in staff", "nombre de lignes par
//! ville dans clients". The parser reads them first when the user has datasets; a
//! message that names no dataset or column of one stays with the ledger parser, and
//! what neither reads goes to a model that writes SQL.
//!
//! Within one: dates per month, quarter or year ("par mois", "quarterly"), conditions
//! on columns ("pour le vendeur Alice", "where units >= 3") and a period on the date
//! column ("en 2025"), when the dataset is named or followed.
//!
//! A dataset question becomes a `query_dataset` plan — a structure, never SQL.

use crate::chart::ChartKind;
use crate::datasets::{ColumnType, DatasetShape};
use crate::reason::{Reason, ReasonCode};
use crate::text::{singular, Token, TokenKind};
use crate::{
    Aggregate, DatasetFilter, DatasetOrder, DatasetPeriod, Date, DateBucket, FilterOp, Locale,
    QueryDatasetArgs,
};

/// Words skipped inside a dataset's or column's name ("chiffre d'affaires") and
/// before it ("par la région").
const GLUE: &[&str] = &["d", "de", "du", "des", "l", "la", "le", "les", "un", "une", "of", "the", "a", "an"];

/// Words that put a column after them in the breakdown: "par région", "by region".
const GROUP_MARKERS: &[&str] = &["par", "by", "per", "selon", "suivant", "chaque", "each"];

/// Words that put a dataset after them: "dans ventes", "in sales".
const DATASET_MARKERS: &[&str] = &["dans", "in", "from", "sur", "on", "du", "de", "of", "table", "fichier"];

/// Words that say nothing the plan does not: "units sold per product".
const NEUTRAL: &[&str] = &[
    "sold", "vendu", "vendus", "vendue", "vendues", "qui", "ont", "a", "with", "avec", "have", "has",
    "value", "valeur", "valeurs", "values", "colonne", "column", "jeu", "donnees", "dataset", "data",
];

/// Words that mean the rows themselves ("nombre de lignes", "how many rows").
const ROW_WORDS: &[&str] = &[
    "ligne",
    "lignes",
    "row",
    "rows",
    "entree",
    "entrees",
    "enregistrement",
    "enregistrements",
    "record",
    "records",
];

/// Words before a column that make what follows it a condition: "pour le vendeur
/// Alice", "where product is Widget", "avec quantite > 10".
const FILTER_MARKERS: &[&str] = &[
    "ou",
    "where",
    "pour",
    "for",
    "avec",
    "with",
    "dont",
    "whose",
    "quand",
    "when",
    "si",
    "if",
    "seulement",
    "only",
    "uniquement",
];

/// Words after a column that compare it with a value, longest first within an operator.
const COMPARISONS: &[(&[&str], FilterOp)] = &[
    (&["n", "est", "pas"], FilterOp::Ne),
    (&["is", "not"], FilterOp::Ne),
    (&["isn", "t"], FilterOp::Ne),
    (&["different", "de"], FilterOp::Ne),
    (&["differente", "de"], FilterOp::Ne),
    (&["other", "than"], FilterOp::Ne),
    (&["autre", "que"], FilterOp::Ne),
    (&["superieur", "ou", "egal", "a"], FilterOp::Gte),
    (&["superieure", "ou", "egale", "a"], FilterOp::Gte),
    (&["inferieur", "ou", "egal", "a"], FilterOp::Lte),
    (&["inferieure", "ou", "egale", "a"], FilterOp::Lte),
    (&["au", "dessus", "de"], FilterOp::Gt),
    (&["en", "dessous", "de"], FilterOp::Lt),
    (&["au", "dessous", "de"], FilterOp::Lt),
    (&["plus", "grand", "que"], FilterOp::Gt),
    (&["plus", "petit", "que"], FilterOp::Lt),
    (&["superieur", "a"], FilterOp::Gt),
    (&["superieure", "a"], FilterOp::Gt),
    (&["inferieur", "a"], FilterOp::Lt),
    (&["inferieure", "a"], FilterOp::Lt),
    (&["more", "than"], FilterOp::Gt),
    (&["greater", "than"], FilterOp::Gt),
    (&["less", "than"], FilterOp::Lt),
    (&["lower", "than"], FilterOp::Lt),
    (&["at", "least"], FilterOp::Gte),
    (&["at", "most"], FilterOp::Lte),
    (&["au", "moins"], FilterOp::Gte),
    (&["au", "plus"], FilterOp::Lte),
    (&["plus", "de"], FilterOp::Gt),
    (&["moins", "de"], FilterOp::Lt),
    (&["egal", "a"], FilterOp::Eq),
    (&["egale", "a"], FilterOp::Eq),
    (&["over"], FilterOp::Gt),
    (&["above"], FilterOp::Gt),
    (&["under"], FilterOp::Lt),
    (&["below"], FilterOp::Lt),
    (&["equals"], FilterOp::Eq),
    (&["vaut"], FilterOp::Eq),
    (&["est"], FilterOp::Eq),
    (&["is"], FilterOp::Eq),
    (&["not"], FilterOp::Ne),
    (&["sauf"], FilterOp::Ne),
];

/// Words that end a condition's value: "pour le vendeur Alice | par région".
const VALUE_STOPS: &[&str] = &[
    "et", "and", "en", "in", "dans", "from", "sur", "on", "table", "fichier", "during", "pendant", "trie",
    "sorted",
];

/// The most words a condition's value has, unquoted.
const MAX_VALUE_WORDS: usize = 8;

/// Groups kept for "top regions" when the message gives no number.
pub const DEFAULT_TOP: u32 = 5;
/// The most groups a "top N" keeps.
pub const MAX_TOP: u32 = 100;

/// What the message asks of the user's datasets.
pub(crate) enum Read {
    /// Nothing about a dataset: the ledger parser takes the message.
    NotDataset,
    Plan {
        args: QueryDatasetArgs,
        reasons: Vec<Reason>,
    },
    /// About a dataset, but which dataset or which column is unsaid: plans to pick from.
    Choose {
        reasons: Vec<Reason>,
        options: Vec<QueryDatasetArgs>,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Target {
    Dataset(usize),
    Column(usize, usize),
}

/// Where a name of the user's datasets appears, and what it may name.
struct Mention {
    first: usize,
    last: usize,
    targets: Vec<Target>,
}

impl Mention {
    fn datasets(&self) -> impl Iterator<Item = usize> + '_ {
        self.targets.iter().filter_map(|t| match t {
            Target::Dataset(d) => Some(*d),
            Target::Column(..) => None,
        })
    }

    fn column_in(&self, d: usize) -> Option<usize> {
        self.targets.iter().find_map(|t| match t {
            Target::Column(e, c) if *e == d => Some(*c),
            _ => None,
        })
    }

    fn is_column(&self) -> bool {
        self.targets.iter().any(|t| matches!(t, Target::Column(..)))
    }
}

/// A name's words without glue, singular: "chiffre_d_affaires" → ["chiffre", "affaire"].
fn name_words(name: &str) -> Vec<String> {
    crate::text::tokenize(name)
        .into_iter()
        .filter(|t| !GLUE.contains(&t.norm.as_str()))
        .map(|t| singular(&t.norm).to_string())
        .collect()
}

/// The token after `i` that glue does not fill, if any.
fn skip_glue(tokens: &[Token], mut i: usize) -> usize {
    while i < tokens.len() && GLUE.contains(&tokens[i].norm.as_str()) {
        i += 1;
    }
    i
}

/// The last token of `words` read from `i`, glue between words allowed.
fn match_at(tokens: &[Token], used: &[bool], i: usize, words: &[String]) -> Option<usize> {
    let mut j = i;
    for (k, w) in words.iter().enumerate() {
        if k > 0 {
            j = skip_glue(tokens, j);
        }
        let t = tokens.get(j)?;
        if used[j] || singular(&t.norm) != w {
            return None;
        }
        j += 1;
    }
    Some(j - 1)
}

/// The words of every dataset's and column's name, built once per vocabulary.
#[derive(Clone, Debug, Default)]
pub(crate) struct Names(Vec<(Vec<String>, Target)>);

impl Names {
    pub(crate) fn build(datasets: &[DatasetShape]) -> Names {
        let mut names = Vec::new();
        for (d, set) in datasets.iter().enumerate() {
            names.push((name_words(&set.name), Target::Dataset(d)));
            for (c, column) in set.columns.iter().enumerate() {
                names.push((name_words(&column.name), Target::Column(d, c)));
            }
        }
        names.retain(|(words, _)| !words.is_empty());
        Names(names)
    }
}

/// Every mention of a dataset or column, longest names first, left to right.
fn mentions(names: &Names, tokens: &[Token], used: &mut [bool]) -> Vec<Mention> {
    let mut found = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        if used[i] || tokens[i].kind != TokenKind::Word || GLUE.contains(&tokens[i].norm.as_str()) {
            i += 1;
            continue;
        }
        let mut best: Option<(usize, usize)> = None;
        let mut targets = Vec::new();
        for (words, target) in &names.0 {
            let Some(last) = match_at(tokens, used, i, words) else { continue };
            match best {
                Some((_, n)) if n > words.len() => {}
                Some((b, n)) if n == words.len() && b == last => targets.push(*target),
                _ => {
                    best = Some((last, words.len()));
                    targets = vec![*target];
                }
            }
        }
        match best {
            Some((last, _)) => {
                used[i..=last].iter_mut().for_each(|u| *u = true);
                found.push(Mention { first: i, last, targets });
                i = last + 1;
            }
            None => i += 1,
        }
    }
    found
}

/// The word before token `i` that places a dataset ("dans", "de") or is not glue.
fn word_before(tokens: &[Token], i: usize) -> Option<&str> {
    (0..i).rev().map(|j| tokens[j].norm.as_str()).find(|w| DATASET_MARKERS.contains(w) || !GLUE.contains(w))
}

fn is_group_position(tokens: &[Token], m: &Mention) -> bool {
    let before = (0..m.first).rev().map(|j| tokens[j].norm.as_str()).find(|w| !GLUE.contains(w));
    before.is_some_and(|w| GROUP_MARKERS.contains(&w))
}

fn is_dataset_position(tokens: &[Token], m: &Mention) -> bool {
    word_before(tokens, m.first).is_some_and(|w| DATASET_MARKERS.contains(&w))
}

fn aggregate_word(w: &str, next: &str) -> Option<Aggregate> {
    Some(match w {
        "total" | "totale" | "totaux" | "totales" | "somme" | "sommes" | "sum" | "cumul" | "cumule" => {
            Aggregate::Sum
        }
        "moyenne" | "moyennes" | "moyen" | "moyens" | "average" | "avg" | "mean" => Aggregate::Avg,
        "nombre" | "nb" | "count" | "many" => Aggregate::Count,
        "max" | "maximum" | "maximal" | "maximale" | "highest" => Aggregate::Max,
        "min" | "minimum" | "minimal" | "minimale" | "lowest" => Aggregate::Min,
        "plus" if matches!(next, "eleve" | "elevee" | "eleves" | "elevees" | "haut" | "haute") => {
            Aggregate::Max
        }
        "plus" if matches!(next, "faible" | "faibles" | "bas" | "basse" | "petit" | "petite") => {
            Aggregate::Min
        }
        "combien" if ROW_WORDS.contains(&next) || next == "de" || next == "d" => Aggregate::Count,
        _ => return None,
    })
}

/// The chart a word asks for: "répartition" a pie, "évolution" a line, "barres" bars.
fn chart_word(w: &str) -> Option<ChartKind> {
    Some(match w {
        "repartition" | "camembert" | "pie" | "share" | "shares" | "proportion" | "proportions" => {
            ChartKind::Pie
        }
        "evolution" | "courbe" | "line" | "trend" | "tendance" => ChartKind::Line,
        "barres" | "histogramme" | "bar" | "bars" => ChartKind::Bar,
        _ => return None,
    })
}

/// "top 5", "les 3 premières", "bottom 3", "les moins": how many groups, which end.
fn ranking(tokens: &[Token], used: &mut [bool]) -> Option<(u32, DatasetOrder, Vec<String>)> {
    let number = |j: usize| {
        tokens
            .get(j)
            .filter(|t| t.kind == TokenKind::Number)
            .and_then(|t| t.norm.parse::<u32>().ok())
            .filter(|n| (1..=MAX_TOP).contains(n))
    };
    for i in 0..tokens.len() {
        if used[i] {
            continue;
        }
        let order = match tokens[i].norm.as_str() {
            "top" | "premiers" | "premieres" | "meilleurs" | "meilleures" | "first" | "best" => {
                DatasetOrder::ValueDesc
            }
            "bottom" | "flop" | "derniers" | "dernieres" | "pires" | "worst" | "least" | "fewest" => {
                DatasetOrder::ValueAsc
            }
            "moins" if !tokens.get(i + 1).is_some_and(|t| t.kind == TokenKind::Number) => {
                DatasetOrder::ValueAsc
            }
            // "le plus de montant", "the most units"
            "most" => DatasetOrder::ValueDesc,
            "plus" if i > 0 && tokens[i - 1].norm == "le" => DatasetOrder::ValueDesc,
            _ => continue,
        };
        used[i] = true;
        let mut words = vec![tokens[i].norm.clone()];
        let n = if let Some(n) = number(i + 1).filter(|_| !used[i + 1]) {
            used[i + 1] = true;
            words.push(n.to_string());
            n
        } else if let Some(n) = i.checked_sub(1).and_then(|j| number(j).filter(|_| !used[j])) {
            used[i - 1] = true;
            words.insert(0, n.to_string());
            n
        } else if let Some(j) = (0..tokens.len()).find(|j| !used[*j] && number(*j).is_some()) {
            // "les 3 régions avec le moins de montant"
            used[j] = true;
            words.push(tokens[j].norm.clone());
            number(j).unwrap_or(DEFAULT_TOP)
        } else {
            DEFAULT_TOP
        };
        return Some((n, order, words));
    }
    None
}

/// A number just before the breakdown's column: "les 3 régions".
fn count_before(tokens: &[Token], used: &[bool], m: Option<&Mention>) -> Option<u32> {
    let m = m?;
    let j = (0..m.first).rev().find(|j| !GLUE.contains(&tokens[*j].norm.as_str()))?;
    let t = &tokens[j];
    (t.kind == TokenKind::Number && !used[j])
        .then(|| t.norm.parse().ok())
        .flatten()
        .filter(|n| (1..=MAX_TOP).contains(n))
}

/// A condition the message puts on a column, before it is checked against a dataset.
struct Condition {
    /// Index of the column's mention in `mentions`' answer.
    mention: usize,
    op: FilterOp,
    value: String,
    /// The value is a number (`10`, `-2.5`), written with a dot.
    number: Option<String>,
    /// The user's words, for reasons.
    words: String,
}

/// The raw text between token `i` and the next one (or the end).
fn gap_after<'m>(message: &'m str, tokens: &[Token], i: usize) -> &'m str {
    let end = tokens.get(i + 1).map_or(message.len(), |t| t.start);
    message.get(tokens[i].end..end).unwrap_or_default()
}

/// How the words after token `last` compare a column with a value: the operator and
/// the index of the value's first token.
fn comparison(message: &str, tokens: &[Token], used: &[bool], last: usize) -> Option<(FilterOp, usize)> {
    let gap = gap_after(message, tokens, last);
    let symbol = [
        (">=", FilterOp::Gte),
        ("≥", FilterOp::Gte),
        ("<=", FilterOp::Lte),
        ("≤", FilterOp::Lte),
        ("!=", FilterOp::Ne),
        ("≠", FilterOp::Ne),
        ("<>", FilterOp::Ne),
        (">", FilterOp::Gt),
        ("<", FilterOp::Lt),
        ("=", FilterOp::Eq),
        (":", FilterOp::Eq),
    ];
    if let Some((_, op)) = symbol.iter().find(|(s, _)| gap.contains(s)) {
        return Some((*op, last + 1));
    }
    // "un âge de moins de 30"
    let at = match tokens.get(last + 1) {
        Some(t) if matches!(t.norm.as_str(), "de" | "d" | "of") => last + 2,
        _ => last + 1,
    };
    COMPARISONS.iter().find_map(|(words, op)| {
        let fits = words.iter().enumerate().all(|(k, w)| {
            tokens.get(at + k).is_some_and(|t| t.norm == *w) && !used.get(at + k).copied().unwrap_or(true)
        });
        fits.then_some((*op, at + words.len()))
    })
}

/// A number as SQL reads it: "1,5" → "1.5", "-3".
fn number_text(norm: &str, negative: bool) -> Option<String> {
    let s = if norm.contains(',') && !norm.contains('.') {
        norm.replace(',', ".")
    } else {
        norm.replace(',', "")
    };
    let f: f64 = s.parse().ok()?;
    f.is_finite().then(|| if negative { format!("-{s}") } else { s })
}

/// The value that starts at token `at`: quoted text, a number, or the words up to
/// the next marker. Its text and the index of its last token.
fn value_at(
    message: &str,
    tokens: &[Token],
    used: &[bool],
    at: usize,
) -> Option<(String, Option<String>, usize)> {
    let before_start = at.checked_sub(1).map_or(0, |i| tokens[i].end);
    let before = message.get(before_start..tokens.get(at)?.start).unwrap_or_default();
    const QUOTES: [(char, char); 4] = [('"', '"'), ('«', '»'), ('“', '”'), ('\'', '\'')];
    if let Some((_, close)) = QUOTES.iter().find(|(open, _)| before.trim_end().ends_with(*open)) {
        let from = tokens[at].start;
        let len = message.get(from..)?.find(*close)?;
        let last = (at..tokens.len()).take_while(|j| tokens[*j].end <= from + len).last()?;
        if (at..=last).any(|j| used[j]) {
            return None;
        }
        let text = message.get(from..from + len)?.trim().to_string();
        return (!text.is_empty()).then_some((text, None, last));
    }
    let t = &tokens[at];
    if used[at] || t.kind == TokenKind::Currency {
        return None;
    }
    if t.kind == TokenKind::Number {
        let number = number_text(&t.norm, before.trim_end().ends_with('-'));
        let followed = tokens.get(at + 1).is_some_and(|n| n.kind == TokenKind::Word && !used[at + 1]);
        // "12" alone is a number; "Magasin 12" or "12 rue…" is text.
        if number.is_some() && !followed {
            return Some((t.norm.clone(), number, at));
        }
    }
    let mut last = None;
    for j in at..tokens.len().min(at + MAX_VALUE_WORDS) {
        let w = tokens[j].norm.as_str();
        let stop = used[j]
            || tokens[j].kind == TokenKind::Currency
            || VALUE_STOPS.contains(&w)
            || GROUP_MARKERS.contains(&w)
            || FILTER_MARKERS.contains(&w)
            || chart_word(w).is_some()
            || (j > at && GLUE.contains(&w));
        if stop {
            break;
        }
        last = Some(j);
        if gap_after(message, tokens, j).contains([',', ';', '?', '!', '.', ')']) {
            break;
        }
    }
    let last = last?;
    Some((message.get(tokens[at].start..tokens[last].end)?.to_string(), None, last))
}

/// Conditions on columns ("pour le vendeur Alice", "quantite > 10", "region is
/// Nord"): a column followed by a comparison and a value, or after a marker and
/// followed by a value. Their tokens are used.
fn conditions(q: &Question<'_>, found: &[Mention], used: &mut [bool]) -> Vec<Condition> {
    let tokens = q.tokens;
    let mut out = Vec::new();
    for (k, m) in found.iter().enumerate() {
        if !m.is_column() || is_dataset_position(tokens, m) {
            continue;
        }
        let marker = (0..m.first)
            .rev()
            .find(|j| !GLUE.contains(&tokens[*j].norm.as_str()))
            .filter(|j| !used[*j] && FILTER_MARKERS.contains(&tokens[*j].norm.as_str()));
        let (op, at) = match comparison(q.message, tokens, used, m.last) {
            Some(c) => c,
            None if marker.is_some() => (FilterOp::Eq, m.last + 1),
            None => continue,
        };
        let Some((value, number, last)) = value_at(q.message, tokens, used, at) else { continue };
        let first = marker.unwrap_or(m.first);
        used[first..=last].iter_mut().for_each(|u| *u = true);
        let words = q.message.get(tokens[first].start..tokens[last].end).unwrap_or_default().to_string();
        out.push(Condition { mention: k, op, value, number, words });
    }
    out
}

/// A condition as a filter on column `c` of `set`, if its value has the column's type.
fn filter_on(set: &DatasetShape, c: usize, cond: &Condition) -> Option<DatasetFilter> {
    let column = &set.columns[c];
    let value = match column.kind {
        ColumnType::Integer | ColumnType::Number => cond.number.clone()?,
        ColumnType::Date => Date::parse_iso(&cond.value)?.to_string(),
        ColumnType::Text => {
            if !matches!(cond.op, FilterOp::Eq | FilterOp::Ne) {
                return None;
            }
            cond.value.clone()
        }
    };
    Some(DatasetFilter { column: column.name.clone(), op: cond.op, value })
}

/// A word that groups dates: "par mois", "monthly", "par trimestre", "yearly";
/// `None` inside for days ("par jour").
fn time_word(w: &str) -> Option<Option<DateBucket>> {
    Some(match w {
        "mois" | "month" | "months" | "mensuel" | "mensuelle" | "mensuels" | "monthly" => {
            Some(DateBucket::Month)
        }
        "trimestre" | "trimestres" | "quarter" | "quarters" | "trimestriel" | "trimestrielle"
        | "quarterly" => Some(DateBucket::Quarter),
        "annee" | "annees" | "an" | "ans" | "year" | "years" | "annuel" | "annuelle" | "yearly"
        | "annual" => Some(DateBucket::Year),
        "jour" | "jours" | "day" | "days" | "date" | "dates" | "quotidien" | "daily" => None,
        _ => return None,
    })
}

/// Whether `w` groups by itself ("mensuel", "monthly"), without "par"/"by".
fn is_time_adjective(w: &str) -> bool {
    matches!(
        w,
        "mensuel"
            | "mensuelle"
            | "mensuels"
            | "monthly"
            | "trimestriel"
            | "trimestrielle"
            | "quarterly"
            | "annuel"
            | "annuelle"
            | "yearly"
            | "annual"
            | "quotidien"
            | "daily"
    )
}

/// A breakdown by a time unit over a date column: its token and unit.
fn time_breakdown(tokens: &[Token], used: &[bool]) -> Option<(usize, Option<DateBucket>)> {
    (0..tokens.len()).find_map(|i| {
        let w = tokens[i].norm.as_str();
        let unit = time_word(w).filter(|_| !used[i])?;
        let after_marker = (0..i)
            .rev()
            .find(|j| !GLUE.contains(&tokens[*j].norm.as_str()))
            .is_some_and(|j| GROUP_MARKERS.contains(&tokens[j].norm.as_str()));
        (after_marker || is_time_adjective(w)).then_some((i, unit))
    })
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

/// Whether a column's values are times, shown in their own order ("par mois").
fn is_time_column(set: &DatasetShape, c: usize) -> bool {
    set.columns.get(c).is_some_and(|col| {
        col.kind == ColumnType::Date
            || name_words(&col.name).iter().any(|w| {
                matches!(
                    w.as_str(),
                    "mois"
                        | "month"
                        | "date"
                        | "annee"
                        | "year"
                        | "jour"
                        | "day"
                        | "semaine"
                        | "week"
                        | "trimestre"
                        | "quarter"
                        | "periode"
                        | "period"
                )
            })
    })
}

pub(crate) struct Question<'a> {
    pub datasets: &'a [DatasetShape],
    /// `Names::build(datasets)`.
    pub names: &'a Names,
    pub tokens: &'a [Token],
    pub message: &'a str,
    pub locale: Locale,
    /// The day relative periods resolve against ("l'an dernier").
    pub today: Date,
    /// The previous plan's dataset query, for "et par mois ?".
    pub previous: Option<&'a QueryDatasetArgs>,
    /// The message starts like a follow-up ("et …", "and …", "what about …").
    pub marked_followup: bool,
    /// Words the ledger parser ignores.
    pub stopwords: &'a [&'a str],
    /// Words that break the ledger down ("mois", "catégorie"): a column named so is
    /// the ledger's unless a dataset is in the conversation.
    pub ledger_group: fn(&str) -> bool,
    /// Whether the token at an index asks for advice ("pourquoi", "should I"): a
    /// model's question, even about a dataset.
    pub advice: fn(&[Token], usize) -> bool,
}

/// Reads `q` as a dataset question. `ledger` says whether the words no dataset name
/// took speak of the ledger (spending words, a period, a category…): then the
/// message is the ledger's unless it names a dataset.
pub(crate) fn read(q: &Question<'_>, ledger: impl Fn(&[bool]) -> bool) -> Read {
    if q.datasets.is_empty() {
        return Read::NotDataset;
    }
    let tokens = q.tokens;
    let locale = q.locale;
    let mut used = vec![false; tokens.len()];
    let found = mentions(q.names, tokens, &mut used);
    if (0..tokens.len()).any(|i| !used[i] && (q.advice)(tokens, i)) {
        return Read::NotDataset;
    }
    let conds = conditions(q, &found, &mut used);
    // A mention that can be a dataset is one when placed as one or when it names no column.
    let (named, mut columns): (Vec<&Mention>, Vec<&Mention>) = found
        .iter()
        .enumerate()
        .filter(|(k, _)| conds.iter().all(|c| c.mention != *k))
        .map(|(_, m)| m)
        .partition(|m| m.datasets().next().is_some() && (!m.is_column() || is_dataset_position(tokens, m)));

    // The dataset in question when it is named or followed ("et en 2025 ?"): its date
    // column takes a period or a time unit, even one another dataset has as a column
    // ("par mois", "le mois dernier", with `ventes.mois`).
    let named_set = named.first().and_then(|m| m.datasets().next());
    let previous_set = q.previous.and_then(|p| q.datasets.iter().position(|s| s.name == p.dataset));
    let dated = |d: usize| q.datasets[d].columns.iter().any(|c| c.kind == ColumnType::Date);
    let context = named_set.or(previous_set).filter(|d| dated(*d));
    let foreign = |m: &Mention| context.is_some_and(|d| m.column_in(d).is_none());
    let mut free = used.clone();
    for m in columns.iter().filter(|m| foreign(m)) {
        free[m.first..=m.last].iter_mut().for_each(|u| *u = false);
    }
    let time = time_breakdown(tokens, &free);
    if let Some((i, _)) = time {
        used[i] = true;
        free[i] = true;
        columns.retain(|m| !(m.first..=m.last).contains(&i));
    }
    let period = crate::period::find(tokens, &free, q.message, q.today, locale)
        .filter(|_| context.is_some())
        .filter(|p| !columns.iter().any(|m| m.first <= p.last && p.first <= m.last && !foreign(m)));
    if let Some(p) = &period {
        used[p.first..=p.last].iter_mut().for_each(|u| *u = true);
        columns.retain(|m| !(m.first <= p.last && p.first <= m.last));
    }
    let period_taken = period.is_some();
    let mut aggregate = None;
    let mut agg_words = Vec::new();
    for i in 0..tokens.len() {
        if used[i] {
            continue;
        }
        let next = tokens.get(i + 1).map_or("", |t| t.norm.as_str());
        if let Some(a) = aggregate_word(&tokens[i].norm, next) {
            let last = if tokens[i].norm == "plus" { i + 1 } else { i };
            used[i..=last].iter_mut().for_each(|u| *u = true);
            aggregate.get_or_insert(a);
            agg_words.push(q.message.get(tokens[i].start..tokens[last].end).unwrap_or_default().to_string());
        }
    }
    let mut chart = None;
    for i in 0..tokens.len() {
        if let Some(kind) = chart_word(&tokens[i].norm).filter(|_| !used[i]) {
            used[i] = true;
            chart.get_or_insert(kind);
            agg_words.push(q.message.get(tokens[i].start..tokens[i].end).unwrap_or_default().to_string());
        }
    }
    let ranked = ranking(tokens, &mut used);
    for (i, t) in tokens.iter().enumerate() {
        if !used[i] && (ROW_WORDS.contains(&t.norm.as_str()) || GROUP_MARKERS.contains(&t.norm.as_str())) {
            used[i] = true;
        }
    }
    let asks = !columns.is_empty()
        || aggregate.is_some()
        || ranked.is_some()
        || chart.is_some()
        || !conds.is_empty()
        || time.is_some();
    // "par mois de date_embauche": the date column after the unit is the breakdown.
    let time_column =
        time.and_then(|(i, _)| columns.iter().copied().find(|m| m.first == skip_glue(tokens, i + 1)));
    let group = columns.iter().copied().find(|m| is_group_position(tokens, m)).or(time_column);

    // Which dataset: the one named, else the previous one ("et par mois ?"), else
    // those that hold every column named.
    let candidates: Vec<usize> = if let Some(d) = named_set {
        // A dataset's name alone ("ventes") asks nothing.
        if !(asks || period_taken) {
            return Read::NotDataset;
        }
        vec![d]
    } else {
        if !(asks || period_taken) || ledger(&used) {
            return Read::NotDataset;
        }
        let ledger_words = |m: &&Mention| {
            (m.first..=m.last)
                .all(|i| GLUE.contains(&tokens[i].norm.as_str()) || (q.ledger_group)(&tokens[i].norm))
        };
        if previous_set.is_none() && columns.iter().all(ledger_words) {
            return Read::NotDataset;
        }
        let holding = |d: usize| {
            columns.iter().all(|m| m.column_in(d).is_some())
                && conds.iter().all(|c| found[c.mention].column_in(d).is_some())
        };
        match previous_set.filter(|d| holding(*d)) {
            Some(d) => vec![d],
            // A column alone ("montant") asks nothing.
            None if (columns.is_empty() && conds.is_empty())
                || (group.is_none() && aggregate.is_none() && ranked.is_none()) =>
            {
                return Read::NotDataset;
            }
            None => (0..q.datasets.len()).filter(|d| holding(*d)).collect(),
        }
    };
    if candidates.is_empty() {
        return Read::NotDataset;
    }
    // A whole question ("share of amount by region") stands alone even in a
    // conversation; a piece of one ("and by month?", "top 2") completes the last.
    let whole = !q.marked_followup
        && (columns.iter().any(|m| {
            group.is_none_or(|g| g.first != m.first)
                && m.column_in(candidates[0])
                    .is_some_and(|c| q.datasets[candidates[0]].columns[c].kind.is_numeric())
        }) || (aggregate == Some(Aggregate::Count) && group.is_some()));
    let follows = named_set.is_none() && previous_set.is_some_and(|d| candidates == [d]) && !whole;

    let words_of = |m: &Mention| {
        q.message.get(tokens[m.first].start..tokens[m.last].end).unwrap_or_default().to_string()
    };
    let mut options: Vec<(QueryDatasetArgs, Vec<Reason>)> = Vec::new();
    for &d in &candidates {
        let set = &q.datasets[d];
        let mut args = match q.previous {
            Some(p) if follows => p.clone(),
            _ => QueryDatasetArgs { dataset: set.name.clone(), ..QueryDatasetArgs::default() },
        };
        if chart.is_some() {
            args.chart = chart;
        }
        let mut notes = Vec::new();
        let mut group = group;
        // "top 3 vendeurs par montant": ranked by the number, per the word.
        if let Some(g) = group.filter(|g| g.column_in(d).is_some_and(|c| set.columns[c].kind.is_numeric())) {
            let word = columns.iter().copied().find(|m| {
                m.first != g.first && m.column_in(d).is_some_and(|c| !set.columns[c].kind.is_numeric())
            });
            if word.is_some() {
                group = word;
            }
        }
        for cond in &conds {
            match found[cond.mention].column_in(d).and_then(|c| filter_on(set, c, cond)) {
                Some(f) => {
                    args.filters.retain(|g| g.column != f.column || g.op != f.op);
                    args.filters.push(f);
                }
                None => notes.push(Reason::new(ReasonCode::UnrecognizedWords, locale, &cond.words)),
            }
        }
        let dates: Vec<usize> =
            (0..set.columns.len()).filter(|c| set.columns[*c].kind == ColumnType::Date).collect();
        // "releve en 2025": the date column just before the period is the one bounded.
        let period_mention = period.as_ref().and_then(|p| {
            columns.iter().copied().find(|m| {
                m.column_in(d).is_some_and(|c| dates.contains(&c))
                    && (m.last + 1..p.first).all(|j| {
                        let w = tokens[j].norm.as_str();
                        GLUE.contains(&w) || matches!(w, "en" | "in" | "during" | "pendant" | "sur" | "over")
                    })
            })
        });
        if let Some(p) = &period {
            let column = match period_mention.and_then(|m| m.column_in(d)).or(dates.first().copied()) {
                Some(c) => {
                    if period_mention.is_none() && dates.len() > 1 {
                        notes.push(Reason::new(ReasonCode::InferredColumn, locale, &set.columns[c].name));
                    }
                    Some(set.columns[c].name.clone())
                }
                None => {
                    notes.push(Reason::new(ReasonCode::UnrecognizedWords, locale, &p.period.words));
                    None
                }
            };
            args.period = column.map(|column| DatasetPeriod {
                column,
                start: p.period.start,
                end: p.period.end,
                label: p.period.label.clone(),
            });
        }
        let mut group_col = group.and_then(|g| g.column_in(d));
        let mut numeric = None;
        let skipped = |m: &&&Mention| {
            group.is_some_and(|g| g.first == m.first) || period_mention.is_some_and(|p| p.first == m.first)
        };
        for m in columns.iter().filter(|m| !skipped(m)) {
            match m.column_in(d) {
                Some(c) if set.columns[c].kind.is_numeric() => {
                    numeric.get_or_insert(c);
                }
                // "montant région": the one that is not a number is the breakdown.
                Some(c) if group_col.is_none() => {
                    group_col = Some(c);
                    notes.push(Reason::new(ReasonCode::InferredColumn, locale, &set.columns[c].name));
                }
                Some(_) => {}
                None => notes.push(Reason::new(ReasonCode::UnrecognizedWords, locale, &words_of(m))),
            }
        }
        // "par mois": the dataset's date column, one value per month.
        let mut bucket = None;
        if let Some((i, unit)) = time {
            let word = q.message.get(tokens[i].start..tokens[i].end).unwrap_or_default();
            match group_col {
                Some(c) if set.columns[c].kind == ColumnType::Date => bucket = unit,
                None if !dates.is_empty() => {
                    group_col = dates.first().copied();
                    bucket = unit;
                    if dates.len() > 1 {
                        notes.push(Reason::new(
                            ReasonCode::InferredColumn,
                            locale,
                            &set.columns[dates[0]].name,
                        ));
                    }
                }
                _ => notes.push(Reason::new(ReasonCode::UnrecognizedWords, locale, word)),
            }
        }
        if let Some(c) = group_col {
            args.group_by = Some(set.columns[c].name.clone());
            args.bucket = bucket;
            args.order = if is_time_column(set, c) { DatasetOrder::Group } else { DatasetOrder::ValueDesc };
            // Another breakdown: the chart follows its shape unless one is asked for.
            args.chart = chart;
        }
        if let Some(a) = aggregate {
            args.aggregate = a;
        }
        if let Some((n, order, _)) = &ranked {
            args.limit = Some(*n);
            args.order = *order;
        } else if let Some(n) =
            count_before(tokens, &used, columns.iter().copied().find(|m| m.column_in(d) == group_col))
        {
            // "les 3 régions qui vendent le plus"
            args.limit = Some(n);
            args.order = DatasetOrder::ValueDesc;
        }
        if let Some(c) = numeric {
            args.measure = Some(set.columns[c].name.clone());
            if aggregate.is_none() && args.aggregate == Aggregate::Count {
                args.aggregate = Aggregate::Sum;
            }
        }
        if args.aggregate == Aggregate::Count {
            args.measure = None;
            options.push((args, notes));
            continue;
        }
        if args.measure.is_some() {
            options.push((args, notes));
            continue;
        }
        // No number named: the dataset's only one, else one plan per number.
        let all: Vec<&str> =
            set.columns.iter().filter(|c| c.kind.is_numeric()).map(|c| c.name.as_str()).collect();
        match all.as_slice() {
            [] => {
                args.aggregate = Aggregate::Count;
                options.push((args, notes));
            }
            [only] => {
                args.measure = Some(only.to_string());
                notes.push(Reason::new(ReasonCode::InferredColumn, locale, only));
                options.push((args, notes));
            }
            several => {
                for name in several {
                    options.push((
                        QueryDatasetArgs { measure: Some(name.to_string()), ..args.clone() },
                        Vec::new(),
                    ));
                }
            }
        }
    }

    let mut reasons = Vec::new();
    if let Some(p) = &period {
        reasons.push(Reason::new(ReasonCode::ExplicitPeriod, locale, &p.period.label));
    }
    if follows {
        let said: String = q.message.trim().chars().take(80).collect();
        reasons.push(Reason::new(ReasonCode::FollowupUsesContext, locale, &said));
    } else if !agg_words.is_empty() {
        reasons.push(Reason::new(ReasonCode::ExplicitIntent, locale, &agg_words.join(" ")));
    } else if let Some((_, _, words)) = &ranked {
        reasons.push(Reason::new(ReasonCode::ExplicitIntent, locale, &words.join(" ")));
    }
    // Content the plan does not use.
    let unrecognized: Vec<&str> = tokens
        .iter()
        .enumerate()
        .filter(|(i, t)| {
            !used[*i]
                && t.kind != TokenKind::Currency
                && !GLUE.contains(&t.norm.as_str())
                && !DATASET_MARKERS.contains(&t.norm.as_str())
                && !NEUTRAL.contains(&t.norm.as_str())
                && !q.stopwords.contains(&t.norm.as_str())
        })
        .map(|(_, t)| q.message.get(t.start..t.end).unwrap_or_default())
        .collect();
    if !unrecognized.is_empty() {
        reasons.push(Reason::new(ReasonCode::UnrecognizedWords, locale, &unrecognized.join(", ")));
    }
    if options.len() > 1 {
        let detail = if candidates.len() > 1 {
            candidates.iter().map(|d| q.datasets[*d].name.as_str()).collect::<Vec<_>>().join(", ")
        } else {
            options.iter().filter_map(|(a, _)| a.measure.as_deref()).collect::<Vec<_>>().join(", ")
        };
        reasons.push(Reason::new(ReasonCode::AmbiguousEntity, locale, &detail));
        return Read::Choose { reasons, options: options.into_iter().map(|(a, _)| a).collect() };
    }
    let Some((args, notes)) = options.pop() else { return Read::NotDataset };
    if reasons
        .iter()
        .all(|r| r.code != ReasonCode::ExplicitIntent && r.code != ReasonCode::FollowupUsesContext)
    {
        reasons.insert(
            0,
            Reason::new(ReasonCode::InferredIntent, locale, aggregate_label(args.aggregate, locale)),
        );
    }
    reasons.push(Reason::new(ReasonCode::ExactDataset, locale, &shape_text(&args, locale)));
    reasons.extend(notes);
    Read::Plan { args, reasons }
}

/// "ventes (montant, region; vendeur = Alice)" — the dataset, the columns a plan
/// reads and its conditions.
fn shape_text(a: &QueryDatasetArgs, locale: Locale) -> String {
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
pub fn title(a: &QueryDatasetArgs, locale: Locale) -> String {
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

fn capitalise(s: &str) -> String {
    let mut chars = s.chars();
    chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

//! The analyst's words: glue inside names, markers of a breakdown, a dataset or a
//! condition, comparisons, aggregates, charts and time units — and the small readers
//! of a ranking ("top 5") or a breakdown by time ("par mois").

use crate::args::{Aggregate, DatasetOrder, DateBucket, FilterOp};
use crate::chart::ChartKind;
use crate::text::{Token, TokenKind};

/// Words skipped inside a dataset's or column's name ("chiffre d'affaires") and
/// before it ("par la région").
pub(super) const GLUE: &[&str] =
    &["d", "de", "du", "des", "l", "la", "le", "les", "un", "une", "of", "the", "a", "an"];

/// Words that put a column after them in the breakdown: "par région", "by region".
pub(super) const GROUP_MARKERS: &[&str] = &["par", "by", "per", "selon", "suivant", "chaque", "each"];

/// Words that put a dataset after them: "dans ventes", "in sales".
pub(super) const DATASET_MARKERS: &[&str] =
    &["dans", "in", "from", "sur", "on", "du", "de", "of", "table", "fichier"];

/// Words that say nothing the plan does not: "units sold per product".
pub(super) const NEUTRAL: &[&str] = &[
    "sold", "vendu", "vendus", "vendue", "vendues", "qui", "ont", "a", "with", "avec", "have", "has",
    "value", "valeur", "valeurs", "values", "colonne", "column", "jeu", "donnees", "dataset", "data",
];

/// Words that mean the rows themselves ("nombre de lignes", "how many rows").
pub(super) const ROW_WORDS: &[&str] = &[
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
pub(super) const FILTER_MARKERS: &[&str] = &[
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
pub(super) const COMPARISONS: &[(&[&str], FilterOp)] = &[
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
pub(super) const VALUE_STOPS: &[&str] = &[
    "et", "and", "en", "in", "dans", "from", "sur", "on", "table", "fichier", "during", "pendant", "trie",
    "sorted",
];

/// The most words a condition's value has, unquoted.
pub(super) const MAX_VALUE_WORDS: usize = 8;

pub(super) fn aggregate_word(w: &str, next: &str) -> Option<Aggregate> {
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
pub(super) fn chart_word(w: &str) -> Option<ChartKind> {
    Some(match w {
        "repartition" | "camembert" | "pie" | "share" | "shares" | "proportion" | "proportions" => {
            ChartKind::Pie
        }
        "evolution" | "courbe" | "line" | "trend" | "tendance" => ChartKind::Line,
        "barres" | "histogramme" | "bar" | "bars" => ChartKind::Bar,
        _ => return None,
    })
}

/// A word that groups dates: "par mois", "monthly", "par trimestre", "yearly";
/// `None` inside for days ("par jour").
pub(super) fn time_word(w: &str) -> Option<Option<DateBucket>> {
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
pub(super) fn is_time_adjective(w: &str) -> bool {
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

/// Groups kept for "top regions" when the message gives no number.
pub const DEFAULT_TOP: u32 = 5;
/// The most groups a "top N" keeps.
pub const MAX_TOP: u32 = 100;

/// "top 5", "les 3 premières", "bottom 3", "les moins": how many groups, which end.
pub(super) fn ranking(tokens: &[Token], used: &mut [bool]) -> Option<(u32, DatasetOrder, Vec<String>)> {
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

/// A breakdown by a time unit over a date column: its token and unit.
pub(super) fn time_breakdown(tokens: &[Token], used: &[bool]) -> Option<(usize, Option<DateBucket>)> {
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

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
//! A dataset question becomes a `query_dataset` plan — a structure, never SQL. The
//! ledger's words it checks against come from the parser's lexicon, intent reader
//! and entity finder, called directly.

mod conditions;
mod names;
mod words;

#[cfg(not(feature = "datasets"))]
pub(crate) use names::named_dataset;
pub(crate) use names::Names;
pub use words::{DEFAULT_TOP, MAX_TOP};

use self::conditions::{conditions, filter_on, Condition};
use self::names::{
    count_before, is_dataset_position, is_group_position, is_time_column, mentions, skip_glue, Mention,
};
use self::words::{
    aggregate_word, chart_word, ranking, time_breakdown, DATASET_MARKERS, GLUE, GROUP_MARKERS, NEUTRAL,
    ROW_WORDS,
};
use crate::args::{Aggregate, DatasetOrder, DatasetPeriod, DateBucket};
use crate::chart::ChartKind;
use crate::datasets::{ColumnType, DatasetShape};
use crate::date::Date;
use crate::locale::Locale;
use crate::parser::entities::{names_a_filter, Finder};
use crate::parser::intent;
use crate::parser::lexicon::{changes_meaning, group_word, is_advice, is_stopword, time_group_word};
use crate::period::{self, Found};
use crate::reason::{Reason, ReasonCode};
use crate::text::{Token, TokenKind};
use crate::tool::query_dataset::QueryDatasetArgs;

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
    /// The user's categories, merchants and accounts: words that name one speak of
    /// the ledger.
    pub finder: Finder<'a>,
}

/// Words that break the ledger down ("mois", "catégorie"): a column named so is the
/// ledger's unless a dataset is in the conversation.
fn ledger_group(w: &str) -> bool {
    group_word(w).is_some() || time_group_word(w).is_some()
}

/// Whether the words no dataset name took speak of the ledger — a period, what to
/// compute, a category, merchant or account: then the message is the ledger's
/// unless it names a dataset.
fn speaks_of_ledger(q: &Question<'_>, used: &[bool]) -> bool {
    let mut used = used.to_vec();
    period::find(q.tokens, &used, q.message, q.today, q.locale).is_some()
        || intent::read(q.tokens, &mut used, q.message).kind.is_some()
        || !q.finder.exact_matches(q.tokens, &mut used, q.message).is_empty()
}

/// What the message asks of the user's datasets, before one is chosen.
struct Ask<'f> {
    /// Every mention of a dataset or a column; conditions point into it.
    found: &'f [Mention],
    conds: Vec<Condition>,
    /// The mentions of columns that are neither a dataset's nor a condition's.
    columns: Vec<&'f Mention>,
    /// The column to break down by: after "par"/"by", or after a time unit.
    group: Option<&'f Mention>,
    /// A breakdown by a time unit ("par mois"): its token and unit.
    time: Option<(usize, Option<DateBucket>)>,
    /// A period on the date column ("en 2025").
    period: Option<Found>,
    aggregate: Option<Aggregate>,
    chart: Option<ChartKind>,
    /// The words that asked for the aggregate or the chart.
    agg_words: Vec<String>,
    /// "top 5", "les 3 premières": how many groups, which end, the words.
    ranked: Option<(u32, DatasetOrder, Vec<String>)>,
    /// The tokens the reading took.
    used: Vec<bool>,
}

impl Ask<'_> {
    /// Whether anything is asked besides a period: a column, a computation, a
    /// condition or a breakdown by time.
    fn asks(&self) -> bool {
        !self.columns.is_empty()
            || self.aggregate.is_some()
            || self.ranked.is_some()
            || self.chart.is_some()
            || !self.conds.is_empty()
            || self.time.is_some()
    }
}

/// Reads `q` as a dataset question: what it names and asks, which datasets can
/// answer, a plan for each, and the reasons.
pub(crate) fn read(q: &Question<'_>) -> Read {
    if q.datasets.is_empty() {
        return Read::NotDataset;
    }
    let tokens = q.tokens;
    let mut used = vec![false; tokens.len()];
    let found = mentions(q.names, tokens, &mut used);
    if (0..tokens.len()).any(|i| !used[i] && is_advice(tokens, i)) {
        return Read::NotDataset;
    }
    let conds = conditions(q.message, tokens, &found, &mut used);
    let (named, mut columns) = split_mentions(tokens, &found, &conds);
    // The dataset in question when it is named or followed ("et en 2025 ?"): its date
    // column takes a period or a time unit, even one another dataset has as a column
    // ("par mois", "le mois dernier", with `ventes.mois`).
    let named_set = named.first().and_then(|m| m.datasets().next());
    let previous_set = q.previous.and_then(|p| q.datasets.iter().position(|s| s.name == p.dataset));
    // With no dataset in question, a column's name inside a period's words ("annee" in
    // "cette année", "mois" in "le mois dernier") is the period's, not the column's.
    if named_set.or(previous_set).is_none() {
        let periods = period::find_all(tokens, &vec![false; tokens.len()], q.message, q.today, q.locale);
        columns.retain(|m| !periods.iter().any(|p| p.first <= m.first && m.last <= p.last));
    }
    let (time, period) = time_and_period(q, named_set.or(previous_set), &mut columns, &mut used);
    let (aggregate, chart, agg_words) = computation(q, &mut used);
    let ranked = ranking(tokens, &mut used);
    for (i, t) in tokens.iter().enumerate() {
        if !used[i] && (ROW_WORDS.contains(&t.norm.as_str()) || GROUP_MARKERS.contains(&t.norm.as_str())) {
            used[i] = true;
        }
    }
    // "par mois de date_embauche": the date column after the unit is the breakdown.
    let time_column =
        time.and_then(|(i, _)| columns.iter().copied().find(|m| m.first == skip_glue(tokens, i + 1)));
    let group = columns.iter().copied().find(|m| is_group_position(tokens, m)).or(time_column);
    let ask =
        Ask { found: &found, conds, columns, group, time, period, aggregate, chart, agg_words, ranked, used };

    let Some(candidates) = candidates(q, &ask, named_set, previous_set) else {
        return Read::NotDataset;
    };
    let (columns, group, aggregate) = (&ask.columns, ask.group, ask.aggregate);
    // A whole question ("share of amount by region") stands alone even in a
    // conversation; a piece of one ("and by month?", "top 2") completes the last.
    let whole = !q.marked_followup
        && (columns.iter().any(|m| {
            group.is_none_or(|g| g.first != m.first)
                && m.column_in(candidates[0])
                    .is_some_and(|c| q.datasets[candidates[0]].columns[c].kind.is_numeric())
        }) || (aggregate == Some(Aggregate::Count) && group.is_some()));
    let follows = named_set.is_none() && previous_set.is_some_and(|d| candidates == [d]) && !whole;

    let options = candidates.iter().flat_map(|&d| options_for(q, &ask, d, follows)).collect();
    conclude(q, &ask, &candidates, follows, options)
}

/// The mentions that name a dataset — placed as one ("dans ventes"), or naming no
/// column — and those of columns; a condition's mention is neither.
fn split_mentions<'f>(
    tokens: &[Token],
    found: &'f [Mention],
    conds: &[Condition],
) -> (Vec<&'f Mention>, Vec<&'f Mention>) {
    found
        .iter()
        .enumerate()
        .filter(|(k, _)| conds.iter().all(|c| c.mention != *k))
        .map(|(_, m)| m)
        .partition(|m| m.datasets().next().is_some() && (!m.is_column() || is_dataset_position(tokens, m)))
}

/// A breakdown by a time unit ("par mois") and a period ("en 2025") for the dataset
/// in `context` when it has a date column; their tokens are used and their words are
/// no longer columns.
fn time_and_period(
    q: &Question<'_>,
    context: Option<usize>,
    columns: &mut Vec<&Mention>,
    used: &mut [bool],
) -> (Option<(usize, Option<DateBucket>)>, Option<Found>) {
    let tokens = q.tokens;
    let dated = |d: usize| q.datasets[d].columns.iter().any(|c| c.kind == ColumnType::Date);
    let context = context.filter(|d| dated(*d));
    let foreign = |m: &Mention| context.is_some_and(|d| m.column_in(d).is_none());
    let mut free = used.to_vec();
    for m in columns.iter().filter(|m| foreign(m)) {
        free[m.first..=m.last].iter_mut().for_each(|u| *u = false);
    }
    let time = time_breakdown(tokens, &free);
    if let Some((i, _)) = time {
        used[i] = true;
        free[i] = true;
        columns.retain(|m| !(m.first..=m.last).contains(&i));
    }
    let period = period::find(tokens, &free, q.message, q.today, q.locale)
        .filter(|_| context.is_some())
        .filter(|p| !columns.iter().any(|m| m.first <= p.last && p.first <= m.last && !foreign(m)));
    if let Some(p) = &period {
        used[p.first..=p.last].iter_mut().for_each(|u| *u = true);
        columns.retain(|m| !(m.first <= p.last && p.first <= m.last));
    }
    (time, period)
}

/// What to compute: an aggregate ("total", "moyenne", "le plus élevé") and a chart
/// ("répartition", "évolution"), with the words that asked; their tokens are used.
fn computation(q: &Question<'_>, used: &mut [bool]) -> (Option<Aggregate>, Option<ChartKind>, Vec<String>) {
    let tokens = q.tokens;
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
    (aggregate, chart, agg_words)
}

/// Which datasets can answer: the one named, else the previous one ("et par mois ?"),
/// else those that hold every column named. `None` when the message is not a
/// dataset question after all.
fn candidates(
    q: &Question<'_>,
    ask: &Ask<'_>,
    named_set: Option<usize>,
    previous_set: Option<usize>,
) -> Option<Vec<usize>> {
    let tokens = q.tokens;
    let Ask { found, conds, columns, group, aggregate, ranked, .. } = ask;
    let candidates: Vec<usize> = if let Some(d) = named_set {
        // A dataset's name alone ("ventes") asks nothing.
        if !(ask.asks() || ask.period.is_some()) {
            return None;
        }
        vec![d]
    } else {
        if !(ask.asks() || ask.period.is_some()) || speaks_of_ledger(q, &ask.used) {
            return None;
        }
        let ledger_words = |m: &&Mention| {
            (m.first..=m.last)
                .all(|i| GLUE.contains(&tokens[i].norm.as_str()) || ledger_group(&tokens[i].norm))
        };
        if previous_set.is_none() && columns.iter().all(ledger_words) {
            return None;
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
                return None;
            }
            None => (0..q.datasets.len()).filter(|d| holding(*d)).collect(),
        }
    };
    (!candidates.is_empty()).then_some(candidates)
}

/// The plans dataset `d` gives for what is asked: one, or one per numeric column
/// when none is named. `follows`: the previous plan is the one to change.
fn options_for(
    q: &Question<'_>,
    ask: &Ask<'_>,
    d: usize,
    follows: bool,
) -> Vec<(QueryDatasetArgs, Vec<Reason>)> {
    let (tokens, locale) = (q.tokens, q.locale);
    let (found, conds, columns, period, ranked, used) =
        (ask.found, &ask.conds, &ask.columns, &ask.period, &ask.ranked, &ask.used);
    let (group, time, aggregate, chart) = (ask.group, ask.time, ask.aggregate, ask.chart);
    let words_of = |m: &Mention| {
        q.message.get(tokens[m.first].start..tokens[m.last].end).unwrap_or_default().to_string()
    };
    let set = &q.datasets[d];
    let mut args = match q.previous {
        Some(p) if follows => p.clone(),
        _ => QueryDatasetArgs { dataset: set.name.clone(), ..QueryDatasetArgs::default() },
    };
    if chart.is_some() {
        args.chart = chart;
    }
    let mut notes = Vec::new();
    let group = breakdown(group, columns, set, d);
    for cond in conds {
        match found[cond.mention].column_in(d).and_then(|c| filter_on(set, c, cond)) {
            Some(f) => {
                args.filters.retain(|g| g.column != f.column || g.op != f.op);
                args.filters.push(f);
            }
            None => notes.push(Reason::new(ReasonCode::UnplacedMeaning, locale, &cond.words)),
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
                notes.push(Reason::new(ReasonCode::UnplacedMeaning, locale, &p.period.words));
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
                    notes.push(Reason::new(ReasonCode::InferredColumn, locale, &set.columns[dates[0]].name));
                }
            }
            _ => notes.push(Reason::new(ReasonCode::UnplacedMeaning, locale, word)),
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
        count_before(tokens, used, columns.iter().copied().find(|m| m.column_in(d) == group_col))
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
    measured(args, notes, set, locale)
}

/// "top 3 vendeurs par montant": a breakdown named by a number is ranked by it, per the
/// word that is not a number.
fn breakdown<'m>(
    group: Option<&'m Mention>,
    columns: &[&'m Mention],
    set: &DatasetShape,
    d: usize,
) -> Option<&'m Mention> {
    let numeric =
        |m: &Mention, yes: bool| m.column_in(d).is_some_and(|c| set.columns[c].kind.is_numeric() == yes);
    match group {
        Some(g) if numeric(g, true) => {
            columns.iter().copied().find(|m| m.first != g.first && numeric(m, false)).or(Some(g))
        }
        other => other,
    }
}

/// The plans `args` makes: itself when it counts or has its number; else with the
/// dataset's only number, or one plan per number (or a count, without any).
fn measured(
    mut args: QueryDatasetArgs,
    mut notes: Vec<Reason>,
    set: &DatasetShape,
    locale: Locale,
) -> Vec<(QueryDatasetArgs, Vec<Reason>)> {
    if args.aggregate == Aggregate::Count {
        args.measure = None;
        return vec![(args, notes)];
    }
    if args.measure.is_some() {
        return vec![(args, notes)];
    }
    // No number named: the dataset's only one, else one plan per number.
    let all: Vec<&str> =
        set.columns.iter().filter(|c| c.kind.is_numeric()).map(|c| c.name.as_str()).collect();
    match all.as_slice() {
        [] => {
            args.aggregate = Aggregate::Count;
            vec![(args, notes)]
        }
        [only] => {
            args.measure = Some(only.to_string());
            notes.push(Reason::new(ReasonCode::InferredColumn, locale, only));
            vec![(args, notes)]
        }
        several => several
            .iter()
            .map(|name| (QueryDatasetArgs { measure: Some(name.to_string()), ..args.clone() }, Vec::new()))
            .collect(),
    }
}

/// The answer: a plan with its reasons, or plans to choose from when the message
/// fits several datasets or numeric columns.
fn conclude(
    q: &Question<'_>,
    ask: &Ask<'_>,
    candidates: &[usize],
    follows: bool,
    mut options: Vec<(QueryDatasetArgs, Vec<Reason>)>,
) -> Read {
    let (tokens, locale) = (q.tokens, q.locale);
    let Ask { period, agg_words, ranked, used, .. } = ask;
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
    let unrecognized: Vec<(usize, &str)> = tokens
        .iter()
        .enumerate()
        .filter(|(i, t)| {
            !used[*i]
                && t.kind != TokenKind::Currency
                && !GLUE.contains(&t.norm.as_str())
                && !DATASET_MARKERS.contains(&t.norm.as_str())
                && !NEUTRAL.contains(&t.norm.as_str())
                && !is_stopword(t.norm.as_str())
        })
        .map(|(i, t)| (i, q.message.get(t.start..t.end).unwrap_or_default()))
        .collect();
    // A word left over that would change the figure — an unknown value where a filter
    // goes ("salaire moyen d'un infirmier"), an exclusion, a period — stops the run.
    // A breakdown left over ("by week" where no column takes it) changes the figure too.
    let stops = |i: usize| {
        let w = tokens[i].norm.as_str();
        changes_meaning(w)
            || period::is_time_word(&tokens[i])
            || names_a_filter(tokens, i)
            || group_word(w).is_some()
            || time_group_word(w).is_some()
    };
    let words = |keep: bool| {
        unrecognized.iter().filter(|(i, _)| stops(*i) == keep).map(|(_, w)| *w).collect::<Vec<_>>().join(", ")
    };
    let (meaning, harmless) = (words(true), words(false));
    if !meaning.is_empty() {
        reasons.push(Reason::new(ReasonCode::UnplacedMeaning, locale, &meaning));
    }
    if !harmless.is_empty() {
        reasons.push(Reason::new(ReasonCode::UnrecognizedWords, locale, &harmless));
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
            Reason::new(
                ReasonCode::InferredIntent,
                locale,
                crate::tool::query_dataset::aggregate_label(args.aggregate, locale),
            ),
        );
    }
    reasons.push(Reason::new(
        ReasonCode::ExactDataset,
        locale,
        &crate::tool::query_dataset::shape_text(&args, locale),
    ));
    reasons.extend(notes);
    Read::Plan { args, reasons }
}

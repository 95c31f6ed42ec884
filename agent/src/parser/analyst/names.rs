//! Where the message names the user's datasets and their columns: the names' words,
//! built once per vocabulary, matched longest first; where a mention stands.

use super::words::{DATASET_MARKERS, GLUE, GROUP_MARKERS, MAX_TOP};
use crate::datasets::{ColumnType, DatasetShape};
use crate::text::{singular, Token, TokenKind};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Target {
    Dataset(usize),
    Column(usize, usize),
}

/// Where a name of the user's datasets appears, and what it may name.
pub(super) struct Mention {
    pub(super) first: usize,
    pub(super) last: usize,
    pub(super) targets: Vec<Target>,
}

impl Mention {
    pub(super) fn datasets(&self) -> impl Iterator<Item = usize> + '_ {
        self.targets.iter().filter_map(|t| match t {
            Target::Dataset(d) => Some(*d),
            Target::Column(..) => None,
        })
    }

    pub(super) fn column_in(&self, d: usize) -> Option<usize> {
        self.targets.iter().find_map(|t| match t {
            Target::Column(e, c) if *e == d => Some(*c),
            _ => None,
        })
    }

    pub(super) fn is_column(&self) -> bool {
        self.targets.iter().any(|t| matches!(t, Target::Column(..)))
    }
}

/// A name's words without glue, singular: "chiffre_d_affaires" → ["chiffre", "affaire"].
pub(super) fn name_words(name: &str) -> Vec<String> {
    crate::text::tokenize(name)
        .into_iter()
        .filter(|t| !GLUE.contains(&t.norm.as_str()))
        .map(|t| singular(&t.norm).to_string())
        .collect()
}

/// The token after `i` that glue does not fill, if any.
pub(super) fn skip_glue(tokens: &[Token], mut i: usize) -> usize {
    while i < tokens.len() && GLUE.contains(&tokens[i].norm.as_str()) {
        i += 1;
    }
    i
}

/// The last token of `words` read from `i`, glue between words allowed.
pub(super) fn match_at(tokens: &[Token], used: &[bool], i: usize, words: &[String]) -> Option<usize> {
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

/// The dataset a message names, by its name or one of its columns' names whose words
/// are not also the ledger's ("region", not "mois" or "montant"): its index.
#[cfg(not(feature = "datasets"))]
pub(crate) fn named_dataset(names: &Names, tokens: &[Token]) -> Option<usize> {
    let mut used = vec![false; tokens.len()];
    let found = mentions(names, tokens, &mut used);
    found.iter().find_map(|m| {
        let own = (m.first..=m.last).any(|k| {
            let w = tokens[k].norm.as_str();
            !crate::parser::lexicon::is_stopword(w)
                && !crate::period::is_time_word(&tokens[k])
                && crate::parser::lexicon::group_word(w).is_none()
        });
        m.targets.iter().find_map(|t| match *t {
            Target::Dataset(d) => Some(d),
            Target::Column(d, _) if own => Some(d),
            Target::Column(..) => None,
        })
    })
}

/// Every mention of a dataset or column, longest names first, left to right.
pub(super) fn mentions(names: &Names, tokens: &[Token], used: &mut [bool]) -> Vec<Mention> {
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
pub(super) fn word_before(tokens: &[Token], i: usize) -> Option<&str> {
    (0..i).rev().map(|j| tokens[j].norm.as_str()).find(|w| DATASET_MARKERS.contains(w) || !GLUE.contains(w))
}

pub(super) fn is_group_position(tokens: &[Token], m: &Mention) -> bool {
    let before = (0..m.first).rev().map(|j| tokens[j].norm.as_str()).find(|w| !GLUE.contains(w));
    before.is_some_and(|w| GROUP_MARKERS.contains(&w))
}

pub(super) fn is_dataset_position(tokens: &[Token], m: &Mention) -> bool {
    word_before(tokens, m.first).is_some_and(|w| DATASET_MARKERS.contains(&w))
}

/// Whether a column's values are times, shown in their own order ("par mois").
pub(super) fn is_time_column(set: &DatasetShape, c: usize) -> bool {
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

/// A number just before the breakdown's column: "les 3 régions".
pub(super) fn count_before(tokens: &[Token], used: &[bool], m: Option<&Mention>) -> Option<u32> {
    let m = m?;
    let j = (0..m.first).rev().find(|j| !GLUE.contains(&tokens[*j].norm.as_str()))?;
    let t = &tokens[j];
    (t.kind == TokenKind::Number && !used[j])
        .then(|| t.norm.parse().ok())
        .flatten()
        .filter(|n| (1..=MAX_TOP).contains(n))
}

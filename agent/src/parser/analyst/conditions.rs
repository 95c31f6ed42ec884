//! Conditions on columns: "pour le vendeur Alice", "quantite > 10", "region is
//! Nord" — a column, a comparison and a value — and the filter each makes on a dataset.

use super::names::{is_dataset_position, Mention};
use super::words::{
    chart_word, COMPARISONS, FILTER_MARKERS, GLUE, GROUP_MARKERS, MAX_VALUE_WORDS, VALUE_STOPS,
};
use crate::args::{DatasetFilter, FilterOp};
use crate::datasets::{ColumnType, DatasetShape};
use crate::date::Date;
use crate::text::{Token, TokenKind};

/// A condition the message puts on a column, before it is checked against a dataset.
pub(super) struct Condition {
    /// Index of the column's mention in `mentions`' answer.
    pub(super) mention: usize,
    op: FilterOp,
    value: String,
    /// The value is a number (`10`, `-2.5`), written with a dot.
    number: Option<String>,
    /// The user's words, for reasons.
    pub(super) words: String,
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
    finite_decimal(&s).then(|| if negative { format!("-{s}") } else { s })
}

/// Whether `s`, digits with separators between them (a number token's), reads as a
/// finite `f64`, as `s.parse::<f64>().is_ok_and(f64::is_finite)` says, without the
/// float parser's code and tables in the browser bundle: digits with at most one `.`,
/// whose whole part is below 2^1024 − 2^970 (from there on it rounds to infinity).
fn finite_decimal(s: &str) -> bool {
    /// 2^1024 − 2^970, 309 digits.
    const OVERFLOW: &str = "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497792";
    let (whole, fraction) = s.split_once('.').unwrap_or((s, ""));
    let digits = |p: &str| p.bytes().all(|b| b.is_ascii_digit());
    if (whole.is_empty() && fraction.is_empty()) || !digits(whole) || !digits(fraction) {
        return false;
    }
    let whole = whole.trim_start_matches('0');
    // Same length: compared digit by digit, as text.
    whole.len() < OVERFLOW.len() || (whole.len() == OVERFLOW.len() && whole < OVERFLOW)
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
pub(super) fn conditions(
    message: &str,
    tokens: &[Token],
    found: &[Mention],
    used: &mut [bool],
) -> Vec<Condition> {
    let mut out = Vec::new();
    for (k, m) in found.iter().enumerate() {
        if !m.is_column() || is_dataset_position(tokens, m) {
            continue;
        }
        let marker = (0..m.first)
            .rev()
            .find(|j| !GLUE.contains(&tokens[*j].norm.as_str()))
            .filter(|j| !used[*j] && FILTER_MARKERS.contains(&tokens[*j].norm.as_str()));
        let (op, at) = match comparison(message, tokens, used, m.last) {
            Some(c) => c,
            None if marker.is_some() => (FilterOp::Eq, m.last + 1),
            None => continue,
        };
        let Some((value, number, last)) = value_at(message, tokens, used, at) else { continue };
        let first = marker.unwrap_or(m.first);
        used[first..=last].iter_mut().for_each(|u| *u = true);
        let words = message.get(tokens[first].start..tokens[last].end).unwrap_or_default().to_string();
        out.push(Condition { mention: k, op, value, number, words });
    }
    out
}

/// A condition as a filter on column `c` of `set`, if its value has the column's type.
pub(super) fn filter_on(set: &DatasetShape, c: usize, cond: &Condition) -> Option<DatasetFilter> {
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

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    /// `finite_decimal` says what the float parser says, on number tokens' shapes and
    /// around the largest finite `f64`.
    #[test]
    fn finite_decimal_reads_as_the_float_parser() {
        let parser = |s: &str| s.parse::<f64>().is_ok_and(f64::is_finite);
        let mut cases: Vec<String> = [
            "0",
            "1",
            "12",
            "1.5",
            "0.25",
            "1.2.3",
            "1/2",
            "1-2",
            "12/01/2026",
            "1.",
            ".5",
            ".",
            "",
            "007",
            "1..2",
            "3.14159265358979323846264338327950288",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let max = "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497792";
        let below = format!("{}1", &max[..max.len() - 1]);
        let above = format!("{}3", &max[..max.len() - 1]);
        for whole in [max.to_string(), below, above, "9".repeat(308), "9".repeat(309), "1".repeat(310)] {
            for s in [whole.clone(), format!("{whole}.999"), format!("000{whole}"), format!("{whole}.0")] {
                cases.push(s);
            }
        }
        for s in &cases {
            assert_eq!(finite_decimal(s), parser(s), "{s}");
        }
    }
}

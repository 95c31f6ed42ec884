//! Names given as examples of what the rest of the message holds ("le navigo et tout",
//! "clothes (Zara and the like)", "clothes like Zara"): no filter, set aside beside
//! another name, and alone asked (`said_as_example`). The one list of the words that
//! make a name an example.

use super::{clause_ends, Parser};
use crate::text::Token;

impl Parser {
    /// "le navigo et tout", "wages and all" at the end of a clause — and, on the server,
    /// "Zara and the like", "like Zara", "par exemple Lidl" — beside another name: a name
    /// given as an example of what the rest holds, no filter — set aside.
    pub(super) fn set_aside_examples(&self, tokens: &[Token], used: &mut [bool], message: &str) {
        let w = |j: usize| tokens.get(j).map_or("", |t| t.norm.as_str());
        for p in 1..tokens.len() {
            let tail = match (example_tail(tokens, p), w(p), w(p + 1)) {
                (Some(n), _, _) => n,
                (_, "et" | "and", "tout" | "all" | "everything") => 2,
                (_, "etc", _) => 1,
                _ => continue,
            };
            let end = p + tail;
            if !clause_ends(tokens, message, end) || used[p..end].iter().any(|u| *u) {
                continue;
            }
            // The name just before the tail.
            let Some((i, m)) = (p.saturating_sub(4)..p).find_map(|i| {
                self.finder()
                    .match_at(tokens, used, i, message)
                    .filter(|(_, n)| i + n == p)
                    .map(|(m, _)| (i, m))
            }) else {
                continue;
            };
            // (Only beside another name, or as the income it names: "Uber etc." alone
            // stays a filter to ask about.)
            let income = m
                .ids
                .iter()
                .any(|id| self.vocab.term(*id).is_some_and(|t| self.vocab.category_is(&t.key, "income")));
            if income || self.other_name(tokens, used, message, (i, end)) {
                used[i..end].iter_mut().for_each(|u| *u = true);
            }
        }
        self.set_aside_led_examples(tokens, used, message);
        self.set_aside_included(tokens, used, message);
    }

    /// Whether a name is said outside the tokens `i..end`.
    fn other_name(&self, tokens: &[Token], used: &[bool], message: &str, (i, end): (usize, usize)) -> bool {
        (0..tokens.len())
            .any(|j| (j < i || j >= end) && self.finder().match_at(tokens, used, j, message).is_some())
    }

    /// "clothes like Zara", "courses, par exemple chez Lidl": a name led in as an
    /// example, beside another name — set aside (alone, it stays a filter, which
    /// `named_as_example` asks about).
    #[cfg(feature = "asides")]
    fn set_aside_led_examples(&self, tokens: &[Token], used: &mut [bool], message: &str) {
        for p in 0..tokens.len() {
            let Some(i) = led_example_at(tokens, p) else { continue };
            if used[p..i].iter().any(|u| *u) {
                continue;
            }
            let Some((_, len)) = self.finder().match_at(tokens, used, i, message) else { continue };
            if self.other_name(tokens, used, message, (p, i + len)) {
                used[p..i + len].iter_mut().for_each(|u| *u = true);
            }
        }
    }

    #[cfg(not(feature = "asides"))]
    fn set_aside_led_examples(&self, _: &[Token], _: &mut [bool], _: &str) {}

    /// "combien ce mois, loyer inclus", "spending including rent", "y compris le loyer":
    /// a name said to be counted in, which the whole holds already — no filter, set
    /// aside ("not including rent", "loyer non compris" are left out, read elsewhere).
    #[cfg(feature = "asides")]
    fn set_aside_included(&self, tokens: &[Token], used: &mut [bool], message: &str) {
        const LEADS: &[&[&str]] = &[&["including"], &["incl"], &["inclusive", "of"], &["y", "compris"]];
        const TAILS: [&str; 8] = [
            "inclus",
            "incluse",
            "incluses",
            "included",
            "compris",
            "comprise",
            "comprises",
            "inclusivement",
        ];
        let w = |j: usize| tokens.get(j).map_or("", |t| t.norm.as_str());
        let negated = |j: usize| j > 0 && crate::parser::lexicon::is_negation_word(w(j - 1));
        for p in 0..tokens.len() {
            // A name, then the word that counts it in.
            if let Some((_, n)) = self.finder().match_at(tokens, used, p, message) {
                if TAILS.contains(&w(p + n)) && !used[p + n] {
                    used[p..=p + n].iter_mut().for_each(|u| *u = true);
                    continue;
                }
            }
            // The word that counts it in, then the name ("including the rent").
            let Some(n) = crate::parser::lexicon::phrase_at(tokens, p, LEADS) else { continue };
            if negated(p) || used[p..p + n].iter().any(|u| *u) {
                continue;
            }
            let i = p
                + n
                + usize::from(matches!(
                    w(p + n),
                    "le" | "la" | "les" | "l" | "the" | "my" | "mon" | "ma" | "mes"
                ));
            if let Some((_, len)) = self.finder().match_at(tokens, used, i, message) {
                used[p..i + len].iter_mut().for_each(|u| *u = true);
            }
        }
    }

    #[cfg(not(feature = "asides"))]
    fn set_aside_included(&self, _: &[Token], _: &mut [bool], _: &str) {}
}

/// The words after a name that make it an example ("and the like", "et compagnie"),
/// read on the server: how many.
#[cfg(feature = "asides")]
fn example_tail(tokens: &[Token], p: usize) -> Option<usize> {
    crate::parser::lexicon::phrase_at(tokens, p, EXAMPLE_TAILS)
}

/// The words that lead in a name as an example ("like", "such as", "par exemple",
/// "genre", "notamment").
#[cfg(any(feature = "asides", feature = "readings"))]
const EXAMPLE_LEADS: &[&[&str]] = &[
    &["such", "as"],
    &["for", "example"],
    &["for", "instance"],
    &["par", "exemple"],
    &["e", "g"],
    &["eg"],
    &["like"],
    &["genre"],
    &["type"],
    &["style"],
    &["notamment"],
];

/// The words after a name that make it an example ("and the like", "et compagnie",
/// "etc."), the longest first.
#[cfg(any(feature = "asides", feature = "readings"))]
const EXAMPLE_TAILS: &[&[&str]] = &[
    &["and", "the", "like"],
    &["and", "so", "on"],
    &["and", "all", "that"],
    &["et", "tout", "ca"],
    &["and", "such"],
    &["and", "stuff"],
    &["and", "others"],
    &["and", "similar"],
    &["and", "co"],
    &["and", "all"],
    &["and", "everything"],
    &["or", "similar"],
    &["or", "whatever"],
    &["et", "compagnie"],
    &["et", "cie"],
    &["et", "co"],
    &["et", "autres"],
    &["et", "tout"],
    &["ou", "autres"],
    &["ou", "assimiles"],
    &["et", "similaires"],
    &["etc"],
];

/// Where the name led in as an example at `p` starts ("like Zara", "par exemple chez
/// Lidl": after the lead and a preposition) — not "I'd like", "would like", a wish.
#[cfg(any(feature = "asides", feature = "readings"))]
fn led_example_at(tokens: &[Token], p: usize) -> Option<usize> {
    let w = |j: usize| tokens.get(j).map_or("", |t| t.norm.as_str());
    let n = crate::parser::lexicon::phrase_at(tokens, p, EXAMPLE_LEADS)?;
    let wish = p > 0 && matches!(w(p - 1), "d" | "would" | "i" | "we" | "you" | "should");
    (!wish).then(|| p + n + usize::from(matches!(w(p + n), "chez" | "at" | "a" | "au" | "from")))
}

/// Whether the name said as `said` (normalised words) is given as an example: led in
/// ("stores like Zara") or followed ("Uber etc.", "Zara and the like").
#[cfg(feature = "readings")]
pub(super) fn said_as_example(tokens: &[Token], said: &str) -> bool {
    let words: Vec<&str> = said.split_whitespace().collect();
    let is_at = |i: usize| {
        !words.is_empty()
            && words.iter().enumerate().all(|(k, x)| tokens.get(i + k).is_some_and(|t| t.norm == *x))
    };
    (0..tokens.len()).any(|p| {
        led_example_at(tokens, p).is_some_and(is_at)
            || (crate::parser::lexicon::phrase_at(tokens, p, EXAMPLE_TAILS).is_some()
                && p >= words.len()
                && is_at(p - words.len()))
    })
}

#[cfg(not(feature = "asides"))]
fn example_tail(_: &[Token], _: usize) -> Option<usize> {
    None
}

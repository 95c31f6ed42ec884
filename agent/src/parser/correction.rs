//! A correction said after the question: "combien en courses en septembre… non pardon,
//! en octobre", "how much at Lidl in August, wait no, July", "groceries in October, no
//! wait, restaurants I mean". The question is read again with the one period or the one
//! name it corrects replaced — never a guess: the correction must be a word saying so,
//! then one period or one name of a kind the question holds exactly once.
//!
//! Said first, the correction takes one thing back and gives the other: "no not
//! October, I meant September. restaurants", "non pas le livret, le compte courant :
//! solde ?". The rest is read alone, and must hold exactly one thing of the kind taken
//! back, another one.

use super::{Context, Parser};
use crate::period;
use crate::text::{tokenize, Token};
use crate::vocab::EntityKind;

/// Words that start a correction ("non", "wait", "pardon", "sorry", "oops").
const STARTS: &[&str] = &[
    "no", "non", "nope", "wait", "attends", "attend", "pardon", "sorry", "oops", "oups", "euh", "erm",
    "actually",
];
/// Two words that say it ("i mean", "en fait", "my bad", "scratch that").
const PAIRS: &[(&str, &str)] = &[
    ("i", "mean"),
    ("i", "meant"),
    ("en", "fait"),
    ("my", "bad"),
    ("scratch", "that"),
    ("je", "voulais"),
    ("je", "veux"),
    ("voulais", "dire"),
    ("veux", "dire"),
];
/// Words around the replacement that carry nothing: "restaurants I mean", "plutôt".
const AROUND: &[&str] =
    &["plutot", "rather", "instead", "dire", "please", "pls", "stp", "svp", "sorry", "pardon"];
/// Glue before a name or a period: "en octobre", "at Lidl", "chez Carrefour".
const GLUE: &[&str] = &[
    "en", "in", "on", "for", "pour", "the", "le", "la", "les", "l", "de", "du", "des", "d", "au", "aux",
    "at", "chez", "a", "of", "dans", "my", "mon", "ma", "mes",
];

/// The one thing a correction replaces.
enum Replacement {
    Period,
    Name(EntityKind),
}

impl Parser {
    /// The message with its correction made, and what was replaced by what.
    pub(super) fn corrected(&self, message: &str, cx: &Context<'_>) -> Option<(String, String, String)> {
        let tokens = tokenize(message);
        let gap = |i: usize| message.get(tokens[i - 1].end..tokens[i].start).unwrap_or("");
        // Where the correction starts: a word saying so, right after a break.
        let k = (1..tokens.len()).find(|&i| {
            gap(i).contains([',', '.', '…', ';', '!', '?', '-', '—', '–'])
                && (STARTS.contains(&tokens[i].norm.as_str()) || pair_at(&tokens, i))
        })?;
        let head = message
            .get(..tokens[k].start)?
            .trim_end_matches(|c: char| c.is_whitespace() || ",.…;!?-—–".contains(c));
        // The replacement: what is left once the saying-so words are set aside.
        let mut rest: Vec<usize> = (k..tokens.len()).collect();
        let mut withdrawn: Option<String> = None;
        loop {
            let before = rest.len();
            while let Some(&i) = rest.first() {
                // "no wait, not October, September": the word taken back, then the new one.
                let taken_back = matches!(tokens[i].norm.as_str(), "not" | "pas")
                    && rest.iter().position(|&j| j > i && gap(j).contains(',')).is_some();
                if taken_back {
                    let at = rest.iter().position(|&j| j > i && gap(j).contains(',')).unwrap_or(rest.len());
                    let back: Vec<&str> = rest[1..at].iter().map(|&j| tokens[j].norm.as_str()).collect();
                    withdrawn = Some(back.join(" "));
                    rest.drain(..at);
                } else if STARTS.contains(&tokens[i].norm.as_str())
                    || AROUND.contains(&tokens[i].norm.as_str())
                {
                    rest.remove(0);
                } else if pair_at(&tokens, i) {
                    rest.drain(..2.min(rest.len()));
                } else {
                    break;
                }
            }
            while let Some(&i) = rest.last() {
                let n = rest.len();
                if AROUND.contains(&tokens[i].norm.as_str()) || STARTS.contains(&tokens[i].norm.as_str()) {
                    rest.pop();
                } else if n >= 2 && pair_at(&tokens, rest[n - 2]) {
                    rest.truncate(n - 2);
                } else {
                    break;
                }
            }
            if rest.len() == before {
                break;
            }
        }
        let (&first, &last) = (rest.first()?, rest.last()?);
        if rest.len() > 6 || rest.windows(2).any(|w| w[1] != w[0] + 1) {
            return None;
        }
        let said = message.get(tokens[first].start..tokens[last].end)?;
        let (kind, new) = self.one_thing(said, cx)?;
        let (old, span) = self.the_one_in(head, &kind, cx)?;
        // What was taken back is what is replaced, or nothing is.
        if withdrawn.is_some_and(|w| crate::text::normalize(&w) != crate::text::normalize(&old)) {
            return None;
        }
        let mut fixed = head.to_string();
        fixed.replace_range(span, &new);
        Some((fixed, old, new))
    }

    /// A message that starts by taking one thing back ("not this month, last month.
    /// restaurants"): the rest, with what was taken back and what replaces it.
    pub(super) fn corrected_first<'m>(
        &self,
        message: &'m str,
        cx: &Context<'_>,
    ) -> Option<(&'m str, String, String)> {
        let tokens = tokenize(message);
        let gap = |i: usize| message.get(tokens[i - 1].end..tokens[i].start).unwrap_or("");
        let w = |i: usize| tokens.get(i).map_or("", |t| t.norm.as_str());
        let mut i = 0;
        while STARTS.contains(&w(i)) && !matches!(w(i + 1), "" | "more" | "need") {
            i += 1;
        }
        // "not", "pas", "i don't mean", "je veux pas dire".
        let taken_back = match (w(i), w(i + 1), w(i + 2), w(i + 3)) {
            ("not" | "pas", ..) => i + 1,
            ("i", "don" | "didn", "t", "mean") => i + 4,
            ("i", "dont" | "didnt", "mean", _) | ("don" | "didn", "t", "mean", _) => i + 3,
            ("je", "veux" | "voulais", "pas", "dire") => i + 4,
            _ => return None,
        };
        let brk = (taken_back + 1..tokens.len()).find(|&j| gap(j).contains([',', '.', ':', ';']))?;
        let back = message.get(tokens[taken_back].start..tokens[brk - 1].end)?;
        let (kind, old) = self.one_thing(back, cx)?;
        let mut r = brk;
        loop {
            if STARTS.contains(&w(r)) || AROUND.contains(&w(r)) {
                r += 1;
            } else if pair_at(&tokens, r) {
                r += 2;
            } else {
                break;
            }
        }
        let rest = message.get(tokens.get(r)?.start..)?;
        let (new, _) = self.the_one_in(rest, &kind, cx)?;
        let same = |a: &str, b: &str| crate::text::normalize(a) == crate::text::normalize(b);
        if same(&old, &new) {
            return None;
        }
        Some((rest, old, new))
    }

    /// What `said` is: one period, or one name, with its words (glue aside).
    fn one_thing(&self, said: &str, cx: &Context<'_>) -> Option<(Replacement, String)> {
        let tokens = tokenize(said);
        let content: Vec<usize> =
            (0..tokens.len()).filter(|&i| !GLUE.contains(&tokens[i].norm.as_str())).collect();
        let (&a, &b) = (content.first()?, content.last()?);
        let used = vec![false; tokens.len()];
        let locale = crate::locale::Locale::Fr;
        if let Some(f) = period::find(&tokens, &used, said, cx.today, locale) {
            if f.first <= a && f.last >= b && f.parts.is_empty() {
                return Some((
                    Replacement::Period,
                    said.get(tokens[f.first].start..tokens[f.last].end)?.to_string(),
                ));
            }
            return None;
        }
        let mut used = vec![false; tokens.len()];
        let found = self.finder().entities(&tokens, &mut used, said);
        if !found.unrecognized.is_empty() {
            return None;
        }
        let kinds = [
            (EntityKind::Category, &found.categories),
            (EntityKind::Merchant, &found.merchants),
            (EntityKind::Account, &found.accounts),
        ];
        let mut named = kinds.iter().filter(|(_, ms)| !ms.is_empty());
        let (kind, ms) = named.next()?;
        if named.next().is_some() || ms.len() != 1 || ms[0].ids.len() != 1 || ms[0].fuzzy {
            return None;
        }
        // Every content word is the name's.
        if (a..=b).any(|i| !used[i]) {
            return None;
        }
        Some((Replacement::Name(*kind), said.get(tokens[a].start..tokens[b].end)?.to_string()))
    }

    /// The one period, or the one name of `kind`, in `head`: its words and where they are.
    fn the_one_in(
        &self,
        head: &str,
        kind: &Replacement,
        cx: &Context<'_>,
    ) -> Option<(String, std::ops::Range<usize>)> {
        let tokens = tokenize(head);
        let used = vec![false; tokens.len()];
        match kind {
            Replacement::Period => {
                let all = period::find_all(&tokens, &used, head, cx.today, crate::locale::Locale::Fr);
                let [f] = all.as_slice() else { return None };
                let span = tokens[f.first].start..tokens[f.last].end;
                Some((head.get(span.clone())?.to_string(), span))
            }
            Replacement::Name(kind) => {
                let mut used = used;
                let found = self.finder().entities(&tokens, &mut used, head);
                let ms = match kind {
                    EntityKind::Category => &found.categories,
                    EntityKind::Merchant => &found.merchants,
                    EntityKind::Account => &found.accounts,
                };
                let [m] = ms.as_slice() else { return None };
                let at = head.find(m.words.as_str())?;
                let span = at..at + m.words.len();
                Some((head.get(span.clone())?.to_string(), span))
            }
        }
    }
}

/// Whether tokens `i` and `i + 1` say "I mean", "en fait", "je voulais (dire)"…
fn pair_at(tokens: &[Token], i: usize) -> bool {
    let (Some(a), Some(b)) = (tokens.get(i), tokens.get(i + 1)) else { return false };
    PAIRS.contains(&(a.norm.as_str(), b.norm.as_str()))
}

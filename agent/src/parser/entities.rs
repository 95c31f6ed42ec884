//! The user's categories, merchants and accounts in a message: exact phrases first,
//! then single words one typo or an abbreviation away; and which one a plan filters on.

use super::lexicon::{
    changes_meaning, is_exclusion_word, is_list_word, is_stopword, is_transaction_word, negates_at,
};
use crate::locale::Locale;
use crate::reason::{Reason, ReasonCode};
use crate::text::{edit_distance, singular, Token, TokenKind};
use crate::vocab::{EntityId, EntityKind, Index, Vocabulary};

#[derive(Clone)]
pub(crate) struct EntityMatch {
    pub(crate) ids: Vec<EntityId>,
    pub(crate) fuzzy: bool,
    pub(crate) words: String,
}

/// What the vocabulary recognised in a message, and the content words it did not.
#[derive(Clone, Default)]
pub(crate) struct Entities {
    pub(crate) categories: Vec<EntityMatch>,
    pub(crate) merchants: Vec<EntityMatch>,
    pub(crate) accounts: Vec<EntityMatch>,
    pub(crate) unrecognized: Vec<Unplaced>,
}

/// A content word nothing matched, as the user wrote it, and whether reading it would
/// change the plan (`lexicon::changes_meaning`, `period::is_time_word`).
#[derive(Clone)]
pub(crate) struct Unplaced {
    pub(crate) words: String,
    pub(crate) changes_meaning: bool,
}

/// Whether the word at `i` stands where a name to filter on goes: after "on", "en",
/// "chez", "at", "pour"… and an optional article ("spent on unicorns", "dépensé chez le
/// coiffeur"), or right after "my"/"mon" ("what did my employer pay me"). Unknown
/// there, it is a filter the plan would leave out.
pub(crate) fn names_a_filter(tokens: &[Token], i: usize) -> bool {
    if tokens[i].kind != TokenKind::Word {
        return false;
    }
    let mut j = i;
    for _ in 0..2 {
        let Some(before) = j.checked_sub(1) else { return false };
        let w = tokens[before].norm.as_str();
        if matches!(w, "my" | "mon" | "ma" | "mes" | "our" | "notre" | "nos") {
            return true;
        }
        if matches!(w, "the" | "a" | "an" | "le" | "la" | "les" | "l" | "un" | "une") {
            j = before;
            continue;
        }
        // "I'd like": an English contraction, not the French "d'".
        if w == "d"
            && before > 0
            && matches!(tokens[before - 1].norm.as_str(), "i" | "you" | "we" | "they" | "he" | "she")
        {
            return false;
        }
        // "nombre d'embauches", "number of hires": the rows counted, not a filter.
        if matches!(w, "d" | "de" | "of")
            && before > 0
            && matches!(tokens[before - 1].norm.as_str(), "nombre" | "number")
        {
            return false;
        }
        return matches!(
            w,
            "on" | "at"
                | "chez"
                | "en"
                | "aux"
                | "au"
                | "pour"
                | "for"
                | "dans"
                | "in"
                | "de"
                | "d"
                | "du"
                | "des"
                | "of"
                | "par"
                | "by"
        );
    }
    false
}

/// Articles and prepositions between an exclusion word and the name it leaves out:
/// "sauf chez", "excluding the", "hors de mes".
fn is_glue(w: &str) -> bool {
    GLUE_WORDS.contains(&w)
}

const GLUE_WORDS: &[&str] = &[
    "le", "la", "les", "l", "the", "my", "mes", "mon", "ma", "des", "du", "de", "d", "chez", "at", "for",
    "on", "en", "au", "aux", "a",
];

/// The first token from `j` on that is not glue (or is used).
fn past_glue(tokens: &[Token], used: &[bool], mut j: usize) -> usize {
    // "pas les trucs Amazon", "not the stuff from Amazon", "not any of the rent".
    let vague = |w: &str| {
        matches!(
            w,
            "trucs"
                | "choses"
                | "stuff"
                | "things"
                | "any"
                | "anything"
                | "all"
                | "tous"
                | "toutes"
                | "from"
                | "ceux"
                | "celles"
                | "celui"
                | "celle"
                | "ones"
                | "one"
                | "those"
        )
    };
    while j < tokens.len() && !used[j] && (is_glue(&tokens[j].norm) || vague(&tokens[j].norm)) {
        j += 1;
    }
    j
}

/// A noun for transactions of a name: "the Uber rides", "les achats Amazon".
pub(crate) fn names_transactions(w: &str) -> bool {
    (is_list_word(w) && !matches!(w, "liste" | "lister" | "list" | "listing"))
        || is_transaction_word(w)
        || matches!(w, "bills" | "factures" | "stuff" | "trucs" | "versements" | "versement")
}

/// Whether `t` comes right after one of `names` ("the Decathlon purchases" after
/// "Decathlon"). A match's words are the message's own, as typed.
pub(crate) fn follows_a_name(names: &[EntityMatch], t: &Token, message: &str) -> bool {
    let before = message.get(..t.start).unwrap_or_default().trim_end();
    names.iter().any(|m| before.ends_with(m.words.as_str()))
}

/// The words that open an exclusion at `i`, and the index past them: "hors", "sauf",
/// "excluding", "without"; "not", "pas", "non" (with "counting", "including", "compris"
/// after them); "but not", "mais pas", "et sans"; "other than", "autre que"; "apart from",
/// "à part", "mis à part", "en dehors de", "outside of", "leaving out", "minus",
/// "hormis". Only free tokens.
fn exclusion_opener(tokens: &[Token], used: &[bool], i: usize) -> Option<usize> {
    let w = |j: usize| match (tokens.get(j), used.get(j)) {
        (Some(t), Some(false)) => t.norm.as_str(),
        _ => "",
    };
    let after = match w(i) {
        x if is_exclusion_word(x) => {
            // "except for", "sauf pour".
            if matches!(w(i + 1), "for" | "pour" | "compter" | "counting" | "including" | "inclure") {
                i + 2
            } else {
                i + 1
            }
        }
        "not" | "pas" | "non" => match w(i + 1) {
            "counting" | "including" | "incl" | "inc" | "compris" | "comptant" | "compte" | "inclus" => i + 2,
            // ("a treat, not a habit": what a thing is not, no exclusion.)
            "count" | "include" | "a" | "an" => return None,
            _ => i + 1,
        },
        // "but not", "mais pas", "and not", "et sans": the joining word goes with it.
        "but" | "mais" | "and" | "et" => return exclusion_opener(tokens, used, i + 1),
        "other" | "others" | "autre" | "autres" => match w(i + 1) {
            "than" | "que" | "qu" => i + 2,
            _ => return None,
        },
        "apart" | "outside" => match w(i + 1) {
            "from" | "of" => i + 2,
            _ => return None,
        },
        "leaving" | "leave" => match w(i + 1) {
            "out" | "aside" => i + 2,
            _ => return None,
        },
        // "that wasn't groceries", "don't include rent": the "t" of "n't".
        "t" if negates_at(tokens, i) => match w(i + 1) {
            "include" | "including" | "count" | "counting" => i + 2,
            _ => i + 1,
        },
        // ("dont" typed for "don't" — not the French "dont", "of which": "combien en
        // courses dont Lidl" asks for a part of the whole, left unread; on the server.)
        "dont" if of_which(tokens, i) => return None,
        "dont" | "didnt" | "doesnt" | "isnt" | "wasnt" | "arent" | "werent" => match w(i + 1) {
            "include" | "including" | "count" | "counting" => i + 2,
            _ => i + 1,
        },
        // "ailleurs que chez Carrefour", "anywhere but Amazon".
        "ailleurs" if matches!(w(i + 1), "que" | "qu") => i + 2,
        "anywhere" | "everywhere" if matches!(w(i + 1), "but" | "except") => i + 2,
        "a" if w(i + 1) == "part" => i + 2,
        // "à l'exception des courses", "à l'exclusion du loyer".
        "a" if w(i + 1) == "l" && matches!(w(i + 2), "exception" | "exclusion") => match w(i + 3) {
            "de" | "des" | "du" | "d" => i + 4,
            _ => i + 3,
        },
        "with" if w(i + 1) == "the" && w(i + 2) == "exception" && w(i + 3) == "of" => i + 4,
        "mis" if w(i + 1) == "a" && w(i + 2) == "part" => i + 3,
        "en" if w(i + 1) == "dehors" => i + 2,
        "dehors" => i + 1,
        "minus" | "hormis" | "excl" | "exc" => i + 1,
        // "everything I spent bar the Uber rides": "bar" before "the", after no article
        // or preposition of its own ("at the bar", "a bar the kids like" are places).
        "bar"
            if w(i + 1) == "the"
                && !matches!(
                    i.checked_sub(1).and_then(|j| tokens.get(j)).map(|t| t.norm.as_str()),
                    Some("the" | "a" | "at" | "to" | "in" | "this" | "that" | "my" | "our")
                ) =>
        {
            i + 1
        }
        _ => return None,
    };
    Some(after)
}

/// Finds the user's names in a message: the vocabulary and its index of phrases.
#[derive(Clone, Copy)]
pub(crate) struct Finder<'a> {
    pub vocab: &'a Vocabulary,
    pub index: &'a Index,
}

impl Finder<'_> {
    /// Category and merchant matches, and the content words nothing matched.
    pub(crate) fn entities(&self, tokens: &[Token], used: &mut [bool], message: &str) -> Entities {
        let mut found = self.exact_matches(tokens, used, message);
        // A category's word that is also a word of a merchant's name ("la mutuelle":
        // Health, or Harmonie Mutuelle; "boulangerie": Groceries, or Boulangerie Paul)
        // names either: both are candidates, and Sou asks which.
        let mut either = vec![false; found.len()];
        for (k, m) in found.iter_mut().enumerate() {
            let single = !m.words.contains(char::is_whitespace);
            if !single || !m.ids.iter().all(|id| id.kind == EntityKind::Category) {
                continue;
            }
            let word = crate::text::normalize(&m.words);
            for &id in self.index.name_words.get(&word).into_iter().flatten() {
                if !m.ids.contains(&id) {
                    m.ids.push(id);
                    either[k] = true;
                }
            }
        }
        // Then approximate single words: typos, plurals, abbreviations.
        let mut unrecognized = Vec::new();
        for (i, t) in tokens.iter().enumerate() {
            let negates = negates_at(tokens, i);
            let french_dont = crate::parser::lexicon::is_french_dont(tokens, i);
            if used[i]
                || (is_stopword(t.norm.as_str()) && !negates)
                || french_dont
                || t.kind == TokenKind::Currency
            {
                continue;
            }
            let words = message.get(t.start..t.end).unwrap_or_default().to_string();
            // A word that would change the plan is never read as a near-miss name
            // ("interest" is not "internet"): left unplaced, it stops the run.
            let meaning = negates || changes_meaning(&t.norm) || crate::period::is_time_word(t);
            let ids = if t.kind == TokenKind::Word && !meaning { self.fuzzy(&t.norm) } else { Vec::new() };
            if ids.is_empty() {
                let changes_meaning = meaning || names_a_filter(tokens, i);
                unrecognized.push(Unplaced { words, changes_meaning });
            } else {
                found.push(EntityMatch { ids, fuzzy: true, words });
                used[i] = true;
            }
        }
        let mut out = Entities { unrecognized, ..Entities::default() };
        // The approximate matches, added after, are never `either`.
        let either = either.into_iter().chain(std::iter::repeat(false));
        for (m, either) in found.into_iter().zip(either) {
            let of = |kind| m.ids.iter().copied().filter(|id| id.kind == kind).collect::<Vec<EntityId>>();
            let (cats, mers, accts) =
                (of(EntityKind::Category), of(EntityKind::Merchant), of(EntityKind::Account));
            // A word that is both a merchant and a category alias ("uber") reads as
            // the merchant: the narrower filter is the one the user can see in labels.
            // A word of a merchant's longer name is not that merchant: both are asked.
            if either {
                out.categories.push(m);
            } else if !mers.is_empty() {
                out.merchants.push(EntityMatch { ids: mers, ..m });
            } else if !accts.is_empty() {
                out.accounts.push(EntityMatch { ids: accts, ..m });
            } else if !cats.is_empty() {
                out.categories.push(EntityMatch { ids: cats, ..m });
            }
        }
        out
    }

    /// The names an exclusion word leaves out: "hors Picard", "sauf chez Lidl",
    /// "excluding the rent", "sans les restos". Only exact names: an exclusion word with
    /// no name after it stays unplaced, and stops the run.
    pub(crate) fn excluded(&self, tokens: &[Token], used: &mut [bool], message: &str) -> Vec<EntityMatch> {
        let mut out = Vec::new();
        for i in 0..tokens.len() {
            let Some(after) = exclusion_opener(tokens, used, i) else { continue };
            let mut j = past_glue(tokens, used, after);
            // "en excluant les versements d'ACME", "except the payments to EDF": the
            // transactions of a name.
            let to = |k: usize| {
                matches!(
                    tokens.get(k).map(|t| t.norm.as_str()),
                    Some("a" | "au" | "de" | "d" | "du" | "to" | "from" | "chez" | "at")
                ) && !used[k]
            };
            if self.match_at(tokens, used, j, message).is_none()
                && tokens.get(j).is_some_and(|t| !used[j] && names_transactions(&t.norm))
                && to(j + 1)
            {
                j += 2;
            }
            let Some((m, n)) = self.match_at(tokens, used, j, message) else { continue };
            // "sauf le loyer Foncia", "autres que le salaire ACME": two names side by side
            // are one thing left out, the merchant (the narrower one).
            // Two of one kind side by side ("sauf Picard Carrefour") are both left out.
            let merchant = |e: &EntityMatch| e.ids.iter().all(|id| id.kind == EntityKind::Merchant);
            let side_by_side = tokens.get(j + n).is_some_and(|next| {
                message.get(tokens[j + n - 1].end..next.start).is_some_and(|gap| gap.trim().is_empty())
            });
            let beside = if side_by_side { self.match_at(tokens, used, j + n, message) } else { None };
            let (m, n) = match beside {
                Some((next, k)) if merchant(&next) != merchant(&m) => {
                    (if merchant(&next) { next } else { m }, n + k)
                }
                Some((next, k)) => {
                    out.push(next);
                    (m, n + k)
                }
                None => (m, n),
            };
            // "sauf les retraits d'espèces": one name said twice, "de" between.
            let n = match tokens.get(j + n).map(|t| t.norm.as_str()) {
                Some("de" | "d" | "of") if !used[j + n] => {
                    match self.match_at(tokens, used, j + n + 1, message) {
                        Some((again, k)) if again.ids == m.ids => n + 1 + k,
                        _ => n,
                    }
                }
                _ => n,
            };
            // "without the SNCF tickets", "minus the Uber rides": the transactions of
            // the name left out.
            let n = if tokens.get(j + n).is_some_and(|t| !used[j + n] && names_transactions(&t.norm)) {
                n + 1
            } else {
                n
            };
            // "other than the rent payments to Foncia", "sauf le loyer chez Foncia": a
            // category's payments to a merchant are one thing left out, the merchant.
            // ("payments" may already be read as debits.)
            let p = if tokens.get(j + n).is_some_and(|t| names_transactions(&t.norm)) {
                j + n + 1
            } else {
                j + n
            };
            // ("excluding the rent paid to Foncia", "sauf le loyer payé à Foncia".)
            let p =
                if tokens.get(p).is_some_and(|t| super::lexicon::is_spend_word(&t.norm)) { p + 1 } else { p };
            let to_merchant = match tokens.get(p).map(|t| t.norm.as_str()) {
                Some("to" | "at" | "from" | "chez" | "a" | "de" | "d" | "with" | "avec")
                    if !used[p] && !merchant(&m) =>
                {
                    self.match_at(tokens, used, p + 1, message).filter(|(next, _)| merchant(next))
                }
                _ => None,
            };
            let (m, n) = match to_merchant {
                Some((next, k)) => (next, p + 1 + k - j),
                None => (m, n),
            };
            used[i..j + n].iter_mut().for_each(|u| *u = true);
            // The "wasn" of "wasn't" goes with its "t".
            if tokens[i].norm == "t" && i > 0 {
                used[i - 1] = true;
            }
            out.push(m);
            // "except at Carrefour and Lidl": the names joined to it are left out too.
            let mut k = j + n;
            // (Not past the end of a sentence: "… sans le loyer. Et les paiements à EDF ?")
            let ends = |k: usize| {
                k > 0
                    && message
                        .get(tokens[k - 1].end..tokens[k].start)
                        .is_some_and(|g| g.contains(['.', '?', '!', ';']))
            };
            while k < tokens.len()
                && !used[k]
                && !ends(k)
                && matches!(tokens[k].norm.as_str(), "and" | "et" | "ni" | "or" | "ou")
            {
                let mut l = past_glue(tokens, used, k + 1);
                // ("… et des achats Amazon", "and the payments to EDF": a name's
                // transactions, said before it.)
                if self.match_at(tokens, used, l, message).is_none()
                    && tokens.get(l).is_some_and(|t| names_transactions(&t.norm))
                {
                    let to = matches!(
                        tokens.get(l + 1).map(|t| t.norm.as_str()),
                        Some("a" | "au" | "de" | "d" | "du" | "to" | "from" | "chez" | "at")
                    );
                    l = past_glue(tokens, used, l + 1 + usize::from(to));
                }
                let Some((m, n)) = self.match_at(tokens, used, l, message) else { break };
                // ("… and the Decathlon purchases": their transactions too.)
                let n = if tokens.get(l + n).is_some_and(|t| !used[l + n] && names_transactions(&t.norm)) {
                    n + 1
                } else {
                    n
                };
                used[k..l + n].iter_mut().for_each(|u| *u = true);
                out.push(m);
                k = l + n;
            }
        }
        out
    }

    /// Names left out by words after them: "Uber non compris", "rent not included",
    /// "Amazon excluded", "loyer exclu".
    pub(crate) fn excluded_after(
        &self,
        tokens: &[Token],
        used: &mut [bool],
        message: &str,
    ) -> Vec<EntityMatch> {
        let mut out = Vec::new();
        let w = |j: usize| tokens.get(j).map_or("", |t| t.norm.as_str());
        let mut i = 0;
        while i < tokens.len() {
            let Some((m, n)) = self.match_at(tokens, used, i, message) else {
                i += 1;
                continue;
            };
            let after = i + n;
            // "leaving the restaurants aside", "putting rent aside": the verb before.
            let setting = (i.saturating_sub(3)..i).find(|&j| {
                !used[j] && matches!(w(j), "leaving" | "leave" | "putting" | "put" | "setting" | "set")
            });
            let marker = match (w(after), w(after + 1)) {
                ("non" | "not", "compris" | "inclus" | "included" | "counted") => 2,
                ("exclu" | "exclus" | "exclue" | "exclues" | "excluded", _) => 1,
                ("aside", _) if setting.is_some() => 1,
                _ => 0,
            };
            if marker > 0 && (after..after + marker).all(|j| !used[j]) {
                used[setting.unwrap_or(i)..after + marker].iter_mut().for_each(|u| *u = true);
                out.push(m);
                i = after + marker;
            } else {
                i += 1;
            }
        }
        out
    }

    /// Longest exact phrases naming an entity, marked as used.
    pub(crate) fn exact_matches(
        &self,
        tokens: &[Token],
        used: &mut [bool],
        message: &str,
    ) -> Vec<EntityMatch> {
        let mut found: Vec<EntityMatch> = Vec::new();
        let mut i = 0;
        while i < tokens.len() {
            match self.match_at(tokens, used, i, message) {
                Some((m, n)) => {
                    used[i..i + n].iter_mut().for_each(|u| *u = true);
                    found.push(m);
                    i += n;
                }
                None => i += 1,
            }
        }
        found
    }

    /// The longest exact phrase naming an entity that starts at token `i` among free
    /// tokens, and how many tokens it spans.
    pub(crate) fn match_at(
        &self,
        tokens: &[Token],
        used: &[bool],
        i: usize,
        message: &str,
    ) -> Option<(EntityMatch, usize)> {
        if i >= tokens.len() || tokens[i].kind != TokenKind::Word {
            return None;
        }
        let longest = self.index.max_words.min(tokens.len() - i);
        for n in (1..=longest).rev() {
            if (i..i + n).any(|j| used[j]) {
                continue;
            }
            let phrase = tokens[i..i + n].iter().map(|t| t.norm.as_str()).collect::<Vec<_>>().join(" ");
            if n == 1 && is_stopword(phrase.as_str()) {
                continue;
            }
            // "je facture plus que l'an dernier": right after "je", a verb, not the
            // category named "facture" — left unread, so asked.
            if n == 1 && i > 0 && matches!(tokens[i - 1].norm.as_str(), "je" | "tu" | "nous" | "vous") {
                continue;
            }
            if let Some(ids) = self.index.exact(&phrase) {
                let words = message.get(tokens[i].start..tokens[i + n - 1].end).unwrap_or_default();
                let m = EntityMatch {
                    ids: self.prefer_names(ids, &phrase),
                    fuzzy: false,
                    words: words.to_string(),
                };
                return Some((m, n));
            }
        }
        None
    }

    /// Of several entities sharing a surface, those whose own name it is.
    fn prefer_names(&self, ids: &[EntityId], phrase: &str) -> Vec<EntityId> {
        let named: Vec<EntityId> = ids
            .iter()
            .copied()
            .filter(|id| {
                self.vocab.term(*id).is_some_and(|t| {
                    [&t.key, &t.name_fr, &t.name_en].iter().any(|n| {
                        let n = crate::text::normalize(n);
                        n == phrase || singular(&n) == singular(phrase)
                    })
                })
            })
            .collect();
        if named.len() == 1 {
            named
        } else {
            ids.to_vec()
        }
    }

    pub(crate) fn fuzzy(&self, word: &str) -> Vec<EntityId> {
        let len = word.chars().count();
        if len < 4 {
            return Vec::new();
        }
        let limit = if len >= 8 { 2 } else { 1 };
        let mut ids: Vec<EntityId> = Vec::new();
        for (surface, id) in &self.index.words {
            let same_start = surface.chars().next() == word.chars().next();
            // Four-letter words only match as abbreviations: "suis" is not "subs".
            let close = same_start
                && len >= 5
                && (edit_distance(word, surface, limit) <= limit
                    || edit_distance(singular(word), singular(surface), limit) <= limit);
            let abbreviation = len >= 4 && surface.starts_with(word);
            if (close || abbreviation) && !ids.contains(id) {
                ids.push(*id);
            }
        }
        ids.sort_unstable();
        ids
    }

    /// The key to filter on for one kind of entity, with the reasons it was chosen.
    pub(crate) fn pick(
        &self,
        matches: &[EntityMatch],
        locale: Locale,
        reasons: &mut Vec<Reason>,
        kind: EntityKind,
    ) -> Option<String> {
        let first = matches.first()?;
        let id = *first.ids.first()?;
        let term = self.vocab.term(id)?;
        let label = term.label(locale);
        let candidates: Vec<&str> = matches
            .iter()
            .flat_map(|m| m.ids.iter())
            .filter_map(|i| self.vocab.term(*i))
            .map(|t| t.label(locale))
            .collect();
        // Two names of one kind ("courses et restaurants"): the plan filters on one, so
        // the others are left out — which changes the figure.
        let others: Vec<String> = matches[1..]
            .iter()
            .filter(|m| m.ids.iter().any(|id| !first.ids.contains(id)))
            .map(|m| format!("« {} »", m.words))
            .collect();
        if !others.is_empty() {
            reasons.push(Reason::new(ReasonCode::UnplacedMeaning, locale, &others.join(", ")));
        }
        if candidates.len() > 1 {
            let mut unique = candidates.clone();
            unique.dedup();
            if unique.len() > 1 {
                let words = matches.iter().map(|m| m.words.as_str()).collect::<Vec<_>>().join(", ");
                reasons.push(Reason::new(
                    ReasonCode::AmbiguousEntity,
                    locale,
                    &format!("« {words} » → {}", unique.join(", ")),
                ));
                return Some(term.key.clone());
            }
        }
        let code = match (kind, first.fuzzy) {
            (EntityKind::Category, false) => ReasonCode::ExactCategory,
            (EntityKind::Category, true) => ReasonCode::FuzzyCategory,
            (EntityKind::Merchant, false) => ReasonCode::ExactMerchant,
            (EntityKind::Merchant, true) => ReasonCode::FuzzyMerchant,
            (EntityKind::Account, false) => ReasonCode::ExactAccount,
            (EntityKind::Account, true) => ReasonCode::FuzzyAccount,
        };
        let detail =
            if first.fuzzy { format!("« {} » → {label}", first.words) } else { label.to_string() };
        reasons.push(Reason::new(code, locale, &detail));
        Some(term.key.clone())
    }
}

/// The French "dont" ("of which"), not "dont" typed for "don't": no English verb after
/// it ("dont include", "dont want"), no English subject before it ("I dont") — read on
/// the server (`readings`).
#[cfg(feature = "readings")]
fn of_which(tokens: &[Token], i: usize) -> bool {
    let w = |j: usize| tokens.get(j).map_or("", |t| t.norm.as_str());
    !matches!(w(i + 1), "include" | "including" | "count" | "counting" | "want" | "need" | "show")
        && !matches!(
            i.checked_sub(1).map_or("", w),
            "i" | "we" | "you" | "they" | "but" | "and" | "please" | "pls"
        )
}

#[cfg(not(feature = "readings"))]
fn of_which(_: &[Token], _: usize) -> bool {
    false
}

//! Merchants merged or renamed: which stays, which go, the other names and a new name.

use super::*;

impl Read<'_> {
    /// A merchant named by the stretch `a..=b` (`Ok`: its key); else its words, as
    /// written, or nothing when they are no merchant's name (a category, an account, a
    /// word that changes the plan: left unread).
    fn name(&mut self, a: usize, b: usize) -> Result<String, String> {
        let words = if self.plain(a, b) { self.words(a, b) } else { String::new() };
        let key = match self.whole(a, b) {
            Some(m) => match keep(&m, EntityKind::Merchant) {
                Some(m) => {
                    let p = self.p;
                    p.finder().pick(&[m], self.locale, &mut self.reasons, EntityKind::Merchant)
                }
                // A word one typo from a category is a name, not the category.
                None if !m.fuzzy => return Err(String::new()),
                None => None,
            },
            None => None,
        };
        if key.is_some() || !words.is_empty() {
            self.use_span(a, b);
        }
        key.ok_or(words)
    }

    /// Whether token `j` cannot be part of a merchant's other name: a word that carries
    /// no name ("stp", "them", "ça"), one that names something the user has, or an
    /// instruction ("garde", "keep").
    fn not_a_name(&self, j: usize) -> bool {
        let w = self.w(j);
        // (A word in capitals among capitals is a label's: "AMZN MKTP DE".)
        if self.word_in_capitals(j) && j > 0 && self.word_in_capitals(j - 1) {
            return false;
        }
        is_stopword(w)
            || changes_meaning(w)
            || matches!(
                w,
                "them" | "they" | "les" | "eux" | "garde" | "garder" | "keep" | "conserve" | "stp" | "svp"
            )
    }

    /// `merge_merchants`: names said to be one merchant. Known merchants are merged
    /// into the first (or the one after "into", "dans"); other names become its aliases.
    pub(super) fn merge(mut self) -> Option<ParseOutcome> {
        // "merge lidl into carrefour and franprix into monoprix", "fusionne… fusionne…":
        // two merges, which one card would make one. Asked.
        let twice =
            |words: &[&str]| (0..self.tokens.len()).filter(|&i| words.contains(&self.w(i))).count() > 1;
        if twice(&["into", "dans"]) || twice(&["merge", "fusionne", "fusionner", "combine"]) {
            let w = self.message.to_string();
            self.note(ReasonCode::UnplacedMeaning, &quote(&w));
        }
        self.mark(MERGE | RENAME);
        let name = self.new_name();
        self.read_same();
        // The one after "into", "dans" stays.
        self.mark(CREATE);
        let stays_after = self.stays_after();
        let directed = stays_after.is_some();
        let names = match self.merge_names(stays_after) {
            Ok(names) => names,
            Err(w) => return self.ask(UNKNOWN_MERCHANT, Some(&w)),
        };
        let MergeNames { into, mut merge, mut aliases, repeated, loose } = names;
        merge.retain(|k| Some(k) != into.as_ref());
        // Two known merchants merged, or one renamed: other words, neither quoted nor in
        // capitals as a label is, are what is said about them ("Giuseppe bought it",
        // "c'est le même en bas de chez moi", "c'est plus clair"), not names to add.
        // (So are they beside a name given in quotes or capitals: "\"AMZN MKTP UK\" lines
        // are Amazon".)
        if into.is_some() && (!merge.is_empty() || name.is_some() || aliases.len() > loose.len()) {
            for w in &loose {
                self.note(ReasonCode::UnplacedMeaning, &quote(w));
            }
            aliases.retain(|a| !loose.contains(a));
        }
        // "merge AMZN into Amazon" when "AMZN" is already Amazon's: said, so kept.
        // (Not the merchant's own name: "AMZN c'est amazon" adds "AMZN", not "amazon".)
        if merge.is_empty() && aliases.is_empty() {
            aliases = repeated.into_iter().filter(|w| !self.own_name(into.as_ref(), w)).collect();
        }
        // "fusionne Carrefour et Lidl": two merchants, and nothing says which stays.
        if !directed && !merge.is_empty() && name.is_none() {
            return self.ask(KEPT, None);
        }
        let (Some(into), false) = (into, merge.is_empty() && aliases.is_empty() && name.is_none()) else {
            return match aliases.is_empty() {
                true => self.ask(MERCHANT, None),
                false => self.ask(UNKNOWN_MERCHANT, Some(&aliases.join(", "))),
            };
        };
        let name = match name {
            Some(n)
                if n.is_empty() || n.chars().count() > 60 || crate::text::hidden_control(&n).is_some() =>
            {
                return self.ask(NAME, None);
            }
            name => name,
        };
        if !aliases.is_empty() {
            self.note(ReasonCode::ExplicitText, &aliases.join(", "));
        }
        self.done(ToolCall::MergeMerchants(MergeMerchantsArgs { into, merge, aliases, name }))
    }

    /// "renomme X en Y", "rename X to Y": the new name, what follows, as written (its
    /// tokens used); `None` when nothing is renamed.
    fn new_name(&mut self) -> Option<String> {
        let v = self.find(0, RENAME)?;
        let end = self.find(v + 2, TO).unwrap_or(self.tokens.len());
        let from = self.tokens.get(end).map_or(self.message.len(), |t| t.end);
        let rest = self.message.get(from..).unwrap_or("");
        // A quoted name is the name, whatever follows it ("to "Chez Marcel" in my
        // merchants": the words after are read as any others).
        let quoted = quoted_spans(self.message).into_iter().find(|&(a, _)| {
            a > from
                && self
                    .message
                    .get(from..a)
                    .is_some_and(|g| g.trim_matches(|c: char| !c.is_alphanumeric()).is_empty())
        });
        if let Some((a, b)) = quoted {
            let name = self.message.get(a..b).map(|n| n.trim().to_string());
            let inside: Vec<usize> = (end + 1..self.tokens.len())
                .filter(|&j| self.tokens[j].start >= a && self.tokens[j].end <= b)
                .collect();
            if let (Some(&x), Some(&y)) = (inside.first(), inside.last()) {
                self.use_span(x, y);
            }
            name
        } else {
            let mut new = rest.trim();
            for _ in 0..2 {
                for c in ['"', '\'', '«', '»', '“', '”', '.', '!', '?', ':'] {
                    new = new.strip_prefix(c).unwrap_or(new).strip_suffix(c).unwrap_or(new).trim();
                }
            }
            // ("Uber Rides please", "Salle de sport et mets le en loisirs", "Chez Marcel
            // in my merchants": the words after a name are no part of it — asked.)
            let said_after = (end + 1..self.tokens.len()).any(|j| {
                !self.typed_in_capitals(j)
                    && matches!(
                        self.w(j),
                        "and"
                            | "et"
                            | "puis"
                            | "then"
                            | "please"
                            | "pls"
                            | "plz"
                            | "stp"
                            | "svp"
                            | "merci"
                            | "thanks"
                            | "thx"
                            | "lol"
                            | "mdr"
                            | "in"
                            | "dans"
                            | "into"
                            | "from"
                            | "now"
                            | "mets"
                            | "put"
                            | "merge"
                            | "fusionne"
                            | "my"
                            | "mes"
                            | "mon"
                    )
            });
            if said_after {
                self.note(ReasonCode::UnplacedMeaning, &quote(new));
            }
            let name = Some(new.to_string());
            self.use_span(end, self.tokens.len());
            name
        }
    }

    /// "… are the same merchant", "c'est le même marchand": read.
    fn read_same(&mut self) {
        if let Some(m) = self.find(0, SAME) {
            let (mut a, mut b) = (m, m);
            while a > 0 && self.is(a - 1, ARTICLE | AS) {
                a -= 1;
            }
            while self.is(b + 1, SHOP) {
                b += 1;
            }
            self.use_span(a, b);
        }
    }

    /// The last "into", "dans" (or "for" after "name") left, read: the merchant after it
    /// is the one that stays.
    fn stays_after(&mut self) -> Option<usize> {
        let mut stays_after = None;
        for i in 0..self.tokens.len() {
            // ("another name for Amazon": for the one that stays.)
            let named_for = i > 0 && matches!(self.w(i - 1), "name" | "names" | "nom" | "noms");
            let stays = matches!(self.w(i), "into" | "dans")
                || (named_for && matches!(self.w(i), "for" | "pour" | "de" | "d"));
            if !self.used[i] && stays {
                self.used[i] = true;
                stays_after = Some(i);
            }
        }
        stays_after
    }

    /// The names a merge says, each sorted: the merchant that stays (after token
    /// `stays_after` when said), those merged into it, other names for it. `Err`: the
    /// words where a known merchant must be, to ask about.
    fn merge_names(&mut self, mut stays_after: Option<usize>) -> Result<MergeNames, String> {
        let (mut into, mut merge, mut aliases, mut into_words) =
            (None, Vec::new(), Vec::new(), String::new());
        let mut target_read = false;
        let mut repeated = Vec::new();
        let mut loose = Vec::new();
        for (a, b) in self.stretches() {
            let stays = stays_after.is_some_and(|s| s < a);
            if stays {
                stays_after = None;
            }
            match self.name(a, b) {
                Ok(key) if into.is_none() || stays => {
                    target_read |= stays;
                    let words = std::mem::replace(&mut into_words, self.words(a, b));
                    match into.replace(key) {
                        // "merge AMZN into Amazon": another name of the one that stays.
                        Some(old) if into.as_ref() == Some(&old) => {
                            if self.known(&old, &words) {
                                repeated.push(words)
                            } else {
                                aliases.push(words)
                            }
                        }
                        Some(old) => merge.insert(0, old),
                        None => {}
                    }
                }
                Ok(key) if into.as_ref() == Some(&key) || merge.contains(&key) => {
                    let words = self.words(a, b);
                    if self.known(&key, &words) {
                        repeated.push(words)
                    } else {
                        aliases.push(words)
                    }
                }
                Ok(key) => merge.push(key),
                Err(w) if w.is_empty() => {}
                Err(w) if stays => return Err(w),
                // "fusionne franprix dans monoprix, c'est le même groupe": words after
                // the one that stays are no name to add.
                Err(w) if target_read => self.note(ReasonCode::UnplacedMeaning, &quote(&w)),
                // An alias is a name: words around a known name ("monoprix stp (garde
                // monoprix"), or an instruction, are not read as one.
                Err(w) if !self.quoted(a, b) && (a..=b).any(|j| self.not_a_name(j)) => {
                    self.note(ReasonCode::UnplacedMeaning, &quote(&w));
                }
                // "H&M": a name cut by a sign is not the one-letter alias "H".
                Err(w) if w.chars().filter(|c| c.is_alphanumeric()).count() < 2 || self.cut(a, b) => {
                    return Err(w);
                }
                Err(w) => {
                    let caps = (a..=b).all(|j| {
                        self.message
                            .get(self.tokens[j].start..self.tokens[j].end)
                            .is_some_and(|t| !t.chars().any(char::is_lowercase))
                    });
                    if !self.quoted(a, b) && !caps {
                        loose.push(w.clone());
                    }
                    aliases.push(w)
                }
            }
        }
        Ok(MergeNames { into, merge, aliases, repeated, loose })
    }

    /// Whether `words` are one of merchant `key`'s names already: a name said again
    /// ("franprix et monoprix c'est pareil, fusionne franprix dans monoprix") is no alias
    /// to add.
    fn known(&self, key: &str, words: &str) -> bool {
        let said = crate::text::normalize(words);
        self.p.vocabulary().merchants.iter().filter(|t| t.key == key).any(|t| {
            [&t.name_fr, &t.name_en].into_iter().chain(&t.aliases).any(|n| crate::text::normalize(n) == said)
        })
    }

    /// Whether `w` is the merchant `into`'s own name, French or English (not an alias).
    fn own_name(&self, into: Option<&String>, w: &str) -> bool {
        let w = crate::text::normalize(w);
        self.p
            .vocabulary()
            .merchants
            .iter()
            .filter(|t| Some(&t.key) == into)
            .any(|t| crate::text::normalize(&t.name_fr) == w || crate::text::normalize(&t.name_en) == w)
    }
}

/// The names a merge says, sorted as they are read.
struct MergeNames {
    /// The merchant that stays.
    into: Option<String>,
    /// The known merchants merged into it.
    merge: Vec<String>,
    /// Other names, to add to it.
    aliases: Vec<String>,
    /// Names said again that are its own already.
    repeated: Vec<String>,
    /// Aliases neither quoted nor in capitals: perhaps words said about the merchants.
    loose: Vec<String>,
}

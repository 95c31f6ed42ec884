//! `merge_merchants`: names of one merchant merged, or a merchant renamed.

use super::{glue, Read};
use crate::parser::entities::EntityMatch;
use crate::parser::lexicon::changes_meaning;
use crate::reason::ReasonCode;
use crate::text::TokenKind;
use crate::vocab::EntityKind;
use crate::{MergeMerchantsArgs, ParseOutcome, ToolCall};

impl Read<'_> {
    /// A name over tokens `a..=b`: the merchant it names exactly (past leading
    /// articles), or with one typo in one word; else the words, as written.
    fn name(&self, a: usize, b: usize) -> Result<EntityMatch, String> {
        let f = self.p.finder();
        let mask: Vec<bool> = (0..self.tokens.len()).map(|j| j < a || j > b).collect();
        let mut first = a;
        for i in a..=b {
            if let Some((m, _)) =
                f.match_at(self.tokens, &mask, i, self.message).filter(|(_, k)| i + k == b + 1)
            {
                let ids: Vec<_> =
                    m.ids.iter().copied().filter(|id| id.kind == EntityKind::Merchant).collect();
                // A category or an account is no merchant to merge: left unread.
                return if ids.is_empty() { Err(String::new()) } else { Ok(EntityMatch { ids, ..m }) };
            }
            if !glue(self.w(i)) {
                break;
            }
            first = i + 1;
        }
        let t = &self.tokens[b];
        if first == b && t.kind == TokenKind::Word && !changes_meaning(&t.norm) {
            let ids: Vec<_> =
                f.fuzzy(&t.norm).into_iter().filter(|id| id.kind == EntityKind::Merchant).collect();
            if !ids.is_empty() {
                return Ok(EntityMatch { ids, fuzzy: true, words: self.words(b, b) });
            }
        }
        if first > b || (first..=b).any(|j| changes_meaning(self.w(j))) {
            return Err(String::new());
        }
        Err(self.words(first, b))
    }

    fn merchant_key(&mut self, m: EntityMatch) -> Option<String> {
        let p = self.p;
        p.finder().pick(&[m], self.locale, &mut self.reasons, EntityKind::Merchant)
    }

    fn ask_merchant(&self, words: &str) -> Option<ParseOutcome> {
        self.ask(
            ReasonCode::UnknownName,
            &format!("« {words} »"),
            [
                "Je ne reconnais pas ce marchand. Lequel voulez-vous ?",
                "I don't recognise this merchant. Which one do you mean?",
            ],
            Vec::new(),
        )
    }

    /// `merge_merchants`: names said to be one merchant. Known merchants are merged
    /// into the first (or the one after "into", "dans"); other names become its aliases.
    pub(super) fn merge(mut self) -> Option<ParseOutcome> {
        self.mark(|w| matches!(w, "fusionne" | "fusionner" | "merge"));
        // "… are the same merchant", "c'est le même marchand".
        if let Some(m) = self.tokens.iter().position(|t| matches!(t.norm.as_str(), "same" | "meme")) {
            let mut a = m;
            while a > 0
                && matches!(
                    self.w(a - 1),
                    "the"
                        | "le"
                        | "la"
                        | "un"
                        | "a"
                        | "sont"
                        | "are"
                        | "is"
                        | "est"
                        | "c"
                        | "all"
                        | "both"
                        | "tous"
                )
            {
                a -= 1;
            }
            let mut b = m;
            while matches!(self.w(b + 1), "marchand" | "merchant" | "commercant" | "enseigne") {
                b += 1;
            }
            self.use_span(a, b);
        }
        // The names: stretches of words between "et", "and", "avec", commas; the one
        // after "into", "dans" stays.
        let n = self.tokens.len();
        let mut names: Vec<(usize, usize, bool)> = Vec::new();
        let (mut first, mut last, mut stays) = (None, None, false);
        for i in 0..=n {
            let comma = i > 0
                && i < n
                && self
                    .message
                    .get(self.tokens[i - 1].end..self.tokens[i].start)
                    .is_some_and(|g| g.contains([',', '&', '+']));
            let into = i < n && !self.used[i] && matches!(self.w(i), "into" | "dans" | "en");
            if i == n || comma || into || self.used[i] || matches!(self.w(i), "et" | "and" | "avec" | "with")
            {
                if let (Some(a), Some(b)) = (first.take(), last.take()) {
                    names.push((a, b, stays));
                    stays = false;
                }
                if into {
                    self.used[i] = true;
                    stays = true;
                }
                if !comma || self.used.get(i).copied().unwrap_or(true) {
                    continue;
                }
            }
            first.get_or_insert(i);
            if !glue(self.w(i)) {
                last = Some(i);
            }
        }
        // Known merchants (key, words, stays), and the other names.
        let mut known: Vec<(String, String, bool)> = Vec::new();
        let (mut unknown, mut others) = (Vec::new(), Vec::new());
        for (a, b, stays) in names {
            self.use_span(a, b);
            match self.name(a, b) {
                Ok(m) => {
                    let words = m.words.clone();
                    if let Some(key) = self.merchant_key(m) {
                        known.push((key, words, stays));
                    }
                }
                Err(w) if w.is_empty() => others.push(self.words(a, b)),
                Err(w) if stays => return self.ask_merchant(&w),
                Err(w) => unknown.push(w),
            }
        }
        let Some(into) = known.iter().find(|k| k.2).or(known.first()).map(|k| k.0.clone()) else {
            return self.ask_merchant(&unknown.join(", "));
        };
        let mut merge: Vec<String> = Vec::new();
        let mut aliases: Vec<String> = Vec::new();
        let mut kept = false;
        for (key, words, _) in known {
            if key != into {
                if !merge.contains(&key) {
                    merge.push(key);
                }
            } else if kept {
                // Another name of the merchant that stays ("AMZN" for Amazon).
                aliases.push(words);
            } else {
                kept = true;
            }
        }
        aliases.extend(unknown);
        // A category or an account named among merchants: not one to merge.
        if merge.is_empty() && aliases.is_empty() && !others.is_empty() {
            return self.ask_merchant(&others.join(", "));
        }
        if !others.is_empty() {
            let detail = others.iter().map(|a| format!("« {a} »")).collect::<Vec<_>>().join(", ");
            self.note(ReasonCode::UnplacedMeaning, &detail);
        }
        if merge.is_empty() && aliases.is_empty() {
            let detail = self.locale.pick("marchand", "merchant");
            return self.ask(
                ReasonCode::MissingValue,
                detail,
                ["Avec quel marchand ?", "Merge it with which merchant?"],
                Vec::new(),
            );
        }
        if !aliases.is_empty() {
            let detail = aliases.iter().map(|a| format!("« {a} »")).collect::<Vec<_>>().join(", ");
            self.note(ReasonCode::ExplicitText, &detail);
        }
        self.done(ToolCall::MergeMerchants(MergeMerchantsArgs { into, merge, aliases, name: None }))
    }

    /// `merge_merchants` with a new name only: "renomme X en Y", "rename X to Y".
    pub(super) fn rename(mut self) -> Option<ParseOutcome> {
        let v =
            self.tokens.iter().position(|t| matches!(t.norm.as_str(), "renomme" | "renommer" | "rename"))?;
        self.used[v] = true;
        let n = self.tokens.len();
        let c = (v + 2..n).find(|&c| matches!(self.w(c), "en" | "to" | "as" | "into" | "in"));
        let end = c.unwrap_or(n);
        let name = c.and_then(|c| {
            let rest = self.message.get(self.tokens[c].end..)?;
            let name = rest.trim_matches(|ch: char| ch.is_whitespace() || "\"'«»“”.!?:".contains(ch));
            (!name.is_empty() && name.chars().count() <= 60 && crate::text::hidden_control(name).is_none())
                .then(|| name.to_string())
        });
        if let Some(c) = c {
            self.use_span(c, n - 1);
        }
        let Some(b) = (v + 1..end).rev().find(|&j| !glue(self.w(j))) else {
            let detail = self.locale.pick("marchand", "merchant");
            return self.ask(
                ReasonCode::MissingValue,
                detail,
                ["Quel marchand ?", "Which merchant?"],
                Vec::new(),
            );
        };
        self.use_span(v + 1, b);
        let into = match self.name(v + 1, b) {
            Ok(m) => self.merchant_key(m)?,
            Err(w) if w.is_empty() => return self.ask_merchant(&self.words(v + 1, b)),
            Err(w) => return self.ask_merchant(&w),
        };
        let Some(name) = name else {
            let detail = self.locale.pick("nouveau nom", "new name");
            return self.ask(
                ReasonCode::MissingValue,
                detail,
                ["Quel nouveau nom ?", "What new name?"],
                Vec::new(),
            );
        };
        self.done(ToolCall::MergeMerchants(MergeMerchantsArgs {
            into,
            merge: Vec::new(),
            aliases: Vec::new(),
            name: Some(name),
        }))
    }
}

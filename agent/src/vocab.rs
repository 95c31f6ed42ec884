//! The user's vocabulary — category and merchant names and aliases — and the index
//! the parser matches words against. It travels to the browser with the page.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::locale::Locale;
use crate::text::{normalize, singular};

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Vocabulary {
    pub categories: Vec<Term>,
    pub merchants: Vec<Term>,
    /// The user's bank accounts; `kind` is `checking`, `savings`, `card` or `other`.
    #[serde(default)]
    pub accounts: Vec<Term>,
    /// The ledger's main currency: amounts written without one are in it.
    #[serde(default)]
    pub currency: Option<crate::money::Currency>,
    /// The CSV files uploaded as datasets (analyst mode), with their columns.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub datasets: Vec<crate::datasets::DatasetShape>,
}

impl Vocabulary {
    /// The term an entity id points at.
    pub(crate) fn term(&self, id: EntityId) -> Option<&Term> {
        match id.kind {
            EntityKind::Category => self.categories.get(id.index),
            EntityKind::Merchant => self.merchants.get(id.index),
            EntityKind::Account => self.accounts.get(id.index),
        }
    }

    /// Whether the category `key` is of `kind` (`income`, `transfer`…).
    pub(crate) fn category_is(&self, key: &str, kind: &str) -> bool {
        self.categories.iter().any(|t| t.key == key && t.kind.as_deref() == Some(kind))
    }

    /// The categories nearest to `said` — a key or a name that is none of the user's
    /// (a model's "savings_goals", "epargne") — best first, at most `n`: by their key,
    /// names and other names, a word in common first, then by spelling.
    pub fn nearest_categories(&self, said: &str, n: usize) -> Vec<&Term> {
        let said = crate::text::normalize(&said.replace(['_', '-'], " "));
        let words: Vec<&str> = said.split_whitespace().collect();
        let mut scored: Vec<(usize, usize, &Term)> = Vec::new();
        for (i, t) in self.categories.iter().enumerate() {
            let key = t.key.replace('_', " ");
            let names = [key.as_str(), t.name_fr.as_str(), t.name_en.as_str()];
            let score = names
                .into_iter()
                .chain(t.aliases.iter().map(String::as_str))
                .map(|name| {
                    let name = crate::text::normalize(name);
                    if name.split_whitespace().any(|w| words.contains(&w)) {
                        0
                    } else {
                        let limit = (said.chars().count().max(name.chars().count()) / 3).max(1);
                        crate::text::edit_distance(&said, &name, limit).saturating_add(1)
                    }
                })
                .min()
                .unwrap_or(usize::MAX);
            let limit = (said.chars().count() / 3).max(1) + 1;
            if score <= limit {
                scored.push((score, i, t));
            }
        }
        scored.sort_by_key(|&(score, i, _)| (score, i));
        scored.into_iter().take(n).map(|(_, _, t)| t).collect()
    }

    /// The name of the category, merchant or account `key`, or the key when none has it.
    pub(crate) fn label_of(&self, key: &str, locale: Locale) -> String {
        self.categories
            .iter()
            .chain(&self.merchants)
            .chain(&self.accounts)
            .find(|t| t.key == key)
            .map_or_else(|| key.to_string(), |t| t.label(locale).to_string())
    }
}

/// A category or a merchant: a stable key, display names and the words people use.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Term {
    pub key: String,
    pub name_fr: String,
    pub name_en: String,
    #[serde(default)]
    pub aliases: Vec<String>,
    /// For categories: `expense`, `income` or `transfer`. An income category named
    /// alone ("salaire de mars") asks about income, not spending. For accounts:
    /// `checking`, `savings`, `card` or `other`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
}

impl Term {
    pub fn label(&self, locale: Locale) -> &str {
        match locale {
            Locale::Fr => &self.name_fr,
            Locale::En => &self.name_en,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EntityKind {
    Category,
    Merchant,
    Account,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EntityId {
    pub kind: EntityKind,
    pub index: usize,
}

/// Normalised surface forms (names, aliases, their singulars) to entities.
#[derive(Clone, Debug, Default)]
pub struct Index {
    pub(crate) phrases: HashMap<String, Vec<EntityId>>,
    /// Longest phrase, in words.
    pub(crate) max_words: usize,
    /// One-word surfaces for approximate matching, with their entities.
    pub(crate) words: Vec<(String, EntityId)>,
    /// Each word of a merchant's name of several words ("mutuelle" in "Harmonie
    /// Mutuelle"), and the merchants whose name holds it.
    pub(crate) name_words: HashMap<String, Vec<EntityId>>,
}

impl Index {
    pub fn build(vocab: &Vocabulary) -> Index {
        let mut index = Index { max_words: 1, ..Index::default() };
        let kinds = [
            (EntityKind::Category, &vocab.categories),
            (EntityKind::Merchant, &vocab.merchants),
            (EntityKind::Account, &vocab.accounts),
        ];
        for (kind, terms) in kinds {
            for (i, term) in terms.iter().enumerate() {
                let id = EntityId { kind, index: i };
                let surfaces =
                    [&term.key, &term.name_fr, &term.name_en].into_iter().chain(term.aliases.iter());
                for surface in surfaces {
                    index.add(&normalize(&surface.replace('_', " ")), id);
                }
            }
        }
        for (index_of, term) in vocab.merchants.iter().enumerate() {
            let id = EntityId { kind: EntityKind::Merchant, index: index_of };
            for name in [&term.name_fr, &term.name_en] {
                let name = normalize(name);
                let words: Vec<&str> =
                    name.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).collect();
                if words.len() < 2 {
                    continue;
                }
                for w in words {
                    for form in [w, crate::text::singular(w)] {
                        let ids = index.name_words.entry(form.to_string()).or_default();
                        if !ids.contains(&id) {
                            ids.push(id);
                        }
                    }
                }
            }
        }
        for ids in index.phrases.values_mut() {
            ids.sort_unstable();
            ids.dedup();
        }
        index.words.sort_unstable();
        index.words.dedup();
        index
    }

    fn add(&mut self, phrase: &str, id: EntityId) {
        if phrase.is_empty() {
            return;
        }
        let words: Vec<&str> = phrase.split(' ').collect();
        self.max_words = self.max_words.max(words.len());
        let singular_phrase = words.iter().map(|w| singular(w)).collect::<Vec<_>>().join(" ");
        self.phrases.entry(phrase.to_string()).or_default().push(id);
        if singular_phrase != phrase {
            self.phrases.entry(singular_phrase).or_default().push(id);
        }
        if words.len() == 1 && phrase.chars().count() >= 4 {
            self.words.push((phrase.to_string(), id));
        }
    }

    pub(crate) fn exact(&self, phrase: &str) -> Option<&[EntityId]> {
        self.phrases
            .get(phrase)
            .or_else(|| {
                let singular_phrase = phrase.split(' ').map(singular).collect::<Vec<_>>().join(" ");
                self.phrases.get(&singular_phrase)
            })
            .map(Vec::as_slice)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    #[test]
    fn the_nearest_categories_share_a_word_or_a_spelling() {
        let vocab: super::Vocabulary =
            serde_json::from_str(include_str!("../../backend/demo/vocabulary.json")).unwrap();
        let nearest = |said: &str| -> Vec<String> {
            vocab.nearest_categories(said, 3).into_iter().map(|t| t.key.clone()).collect()
        };
        for (said, first) in [
            ("savings_goals", "savings"),
            ("epargne", "savings"),
            ("restaurant", "restaurants"),
            ("grocery_shopping", "groceries"),
            ("Santé", "health"),
            ("transports_publics", "transport"),
        ] {
            assert_eq!(nearest(said).first().map(String::as_str), Some(first), "{said}: {:?}", nearest(said));
        }
        assert!(nearest("zzqx_unrelated").is_empty());
    }
}

//! The two languages Sou speaks, and how a request names one.

use serde::{Deserialize, Serialize};

/// French or English: the language Sou writes in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Locale {
    Fr,
    #[default]
    En,
}

impl Locale {
    /// The French or the English of two texts.
    pub fn pick<T>(self, fr: T, en: T) -> T {
        match self {
            Locale::Fr => fr,
            Locale::En => en,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Locale::Fr => "fr",
            Locale::En => "en",
        }
    }

    /// The first supported language of an `Accept-Language` header ("en-GB,en;q=0.9").
    pub fn from_accept_language(header: &str) -> Option<Locale> {
        header.split(',').find_map(|tag| Locale::from_tag(tag.split(';').next()?.trim()))
    }

    /// From a language tag: "fr", "fr-FR", "en-GB"… Unknown languages give `None`.
    pub fn from_tag(tag: &str) -> Option<Locale> {
        let lang = tag.split(['-', '_']).next()?.to_ascii_lowercase();
        match lang.as_str() {
            "fr" => Some(Locale::Fr),
            "en" => Some(Locale::En),
            _ => None,
        }
    }
}

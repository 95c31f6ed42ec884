//! The six providers Sou can call: who they are, how to reach them, which models Sou
//! uses for simple and complex work, and what a token costs.
//!
//! Everything here is a default: base URLs and models are configurable per provider
//! (`[llm.providers.<id>]` in the server's configuration).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::Wire;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProviderId {
    Anthropic,
    Openai,
    Gemini,
    Mistral,
    Xai,
    Ollama,
}

/// What Sou knows of a provider: one row each in [`PROVIDERS`].
pub struct Spec {
    pub id: ProviderId,
    /// Its name in configuration, the API and the database.
    pub key: &'static str,
    /// The name people know it by.
    pub name: &'static str,
    pub wire: Wire,
    pub base_url: &'static str,
    /// `(simple, complex)`: the router's two tiers.
    pub models: (&'static str, &'static str),
    /// Environment variables whose value is used as the key when the user saved none.
    pub key_env: &'static [&'static str],
}

/// Every provider, in the order Sou offers them (that of [`ProviderId`]'s variants). A
/// provider that speaks OpenAI's API is a variant and a row here.
pub const PROVIDERS: [Spec; 6] = [
    Spec {
        id: ProviderId::Anthropic,
        key: "anthropic",
        name: "Anthropic",
        wire: Wire::Anthropic,
        base_url: "https://api.anthropic.com",
        models: ("claude-haiku-4-5", "claude-sonnet-4-5"),
        key_env: &["ANTHROPIC_API_KEY"],
    },
    Spec {
        id: ProviderId::Openai,
        key: "openai",
        name: "OpenAI",
        wire: Wire::OpenAi,
        base_url: "https://api.openai.com/v1",
        models: ("gpt-4.1-mini", "gpt-4.1"),
        key_env: &["OPENAI_API_KEY"],
    },
    Spec {
        id: ProviderId::Gemini,
        key: "gemini",
        name: "Google Gemini",
        wire: Wire::Gemini,
        base_url: "https://generativelanguage.googleapis.com",
        models: ("gemini-2.5-flash", "gemini-2.5-pro"),
        key_env: &["GEMINI_API_KEY", "GOOGLE_API_KEY"],
    },
    Spec {
        id: ProviderId::Mistral,
        key: "mistral",
        name: "Mistral",
        wire: Wire::OpenAi,
        base_url: "https://api.mistral.ai/v1",
        models: ("mistral-small-latest", "mistral-large-latest"),
        key_env: &["MISTRAL_API_KEY"],
    },
    Spec {
        id: ProviderId::Xai,
        key: "xai",
        name: "xAI",
        wire: Wire::OpenAi,
        base_url: "https://api.x.ai/v1",
        models: ("grok-3-mini", "grok-4"),
        key_env: &["XAI_API_KEY"],
    },
    Spec {
        id: ProviderId::Ollama,
        key: "ollama",
        name: "Ollama",
        wire: Wire::Ollama,
        base_url: "http://127.0.0.1:11434",
        models: ("llama3.2", "llama3.2"),
        key_env: &["OLLAMA_API_KEY"],
    },
];

impl ProviderId {
    pub const ALL: [ProviderId; PROVIDERS.len()] = {
        let mut all = [ProviderId::Anthropic; PROVIDERS.len()];
        let mut i = 0;
        while i < PROVIDERS.len() {
            all[i] = PROVIDERS[i].id;
            i += 1;
        }
        all
    };

    /// Its row in [`PROVIDERS`] (a test checks the rows follow the variants).
    pub fn spec(self) -> &'static Spec {
        &PROVIDERS[self as usize]
    }

    pub fn as_str(self) -> &'static str {
        self.spec().key
    }

    /// The name people know it by.
    pub fn display_name(self) -> &'static str {
        self.spec().name
    }

    pub fn wire(self) -> Wire {
        self.spec().wire
    }

    pub fn default_base_url(self) -> &'static str {
        self.spec().base_url
    }

    /// `(simple, complex)`: the router's two tiers.
    pub fn default_models(self) -> (&'static str, &'static str) {
        self.spec().models
    }

    /// Environment variables whose value is used as the key when the user saved none.
    pub fn key_env(self) -> &'static [&'static str] {
        self.spec().key_env
    }

    /// Whether a call needs a key. A local Ollama does not.
    pub fn needs_key(self) -> bool {
        self != ProviderId::Ollama
    }
}

impl fmt::Display for ProviderId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for ProviderId {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        ProviderId::ALL.into_iter().find(|p| p.as_str() == s.trim().to_ascii_lowercase()).ok_or_else(|| {
            format!(
                "unknown provider {s:?}; use one of {}",
                ProviderId::ALL.map(ProviderId::as_str).join(", ")
            )
        })
    }
}

/// Price of a model in millionths of a euro per million tokens (integers, like all
/// money in Sou). Converted from the providers' USD list prices at 0.92 EUR/USD.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Price {
    pub input_micros_per_mtok: u64,
    pub output_micros_per_mtok: u64,
}

impl Price {
    /// What `input` and `output` tokens cost, in millionths of a euro, rounded up.
    pub fn cost_micros(self, input: u64, output: u64) -> u64 {
        let total = u128::from(input) * u128::from(self.input_micros_per_mtok)
            + u128::from(output) * u128::from(self.output_micros_per_mtok);
        u64::try_from(total.div_ceil(1_000_000)).unwrap_or(u64::MAX)
    }
}

/// List prices of the default models. A model that is not here costs nothing in the
/// usage figures and the status says so (`priced: false`).
const PRICES: &[(&str, u64, u64)] = &[
    ("claude-haiku-4-5", 920_000, 4_600_000),
    ("claude-sonnet-4-5", 2_760_000, 13_800_000),
    ("claude-opus-4-1", 13_800_000, 69_000_000),
    ("gpt-4.1-mini", 368_000, 1_472_000),
    ("gpt-4.1", 1_840_000, 7_360_000),
    ("gpt-4o-mini", 138_000, 552_000),
    ("gpt-4o", 2_300_000, 9_200_000),
    ("gemini-2.5-flash", 276_000, 2_300_000),
    ("gemini-2.5-pro", 1_150_000, 9_200_000),
    ("mistral-small-latest", 92_000, 276_000),
    ("mistral-large-latest", 1_840_000, 5_520_000),
    ("grok-3-mini", 276_000, 460_000),
    ("grok-4", 2_760_000, 13_800_000),
];

/// The price of `model` at `provider`. Ollama runs locally: free.
pub fn price(provider: ProviderId, model: &str) -> Option<Price> {
    if provider == ProviderId::Ollama {
        return Some(Price { input_micros_per_mtok: 0, output_micros_per_mtok: 0 });
    }
    PRICES
        .iter()
        .find(|(m, _, _)| *m == model)
        .map(|&(_, i, o)| Price { input_micros_per_mtok: i, output_micros_per_mtok: o })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_follows_the_variants() {
        for (i, spec) in PROVIDERS.iter().enumerate() {
            assert_eq!(spec.id as usize, i, "{} is not at its variant's place", spec.key);
            assert_eq!(spec.id.spec().key, spec.key);
        }
    }

    #[test]
    fn ids_round_trip_and_unknowns_are_named() {
        for p in ProviderId::ALL {
            assert_eq!(p.as_str().parse::<ProviderId>(), Ok(p));
            assert_eq!(serde_json::to_value(p).ok(), Some(serde_json::Value::String(p.as_str().into())));
        }
        let err = "openia".parse::<ProviderId>().err().unwrap_or_default();
        assert!(err.contains("openia") && err.contains("anthropic"), "{err}");
    }

    #[test]
    fn costs_are_integer_micros_rounded_up() {
        let p = Price { input_micros_per_mtok: 2_760_000, output_micros_per_mtok: 13_800_000 };
        // 1,000 in + 500 out = 2,760 + 6,900 micros.
        assert_eq!(p.cost_micros(1_000, 500), 9_660);
        assert_eq!(p.cost_micros(1, 0), 3);
        assert_eq!(p.cost_micros(0, 0), 0);
        assert_eq!(p.cost_micros(u64::MAX, u64::MAX), u64::MAX);
        assert!(price(ProviderId::Anthropic, "claude-sonnet-4-5").is_some());
        assert_eq!(price(ProviderId::Openai, "my-fine-tune"), None);
        assert_eq!(price(ProviderId::Ollama, "anything").map(|p| p.cost_micros(9, 9)), Some(0));
        for p in ProviderId::ALL {
            let (simple, complex) = p.default_models();
            assert!(price(p, simple).is_some() && price(p, complex).is_some(), "{p}");
        }
    }
}

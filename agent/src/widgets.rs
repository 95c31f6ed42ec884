//! Widget sites: Sou embedded in another web site. The wire types of Settings →
//! Widgets and `/api/v1/widgets`, what a site lets its visitors ask ([`WidgetScope`]),
//! and the one reading of an origin ([`origin`]) that the allowlist, the embed page's
//! `frame-ancestors` and its `postMessage` checks share.

use serde::{Deserialize, Serialize};

use crate::tool::ToolCall;
use crate::vocab::Vocabulary;

/// The ledger's read tools a site may offer (a write is never offered to a visitor).
pub const LEDGER_TOOLS: &[&str] = ToolCall::LEDGER_NAMES;

/// Origins one site may list, at most.
pub const MAX_ORIGINS: usize = 10;
/// Longest site name, in characters.
pub const MAX_NAME_CHARS: usize = 60;
/// Longest greeting, in characters.
pub const MAX_GREETING_CHARS: usize = 280;
/// The most questions a site's visitors may ask per hour, all together.
pub const MAX_RATE_PER_HOUR: u32 = 10_000;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WidgetTheme {
    #[default]
    Light,
    Dark,
}

impl WidgetTheme {
    pub fn as_str(self) -> &'static str {
        match self {
            WidgetTheme::Light => "light",
            WidgetTheme::Dark => "dark",
        }
    }

    pub fn parse(s: &str) -> Option<WidgetTheme> {
        match s {
            "light" => Some(WidgetTheme::Light),
            "dark" => Some(WidgetTheme::Dark),
            _ => None,
        }
    }
}

/// What a site's visitors may ask: some of the ledger's read tools, some datasets.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct WidgetScope {
    /// Names from [`LEDGER_TOOLS`].
    #[serde(default)]
    pub tools: Vec<String>,
    /// Dataset names (as `dataset_info` lists them).
    #[serde(default)]
    pub datasets: Vec<String>,
}

impl WidgetScope {
    /// Whether a visitor may run `call`. A dataset question only on a listed dataset;
    /// the model's own SQL never (it may name any table).
    pub fn allows(&self, call: &ToolCall) -> bool {
        match call {
            ToolCall::QueryDataset(a) => self.datasets.contains(&a.dataset),
            ToolCall::DatasetInfo(_) => !self.datasets.is_empty(),
            ToolCall::RunSql(_) => false,
            // A site is read-only: a visitor never changes the owner's data.
            write if write.is_write() => false,
            other => self.tools.iter().any(|t| t == other.name()),
        }
    }

    /// The owner's vocabulary as a visitor's parser may know it: the ledger's names
    /// only if a ledger tool is offered, and only the listed datasets. Nothing outside
    /// the scope reaches the widget's page.
    pub fn vocabulary(&self, mut vocabulary: Vocabulary) -> Vocabulary {
        if self.tools.is_empty() {
            vocabulary.categories.clear();
            vocabulary.merchants.clear();
            vocabulary.accounts.clear();
        }
        vocabulary.datasets.retain(|d| self.datasets.contains(&d.name));
        vocabulary
    }
}

/// A widget site as its owner sees it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WidgetSite {
    /// 128 random bits, base64url: public, it is in the host page's snippet.
    pub id: String,
    pub name: String,
    /// The origins allowed to frame the widget (`https://shop.example`).
    pub origins: Vec<String>,
    pub scope: WidgetScope,
    pub greeting: String,
    pub theme: WidgetTheme,
    /// Questions per hour, all visitors together.
    pub rate_per_hour: u32,
    pub enabled: bool,
    pub created_at: String,
}

/// `POST /api/v1/widgets` and the Settings form.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewWidgetSite {
    pub name: String,
    pub origins: Vec<String>,
    #[serde(default)]
    pub tools: Vec<String>,
    #[serde(default)]
    pub datasets: Vec<String>,
    #[serde(default)]
    pub greeting: String,
    #[serde(default)]
    pub theme: WidgetTheme,
    #[serde(default = "default_rate")]
    pub rate_per_hour: u32,
}

fn default_rate() -> u32 {
    60
}

/// `text` as an origin — `scheme://host[:port]`, `http` or `https`, lower case, the
/// default port dropped, one trailing `/` allowed — or `None`. No path, query, user,
/// wildcard or space: what a browser sends as `Origin` and what `frame-ancestors`
/// matches exactly.
pub fn origin(text: &str) -> Option<String> {
    let text = text.trim();
    let text = text.strip_suffix('/').unwrap_or(text);
    let (scheme, rest) = text.split_once("://")?;
    let scheme = scheme.to_ascii_lowercase();
    let default_port = match scheme.as_str() {
        "https" => "443",
        "http" => "80",
        _ => return None,
    };
    let (host, port) = match rest.rsplit_once(':') {
        Some((h, p)) if !h.ends_with(']') || h.starts_with('[') => (h, Some(p)),
        _ => (rest, None),
    };
    let host = host.to_ascii_lowercase();
    let host_ok = !host.is_empty()
        && host.len() <= 253
        && !host.starts_with(['.', '-'])
        && !host.ends_with(['.', '-'])
        && host.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-');
    if !host_ok {
        return None;
    }
    match port {
        None => Some(format!("{scheme}://{host}")),
        Some(p) => {
            let n: u16 = p.parse().ok().filter(|_| p.bytes().all(|b| b.is_ascii_digit()))?;
            if n == 0 {
                return None;
            }
            if p == default_port {
                Some(format!("{scheme}://{host}"))
            } else {
                Some(format!("{scheme}://{host}:{n}"))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::tool::{dataset_info::DatasetInfoArgs, query_dataset::QueryDatasetArgs, run_sql::RunSqlArgs};

    #[test]
    fn origins_are_read_strictly() {
        assert_eq!(origin("https://Shop.Example").as_deref(), Some("https://shop.example"));
        assert_eq!(origin(" https://shop.example/ ").as_deref(), Some("https://shop.example"));
        assert_eq!(origin("https://shop.example:443").as_deref(), Some("https://shop.example"));
        assert_eq!(origin("http://127.0.0.1:4000").as_deref(), Some("http://127.0.0.1:4000"));
        assert_eq!(origin("http://localhost:80").as_deref(), Some("http://localhost"));
        for bad in [
            "shop.example",
            "ftp://shop.example",
            "https://shop.example/page",
            "https://shop.example?x=1",
            "https://user@shop.example",
            "https://*.shop.example",
            "https://shop example",
            "https://",
            "https://shop.example:0",
            "https://shop.example:99999",
            "https://shop.example:+80",
            "javascript://x",
            "https://shop.example; frame-ancestors *",
            "https://-shop.example",
        ] {
            assert_eq!(origin(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_scope_allows_only_what_it_lists() {
        let scope = WidgetScope { tools: vec![], datasets: vec!["ventes".into()] };
        let summary: ToolCall = serde_json::from_str(
            r#"{"tool":"balances","args":{"period":{"start":"2026-01-01","end":"2026-02-01","label":"janvier 2026"}}}"#,
        )
        .unwrap();
        assert!(!scope.allows(&summary));
        let query = |d: &str| {
            ToolCall::QueryDataset(QueryDatasetArgs { dataset: d.into(), ..QueryDatasetArgs::default() })
        };
        assert!(scope.allows(&query("ventes")));
        assert!(!scope.allows(&query("salaires")));
        assert!(scope.allows(&ToolCall::DatasetInfo(DatasetInfoArgs {})));
        assert!(!scope.allows(&ToolCall::RunSql(RunSqlArgs { sql: "SELECT 1".into() })));
        let ledger = WidgetScope { tools: vec!["balances".into()], datasets: vec![] };
        assert!(ledger.allows(&summary));
        assert!(!ledger.allows(&ToolCall::DatasetInfo(DatasetInfoArgs {})));
        assert!(!ledger.allows(&query("ventes")));
    }
}

//! The router. The parser is tier 0 (no model at all); a question it cannot
//! plan goes to a provider's simple or complex model. Keyword overrides ("should I",
//! "compare", "devrais-je") force the complex model; otherwise the simple model
//! classifies the question from the tool catalogue's names and one-liners; more than one
//! tool, or any failure of the router, means the complex model with every tool.

use crate::llm::model::{Caller, Reply};
use crate::llm::retry::Meter;
use crate::llm::{LlmMessage, LlmRequest, Part, Role};
use crate::providers::Resolved;
use crate::registry::Registry;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Complexity {
    Simple,
    Complex,
}

/// Why the route is what it is (for traces and tests).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Basis {
    /// The user fixed the model, or the provider has one model for both tiers.
    OneModel,
    /// A keyword forces the complex model.
    Keyword,
    /// The simple model classified the question.
    Classified,
    /// The router call failed or answered something unusable: complex, all tools.
    Fallback,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Route {
    pub complexity: Complexity,
    /// Names of the tools offered; every read tool when the router did not narrow them.
    pub tools: Vec<&'static str>,
    pub basis: Basis,
}

/// Words after which only the complex model answers (lowercase, accents removed).
const COMPLEX_KEYWORDS: &[&str] = &[
    "should i",
    "should we",
    "compare",
    "comparison",
    "versus",
    " vs ",
    "why",
    "advice",
    "recommend",
    "strategy",
    "optimi",
    "rebalanc",
    "forecast",
    "predict",
    "plan my",
    "devrais-je",
    "devrais je",
    "dois-je",
    "dois je",
    "faut-il",
    "faut il",
    "vaut-il",
    "vaut il",
    "compar",
    "pourquoi",
    "conseil",
    "recommand",
    "strategie",
    "optimis",
    "prevoir",
    "prevision",
    "analyse",
];

/// Whether `message` names a reason to use the complex model.
pub fn keyword_override(message: &str) -> bool {
    let m = format!(" {} ", agent::text::normalize(message));
    COMPLEX_KEYWORDS.iter().any(|k| m.contains(k))
}

fn read_tools() -> Vec<&'static str> {
    Registry::get().read_tools().map(|t| t.name).collect()
}

fn complex_all(basis: Basis) -> Route {
    Route { complexity: Complexity::Complex, tools: read_tools(), basis }
}

const SYSTEM: &str = "You route questions for Sou, a personal finance assistant. Given the user's \
message and the tool catalogue, answer with one JSON object and nothing else: \
{\"tools\": [names of the tools needed], \"complexity\": \"simple\" or \"complex\"}. \
simple = one lookup answered by one tool; complex = several tools, reasoning, advice or analysis.";

/// Picks the model tier and tools for a free-form question; the router's tokens, if
/// it was asked, are counted in `meter`.
pub async fn route(caller: &Caller, models: &Resolved, message: &str, meter: &Meter) -> Route {
    if models.fixed {
        return complex_all(Basis::OneModel);
    }
    if keyword_override(message) {
        return complex_all(Basis::Keyword);
    }
    let catalogue = Registry::get()
        .read_tools()
        .map(|t| format!("- {}: {}", t.name, t.description.split(". ").next().unwrap_or(t.description)))
        .collect::<Vec<_>>()
        .join("\n");
    let request = LlmRequest {
        model: models.simple.name.clone(),
        system: format!("{SYSTEM}\n\nTools:\n{catalogue}"),
        messages: vec![LlmMessage { role: Role::User, content: vec![Part::Text(message.to_string())] }],
        tools: Vec::new(),
        max_tokens: 200,
        temperature: None,
    };
    match caller.complete(&models.simple, request, meter).await {
        Ok(reply) => read(&reply).unwrap_or_else(|| {
            tracing::warn!("the router's answer was unusable; using the complex model");
            complex_all(Basis::Fallback)
        }),
        Err(e) => {
            tracing::warn!(error = %e, "the router failed; using the complex model");
            complex_all(Basis::Fallback)
        }
    }
}

/// The route in the router's answer, `None` when it is not one.
pub fn read(reply: &Reply) -> Option<Route> {
    let v = reply.json_in_text()?;
    let known = read_tools();
    let mut tools = Vec::new();
    for name in v.get("tools")?.as_array()? {
        let name = name.as_str()?;
        tools.push(*known.iter().find(|k| **k == name)?);
    }
    let complexity = match v.get("complexity")?.as_str()? {
        "simple" => Complexity::Simple,
        "complex" => Complexity::Complex,
        _ => return None,
    };
    if tools.len() > 1 || complexity == Complexity::Complex || tools.is_empty() {
        return Some(complex_all(Basis::Classified));
    }
    Some(Route { complexity, tools, basis: Basis::Classified })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keywords_force_the_complex_model() {
        for m in [
            "Should I cancel Netflix?",
            "devrais-je résilier",
            "Compare my rent to food",
            "Pourquoi autant ?",
        ] {
            assert!(keyword_override(m), "{m}");
        }
        for m in ["what did I spend at Carrefour", "combien en courses"] {
            assert!(!keyword_override(m), "{m}");
        }
    }

    fn read(text: &str) -> Option<Route> {
        super::read(&Reply { text: text.into(), ..Reply::default() })
    }

    #[test]
    fn the_routers_answer_is_checked() {
        let simple = read(r#"{"tools": ["balances"], "complexity": "simple"}"#);
        assert_eq!(simple.map(|r| (r.complexity, r.tools)), Some((Complexity::Simple, vec!["balances"])));
        // Two tools: complex, every tool.
        let two = read(r#"```json {"tools": ["balances", "cash_flow"], "complexity": "simple"} ```"#);
        assert_eq!(two.map(|r| (r.complexity, r.tools.len() > 2)), Some((Complexity::Complex, true)));
        assert_eq!(read(r#"{"tools": ["drop_table"], "complexity": "simple"}"#), None);
        assert_eq!(read(r#"{"tools": [], "complexity": "medium"}"#), None);
        assert_eq!(read("no json"), None);
    }
}

//! The guardian: one structured call that approves, repairs or questions a
//! plan the parser is not sure of. A repair is a plan like any other: the registry
//! validates it against the tool's schema, and an invalid one becomes a question.

use agent::{Locale, ToolCall, ToolCallPlan};
use serde_json::{json, Value};

use crate::llm::model::{Caller, Model, Reply};
use crate::llm::retry::Meter;
use crate::llm::{LlmError, LlmMessage, LlmRequest, Part, Role, ToolSpec};
use crate::registry::Registry;

/// What the guardian decided, after Sou checked it.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    Approve,
    /// A corrected call, valid for the registry.
    Repair(Box<ToolCall>),
    /// A question for the user, in their language.
    Clarify(String),
    /// The model proposed a plan the registry refused (the reason is for logs).
    InvalidRepair(String),
}

#[derive(Debug, Clone)]
pub struct Reviewed {
    pub verdict: Verdict,
    pub first_token_ms: Option<u64>,
}

/// The name of the one tool the guardian answers with.
pub const VERDICT_TOOL: &str = "verdict";

const SYSTEM: &str = "You are the guardian of Sou, a personal finance assistant. A deterministic parser \
turned the user's message into a tool call but is not sure of it; its reasons are given. Decide:\n\
- approve: the plan answers the message as the user meant it;\n\
- repair: a different call answers it; give it as {\"tool\": name, \"args\": {...}} using only the tools \
below, with arguments valid against their JSON Schema (dates are YYYY-MM-DD; amounts are integer minor \
units with an ISO currency);\n\
- clarify: the message is ambiguous; ask one short question in the user's language.\n\
Answer by calling the `verdict` tool exactly once. Do not answer the question itself.";

fn verdict_spec() -> ToolSpec {
    ToolSpec {
        name: VERDICT_TOOL.into(),
        description: "Your decision about the parser's plan.".into(),
        parameters: std::sync::Arc::new(json!({
            "type": "object",
            "properties": {
                "decision": {"type": "string", "enum": ["approve", "repair", "clarify"]},
                "plan": {"type": "object", "description": "repair only: {\"tool\": name, \"args\": {...}}"},
                "question": {"type": "string", "description": "clarify only: one short question"}
            },
            "required": ["decision"]
        })),
    }
}

/// The read tools with their schemas, as text for a prompt (made once).
pub fn catalogue_text() -> &'static str {
    static TEXT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    TEXT.get_or_init(|| {
        Registry::get()
            .read_tools()
            .map(|t| format!("- {}: {}\n  args schema: {}", t.name, t.description, t.schema))
            .collect::<Vec<_>>()
            .join("\n")
    })
}

/// Asks `model` about `plan`. An error means no verdict: the caller applies the rules
/// for when no model is configured.
pub async fn review(
    caller: &Caller,
    model: &Model,
    message: &str,
    plan: &ToolCallPlan,
    meter: &Meter,
) -> Result<Reviewed, LlmError> {
    let language = match plan.meta.locale {
        Locale::Fr => "French",
        Locale::En => "English",
    };
    let system = format!(
        "{SYSTEM}\n\nToday is {}. The user writes in {language}.\n\nTools:\n{}",
        plan.meta.today,
        catalogue_text()
    );
    let reasons: Vec<&str> = plan.meta.confidence_reasons.iter().map(|r| r.code.as_str()).collect();
    let input = json!({
        "message": message,
        "plan": plan.call,
        "confidence": plan.meta.confidence,
        "reasons": reasons,
    });
    let request = LlmRequest {
        model: model.name.clone(),
        system,
        messages: vec![LlmMessage { role: Role::User, content: vec![Part::Text(input.to_string())] }],
        tools: vec![verdict_spec()],
        max_tokens: 512,
        temperature: None,
    };
    let reply = caller.complete(model, request, meter).await?;
    let verdict = read(&reply, &plan.call)?;
    Ok(Reviewed { verdict, first_token_ms: reply.first_token_ms })
}

/// The verdict in a reply: the `verdict` tool call, else a JSON object in the text
/// (some models answer in text even when given a tool).
pub fn read(reply: &Reply, original: &ToolCall) -> Result<Verdict, LlmError> {
    let args = reply
        .tool_calls
        .iter()
        .find(|(_, name, _)| name == VERDICT_TOOL)
        .map(|(_, _, a)| a.clone())
        .or_else(|| reply.json_in_text())
        .ok_or_else(|| LlmError::Malformed("the guardian gave no verdict".into()))?;
    match args.get("decision").and_then(Value::as_str) {
        Some("approve") => Ok(Verdict::Approve),
        Some("clarify") => {
            let q = args.get("question").and_then(Value::as_str).unwrap_or("").trim();
            Ok(Verdict::Clarify(q.chars().take(300).collect()))
        }
        Some("repair") => {
            let Some(plan) = args.get("plan") else {
                return Ok(Verdict::InvalidRepair("a repair without a plan".into()));
            };
            match Registry::get().validate(plan) {
                Ok(call) if &call == original => Ok(Verdict::Approve),
                Ok(call) => Ok(Verdict::Repair(Box::new(call))),
                Err(e) => Ok(Verdict::InvalidRepair(e.to_string())),
            }
        }
        other => Err(LlmError::Malformed(format!("unknown guardian decision {other:?}"))),
    }
}

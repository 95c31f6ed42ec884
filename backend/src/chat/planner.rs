//! The planner: for a message that asks several things the parser could not split, one
//! structured call asks a model for a plan of 1 to 10 steps (each a tool, its
//! arguments, why, and what it should give). Every step is validated by the registry;
//! a plan with a step it refuses is not used (the tool loop answers instead), and a
//! valid plan is shown to the user before anything runs, as the parser's are.

use agent::runs::{PlanStep, RunPlan, MAX_PLAN_STEPS};
use agent::{Confidence, Date, Locale, Parser};
use serde_json::{json, Value};

use crate::llm::model::{Caller, Model};
use crate::llm::retry::Meter;
use crate::llm::{LlmError, LlmMessage, LlmRequest, Part, Role, ToolSpec};
use crate::registry::Registry;

/// The one tool the planner answers with.
pub const PLAN_TOOL: &str = "propose_plan";

const SYSTEM: &str = "You are the planner of Sou, a personal finance assistant. The user's message asks \
several things. Split it into steps, each one call of a tool below, with arguments valid against its JSON \
Schema (dates are YYYY-MM-DD, a period's end is the day after its last day; amounts are integer minor \
units with an ISO currency). Give 1 to 10 steps, in the order they should run, each with why it is there \
and what it should give, in the user's language. Answer by calling `propose_plan` exactly once. Do not \
answer the question itself, and never invent a category, merchant or account: use only the keys listed.";

fn plan_spec() -> ToolSpec {
    ToolSpec {
        name: PLAN_TOOL.into(),
        description: "The plan: the steps that answer the message.".into(),
        parameters: std::sync::Arc::new(json!({
            "type": "object",
            "properties": {
                "steps": {
                    "type": "array", "minItems": 1, "maxItems": MAX_PLAN_STEPS,
                    "items": {
                        "type": "object",
                        "properties": {
                            "tool": {"type": "string"},
                            "args": {"type": "object"},
                            "why": {"type": "string"},
                            "expect": {"type": "string"}
                        },
                        "required": ["tool", "args", "why", "expect"]
                    }
                }
            },
            "required": ["steps"]
        })),
    }
}

/// What the planner gave: a plan the registry accepts (two steps or more), or nothing.
pub struct Planned {
    pub plan: Option<RunPlan>,
    /// Why a plan was not used (for logs).
    pub refused: Option<String>,
}

/// Asks `model` for a plan of `message`.
pub async fn plan(
    caller: &Caller,
    model: &Model,
    parser: &Parser,
    (message, locale, today): (&str, Locale, Date),
    meter: &Meter,
) -> Result<Planned, LlmError> {
    let language = locale.pick("French", "English");
    let vocabulary = parser.vocabulary();
    let keys = |terms: &[agent::Term]| terms.iter().map(|t| t.key.as_str()).collect::<Vec<_>>().join(", ");
    let system = format!(
        "{SYSTEM}\n\nToday is {today}. The user writes in {language}.\nCategories: {}\nMerchants: {}\n\
         Accounts: {}\n\nTools:\n{}",
        keys(&vocabulary.categories),
        keys(&vocabulary.merchants),
        keys(&vocabulary.accounts),
        super::guardian::catalogue_text()
    );
    let request = LlmRequest {
        model: model.name.clone(),
        system,
        messages: vec![LlmMessage { role: Role::User, content: vec![Part::Text(message.to_string())] }],
        tools: vec![plan_spec()],
        max_tokens: 2_048,
        temperature: None,
    };
    let reply = caller.complete(model, request, meter).await?;
    let args = reply
        .tool_calls
        .iter()
        .find(|(_, name, _)| name == PLAN_TOOL)
        .map(|(_, _, a)| a.clone())
        .or_else(|| reply.json_in_text())
        .ok_or_else(|| LlmError::Malformed("the planner gave no plan".into()))?;
    let (plan, refused) = match read(&args, parser, locale, today) {
        Ok(p) if p.steps.len() >= 2 => (Some(p), None),
        Ok(_) => (None, Some("a plan of one step".to_string())),
        Err(why) => (None, Some(why)),
    };
    Ok(Planned { plan, refused })
}

/// The steps of the planner's answer, each validated; the first refused one refuses all.
fn read(args: &Value, parser: &Parser, locale: Locale, today: Date) -> Result<RunPlan, String> {
    let steps = args.get("steps").and_then(Value::as_array).ok_or("no steps")?;
    if steps.is_empty() || steps.len() > MAX_PLAN_STEPS {
        return Err(format!("{} steps", steps.len()));
    }
    let text =
        |v: Option<&Value>| v.and_then(Value::as_str).unwrap_or("").chars().take(200).collect::<String>();
    let mut out = Vec::with_capacity(steps.len());
    for (i, s) in steps.iter().enumerate() {
        let mut call = Registry::get()
            .validate(&json!({"tool": s.get("tool"), "args": s.get("args")}))
            .map_err(|e| format!("step {}: {e}", i + 1))?;
        // Its periods named in the user's language, not the model's.
        agent::period::renamed(&mut call, locale);
        out.push(PlanStep {
            title: parser.describe(&call, locale),
            why: text(s.get("why")),
            expect: text(s.get("expect")),
            call,
        });
    }
    // A model's plan is never more than medium: the user sees it before it runs.
    Ok(RunPlan { steps: out, confidence: Confidence::Medium, by: "model".into(), locale, today })
}

//! What the chat's island and the browser's requests (`stream.rs`) share: a widget
//! visitor's pass, which its requests carry, and an event of the answer being
//! streamed, as the composer reads it.

use agent::ToolCallPlan;

/// A widget visitor's pass: the site's public id and the token the embed page drew.
#[derive(Clone, Debug, PartialEq)]
pub struct VisitorPass {
    pub site: String,
    pub token: String,
}

/// An event of the answer being streamed, as the composer reads it: what it shows
/// while the answer comes (the plan, the words, an error) and how the stream ended.
/// Results, questions and any event newer than this page are left to the server's
/// rendering of the answer, which replaces these once the stream has ended.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(not(feature = "hydrate"), allow(dead_code))]
pub enum LiveEvent {
    Plan(Box<ToolCallPlan>),
    Token(String),
    Error { code: String, message: String },
    Status { conversation_id: Option<String>, message_id: Option<String> },
    Other,
}

#[cfg_attr(not(feature = "hydrate"), allow(dead_code))]
impl LiveEvent {
    /// Reads one event of the stream (`docs/api.md`): its `type` first, then the fields
    /// the composer uses. Fields it does not use are read (`agent::json`) and dropped.
    pub fn from_json(json: &str) -> Result<LiveEvent, serde_json::Error> {
        use agent::json::{string, Fields, Json};
        let json: Json = serde_json::from_str(json)?;
        let f = Fields::of(&json, None)?;
        Ok(match f.req("type", string)?.as_str() {
            // A write's plan is not read here (the bundle has no reader for its
            // arguments): the server's rendering shows it, with its approval.
            "plan" => match f.req("plan", ToolCallPlan::from_value) {
                Ok(plan) => LiveEvent::Plan(Box::new(plan)),
                Err(_) => LiveEvent::Other,
            },
            "token" => LiveEvent::Token(f.req("content", string)?),
            "error" => LiveEvent::Error { code: f.req("code", string)?, message: f.req("message", string)? },
            "status" => LiveEvent::Status {
                conversation_id: f.opt("conversation_id", string)?,
                message_id: f.opt("message_id", string)?,
            },
            _ => LiveEvent::Other,
        })
    }
}

//! The context window: a token budget (20,000 by default), the system prompt and the
//! tool catalogue first, then the newest turns, the oldest dropped first.
//!
//! Tokens are estimated, not counted: one token per 4 bytes of text (or per 3 characters
//! when that is more, for accented text) plus a few per message. Providers' own
//! tokenisers differ, and the estimate only has to keep requests under the model's
//! window; when it does not, the provider says so and [`shrink`] halves the budget.

use super::{LlmMessage, LlmRequest, Part, Role};

/// The default budget of a request, in (estimated) tokens.
// Sou's catalogue of read tools alone is about 7,500 tokens (a test keeps it under half).
pub const DEFAULT_BUDGET: u32 = 20_000;

/// Tokens every message costs besides its text (role, separators).
const PER_MESSAGE: u32 = 4;

/// Estimated tokens of `text`.
pub fn estimate(text: &str) -> u32 {
    let by_bytes = text.len().div_ceil(4);
    let by_chars = text.chars().count().div_ceil(3);
    u32::try_from(by_bytes.max(by_chars)).unwrap_or(u32::MAX)
}

fn message_tokens(m: &LlmMessage) -> u32 {
    m.content.iter().fold(PER_MESSAGE, |n, p| {
        let t = match p {
            Part::Text(t) => estimate(t),
            Part::ToolCall { name, arguments, .. } => estimate(name) + estimate(&arguments.to_string()),
            Part::ToolResult { content, .. } => estimate(content),
        };
        n.saturating_add(t)
    })
}

/// Estimated tokens of the whole request, before the reply.
pub fn request_tokens(r: &LlmRequest) -> u32 {
    let tools = r.tools.iter().fold(0u32, |n, t| {
        n.saturating_add(estimate(&t.name) + estimate(&t.description) + estimate(&t.parameters.to_string()))
    });
    r.messages
        .iter()
        .fold(estimate(&r.system).saturating_add(tools), |n, m| n.saturating_add(message_tokens(m)))
}

/// What [`fit`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fitted {
    /// Messages dropped from the start of the conversation.
    pub dropped: usize,
    /// Estimated tokens of the request as sent.
    pub tokens: u32,
}

/// Drops the oldest messages until the request's input fits `budget` (the reply has
/// its own `max_tokens`), then cuts the longest tool results. The system prompt, the
/// tools and the current exchange — the user's last message and the tool calls and
/// results after it — always stay; the
/// conversation never starts with an assistant turn or an orphaned tool result, so a
/// tool call is never separated from its result.
pub fn fit(request: &mut LlmRequest, budget: u32) -> Fitted {
    let mut dropped = 0;
    // The current exchange starts at the user's last message.
    let mut current = request.messages.iter().rposition(|m| m.role == Role::User).unwrap_or(0);
    while request_tokens(request) > budget && current > 0 {
        request.messages.remove(0);
        dropped += 1;
        current -= 1;
        // Keep dropping until the conversation starts where a user spoke.
        while current > 0 && request.messages[0].role != Role::User {
            request.messages.remove(0);
            dropped += 1;
            current -= 1;
        }
    }
    // Still too long: the longest tool result is cut to half (its start kept), again
    // while it helps — never the question or a call.
    while request_tokens(request) > budget {
        let longest = request
            .messages
            .iter_mut()
            .flat_map(|m| m.content.iter_mut())
            .filter_map(|p| match p {
                Part::ToolResult { content, .. } => Some(content),
                _ => None,
            })
            .max_by_key(|c| c.len());
        let Some(content) = longest.filter(|c| c.chars().count() > MIN_RESULT_CHARS) else { break };
        let keep = content.chars().count() / 2;
        *content = content.chars().take(keep).collect::<String>() + " … (cut to fit)";
    }
    Fitted { dropped, tokens: request_tokens(request) }
}

/// A tool result is never cut below this many characters.
const MIN_RESULT_CHARS: usize = 400;

/// The budget to use after the provider said a request did not fit: half of the
/// previous one, never below what the request's fixed part needs.
pub fn shrink(budget: u32) -> u32 {
    (budget / 2).max(1_000)
}

#[cfg(test)]
mod tests {
    use super::super::ToolSpec;
    use super::*;
    use serde_json::json;

    fn text(role: Role, t: &str) -> LlmMessage {
        LlmMessage { role, content: vec![Part::Text(t.into())] }
    }

    fn request(messages: Vec<LlmMessage>) -> LlmRequest {
        LlmRequest {
            model: "m".into(),
            system: "You are Sou.".into(),
            messages,
            tools: vec![ToolSpec {
                name: "t".into(),
                description: "d".into(),
                parameters: std::sync::Arc::new(json!({})),
            }],
            max_tokens: 100,
            temperature: None,
        }
    }

    #[test]
    fn estimates_are_conservative_for_accents() {
        assert_eq!(estimate(""), 0);
        assert_eq!(estimate("abcd"), 2);
        assert_eq!(estimate("dépensé en éé"), 5);
    }

    #[test]
    fn oldest_turns_go_first_and_the_last_message_stays() {
        let long = "mot ".repeat(200); // ≈ 267 tokens
        let mut r = request(vec![
            text(Role::User, &format!("1 {long}")),
            text(Role::Assistant, &format!("2 {long}")),
            text(Role::User, &format!("3 {long}")),
            text(Role::Assistant, &format!("4 {long}")),
            text(Role::User, "5 combien en courses ?"),
        ]);
        let f = fit(&mut r, 700);
        assert_eq!(f.dropped, 2);
        assert!(f.tokens <= 700, "{f:?}");
        let first: Vec<_> =
            r.messages.iter().map(|m| super::super::text_of(&m.content).chars().next()).collect();
        assert_eq!(first, vec![Some('3'), Some('4'), Some('5')]);
        // A budget nothing fits in keeps the last message.
        let f = fit(&mut r, 10);
        assert_eq!((f.dropped, r.messages.len()), (2, 1));
        assert_eq!(r.system, "You are Sou.");
        assert_eq!(r.tools.len(), 1);
    }

    #[test]
    fn the_current_exchange_stays_whatever_the_budget() {
        // The question, the model's tool call and its result: the model must still
        // read the question once the tools answered.
        let long = "mot ".repeat(200);
        let call = LlmMessage {
            role: Role::Assistant,
            content: vec![Part::ToolCall { id: "c".into(), name: "t".into(), arguments: json!({}) }],
        };
        let result = LlmMessage {
            role: Role::Tool,
            content: vec![Part::ToolResult { id: "c".into(), content: long.clone() }],
        };
        let mut r = request(vec![
            text(Role::User, &format!("1 {long}")),
            text(Role::Assistant, &format!("2 {long}")),
            text(Role::User, "3 combien en courses ?"),
            call,
            result,
        ]);
        let f = fit(&mut r, 10);
        assert_eq!(f.dropped, 2);
        let roles: Vec<Role> = r.messages.iter().map(|m| m.role).collect();
        assert_eq!(roles, [Role::User, Role::Assistant, Role::Tool]);
    }

    #[test]
    fn a_tool_result_is_never_left_without_its_call() {
        let long = "x".repeat(2_000);
        let mut r = request(vec![
            text(Role::User, &long),
            LlmMessage {
                role: Role::Assistant,
                content: vec![Part::ToolCall { id: "a".into(), name: "t".into(), arguments: json!({}) }],
            },
            LlmMessage {
                role: Role::Tool,
                content: vec![Part::ToolResult { id: "a".into(), content: long.clone() }],
            },
            text(Role::User, "et en février ?"),
        ]);
        fit(&mut r, 900);
        assert_eq!(r.messages.len(), 1);
        assert_eq!(r.messages[0].role, Role::User);
    }

    #[test]
    fn shrinking_halves_with_a_floor() {
        assert_eq!(shrink(8_000), 4_000);
        assert_eq!(shrink(1_500), 1_000);
    }
}

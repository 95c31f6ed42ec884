//! What the browser and the server say to each other about a chat: the requests
//! ([`PlanRequest`], [`ChatRequest`]), the stream of `event: chunk` frames whose `data`
//! is one JSON [`ChatEvent`] with a decoder that does not assume chunk boundaries are
//! frame boundaries, and stored conversations as pages show them.

use serde::{Deserialize, Serialize};

use crate::date::Date;
use crate::locale::Locale;
use crate::plan::{Clarification, ToolCallPlan};
use crate::reason::Confidence;
use crate::tool::ToolOutput;

/// `POST /api/v1/plan`: what the parser makes of a message.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlanRequest {
    pub message: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub locale: Option<String>,
    /// The previous plan of the conversation, for follow-ups.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<serde_json::Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub today: Option<Date>,
}

/// The longest chat message the server takes, in characters (the parser itself plans
/// at most [`crate::text::MAX_MESSAGE_CHARS`]; a longer one goes to the model when one
/// is configured, and is otherwise told it is too long).
pub const MAX_CHAT_MESSAGE_CHARS: usize = 4000;

/// `POST /api/v1/chat`: a message to answer, in a conversation or a new one.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChatRequest {
    pub message: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conversation_id: Option<String>,
    /// A plan the client proposes (its own parse, or a suggestion the user clicked).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plan: Option<serde_json::Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub locale: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ChatEvent {
    /// The plan Sou is about to run (server-validated).
    Plan {
        plan: ToolCallPlan,
    },
    /// Sou will not guess: a question and one-click plans.
    Clarify {
        clarification: Clarification,
    },
    ToolResult(ToolOutput),
    /// A write Sou will make only once the user approves it: what changes (a dry run),
    /// the approval's id and its expiry.
    ApprovalRequired {
        approval: Box<crate::writes::Approval>,
    },
    /// A plan of several steps (or with a write among them), waiting for the user:
    /// `POST /api/v1/runs/{run}/accept`, `reject`, or `PATCH` an edited plan.
    PlanProposed {
        run: String,
        plan: Box<crate::runs::RunPlan>,
    },
    /// A step of an accepted plan starts (`step` counts from 1).
    StepStarted {
        step: u32,
        tool: String,
        title: String,
    },
    /// A step's result.
    StepResult {
        step: u32,
        result: Box<ToolOutput>,
    },
    /// A step failed; the plan goes on with the next one. `message` is safe to show.
    StepFailed {
        step: u32,
        code: String,
        message: String,
    },
    /// A piece of the text answer. What it is says `format`: a model's Markdown, or
    /// Sou's own sentence, which is text — the labels and cells in it came from a bank
    /// or a file and are never markup. Build it with [`ChatEvent::text`] or
    /// [`ChatEvent::markdown`].
    Token {
        content: String,
        /// Absent on the wire for Markdown, so a model's tokens and events stored
        /// before the field existed read as they always did.
        #[serde(default, skip_serializing_if = "TextFormat::is_markdown")]
        format: TextFormat,
    },
    /// The user's categories, merchants and accounts a model's answer named, each with
    /// a one-click plan about it.
    EntitiesDetected {
        entities: Vec<DetectedEntity>,
    },
    /// Something went wrong; `message` is safe to show. A `status` event still follows.
    Error {
        code: String,
        message: String,
    },
    /// Always the last event of a stream.
    Status {
        content: StreamStatus,
        usage: Usage,
        uncertainty: Uncertainty,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        conversation_id: Option<String>,
        /// The stored answer's id, to share it (`POST /api/v1/reports`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        message_id: Option<String>,
    },
}

/// How a `token`'s `content` is read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TextFormat {
    /// A model wrote the whole answer: Markdown, rendered through a sanitiser.
    #[default]
    Markdown,
    /// Sou wrote it from data: plain text, shown exactly as it is.
    Text,
}

impl TextFormat {
    pub fn is_markdown(&self) -> bool {
        *self == TextFormat::Markdown
    }
}

impl ChatEvent {
    /// Sou's own answer to a tool result: each tool's sentence (in its file, `crate::tool`)
    /// as a `token` whose format is text. It quotes what a bank, a file or the user named
    /// (labels, merchants, dataset cells), so a label such as
    /// `[Confirmez votre compte](https://…)` is shown as written, never as a link.
    pub fn answer(output: &ToolOutput, locale: Locale) -> ChatEvent {
        ChatEvent::text(output.answer(locale))
    }

    /// A piece of Sou's own answer: text, never read as Markdown.
    pub fn text(content: impl Into<String>) -> ChatEvent {
        ChatEvent::Token { content: content.into(), format: TextFormat::Text }
    }

    /// A piece of a model's answer: Markdown.
    pub fn markdown(content: impl Into<String>) -> ChatEvent {
        ChatEvent::Token { content: content.into(), format: TextFormat::Markdown }
    }

    /// The event's `type` on the wire.
    pub fn kind(&self) -> &'static str {
        match self {
            ChatEvent::Plan { .. } => "plan",
            ChatEvent::Clarify { .. } => "clarify",
            ChatEvent::ToolResult(_) => "tool_result",
            ChatEvent::ApprovalRequired { .. } => "approval_required",
            ChatEvent::PlanProposed { .. } => "plan_proposed",
            ChatEvent::StepStarted { .. } => "step_started",
            ChatEvent::StepResult { .. } => "step_result",
            ChatEvent::StepFailed { .. } => "step_failed",
            ChatEvent::Token { .. } => "token",
            ChatEvent::EntitiesDetected { .. } => "entities_detected",
            ChatEvent::Error { .. } => "error",
            ChatEvent::Status { .. } => "status",
        }
    }

    /// The words of an answer: its `token` events' text, in order.
    pub fn words(events: &[ChatEvent]) -> String {
        events
            .iter()
            .filter_map(|e| match e {
                ChatEvent::Token { content, .. } => Some(content.as_str()),
                _ => None,
            })
            .collect()
    }

    pub fn is_terminal(&self) -> bool {
        matches!(self, ChatEvent::Status { .. })
    }

    /// The `data` of the event's frame.
    pub fn to_json(&self) -> String {
        // These types always serialise (string keys only, no non-finite floats from
        // Sou's own code); the fallback keeps the stream well-formed regardless.
        serde_json::to_string(self)
            .unwrap_or_else(|_| r#"{"type":"error","code":"internal","message":"serialization"}"#.to_string())
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StreamStatus {
    Done,
}

/// What answering cost. A parser-only answer uses no model and no tokens.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    pub input_tokens: u64,
    pub output_tokens: u64,
    /// Estimated cost in millionths of a euro (integer, like all money in Sou).
    pub cost_eur_micros: u64,
    pub model: Option<String>,
    /// `parser` when no LLM was involved.
    pub route: String,
    /// Milliseconds from request to the first event carrying content.
    pub first_event_ms: u64,
    /// Milliseconds from request to the model's first token, when a model answered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_token_ms: Option<u64>,
    /// A model without a known price took part: `cost_eur_micros` is a floor.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unpriced: bool,
}

/// An entity of the user's vocabulary found in a text.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DetectedEntity {
    /// `category`, `merchant` or `account`.
    pub kind: String,
    pub key: String,
    pub name: String,
    /// 0..=1; only exact names (1.0) are reported today, above the 0.6 floor.
    pub confidence: f32,
    pub suggestion: crate::plan::Suggestion,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Uncertainty {
    /// The plan's confidence, when a plan ran.
    pub plan_confidence: Option<Confidence>,
    /// 0..1; below 0.8 the UI shows a warning.
    pub answer_confidence: f32,
    pub warnings: Vec<String>,
}

/// One server-sent event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SseFrame {
    pub event: String,
    pub data: String,
}

/// Incremental `text/event-stream` decoder: feed bytes as they arrive, get whole frames.
#[derive(Debug, Default)]
pub struct SseDecoder {
    buf: Vec<u8>,
    event: String,
    data: Vec<String>,
}

impl SseDecoder {
    pub fn new() -> SseDecoder {
        SseDecoder::default()
    }

    pub fn feed(&mut self, bytes: &[u8]) -> Vec<SseFrame> {
        self.buf.extend_from_slice(bytes);
        let mut frames = Vec::new();
        while let Some(pos) = self.buf.iter().position(|&b| b == b'\n') {
            let mut line: Vec<u8> = self.buf.drain(..=pos).collect();
            line.pop();
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            let line = String::from_utf8_lossy(&line);
            if line.is_empty() {
                if !self.data.is_empty() {
                    frames.push(SseFrame {
                        event: if self.event.is_empty() {
                            "message".to_string()
                        } else {
                            std::mem::take(&mut self.event)
                        },
                        data: self.data.join("\n"),
                    });
                }
                self.data.clear();
                self.event.clear();
                continue;
            }
            if line.starts_with(':') {
                continue;
            }
            let (field, value) = match line.split_once(':') {
                Some((f, v)) => (f, v.strip_prefix(' ').unwrap_or(v)),
                None => (line.as_ref(), ""),
            };
            match field {
                "event" => self.event = value.to_string(),
                "data" => self.data.push(value.to_string()),
                _ => {}
            }
        }
        frames
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A frame as the server writes it (axum's `Event` does this in production).
    fn chunk(event: &ChatEvent) -> String {
        format!("event: chunk\ndata: {}\n\n", event.to_json())
    }

    fn sample() -> String {
        let a = ChatEvent::markdown("Bonjour é 🍞");
        let b = ChatEvent::Error { code: "x".into(), message: "line\nbreak".into() };
        format!("{}: keep-alive\n\n{}", chunk(&a), chunk(&b))
    }

    fn decode_in_pieces(bytes: &[u8], cut: &[usize]) -> Vec<SseFrame> {
        let mut d = SseDecoder::new();
        let mut out = Vec::new();
        let mut from = 0;
        for &c in cut.iter().chain(std::iter::once(&bytes.len())) {
            let c = c.min(bytes.len()).max(from);
            out.extend(d.feed(&bytes[from..c]));
            from = c;
        }
        out
    }

    #[test]
    fn split_and_merged_chunks_give_the_same_frames() {
        let s = sample();
        let bytes = s.as_bytes();
        let whole = decode_in_pieces(bytes, &[]);
        assert_eq!(whole.len(), 2);
        let first: ChatEvent = serde_json::from_str(&whole[0].data).unwrap();
        assert_eq!(first, ChatEvent::markdown("Bonjour é 🍞"));
        // Every single cut point, including inside multi-byte characters.
        for cut in 0..bytes.len() {
            assert_eq!(decode_in_pieces(bytes, &[cut]), whole, "cut at {cut}");
        }
        // Byte by byte.
        let all: Vec<usize> = (0..bytes.len()).collect();
        assert_eq!(decode_in_pieces(bytes, &all), whole);
    }

    #[test]
    fn a_token_says_whether_it_is_markdown_and_old_ones_still_are() {
        // Stored before `format` existed, and a model's tokens now: Markdown, same JSON.
        let stored: ChatEvent = serde_json::from_str(r#"{"type":"token","content":"**a**"}"#).unwrap();
        assert_eq!(stored, ChatEvent::markdown("**a**"));
        assert_eq!(stored.to_json(), r#"{"type":"token","content":"**a**"}"#);
        // Sou's own text says so.
        let text = ChatEvent::text("[a](https://b.example)");
        assert_eq!(text.to_json(), r#"{"type":"token","content":"[a](https://b.example)","format":"text"}"#);
        assert_eq!(serde_json::from_str::<ChatEvent>(&text.to_json()).unwrap(), text);
    }

    #[test]
    fn crlf_and_multiline_data() {
        let mut d = SseDecoder::new();
        let frames = d.feed(b"event: chunk\r\ndata: a\r\ndata: b\r\n\r\n");
        assert_eq!(frames, vec![SseFrame { event: "chunk".into(), data: "a\nb".into() }]);
    }
}

/// A new conversation's title: its first message, cut at 80 characters.
pub fn conversation_title(first_message: &str) -> String {
    // One line, without the characters no typed title may hold (they would hide or
    // reorder the history's text).
    let text: String = first_message.split_whitespace().collect::<Vec<_>>().join(" ");
    let text: String = text.chars().filter(|&c| !crate::text::is_hidden_control(c)).collect();
    let text = text.trim();
    let mut title: String = text.chars().take(80).collect();
    if text.chars().count() > 80 {
        title.push('…');
    }
    title
}

/// A conversation as the history lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConversationSummary {
    pub id: String,
    pub title: String,
    /// RFC 3339, UTC.
    pub updated_at: String,
}

/// A stored conversation as the chat page shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ConversationView {
    pub id: String,
    pub title: String,
    pub messages: Vec<StoredMessage>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StoredMessage {
    /// An answer's public id (what a report is made from); none for a question.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    pub role: Role,
    pub content: String,
    /// For the assistant: every event it streamed, in order (the final status included).
    pub events: Vec<ChatEvent>,
    /// For the assistant: the run it was, step by step (its owner only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trace: Option<Box<crate::runs::RunTrace>>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    User,
    Assistant,
}

// Each tool's sentence, as `ChatEvent::answer` sends it.
#[cfg(test)]
mod answers {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;
    use crate::args::{GroupBy, Period};
    use crate::date::Date;
    use crate::money::{Currency, Money};
    use crate::tool::spending_summary::SummaryResult;
    use crate::tools::Group;

    fn summary(group_by: GroupBy, groups: &[(&str, i64)]) -> ToolOutput {
        let eur = Currency::new("EUR").unwrap();
        ToolOutput::SpendingSummary(SummaryResult {
            top: None,
            period: Period {
                start: Date::new(2025, 1, 1).unwrap(),
                end: Date::new(2026, 1, 1).unwrap(),
                label: "année 2025".into(),
                words: String::new(),
            },
            category: None,
            merchant: None,
            account: None,
            excluded: Vec::new(),
            average: None,
            group_by,
            total: Money::new(groups.iter().map(|g| g.1).sum(), eur),
            count: 3,
            other_currencies: vec![],
            groups: groups
                .iter()
                .map(|&(label, minor)| Group {
                    key: label.into(),
                    label: label.into(),
                    total: Money::new(minor, eur),
                    count: 1,
                })
                .collect(),
            chart: None,
            transactions: vec![],
            transactions_truncated: false,
            source_ids: vec![],
            source_count: 0,
        })
    }

    const HOSTILE: [&str; 2] =
        ["[Confirmez votre compte](https://evil.example/login)", "<img src=x onerror=alert(1)>"];

    /// Sou's answer quotes the label and says it is text.
    fn assert_text_quoting(output: &ToolOutput, label: &str) {
        for locale in [Locale::Fr, Locale::En] {
            let e = ChatEvent::answer(output, locale);
            let crate::protocol::ChatEvent::Token { content, format } = &e else { panic!("{e:?}") };
            assert_eq!(*format, crate::protocol::TextFormat::Text, "{content}");
            assert!(content.contains(label), "{content}");
            assert!(e.to_json().contains(r#""format":"text""#), "{}", e.to_json());
        }
    }

    #[test]
    fn labels_from_a_bank_or_a_file_are_sent_as_text() {
        let eur = Currency::new("EUR").unwrap();
        let period = Period {
            start: Date::new(2026, 1, 1).unwrap(),
            end: Date::new(2026, 2, 1).unwrap(),
            label: "janvier 2026".into(),
            words: String::new(),
        };
        for label in HOSTILE {
            // A merchant named from a transfer's label, as the largest group and as the filter.
            let mut by_merchant = summary(GroupBy::Merchant, &[(label, 5_000), ("Lidl", 100)]);
            assert_text_quoting(&by_merchant, label);
            if let ToolOutput::SpendingSummary(r) = &mut by_merchant {
                r.groups.clear();
                r.merchant = Some(crate::tools::EntityRef { key: "m".into(), label: label.into() });
            }
            assert_text_quoting(&by_merchant, label);
            // A category's label.
            let mut by_category = summary(GroupBy::None, &[]);
            if let ToolOutput::SpendingSummary(r) = &mut by_category {
                r.category = Some(crate::tools::EntityRef { key: "c".into(), label: label.into() });
            }
            assert_text_quoting(&by_category, label);
            // The largest transaction's raw bank label.
            let row = crate::tools::TransactionRow {
                id: 1,
                date: Date::new(2026, 1, 5).unwrap(),
                label: label.into(),
                merchant: None,
                category: None,
                account: "courant".into(),
                amount: Money::new(-9_900, eur),
            };
            let largest =
                ToolOutput::ListTransactions(crate::tool::list_transactions::TransactionListResult {
                    period: period.clone(),
                    category: None,
                    merchant: None,
                    account: None,
                    excluded: Vec::new(),
                    direction: None,
                    order: crate::args::ListOrder::Largest,
                    text: None,
                    count: 1,
                    transactions: vec![row],
                    truncated: false,
                    net: Money::new(-9_900, eur),
                    source_ids: vec![1],
                });
            assert_text_quoting(&largest, label);
            // A dataset's cell.
            let dataset = ToolOutput::QueryDataset(crate::tool::query_dataset::DatasetResult {
                dataset: Some("ventes".into()),
                title: "Total par région".into(),
                result: crate::datasets::QueryResult {
                    sql: "SELECT 1".into(),
                    columns: vec!["region".into(), "total".into()],
                    rows: vec![
                        vec![crate::datasets::Cell::Text(label.into()), crate::datasets::Cell::Int(3)],
                        vec![crate::datasets::Cell::Text("Nord".into()), crate::datasets::Cell::Int(1)],
                    ],
                    truncated: false,
                },
                chart: None,
            });
            assert_text_quoting(&dataset, label);
        }
    }

    #[test]
    fn the_largest_group_is_named_whatever_the_order() {
        let months = summary(
            GroupBy::Month,
            &[("janvier 2025", 100_685), ("mars 2025", 114_658), ("avril 2025", 114_658)],
        );
        assert!(months.answer(Locale::Fr).ends_with(" Le plus : mars 2025 (1\u{202f}146,58\u{a0}€)."));
        assert!(months.answer(Locale::En).ends_with(" Highest: mars 2025 (€1,146.58)."));
        let categories = summary(GroupBy::Category, &[("Courses", 500), ("Loisirs", 500), ("Santé", 100)]);
        assert!(categories.answer(Locale::Fr).ends_with(" Poste principal : Courses (5,00\u{a0}€)."));
        assert!(!summary(GroupBy::None, &[]).answer(Locale::En).contains("Largest"));
    }

    #[test]
    fn a_top_n_speaks_of_the_n_and_their_share_of_the_total() {
        let ToolOutput::SpendingSummary(mut r) =
            summary(GroupBy::Merchant, &[("Carrefour", 3_000), ("Lidl", 1_000), ("Zara", 6_000)])
        else {
            unreachable!()
        };
        // The tool keeps the N largest groups; the total still covers everything.
        r.top = Some(2);
        r.groups.retain(|g| g.label != "Lidl");
        r.groups.sort_by_key(|g| -g.total.minor);
        let top = ToolOutput::SpendingSummary(r);
        assert_eq!(
            top.answer(Locale::En),
            "Your top 2 merchants — année 2025: Zara €60.00 (60.0%), Carrefour €30.00 (30.0%). \
             Together €90.00, 90.0% of your €100.00 spending."
        );
        let fr = top.answer(Locale::Fr);
        assert!(fr.starts_with("Vos 2 premiers marchands — année 2025 : Zara"), "{fr}");
        assert!(
            fr.contains("Ensemble 90,00\u{a0}€, soit 90,0\u{a0}% de vos 100,00\u{a0}€ de dépenses."),
            "{fr}"
        );
    }
}

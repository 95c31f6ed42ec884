//! One message in, a stream of events out: parse, validate, decide, run, answer.
//! The HTTP API, the hydrated chat page and the no-JavaScript form all come here.

use std::time::Instant;

use agent::protocol::{ChatEvent, ConversationView, Role, StoredMessage, StreamStatus, Uncertainty, Usage};
use agent::{
    Clarification, Confidence, Context, Date, Locale, ParseOutcome, Parser, Reason, ReasonCode, Suggestion,
    ToolCallPlan,
};
use futures::Stream;
use serde::Deserialize;
use serde_json::Value;
use sqlx::Row;
use tokio::sync::mpsc;

use crate::error::BackendError;
use crate::registry::Registry;
use crate::store::{Store, UserId};
use crate::tools;

/// Longest message accepted, in characters.
pub const MAX_MESSAGE_CHARS: usize = 4000;

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlanRequest {
    pub message: String,
    #[serde(default)]
    pub locale: Option<String>,
    /// The previous plan of the conversation, for follow-ups.
    #[serde(default)]
    pub context: Option<Value>,
    #[serde(default)]
    pub today: Option<Date>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChatRequest {
    pub message: String,
    #[serde(default)]
    pub conversation_id: Option<String>,
    /// A plan the client proposes (its own parse, or a suggestion the user clicked).
    #[serde(default)]
    pub plan: Option<Value>,
    #[serde(default)]
    pub locale: Option<String>,
}

/// Sends events to the client while keeping them for the stored answer.
struct Emitter {
    tx: mpsc::Sender<ChatEvent>,
    sent: Vec<ChatEvent>,
    started: Instant,
    first_event_ms: Option<u64>,
}

impl Emitter {
    async fn emit(&mut self, e: ChatEvent) {
        let started = self.started;
        self.first_event_ms.get_or_insert_with(|| started.elapsed().as_millis() as u64);
        self.sent.push(e.clone());
        // A client that went away does not stop the answer.
        let _ = self.tx.send(e).await;
    }
}

/// Sou's server-side core, shared by every surface.
#[derive(Clone)]
pub struct Sou {
    store: Store,
    timezone: chrono_tz::Tz,
}

/// The events of one answer, and the conversation they belong to.
pub struct ChatStream {
    pub conversation_id: String,
    pub events: std::pin::Pin<Box<dyn Stream<Item = ChatEvent> + Send>>,
}

impl Sou {
    pub fn new(store: Store, timezone: chrono_tz::Tz) -> Sou {
        Sou { store, timezone }
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    /// Today in the configured time zone.
    pub fn today(&self) -> Date {
        use chrono::Datelike;
        let now = chrono::Utc::now().with_timezone(&self.timezone);
        Date::new(now.year(), now.month(), now.day()).unwrap_or_else(|| Date::from_days(0))
    }

    pub async fn parser(&self, user: UserId) -> Result<Parser, BackendError> {
        Ok(Parser::new(self.store.vocabulary(user).await?))
    }

    /// `POST /api/v1/plan`: what the parser makes of a message.
    pub async fn plan(&self, user: UserId, req: PlanRequest) -> Result<ParseOutcome, BackendError> {
        check_message(&req.message)?;
        let locale = parse_locale(req.locale.as_deref())?;
        let context = match &req.context {
            Some(v) => Some(typed_plan(v)?),
            None => None,
        };
        let parser = self.parser(user).await?;
        let cx =
            Context { today: req.today.unwrap_or_else(|| self.today()), locale, previous: context.as_ref() };
        Ok(parser.parse(&req.message, &cx))
    }

    /// `POST /api/v1/chat`. Errors returned here (bad request, unknown conversation)
    /// happen before any event; once the stream starts it always ends with `status`.
    pub async fn chat(&self, user: UserId, req: ChatRequest) -> Result<ChatStream, BackendError> {
        let started = Instant::now();
        check_message(&req.message)?;
        let locale = parse_locale(req.locale.as_deref())?;
        let client_plan = match &req.plan {
            Some(v) => Some(Registry::get().validate(v)?),
            None => None,
        };
        let conversation_id = match req.conversation_id.as_deref() {
            Some(id) => {
                self.check_owner(user, id).await?;
                id.to_string()
            }
            None => self.create_conversation(user, &req.message).await?,
        };
        // The user's words are stored before anything runs.
        self.insert_message(user, &conversation_id, Role::User, &req.message, None, &[]).await?;
        let previous = self.last_plan(user, &conversation_id).await?;

        let (tx, rx) = mpsc::channel::<ChatEvent>(32);
        let sou = self.clone();
        let id = conversation_id.clone();
        // The answer runs to the end and is stored even if the client goes away.
        tokio::spawn(async move {
            let mut out = Emitter { tx, sent: Vec::new(), started, first_event_ms: None };
            let outcome =
                sou.answer(user, &req.message, locale, previous.as_ref(), client_plan, &mut out).await;
            let (plan, uncertainty) = match outcome {
                Ok(done) => done,
                Err(e) => {
                    tracing::error!(error = %e, "chat answer failed");
                    let (code, message) = user_safe(&e, locale);
                    out.emit(ChatEvent::Error { code, message }).await;
                    (None, Uncertainty { plan_confidence: None, answer_confidence: 0.0, warnings: vec![] })
                }
            };
            let usage = Usage {
                route: "parser".into(),
                first_event_ms: out.first_event_ms.unwrap_or_default(),
                ..Usage::default()
            };
            let status = ChatEvent::Status {
                content: StreamStatus::Done,
                usage,
                uncertainty,
                conversation_id: Some(id.clone()),
            };
            out.sent.push(status.clone());
            let text: String = out
                .sent
                .iter()
                .filter_map(|e| match e {
                    ChatEvent::Token { content } => Some(content.as_str()),
                    _ => None,
                })
                .collect();
            if let Err(e) =
                sou.insert_message(user, &id, Role::Assistant, &text, plan.as_ref(), &out.sent).await
            {
                tracing::error!(error = %e, "storing the answer failed");
            }
            let _ = out.tx.send(status).await;
        });
        let events = futures::stream::unfold(rx, |mut rx| async move { rx.recv().await.map(|e| (e, rx)) });
        Ok(ChatStream { conversation_id, events: Box::pin(events) })
    }

    /// Decides what to do with a message and emits the events. Returns the plan that
    /// ran (if any) and the uncertainty for the final status.
    async fn answer(
        &self,
        user: UserId,
        message: &str,
        locale: Option<Locale>,
        previous: Option<&ToolCallPlan>,
        client_plan: Option<agent::ToolCall>,
        out: &mut Emitter,
    ) -> Result<(Option<ToolCallPlan>, Uncertainty), BackendError> {
        let parser = self.parser(user).await?;
        let today = self.today();
        let outcome = parser.parse(message, &Context { today, locale, previous });
        // The server never trusts a client's plan: it is validated (done by the
        // caller), and unless it is exactly what the server parsed, it is run as the
        // user's explicit choice, not as the parser's inference.
        let outcome = match (client_plan, outcome) {
            (Some(call), ParseOutcome::Plan(p)) if p.call == call => ParseOutcome::Plan(p),
            (Some(call), other) => {
                let locale = match &other {
                    ParseOutcome::Plan(p) => p.meta.locale,
                    ParseOutcome::Clarification(c) => c.locale,
                };
                let detail = parser.describe(&call, locale);
                let reasons = vec![Reason::new(ReasonCode::UserSelected, locale, &detail)];
                ParseOutcome::Plan(ToolCallPlan {
                    call,
                    meta: agent::PlanMeta {
                        confidence: Confidence::High,
                        confidence_reasons: reasons,
                        locale,
                        today,
                    },
                })
            }
            (None, other) => other,
        };
        let plan = match outcome {
            ParseOutcome::Clarification(c) => {
                out.emit(ChatEvent::Clarify { clarification: c }).await;
                return Ok((
                    None,
                    Uncertainty { plan_confidence: None, answer_confidence: 0.0, warnings: vec![] },
                ));
            }
            ParseOutcome::Plan(p) => p,
        };
        out.emit(ChatEvent::Plan { plan: plan.clone() }).await;
        let locale = plan.meta.locale;
        if plan.meta.confidence == Confidence::Low {
            // No LLM guardian is configured: ask rather than run a fragile plan.
            let clarification = low_confidence_question(&parser, &plan);
            out.emit(ChatEvent::Clarify { clarification }).await;
            return Ok((
                Some(plan.clone()),
                Uncertainty {
                    plan_confidence: Some(Confidence::Low),
                    answer_confidence: 0.0,
                    warnings: vec![],
                },
            ));
        }
        let output = tools::run(&self.store, user, &plan.call, locale, plan.meta.today).await?;
        out.emit(ChatEvent::ToolResult(output.clone())).await;
        out.emit(ChatEvent::Token { content: agent::answer::summarize(&output, locale) }).await;
        let warnings: Vec<String> = plan
            .meta
            .confidence_reasons
            .iter()
            .filter(|r| r.code.cap() < Confidence::High)
            .map(|r| r.text.clone())
            .collect();
        let answer_confidence = match plan.meta.confidence {
            Confidence::High => 1.0,
            Confidence::Medium => 0.7,
            Confidence::Low => 0.0,
        };
        Ok((
            Some(plan.clone()),
            Uncertainty { plan_confidence: Some(plan.meta.confidence), answer_confidence, warnings },
        ))
    }

    async fn check_owner(&self, user: UserId, id: &str) -> Result<(), BackendError> {
        let owner: Option<i64> = sqlx::query_scalar("SELECT user_id FROM conversations WHERE id = ?1")
            .bind(id)
            .fetch_optional(self.store.pool())
            .await?;
        match owner {
            Some(o) if o == user.0 => Ok(()),
            _ => Err(BackendError::NotFound),
        }
    }

    async fn create_conversation(&self, user: UserId, first_message: &str) -> Result<String, BackendError> {
        let id = uuid::Uuid::new_v4().simple().to_string();
        let mut title: String = first_message.trim().chars().take(80).collect();
        if first_message.trim().chars().count() > 80 {
            title.push('…');
        }
        sqlx::query("INSERT INTO conversations (id, user_id, title) VALUES (?1, ?2, ?3)")
            .bind(&id)
            .bind(user.0)
            .bind(title)
            .execute(self.store.pool())
            .await?;
        Ok(id)
    }

    async fn insert_message(
        &self,
        user: UserId,
        conversation: &str,
        role: Role,
        content: &str,
        plan: Option<&ToolCallPlan>,
        events: &[ChatEvent],
    ) -> Result<(), BackendError> {
        let role = match role {
            Role::User => "user",
            Role::Assistant => "assistant",
        };
        let plan =
            plan.map(serde_json::to_string).transpose().map_err(|e| BackendError::Corrupt(e.to_string()))?;
        let events = if events.is_empty() {
            None
        } else {
            Some(serde_json::to_string(events).map_err(|e| BackendError::Corrupt(e.to_string()))?)
        };
        let mut tx = self.store.pool().begin().await?;
        sqlx::query(
            "INSERT INTO messages (conversation_id, user_id, role, content, plan, events) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        )
        .bind(conversation)
        .bind(user.0)
        .bind(role)
        .bind(content)
        .bind(plan)
        .bind(events)
        .execute(&mut *tx)
        .await?;
        sqlx::query(
            "UPDATE conversations SET updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?1",
        )
        .bind(conversation)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// The plan of the last answer that had one: the context for follow-ups.
    async fn last_plan(
        &self,
        user: UserId,
        conversation: &str,
    ) -> Result<Option<ToolCallPlan>, BackendError> {
        let plan: Option<String> = sqlx::query_scalar(
            "SELECT plan FROM messages WHERE conversation_id = ?1 AND user_id = ?2 AND plan IS NOT NULL
             ORDER BY id DESC LIMIT 1",
        )
        .bind(conversation)
        .bind(user.0)
        .fetch_optional(self.store.pool())
        .await?;
        plan.map(|p| serde_json::from_str(&p).map_err(|e| BackendError::Corrupt(format!("stored plan: {e}"))))
            .transpose()
    }

    /// A conversation with its messages, for its owner only.
    pub async fn conversation(&self, user: UserId, id: &str) -> Result<ConversationView, BackendError> {
        let row = sqlx::query("SELECT title FROM conversations WHERE id = ?1 AND user_id = ?2")
            .bind(id)
            .bind(user.0)
            .fetch_optional(self.store.pool())
            .await?
            .ok_or(BackendError::NotFound)?;
        let title: String = row.get(0);
        let rows = sqlx::query(
            "SELECT role, content, events FROM messages WHERE conversation_id = ?1 AND user_id = ?2 ORDER BY id",
        )
        .bind(id)
        .bind(user.0)
        .fetch_all(self.store.pool())
        .await?;
        let mut messages = Vec::with_capacity(rows.len());
        for r in rows {
            let role: String = r.get(0);
            let events: Option<String> = r.get(2);
            let events = match events {
                Some(e) => serde_json::from_str(&e)
                    .map_err(|e| BackendError::Corrupt(format!("stored events: {e}")))?,
                None => Vec::new(),
            };
            messages.push(StoredMessage {
                role: if role == "user" { Role::User } else { Role::Assistant },
                content: r.get(1),
                events,
            });
        }
        Ok(ConversationView { id: id.to_string(), title, messages })
    }
}

fn check_message(message: &str) -> Result<(), BackendError> {
    if message.trim().is_empty() {
        return Err(BackendError::BadRequest("the message is empty".into()));
    }
    let n = message.chars().count();
    if n > MAX_MESSAGE_CHARS {
        return Err(BackendError::BadRequest(format!(
            "the message has {n} characters; the limit is {MAX_MESSAGE_CHARS}"
        )));
    }
    Ok(())
}

fn parse_locale(tag: Option<&str>) -> Result<Option<Locale>, BackendError> {
    match tag {
        None => Ok(None),
        Some(t) => Locale::from_tag(t).map(Some).ok_or_else(|| {
            BackendError::BadRequest(format!("unsupported locale {t:?}; use \"fr\" or \"en\""))
        }),
    }
}

/// A full plan (with meta) given as context: its call is validated like any plan.
fn typed_plan(v: &Value) -> Result<ToolCallPlan, BackendError> {
    Registry::get().validate(v)?;
    serde_json::from_value(v.clone()).map_err(|e| BackendError::BadRequest(format!("context: {e}")))
}

/// With no LLM to repair a low-confidence plan, Sou asks, offering it and neighbours.
fn low_confidence_question(parser: &Parser, plan: &ToolCallPlan) -> Clarification {
    let locale = plan.meta.locale;
    let question = match locale {
        Locale::Fr => "Je ne suis pas sûr d'avoir bien compris. Voulez-vous :",
        Locale::En => "I am not sure I understood. Did you mean:",
    };
    let chosen = |call: agent::ToolCall| {
        let label = parser.describe(&call, locale);
        let reasons = vec![Reason::new(ReasonCode::UserSelected, locale, &label)];
        Suggestion {
            label,
            plan: ToolCallPlan {
                call,
                meta: agent::PlanMeta {
                    confidence: Confidence::High,
                    confidence_reasons: reasons,
                    locale,
                    today: plan.meta.today,
                },
            },
        }
    };
    let mut suggestions = vec![chosen(plan.call.clone())];
    // The same question without its filters, for when the filter was the misunderstanding.
    if plan.call.category().is_some() || plan.call.merchant().is_some() {
        let mut broader = plan.call.clone();
        broader.set_filters(None, None);
        suggestions.push(chosen(broader));
    }
    // The same question over the previous month.
    let mut earlier = plan.call.clone();
    let p = earlier.period().clone();
    let start = p.start.first_of_month().add_months(-1);
    *earlier.period_mut() = agent::period::month(start, locale);
    if earlier != plan.call {
        suggestions.push(chosen(earlier));
    }
    Clarification {
        question: question.to_string(),
        reasons: plan
            .meta
            .confidence_reasons
            .iter()
            .filter(|r| r.code.cap() < Confidence::High)
            .cloned()
            .collect(),
        suggestions,
        locale,
    }
}

/// A code and a message safe to show; details stay in the log.
pub fn user_safe(e: &BackendError, locale: Option<Locale>) -> (String, String) {
    let fr = locale == Some(Locale::Fr);
    match e {
        BackendError::BadRequest(m) => ("bad_request".into(), m.clone()),
        BackendError::InvalidPlan(p) => ("invalid_plan".into(), p.to_string()),
        BackendError::NotFound => {
            ("not_found".into(), if fr { "Introuvable.".into() } else { "Not found.".into() })
        }
        BackendError::Db(_) | BackendError::Corrupt(_) => (
            "internal".into(),
            if fr {
                "Une erreur interne est survenue ; rien n'a été perdu. Réessayez dans un instant.".into()
            } else {
                "Something went wrong on the server; nothing was lost. Try again in a moment.".into()
            },
        ),
    }
}

//! One message in, a stream of events out: parse, validate, decide, run, answer.
//! The HTTP API, the hydrated chat page and the no-JavaScript form all come here.

use std::time::Instant;

use agent::protocol::{
    ChatEvent, ConversationSummary, ConversationView, Role, StoredMessage, StreamStatus, Uncertainty, Usage,
};
use agent::{
    Clarification, Confidence, Context, Date, Locale, ParseOutcome, Parser, Reason, ReasonCode, Suggestion,
    ToolCallPlan,
};
use futures::Stream;
use serde::Deserialize;
use serde_json::Value;
use sqlx::Row;
use tokio::sync::mpsc;

use crate::auth::{Auth, AuthConfig};
use crate::emitter::Emitter;
use crate::error::BackendError;
use crate::guardian::{self, Verdict};
use crate::ids::{Dialect, UserId};
use crate::llm::catalog::ProviderId;
use crate::llm::model::Spent;
use crate::llm::{self, LlmError, LlmMessage};
use crate::providers::{Providers, Resolved};
use crate::registry::Registry;
use crate::router::{self, Complexity};
use crate::store::Store;
use crate::{assistant, tools};

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

/// Sou's server-side core, shared by every surface.
#[derive(Clone)]
pub struct Sou {
    store: Store,
    timezone: chrono_tz::Tz,
    providers: Option<Providers>,
    auth: Auth,
    imports: crate::imports::Imports,
}

/// One message to answer, with what it is answered in the light of.
struct Asked<'a> {
    user: UserId,
    message: &'a str,
    locale: Option<Locale>,
    previous: Option<&'a ToolCallPlan>,
    conversation: &'a str,
}

/// What an answer did, for the final status.
struct Answered {
    plan: Option<ToolCallPlan>,
    uncertainty: Uncertainty,
    /// `parser`, `guardian` or `llm`.
    route: &'static str,
    model: Option<String>,
    spent: Spent,
    first_token_ms: Option<u64>,
}

impl Answered {
    fn parser(plan: Option<ToolCallPlan>, uncertainty: Uncertainty) -> Answered {
        Answered {
            plan,
            uncertainty,
            route: "parser",
            model: None,
            spent: Spent::default(),
            first_token_ms: None,
        }
    }
}

fn no_answer(warnings: Vec<String>) -> Uncertainty {
    Uncertainty { plan_confidence: None, answer_confidence: 0.0, warnings }
}

/// The events of one answer, and the conversation they belong to.
pub struct ChatStream {
    pub conversation_id: String,
    pub events: std::pin::Pin<Box<dyn Stream<Item = ChatEvent> + Send>>,
}

impl Sou {
    pub fn new(store: Store, timezone: chrono_tz::Tz) -> Sou {
        let auth = Auth::new(store.clone(), AuthConfig::default());
        Sou { store, timezone, providers: None, auth, imports: crate::imports::Imports::default() }
    }

    /// The same, with these session lifetimes and sign-in limits.
    pub fn with_auth(mut self, config: AuthConfig) -> Sou {
        self.auth = Auth::new(self.store.clone(), config);
        self
    }

    /// Accounts, sessions and API tokens.
    pub fn auth(&self) -> &Auth {
        &self.auth
    }

    /// Bank file uploads and imports.
    pub fn imports(&self) -> &crate::imports::Imports {
        &self.imports
    }

    /// The same, answering with language models too.
    pub fn with_providers(mut self, providers: Providers) -> Sou {
        self.providers = Some(providers);
        self
    }

    pub fn providers(&self) -> Option<&Providers> {
        self.providers.as_ref()
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
        // The answer is stored whatever happens to the client; a model's answer stops
        // when the client goes away.
        tokio::spawn(async move {
            let mut out = Emitter { tx, sent: Vec::new(), started, first_event_ms: None };
            let question =
                Asked { user, message: &req.message, locale, previous: previous.as_ref(), conversation: &id };
            let outcome = sou.answer(question, client_plan, &mut out).await;
            let done = match outcome {
                Ok(done) => done,
                Err(e) => {
                    tracing::error!(error = %e, "chat answer failed");
                    let (code, message) = user_safe(&e, locale);
                    out.emit(ChatEvent::Error { code, message }).await;
                    Answered::parser(None, no_answer(vec![]))
                }
            };
            let (plan, uncertainty) = (done.plan, done.uncertainty);
            let total = out.sent.iter().find_map(|e| match e {
                ChatEvent::ToolResult(o) => crate::trace::headline(o),
                _ => None,
            });
            tracing::info!(
                user = %crate::trace::user(user),
                conversation = %crate::trace::id("conversation", &id),
                route = %done.route,
                tool = %plan.as_ref().map(|p| p.call.name()).unwrap_or("-"),
                amount = %total.map(crate::trace::bucket).unwrap_or("-"),
                ms = started.elapsed().as_millis() as u64,
                "answered"
            );
            let usage = Usage {
                input_tokens: done.spent.input_tokens,
                output_tokens: done.spent.output_tokens,
                cost_eur_micros: done.spent.cost_eur_micros,
                unpriced: done.spent.unpriced,
                model: done.model,
                route: done.route.into(),
                first_event_ms: out.first_event_ms.unwrap_or_default(),
                first_token_ms: done.first_token_ms,
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
                    ChatEvent::Token { content, .. } => Some(content.as_str()),
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

    /// Decides what to do with a message and emits the events: the parser's plan runs
    /// at once when sure; otherwise the guardian (with a model) or the rules of
    /// design.md (without) decide; questions no plan covers go to the tool loop.
    async fn answer(
        &self,
        q: Asked<'_>,
        client_plan: Option<agent::ToolCall>,
        out: &mut Emitter,
    ) -> Result<Answered, BackendError> {
        let parser = self.parser(q.user).await?;
        let today = self.today();
        let outcome = parser.parse(q.message, &Context { today, locale: q.locale, previous: q.previous });
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
        let mut warnings = Vec::new();
        let needs_model = match &outcome {
            ParseOutcome::Plan(p) => p.meta.confidence != Confidence::High,
            ParseOutcome::Clarification(c) => is_free_form(c),
        };
        let models = if needs_model { self.models(q.user, &mut warnings).await } else { None };
        let plan = match outcome {
            ParseOutcome::Clarification(c) => {
                if let (Some(models), true) = (&models, is_free_form(&c)) {
                    return Ok(self.free_form(&parser, q, c.locale, models, warnings, out).await);
                }
                out.emit(ChatEvent::Clarify { clarification: c }).await;
                return Ok(Answered::parser(None, no_answer(warnings)));
            }
            ParseOutcome::Plan(p) => p,
        };
        out.emit(ChatEvent::Plan { plan: plan.clone() }).await;
        let Some(models) = models.filter(|_| plan.meta.confidence != Confidence::High) else {
            if plan.meta.confidence == Confidence::Low {
                // No model to check a fragile plan: ask rather than run it.
                let clarification = low_confidence_question(&parser, &plan, None);
                out.emit(ChatEvent::Clarify { clarification }).await;
                let mut u = no_answer(warnings);
                u.plan_confidence = Some(Confidence::Low);
                return Ok(Answered::parser(Some(plan), u));
            }
            return self
                .run_plan(q.user, plan, 0.0, warnings, out)
                .await
                .map(|(p, u)| Answered::parser(p, u));
        };
        // The guardian: approve, repair (re-validated) or ask.
        let model = &models.simple;
        let providers = self.providers.as_ref().ok_or(BackendError::NotFound)?;
        let reviewed = guardian::review(providers.caller(), model, q.message, &plan).await;
        let locale = plan.meta.locale;
        let (spent, first_token_ms, verdict) = match reviewed {
            Ok(r) => (r.spent, r.first_token_ms, Ok(r.verdict)),
            Err(e) => (Spent::default(), None, Err(e)),
        };
        let guarded = |plan, uncertainty| Answered {
            plan,
            uncertainty,
            route: "guardian",
            model: Some(model.name.clone()),
            spent: spent.clone(),
            first_token_ms,
        };
        match verdict {
            Ok(Verdict::Approve) => {
                let mut plan = plan;
                plan.meta.confidence_reasons.push(Reason::new(
                    ReasonCode::GuardianApproved,
                    locale,
                    &model.name,
                ));
                let (p, u) = self.run_plan(q.user, plan, 0.9, warnings, out).await?;
                Ok(guarded(p, u))
            }
            Ok(Verdict::Repair(call)) => {
                let detail = parser.describe(&call, locale);
                let repaired = ToolCallPlan {
                    call,
                    meta: agent::PlanMeta {
                        confidence: Confidence::Medium,
                        confidence_reasons: vec![Reason::new(ReasonCode::GuardianRepaired, locale, &detail)],
                        locale,
                        today: plan.meta.today,
                    },
                };
                out.emit(ChatEvent::Plan { plan: repaired.clone() }).await;
                let (p, u) = self.run_plan(q.user, repaired, 0.8, warnings, out).await?;
                Ok(guarded(p, u))
            }
            Ok(Verdict::Clarify(question)) => {
                let clarification = low_confidence_question(&parser, &plan, Some(question));
                out.emit(ChatEvent::Clarify { clarification }).await;
                Ok(guarded(Some(plan), no_answer(warnings)))
            }
            Ok(Verdict::InvalidRepair(why)) => {
                tracing::warn!(why = %why, "the guardian's repair was refused by the registry");
                let clarification = low_confidence_question(&parser, &plan, None);
                out.emit(ChatEvent::Clarify { clarification }).await;
                Ok(guarded(Some(plan), no_answer(warnings)))
            }
            Err(e) => {
                // No verdict: the rules for no model, and the user is told why.
                tracing::warn!(error = %e, "the guardian failed; applying the rules without a model");
                warnings.push(llm_message(models.provider, &e, locale).1);
                if plan.meta.confidence == Confidence::Low {
                    let clarification = low_confidence_question(&parser, &plan, None);
                    out.emit(ChatEvent::Clarify { clarification }).await;
                    return Ok(guarded(Some(plan), no_answer(warnings)));
                }
                let (p, u) = self.run_plan(q.user, plan, 0.0, warnings, out).await?;
                Ok(guarded(p, u))
            }
        }
    }

    /// The models for `user`, or `None` (with a warning when the user chose a provider
    /// that cannot be used: Sou never swaps it for another).
    async fn models(&self, user: UserId, warnings: &mut Vec<String>) -> Option<Resolved> {
        let providers = self.providers.as_ref()?;
        match providers.resolve(&self.store, user).await {
            Ok(Some(m)) => Some(m),
            Ok(None) => {
                if let Ok(Some(choice)) = providers.choice(&self.store, user).await {
                    warnings.push(format!(
                        "{} has no API key: add one in Settings to use it.",
                        choice.provider.display_name()
                    ));
                }
                None
            }
            Err(e) => {
                tracing::error!(error = %e, "resolving the user's model failed");
                None
            }
        }
    }

    /// Runs a plan and writes its answer. `checked` is the answer confidence a model's
    /// review gives it (0 when no model looked at it).
    async fn run_plan(
        &self,
        user: UserId,
        plan: ToolCallPlan,
        checked: f32,
        mut warnings: Vec<String>,
        out: &mut Emitter,
    ) -> Result<(Option<ToolCallPlan>, Uncertainty), BackendError> {
        let locale = plan.meta.locale;
        let output = tools::run(&self.store, user, &plan.call, locale, plan.meta.today).await?;
        out.emit(ChatEvent::ToolResult(output.clone())).await;
        // Sou's own sentence quotes labels from the bank and cells from files: sent as text.
        out.emit(agent::answer::event(&output, locale)).await;
        warnings.extend(
            plan.meta
                .confidence_reasons
                .iter()
                .filter(|r| r.code.cap() < Confidence::High)
                .map(|r| r.text.clone()),
        );
        let answer_confidence = match plan.meta.confidence {
            Confidence::High => 1.0,
            Confidence::Medium => 0.7_f32.max(checked),
            Confidence::Low => checked,
        };
        let uncertainty =
            Uncertainty { plan_confidence: Some(plan.meta.confidence), answer_confidence, warnings };
        Ok((Some(plan), uncertainty))
    }

    /// A question no plan covers: the router, then the tool loop, streamed.
    async fn free_form(
        &self,
        parser: &Parser,
        q: Asked<'_>,
        locale: Locale,
        models: &Resolved,
        mut warnings: Vec<String>,
        out: &mut Emitter,
    ) -> Answered {
        let Some(providers) = self.providers.as_ref() else {
            return Answered::parser(None, no_answer(warnings));
        };
        let (route, mut spent) = router::route(providers.caller(), models, q.message).await;
        let model = match route.complexity {
            Complexity::Simple => &models.simple,
            Complexity::Complex => &models.complex,
        };
        let today = self.today();
        let history = match self.history(q.user, q.conversation).await {
            Ok(h) => h,
            Err(e) => {
                tracing::error!(error = %e, "reading the conversation for the model failed");
                Vec::new()
            }
        };
        let question = assistant::Question {
            user: q.user,
            message: q.message,
            history,
            locale,
            today,
            started: out.started,
        };
        let (outcome, error) =
            match assistant::answer(providers, &self.store, model, &route, question, out).await {
                Ok(o) => (o, None),
                Err(f) => (f.outcome, Some(f.error)),
            };
        spent.merge(&outcome.spent);
        if let Some(e) = &error {
            tracing::warn!(error = %e, provider = %models.provider, "the model's answer failed");
            let (code, message) = llm_message(models.provider, e, locale);
            out.emit(ChatEvent::Error { code, message }).await;
        }
        match outcome.ending {
            assistant::Ending::Answered => {}
            assistant::Ending::Stopped => {
                out.emit(ChatEvent::Error { code: "stopped".into(), message: stopped_text(locale).into() })
                    .await;
            }
            assistant::Ending::ToolLimit => {
                let message = match locale {
                    Locale::Fr => "Le modèle a demandé plus de 5 séries d'outils ; Sou s'est arrêté là.",
                    Locale::En => "The model asked for more than 5 rounds of tools; Sou stopped there.",
                };
                out.emit(ChatEvent::Error { code: "tool_limit".into(), message: message.into() }).await;
            }
        }
        if error.is_none() && outcome.ending == assistant::Ending::Answered {
            let cx = Context { today, locale: Some(locale), previous: None };
            let entities = parser.mentions(&outcome.answered_text, &cx, 5);
            if !entities.is_empty() {
                out.emit(ChatEvent::EntitiesDetected { entities }).await;
            }
        }
        let grounded = outcome.tools_run > 0;
        if !grounded {
            warnings.push(match locale {
                Locale::Fr => {
                    "Cette réponse n'utilise aucune de vos données : le modèle a répondu de lui-même.".into()
                }
                Locale::En => "This answer uses none of your data: the model answered on its own.".into(),
            });
        }
        let answer_confidence = match (&error, outcome.ending, grounded) {
            (None, assistant::Ending::Answered, true) => 0.8,
            (None, assistant::Ending::Answered, false) => 0.6,
            _ => 0.0,
        };
        Answered {
            plan: None,
            uncertainty: Uncertainty { plan_confidence: None, answer_confidence, warnings },
            route: "llm",
            model: Some(model.name.clone()),
            spent,
            first_token_ms: outcome.first_token_ms,
        }
    }

    /// The conversation before the message being answered (stored last), as a model
    /// reads it: the texts of the last turns. Read only when a model answers.
    async fn history(&self, user: UserId, conversation: &str) -> Result<Vec<LlmMessage>, BackendError> {
        let mut db = self.store.tenant_read(user).await?;
        let rows = sqlx::query(
            "SELECT role, content FROM messages WHERE conversation_id = $1 AND user_id = $2
             ORDER BY id DESC LIMIT 20 OFFSET 1",
        )
        .bind(conversation)
        .bind(user.0)
        .fetch_all(&mut *db)
        .await?;
        db.commit().await?;
        let mut out: Vec<LlmMessage> = rows
            .iter()
            .rev()
            .filter_map(|r| {
                let role: String = r.get(0);
                let content: String = r.get(1);
                let role = if role == "user" { llm::Role::User } else { llm::Role::Assistant };
                assistant::history_message(role, &content)
            })
            .collect();
        // A conversation for a model starts with the user.
        while out.first().is_some_and(|m| m.role != llm::Role::User) {
            out.remove(0);
        }
        Ok(out)
    }

    async fn check_owner(&self, user: UserId, id: &str) -> Result<(), BackendError> {
        let mut db = self.store.tenant_read(user).await?;
        let mine: Option<i64> =
            sqlx::query_scalar("SELECT 1 FROM conversations WHERE id = $1 AND user_id = $2")
                .bind(id)
                .bind(user.0)
                .fetch_optional(&mut *db)
                .await?;
        db.commit().await?;
        mine.map(|_| ()).ok_or(BackendError::NotFound)
    }

    async fn create_conversation(&self, user: UserId, first_message: &str) -> Result<String, BackendError> {
        let id = uuid::Uuid::new_v4().simple().to_string();
        let title = agent::protocol::conversation_title(first_message);
        let now = crate::store::timestamp(chrono::Utc::now());
        let mut db = self.store.tenant(user).await?;
        sqlx::query(
            "INSERT INTO conversations (id, user_id, title, created_at, updated_at) VALUES ($1, $2, $3, $4, $4)",
        )
        .bind(&id)
        .bind(user.0)
        .bind(title)
        .bind(now)
        .execute(&mut *db)
        .await?;
        db.commit().await?;
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
        let now = crate::store::timestamp(chrono::Utc::now());
        let mut tx = self.store.tenant(user).await?;
        sqlx::query(
            "INSERT INTO messages (conversation_id, user_id, role, content, plan, events, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(conversation)
        .bind(user.0)
        .bind(role)
        .bind(content)
        .bind(plan)
        .bind(events)
        .bind(&now)
        .execute(&mut *tx)
        .await?;
        sqlx::query("UPDATE conversations SET updated_at = $2 WHERE id = $1 AND user_id = $3")
            .bind(conversation)
            .bind(&now)
            .bind(user.0)
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
        let mut db = self.store.tenant_read(user).await?;
        let plan: Option<String> = sqlx::query_scalar(
            "SELECT plan FROM messages WHERE conversation_id = $1 AND user_id = $2 AND plan IS NOT NULL
             ORDER BY id DESC LIMIT 1",
        )
        .bind(conversation)
        .bind(user.0)
        .fetch_optional(&mut *db)
        .await?;
        db.commit().await?;
        plan.map(|p| serde_json::from_str(&p).map_err(|e| BackendError::Corrupt(format!("stored plan: {e}"))))
            .transpose()
    }

    /// A conversation with its messages, for its owner only.
    pub async fn conversation(&self, user: UserId, id: &str) -> Result<ConversationView, BackendError> {
        let mut db = self.store.tenant_read(user).await?;
        let row = sqlx::query("SELECT title FROM conversations WHERE id = $1 AND user_id = $2")
            .bind(id)
            .bind(user.0)
            .fetch_optional(&mut *db)
            .await?
            .ok_or(BackendError::NotFound)?;
        let title: String = row.get(0);
        let rows = sqlx::query(
            "SELECT role, content, events FROM messages WHERE conversation_id = $1 AND user_id = $2 ORDER BY id",
        )
        .bind(id)
        .bind(user.0)
        .fetch_all(&mut *db)
        .await?;
        db.commit().await?;
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

    /// The user's conversations, most recently active first (at most `limit`).
    pub async fn conversations(
        &self,
        user: UserId,
        limit: u32,
    ) -> Result<Vec<ConversationSummary>, BackendError> {
        let mut db = self.store.tenant_read(user).await?;
        let rows = sqlx::query(
            "SELECT id, title, updated_at FROM conversations WHERE user_id = $1
             ORDER BY updated_at DESC, created_at DESC, id LIMIT $2",
        )
        .bind(user.0)
        .bind(i64::from(limit))
        .fetch_all(&mut *db)
        .await?;
        db.commit().await?;
        Ok(rows
            .into_iter()
            .map(|r| ConversationSummary { id: r.get(0), title: r.get(1), updated_at: r.get(2) })
            .collect())
    }

    /// Renames one of the user's conversations; anyone else's is `NotFound`.
    pub async fn rename_conversation(&self, user: UserId, id: &str, title: &str) -> Result<(), BackendError> {
        let title = title.trim();
        let n = title.chars().count();
        if n == 0 || n > MAX_TITLE_CHARS {
            return Err(BackendError::BadRequest(format!("a title has 1 to {MAX_TITLE_CHARS} characters")));
        }
        if agent::text::hidden_control(title).is_some() {
            return Err(BackendError::BadRequest(
                "a title may not contain control or text-direction characters".into(),
            ));
        }
        let query = sqlx::query("UPDATE conversations SET title = $3 WHERE id = $1 AND user_id = $2")
            .bind(id)
            .bind(user.0);
        if !self.store.change(user, query.bind(title)).await? {
            return Err(BackendError::NotFound);
        }
        Ok(())
    }

    /// Deletes one of the user's conversations with its messages; anyone else's is
    /// `NotFound`.
    pub async fn delete_conversation(&self, user: UserId, id: &str) -> Result<(), BackendError> {
        let query =
            sqlx::query("DELETE FROM conversations WHERE id = $1 AND user_id = $2").bind(id).bind(user.0);
        if !self.store.change(user, query).await? {
            return Err(BackendError::NotFound);
        }
        Ok(())
    }

    /// Deletes every conversation not active for `days` days (the retention period),
    /// messages included. Returns how many went.
    pub async fn purge_conversations(&self, days: u32) -> Result<u64, BackendError> {
        let cutoff = crate::store::timestamp(chrono::Utc::now() - chrono::TimeDelta::days(i64::from(days)));
        match self.store.dialect() {
            Dialect::Sqlite => Ok(sqlx::query("DELETE FROM conversations WHERE updated_at < $1")
                .bind(cutoff)
                .execute(self.store.pool())
                .await?
                .rows_affected()),
            // Every user's rows: only the owner's function may delete them.
            Dialect::Postgres => {
                let n: i64 = sqlx::query_scalar("SELECT sou_purge_conversations($1)")
                    .bind(cutoff)
                    .fetch_one(self.store.pool())
                    .await?;
                Ok(u64::try_from(n).unwrap_or(0))
            }
        }
    }
}

/// Longest conversation title, in characters.
pub const MAX_TITLE_CHARS: usize = 120;

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

/// A question about a plan Sou will not run as is, offering it and neighbours; the
/// guardian's own question when it asked one.
fn low_confidence_question(parser: &Parser, plan: &ToolCallPlan, asked: Option<String>) -> Clarification {
    let locale = plan.meta.locale;
    let question = asked.filter(|q| !q.trim().is_empty()).unwrap_or_else(|| {
        match locale {
            Locale::Fr => "Je ne suis pas sûr d'avoir bien compris. Voulez-vous :",
            Locale::En => "I am not sure I understood. Did you mean:",
        }
        .to_string()
    });
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
    if let Some(p) = earlier.period_mut() {
        *p = agent::period::month(p.start.first_of_month().add_months(-1), locale);
    }
    if earlier != plan.call {
        suggestions.push(chosen(earlier));
    }
    Clarification {
        question,
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

/// Questions no plan covers, which a model may answer: advice, no recognisable
/// calculation, or a message too long to plan.
fn is_free_form(c: &Clarification) -> bool {
    c.reasons
        .iter()
        .any(|r| matches!(r.code, ReasonCode::OutOfScope | ReasonCode::NoIntent | ReasonCode::TooLong))
}

fn stopped_text(locale: Locale) -> &'static str {
    match locale {
        Locale::Fr => "Réponse arrêtée.",
        Locale::En => "Answer stopped.",
    }
}

/// What a model's failure means for the user, and what to do next. Never a key, never
/// the provider's raw text beyond its own short message.
pub fn llm_message(provider: ProviderId, e: &LlmError, locale: Locale) -> (String, String) {
    let name = provider.display_name();
    let fr = locale == Locale::Fr;
    let (code, message) = match e {
        LlmError::KeyRejected => (
            "key_rejected",
            if fr {
                format!("{name} a refusé la clé d'API. Vérifiez-la ou remplacez-la dans Réglages.")
            } else {
                format!("{name} rejected the API key. Check or replace it in Settings.")
            },
        ),
        LlmError::RateLimited { .. } => (
            "rate_limited",
            if fr {
                format!("{name} limite le nombre de requêtes. Réessayez dans une minute.")
            } else {
                format!("{name} is rate limiting requests. Try again in a minute.")
            },
        ),
        LlmError::Timeout => (
            "timeout",
            if fr {
                format!("{name} n'a pas répondu à temps (deux essais). Réessayez, ou choisissez un autre fournisseur dans Réglages.")
            } else {
                format!("{name} did not answer in time (tried twice). Try again, or choose another provider in Settings.")
            },
        ),
        LlmError::ContextOverflow => (
            "context_overflow",
            if fr {
                "La conversation est trop longue pour le modèle, même raccourcie. Commencez une nouvelle conversation.".to_string()
            } else {
                "The conversation is too long for the model, even shortened. Start a new conversation."
                    .to_string()
            },
        ),
        LlmError::EmptyReply => (
            "empty_reply",
            if fr {
                format!("{name} a renvoyé une réponse vide (deux essais). Reformulez ou réessayez.")
            } else {
                format!("{name} returned an empty reply (tried twice). Rephrase or try again.")
            },
        ),
        LlmError::Config(_) => {
            (
                "provider_config",
                if fr {
                    format!("{name} n'est pas configuré correctement. Vérifiez la clé et l'adresse dans Réglages.")
                } else {
                    format!("{name} is not configured correctly. Check its key and address in Settings.")
                },
            )
        }
        LlmError::InBand(_)
        | LlmError::Truncated
        | LlmError::Malformed(_)
        | LlmError::Status(..)
        | LlmError::Network(_) => (
            "provider_unavailable",
            if fr {
                format!("{name} est indisponible ou a interrompu sa réponse. Réessayez, ou choisissez un autre fournisseur dans Réglages.")
            } else {
                format!("{name} is unavailable or cut its answer short. Try again, or choose another provider in Settings.")
            },
        ),
    };
    (code.to_string(), message)
}

/// A code and a message safe to show; details stay in the log.
pub fn user_safe(e: &BackendError, locale: Option<Locale>) -> (String, String) {
    let fr = locale == Some(Locale::Fr);
    match e {
        BackendError::Llm { provider, error } => llm_message(*provider, error, locale.unwrap_or(Locale::En)),
        BackendError::BadRequest(m) => ("bad_request".into(), m.clone()),
        BackendError::InvalidPlan(p) => ("invalid_plan".into(), p.to_string()),
        BackendError::NotFound => {
            ("not_found".into(), if fr { "Introuvable.".into() } else { "Not found.".into() })
        }
        BackendError::Db(_) | BackendError::Corrupt(_) | BackendError::Vault(_) => (
            "internal".into(),
            if fr {
                "Une erreur interne est survenue ; rien n'a été perdu. Réessayez dans un instant.".into()
            } else {
                "Something went wrong on the server; nothing was lost. Try again in a moment.".into()
            },
        ),
    }
}

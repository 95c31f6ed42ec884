//! One message in, a stream of events out: parse, validate, decide, run, answer. The
//! HTTP API, the hydrated chat page and the no-JavaScript form all come here. A plan the
//! parser is sure of runs at once; an unsure one goes to the [`guardian`] (with a
//! model) or is asked about ([`clarify`]); a question no plan covers goes through the
//! [`router`] to the [`assistant`]'s tool loop. Every event goes out through the
//! [`emitter`], which keeps them for the stored answer.

pub mod assistant;
mod clarify;
mod free;
pub mod guardian;
mod multi;
mod parsing;
pub mod planner;
mod route;
pub mod router;
mod scoped;

use std::time::Instant;

use agent::protocol::{ChatEvent, Role, StreamStatus, Uncertainty, Usage};
pub use agent::protocol::{ChatRequest, PlanRequest};
use agent::runs::{answer_confidence, plan_base, CheckOutcome, LimitState, RunStatus, StepKind};
use agent::{Confidence, Context, Locale, ParseOutcome, Reason, ReasonCode, ToolCallPlan};
use serde_json::Value;
use tokio::sync::mpsc;

use crate::error::{llm_message, user_safe, BackendError};
use crate::ids::UserId;
use crate::llm::model::Spent;
use crate::llm::retry::Meter;
use crate::llm::{self, LlmMessage};
use crate::messages::NewMessage;
use crate::providers::Resolved;
use crate::registry::Registry;
pub use crate::runs::emitter::ChatStream;
use crate::runs::emitter::Emitter;
use crate::runs::record::Clock;
use crate::runs::steps;
use crate::runs::steps::ToolCx;
use crate::sou::Sou;
use crate::widgets::Visitor;
use agent::widgets::WidgetScope;
use clarify::{is_free_form, low_confidence_question};
use guardian::Verdict;
use multi::{plan_title, Proposed};
use route::{Facts, Read, Review, Route};
use scoped::{outside_scope, within};

/// Longest message accepted, in characters.
pub const MAX_MESSAGE_CHARS: usize = agent::protocol::MAX_CHAT_MESSAGE_CHARS;

/// One message to answer, with what it is answered in the light of.
#[derive(Clone, Copy)]
struct Asked<'a> {
    /// Who answers: a write is proposed through it.
    sou: &'a Sou,
    user: UserId,
    message: &'a str,
    locale: Option<Locale>,
    previous: Option<&'a ToolCallPlan>,
    conversation: &'a str,
    /// A widget's visitor asks: only what the site allows, and never a model.
    scope: Option<&'a WidgetScope>,
}

/// A message the parser is not sure of, and what a model needs to look at it.
struct Unsure<'a> {
    parser: &'a agent::Parser,
    models: &'a Resolved,
    /// Said with the answer (a usage limit near, a chosen provider without a key…).
    warnings: Vec<String>,
}

/// What an answer did, for the final status.
struct Answered {
    plan: Option<ToolCallPlan>,
    uncertainty: Uncertainty,
    /// `parser`, `guardian` or `llm`.
    route: &'static str,
    model: Option<String>,
    first_token_ms: Option<u64>,
    /// The user stopped it.
    stopped: bool,
    /// A plan of several steps waits for the user.
    proposed: bool,
}

impl Answered {
    /// A plan of several steps, shown: nothing ran.
    fn proposed(p: Proposed) -> Answered {
        let mut done = Answered::parser(None, p.uncertainty);
        done.proposed = true;
        if let Some(model) = p.by {
            done.route = "llm";
            done.model = Some(model);
        }
        done
    }

    /// Stopped by the user while a model was asked, before any answer.
    fn stopped(plan: Option<ToolCallPlan>, warnings: Vec<String>, route: &'static str) -> Answered {
        Answered { route, stopped: true, ..Answered::parser(plan, no_answer(warnings)) }
    }

    fn parser(plan: Option<ToolCallPlan>, uncertainty: Uncertainty) -> Answered {
        Answered {
            plan,
            uncertainty,
            route: "parser",
            model: None,
            first_token_ms: None,
            stopped: false,
            proposed: false,
        }
    }
}

fn no_answer(warnings: Vec<String>) -> Uncertainty {
    Uncertainty { plan_confidence: None, answer_confidence: 0.0, warnings }
}

impl Sou {
    /// `POST /api/v1/plan`: what the parser makes of a message.
    pub async fn plan(&self, user: UserId, req: PlanRequest) -> Result<ParseOutcome, BackendError> {
        let parser = self.parser(user).await?;
        self.plan_with(&parser, req)
    }

    /// The same for a signed-in account: the session's lookup read what the parser kept
    /// for them needs, so a plan as the user types costs one database read in all.
    pub async fn plan_for(
        &self,
        account: &crate::auth::Account,
        req: PlanRequest,
    ) -> Result<ParseOutcome, BackendError> {
        let parser = self.parser_for(account).await?;
        self.plan_with(&parser, req)
    }

    fn plan_with(&self, parser: &agent::Parser, req: PlanRequest) -> Result<ParseOutcome, BackendError> {
        check_message(&req.message)?;
        let locale = parse_locale(req.locale.as_deref())?;
        let context = match &req.context {
            Some(v) => Some(typed_plan(v)?),
            None => None,
        };
        let cx =
            Context { today: req.today.unwrap_or_else(|| self.today()), locale, previous: context.as_ref() };
        Ok(parser.parse(&req.message, &cx))
    }

    /// `POST /api/v1/chat`. Errors returned here (bad request, unknown conversation)
    /// happen before any event; once the stream starts it always ends with `status`.
    pub async fn chat(&self, user: UserId, req: ChatRequest) -> Result<ChatStream, BackendError> {
        self.chat_for(user, None, req, None).await
    }

    /// A widget visitor's message (`POST /embed/{site}/chat`): answered as the site's
    /// owner, within the site's scope, in the visitor's own conversations, by the
    /// parser alone; refused once the site's visitors asked its hourly limit.
    pub async fn visitor_chat(&self, visitor: Visitor, req: ChatRequest) -> Result<ChatStream, BackendError> {
        self.chat_for(visitor.owner, Some(visitor), req, None).await
    }

    /// A message's answer; with `then`, a model's tool loop going on after a decision
    /// (`free::go_on_after`) instead of the message read.
    async fn chat_for(
        &self,
        user: UserId,
        visitor: Option<Visitor>,
        req: ChatRequest,
        then: Option<free::Continuation>,
    ) -> Result<ChatStream, BackendError> {
        let started = Instant::now();
        check_message(&req.message)?;
        let locale = parse_locale(req.locale.as_deref())?;
        let client_plan = match &req.plan {
            Some(v) => Some(Registry::get().validate(v)?),
            None => None,
        };
        if let Some(v) = &visitor {
            self.widgets.check_visitor_rate(v).await?;
        }
        let (conversation_id, new) = match (req.conversation_id.as_deref(), &visitor) {
            (Some(id), None) => {
                self.conversations().check_owner(user, id).await?;
                (id.to_string(), false)
            }
            (Some(id), Some(v)) => {
                self.widgets.check_visitor(v, id).await?;
                (id.to_string(), false)
            }
            (None, _) => (uuid::Uuid::new_v4().simple().to_string(), true),
        };
        // The plan to follow up on (the question stored below has none); a new
        // conversation has none.
        let previous = match new {
            true => None,
            false => self
                .conversations()
                .last_plan(user, &conversation_id)
                .await?
                .filter(ToolCallPlan::carries_context),
        };
        let run_locale = locale.or_else(|| agent::parser::locale_of(&req.message)).unwrap_or_default();
        // A client's plan is named from its dates, not from the label it came with.
        let client_plan = client_plan.map(|mut call| {
            agent::period::renamed(&mut call, run_locale);
            call
        });
        // The user's words are stored before anything is sent, written or asked of a
        // model; a quick answer is stored with them, in one transaction (`Emitter::stored`).
        let (run, stored) = self
            .conversations()
            .ask(user, (&conversation_id, new), &req.message, visitor.as_ref(), (run_locale, started))
            .await?;
        let run_id = run.id.clone();
        let mut committed = stored.clone();

        let (tx, rx) = mpsc::channel::<ChatEvent>(32);
        let sou = self.clone();
        let id = conversation_id.clone();
        // The answer is stored whatever happens to the client; a model's answer stops
        // when the client goes away.
        tokio::spawn(async move {
            let mut out = Emitter::after(tx, started, run, stored);
            let question = Asked {
                sou: &sou,
                user,
                message: &req.message,
                locale,
                previous: previous.as_ref(),
                conversation: &id,
                scope: visitor.as_ref().map(|v| &v.site.scope),
            };
            let outcome = match then {
                Some(c) => sou.continued(question, c, &mut out).await,
                None => sou.answer(question, client_plan, &mut out).await,
            };
            sou.finish(&question, outcome, out, started).await;
        });
        // The stream starts once the question is stored.
        if !committed.wait().await {
            return Err(BackendError::Unstored);
        }
        let events = futures::stream::unfold(rx, |mut rx| async move { rx.recv().await.map(|e| (e, rx)) });
        Ok(ChatStream { conversation_id, run_id, first_seq: 1, events: Box::pin(events) })
    }

    /// Decides what to do with a message ([`route`]) and does it, emitting the events:
    /// the parser's plan runs at once when sure; otherwise the guardian decides (with a
    /// model), or without one a low-confidence plan is asked about and a medium one
    /// runs; questions no plan covers go to the tool loop.
    async fn answer(
        &self,
        q: Asked<'_>,
        client_plan: Option<agent::ToolCall>,
        out: &mut Emitter,
    ) -> Result<Answered, BackendError> {
        let today = self.today();
        let mut tcx = ToolCx::new(&self.store, self.calendar(), q.user);
        let (parser, outcome, clock) = self.understand(&q, client_plan, today, &mut tcx).await?;
        // Only a plan the parser is sure of, that only reads, runs before the question
        // is stored (its result is sent once it is); anything else waits.
        if parsing::quick(&outcome).is_none() {
            out.stored().await?;
        }
        let visitor = q.scope.is_some();
        let read = match &outcome {
            ParseOutcome::Plan(p) => Read::Plan(p.meta.confidence),
            ParseOutcome::Clarification(c) => Read::Question { free_form: is_free_form(c) },
        };
        let mut facts = Facts {
            read,
            visitor,
            split: false,
            in_scope: true,
            model: false,
            clauses: false,
            planner_gave_none: false,
        };
        // A message that asks several things: a plan of steps, shown before it runs.
        let split = match route::may_split(read, visitor) {
            true => parser.plan_steps(q.message, &Context { today, locale: q.locale, previous: None }),
            false => None,
        };
        facts.split = split.is_some();
        if let (Route::Steps, Some(plan)) = (route::route(facts), split) {
            let mut step = agent::runs::Step::new(StepKind::Parse, plan_title(&plan));
            step.arguments = serde_json::to_value(&plan.steps).ok();
            out.step(clock, step);
            return self.propose_plan(q.user, plan, out).await.map(Answered::proposed);
        }
        out.step(clock, steps::parse(&outcome, &parser));
        // A widget's visitor: what the site does not offer is never offered as a
        // suggestion, and is refused before anything runs.
        let outcome = match q.scope {
            Some(scope) => {
                let (outcome, allowed) = within(scope, outcome);
                facts.in_scope = allowed;
                outcome
            }
            None => outcome,
        };
        let locale = match &outcome {
            ParseOutcome::Plan(p) => p.meta.locale,
            ParseOutcome::Clarification(c) => c.locale,
        };
        let mut warnings = Vec::new();
        let models = match route::needs_model(read, visitor) {
            true => self.models(q.user, locale, &mut warnings).await,
            false => None,
        };
        facts.model = models.is_some();
        // (Only the planner's route reads it: not worked out for a plan that runs at once.)
        facts.clauses = facts.model && agent::parser::steps::clauses(q.message).len() >= 2;
        let mut next = route::route(facts);
        // Several requests the parser could not split: a model's plan, shown first.
        if let (Route::Planner, Some(models)) = (next, &models) {
            if let Some(done) = self.model_plan(&parser, (q.user, q.message), locale, models, out).await {
                return Ok(done);
            }
            facts.planner_gave_none = true;
            next = route::route(facts);
        }
        let plan = match (next, outcome, &models) {
            (Route::OutsideScope, _, _) => {
                let scope = q.scope.ok_or(BackendError::NotFound)?;
                let message = outside_scope(scope, q.locale.unwrap_or_default());
                out.emit(ChatEvent::Error { code: "outside_scope".into(), message }).await;
                return Ok(Answered::parser(None, no_answer(Vec::new())));
            }
            (Route::Assistant, ParseOutcome::Clarification(c), Some(models)) => {
                let unsure = Unsure { parser: &parser, models, warnings };
                return Ok(self.free_form(q, &mut tcx, c.locale, unsure, out).await);
            }
            (_, ParseOutcome::Clarification(clarification), _) => {
                out.emit(ChatEvent::Clarify { clarification }).await;
                return Ok(Answered::parser(None, no_answer(warnings)));
            }
            (_, ParseOutcome::Plan(p), _) => p,
        };
        out.emit(ChatEvent::Plan { plan: plan.clone() }).await;
        match (next, models) {
            (Route::Run { checked }, _) => {
                let (p, u) = run_plan(&mut tcx, &q, plan, checked.weight(), warnings, out).await?;
                Ok(Answered::parser(p, u))
            }
            (Route::Guardian, Some(models)) => {
                let unsure = Unsure { parser: &parser, models: &models, warnings };
                self.guard(&q, &mut tcx, plan, unsure, out).await
            }
            // (`Route::AskAbout`: nothing else reaches here.)
            _ => {
                // No model to check a fragile plan: ask rather than run it.
                let clarification = low_confidence_question(&parser, q.message, &plan, None);
                out.emit(ChatEvent::Clarify { clarification }).await;
                let mut u = no_answer(warnings);
                u.plan_confidence = Some(Confidence::Low);
                Ok(Answered::parser(Some(plan), u))
            }
        }
    }

    /// The end of an answer: its status (what it cost, how sure it is), logged, stored
    /// with the answer's message in one transaction, then sent.
    async fn finish(
        &self,
        q: &Asked<'_>,
        outcome: Result<Answered, BackendError>,
        mut out: Emitter,
        started: Instant,
    ) {
        let (user, id, locale) = (q.user, q.conversation, q.locale);
        // The question was not stored: the request failed, and nothing of its
        // answer is sent or kept.
        if out.unstored() {
            return;
        }
        let (done, run_status) = match outcome {
            Ok(done) => {
                let status = if done.stopped && self.runs.draining() {
                    RunStatus::Interrupted
                } else if done.stopped {
                    RunStatus::Cancelled
                } else if done.proposed {
                    RunStatus::Proposed
                } else {
                    RunStatus::Done
                };
                (done, status)
            }
            Err(e) => {
                tracing::error!(error = %e, "chat answer failed");
                let (code, message) = user_safe(&e, locale);
                out.emit(ChatEvent::Error { code, message }).await;
                (Answered::parser(None, no_answer(vec![])), RunStatus::Failed)
            }
        };
        let (plan, uncertainty) = (done.plan, done.uncertainty);
        let total = out.sent.iter().find_map(|e| match e {
            ChatEvent::ToolResult(o) => crate::tools::headline(o),
            _ => None,
        });
        tracing::info!(
            user = %crate::trace::user(user),
            conversation = %crate::trace::id("conversation", id),
            route = %done.route,
            tool = %plan.as_ref().map(|p| p.call.name()).unwrap_or("-"),
            amount = %total.map(crate::trace::bucket).unwrap_or("-"),
            ms = started.elapsed().as_millis() as u64,
            "answered"
        );
        // Every model step's cost, as the trace and Settings → Usage count it.
        let spent = out.spent();
        let usage = Usage {
            input_tokens: spent.input_tokens,
            output_tokens: spent.output_tokens,
            cost_eur_micros: spent.cost_eur_micros,
            unpriced: spent.unpriced,
            model: done.model,
            route: done.route.into(),
            first_event_ms: out.first_event_ms.unwrap_or_default(),
            first_token_ms: done.first_token_ms,
        };
        let message_id = out.run.id.clone();
        let confidence = uncertainty.answer_confidence;
        let status = ChatEvent::Status {
            content: StreamStatus::Done,
            usage,
            uncertainty,
            conversation_id: Some(id.to_string()),
            message_id: Some(message_id.clone()),
        };
        out.sent.push(status.clone());
        let text = ChatEvent::words(&out.sent);
        // The answer is stored with the run's last event and end, in one transaction:
        // a client that re-attaches and sees the end finds the answer.
        out.run.end_with(&status);
        let answer = NewMessage::new(id, Some(&message_id), &text, plan.as_ref(), &out.sent);
        out.run.finish_answered(run_status, Some(confidence), answer).await;
        // What waited for the question, then the end; nothing if it was not stored.
        if out.stored().await.is_ok() {
            let _ = out.tx.send(status).await;
        }
    }

    /// The guardian's review of a plan the parser is not sure of: approved or repaired
    /// (re-validated), it runs; else Sou asks ([`route::reviewed`]).
    async fn guard(
        &self,
        q: &Asked<'_>,
        tcx: &mut ToolCx<'_>,
        plan: ToolCallPlan,
        unsure: Unsure<'_>,
        out: &mut Emitter,
    ) -> Result<Answered, BackendError> {
        let Unsure { parser, models, mut warnings } = unsure;
        let model = &models.simple;
        let providers = self.providers.as_ref().ok_or(BackendError::NotFound)?;
        let clock = Clock::now();
        let locale = plan.meta.locale;
        let meter = Meter::default();
        let review = guardian::review(providers.caller(), model, q.message, &plan, &meter);
        let Some(reviewed) = out.unless_stopped(review).await else {
            steps::stopped_while(out, clock, StepKind::Guardian, model, &meter, locale).await;
            return Ok(Answered::stopped(Some(plan), warnings, "guardian"));
        };
        // What the provider reported, a verdict that cannot be read included.
        let spent = Spent::metered(model, &meter);
        let (first_token_ms, verdict) = match reviewed {
            Ok(r) => (r.first_token_ms, Ok(r.verdict)),
            Err(e) => (None, Err(e)),
        };
        let (said, review) = match &verdict {
            Ok(Verdict::Approve) => (locale.pick("Plan approuvé", "Plan approved"), Review::Approve),
            Ok(Verdict::Repair(_)) => (locale.pick("Plan corrigé", "Plan repaired"), Review::Repair),
            Ok(Verdict::Clarify(_)) => {
                (locale.pick("Question à poser", "A question to ask"), Review::Clarify)
            }
            Ok(Verdict::InvalidRepair(_)) => (
                locale.pick("Correction refusée par le registre", "Repair refused by the registry"),
                Review::InvalidRepair,
            ),
            Err(_) => (locale.pick("Pas de verdict", "No verdict"), Review::None),
        };
        let step = steps::model(StepKind::Guardian, said, model, &spent);
        let step = match &verdict {
            Err(e) => steps::failed(step, llm_message(models.provider, e, locale).1),
            Ok(_) => step,
        };
        out.step(clock, step);
        let next = route::reviewed(review, plan.meta.confidence);
        let mut asked = None;
        let plan = match verdict {
            Ok(Verdict::Approve) => {
                let mut plan = plan;
                plan.meta.confidence_reasons.push(Reason::new(
                    ReasonCode::GuardianApproved,
                    locale,
                    &model.name,
                ));
                plan
            }
            Ok(Verdict::Repair(call)) => {
                // Its periods named in the conversation's language, not the model's.
                let mut call = *call;
                agent::period::renamed(&mut call, locale);
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
                repaired
            }
            Ok(Verdict::Clarify(question)) => {
                asked = Some(question);
                plan
            }
            Ok(Verdict::InvalidRepair(why)) => {
                tracing::warn!(why = %why, "the guardian's repair was refused by the registry");
                plan
            }
            Err(e) => {
                // No verdict: the rules for no model, and the user is told why.
                tracing::warn!(error = %e, "the guardian failed; applying the rules without a model");
                warnings.push(llm_message(models.provider, &e, locale).1);
                plan
            }
        };
        let guarded = |plan, uncertainty| Answered {
            plan,
            uncertainty,
            route: "guardian",
            model: Some(model.name.clone()),
            first_token_ms,
            stopped: false,
            proposed: false,
        };
        match next {
            Route::Run { checked } => {
                let (p, u) = run_plan(tcx, q, plan, checked.weight(), warnings, out).await?;
                Ok(guarded(p, u))
            }
            // (`Route::Ask` with the guardian's question, `Route::AskAbout` without.)
            _ => {
                let clarification = low_confidence_question(parser, q.message, &plan, asked);
                out.emit(ChatEvent::Clarify { clarification }).await;
                Ok(guarded(Some(plan), no_answer(warnings)))
            }
        }
    }

    /// The models for `user`, or `None` (with a warning when the user chose a provider
    /// that cannot be used: Sou never swaps it for another).
    async fn models(&self, user: UserId, locale: Locale, warnings: &mut Vec<String>) -> Option<Resolved> {
        let providers = self.providers.as_ref()?;
        // The month's limits: told at 80 %, no model at 100 %.
        match self.runs.limits(user).await {
            Ok(limits) => {
                if let Some(l) = limits.iter().find(|l| l.state != LimitState::Ok) {
                    warnings.push(crate::runs::usage::limit_text(l, locale));
                    if l.state == LimitState::Reached {
                        return None;
                    }
                }
            }
            Err(e) => tracing::error!(error = %e, "reading the usage limits failed"),
        }
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

    /// A write plan, whoever made it (the parser, a model, the client): never run here,
    /// only proposed — its dry run shown, waiting for the user's approval.
    pub(crate) async fn gate(
        &self,
        user: UserId,
        conversation: &str,
        plan: ToolCallPlan,
        warnings: Vec<String>,
        out: &mut Emitter,
    ) -> Result<(Option<ToolCallPlan>, Uncertainty), BackendError> {
        use crate::error::UserError;
        let locale = plan.meta.locale;
        let clock = Clock::now();
        let proposed = self.approvals.propose(user, Some(conversation), &plan).await;
        let step = steps::tool(
            &plan.call,
            locale.pick("Simulation, en attente d'approbation", "Dry run, waiting for approval"),
        );
        out.step(
            clock,
            match &proposed {
                Err(e) => steps::failed(step, e.message(locale)),
                Ok(_) => step,
            },
        );
        match proposed {
            Ok(approval) => {
                out.emit(ChatEvent::ApprovalRequired { approval: Box::new(approval) }).await;
                let text = locale.pick(
                    "Voici ce qui changerait. Rien n'est modifié tant que vous n'avez pas approuvé.",
                    "Here is what would change. Nothing changes until you approve.",
                );
                out.emit(ChatEvent::text(text)).await;
            }
            Err(crate::approvals::WriteError::Backend(e)) => return Err(e),
            Err(e) => {
                out.emit(ChatEvent::Error { code: e.code().into(), message: e.message(locale) }).await;
            }
        }
        let uncertainty =
            Uncertainty { plan_confidence: Some(plan.meta.confidence), answer_confidence: 1.0, warnings };
        Ok((Some(plan), uncertainty))
    }

    /// The conversation before the message being answered, as a model reads it: the
    /// texts of the last turns, starting with the user's. Read only when a model answers.
    async fn history(&self, user: UserId, conversation: &str) -> Result<Vec<LlmMessage>, BackendError> {
        let mut out: Vec<LlmMessage> = self
            .conversations()
            .earlier_turns(user, conversation)
            .await?
            .into_iter()
            .filter_map(|(role, content)| {
                let role = match role {
                    Role::User => llm::Role::User,
                    Role::Assistant => llm::Role::Assistant,
                };
                assistant::history_message(role, &content)
            })
            .collect();
        // A conversation for a model starts with the user.
        while out.first().is_some_and(|m| m.role != llm::Role::User) {
            out.remove(0);
        }
        Ok(out)
    }
}

/// A plan's write is proposed as the chat proposes any (`Sou::gate`).
impl crate::runs::plans::Gate for Sou {
    fn propose<'a>(
        &'a self,
        user: UserId,
        conversation: &'a str,
        plan: ToolCallPlan,
        out: &'a mut Emitter,
    ) -> std::pin::Pin<Box<dyn std::future::Future<Output = Result<(), BackendError>> + Send + 'a>> {
        Box::pin(async move { self.gate(user, conversation, plan, Vec::new(), out).await.map(|_| ()) })
    }

    fn owned(&self) -> std::sync::Arc<dyn crate::runs::plans::Gate> {
        std::sync::Arc::new(self.clone())
    }
}

/// Runs a plan and writes its answer. `checked` is the answer confidence a model's
/// review gives it (0 when no model looked at it). A widget's visitor gets only
/// what the site's `scope` allows: anything else is refused, and runs nothing.
async fn run_plan(
    tcx: &mut ToolCx<'_>,
    q: &Asked<'_>,
    plan: ToolCallPlan,
    checked: f32,
    mut warnings: Vec<String>,
    out: &mut Emitter,
) -> Result<(Option<ToolCallPlan>, Uncertainty), BackendError> {
    let (sou, user, scope) = (q.sou, q.user, q.scope);
    let locale = plan.meta.locale;
    if let Some(scope) = scope.filter(|s| !s.allows(&plan.call)) {
        let message = outside_scope(scope, locale);
        out.emit(ChatEvent::Error { code: "outside_scope".into(), message }).await;
        return Ok((None, no_answer(warnings)));
    }
    if plan.call.is_write() {
        return sou.gate(user, q.conversation, plan, warnings, out).await;
    }
    let (mut output, checks) = steps::run_checked(tcx, out, &plan.call, locale, plan.meta.today).await?;
    if let (Some(scope), agent::ToolOutput::DatasetInfo(info)) = (scope, &mut output) {
        info.datasets.retain(|d| scope.datasets.contains(&d.name));
    }
    out.emit(ChatEvent::ToolResult(output.clone())).await;

    // Sou's own sentence quotes labels from the bank and cells from files: sent as text.
    out.emit(agent::protocol::ChatEvent::answer(&output, locale)).await;
    warnings.extend(
        plan.meta
            .confidence_reasons
            .iter()
            .filter(|r| r.code.cap() < Confidence::High)
            .map(|r| r.text.clone()),
    );
    // What the checks found wrong is said, and lowers the confidence.
    warnings.extend(checks.iter().filter(|c| c.outcome == CheckOutcome::Failed).map(|c| c.text.clone()));
    let answer_confidence = answer_confidence(plan_base(plan.meta.confidence, checked), &checks);
    let uncertainty =
        Uncertainty { plan_confidence: Some(plan.meta.confidence), answer_confidence, warnings };
    Ok((Some(plan), uncertainty))
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
    let mut plan: ToolCallPlan =
        serde_json::from_value(v.clone()).map_err(|e| BackendError::BadRequest(format!("context: {e}")))?;
    agent::period::renamed(&mut plan.call, plan.meta.locale);
    Ok(plan)
}

//! A question no plan covers: the router, then the model's tool loop, streamed — and
//! that loop going on after a write it proposed is decided: a new answer in the same
//! conversation, its question what the person decided ("✓ Approuvé : …"), the write's
//! result given to the model as its call's.

use agent::protocol::{ChatEvent, ChatRequest, Uncertainty};
use agent::runs::{CheckOutcome, StepKind};
use agent::{ApprovalState, Context, Locale};

use super::router::Complexity;
use super::{answer_confidence, assistant, llm_message, no_answer, router, Answered, Asked, Unsure};
use crate::error::BackendError;
use crate::ids::UserId;
use crate::llm::model::{Model, Spent};
use crate::llm::retry::Meter;
use crate::runs::emitter::{self, Emitter};
use crate::runs::record::Clock;
use crate::runs::steps::{self, ToolCx};
use crate::sou::Sou;

/// A tool loop to go on with, and what became of the write it waited for.
pub(crate) struct Continuation {
    pub(crate) paused: crate::approvals::Paused,
    pub(crate) result: String,
}

impl Sou {
    /// A question no plan covers: the router, then the tool loop, streamed.
    pub(super) async fn free_form(
        &self,
        q: Asked<'_>,
        tcx: &mut ToolCx<'_>,
        locale: Locale,
        unsure: Unsure<'_>,
        out: &mut Emitter,
    ) -> Answered {
        let Some(providers) = self.providers.as_ref() else {
            return Answered::parser(None, no_answer(unsure.warnings));
        };
        let models = unsure.models;
        let clock = Clock::now();
        let meter = Meter::default();
        let Some(route) =
            out.unless_stopped(router::route(providers.caller(), models, q.message, &meter)).await
        else {
            steps::stopped_while(out, clock, StepKind::Route, &models.simple, &meter, locale).await;
            return Answered::stopped(None, unsure.warnings, "llm");
        };
        let model = match route.complexity {
            Complexity::Simple => &models.simple,
            Complexity::Complex => &models.complex,
        };
        let chosen = format!("{} · {:?}", model.name, route.basis).to_lowercase();
        let step = match route.basis {
            router::Basis::Classified | router::Basis::Fallback => {
                steps::model(StepKind::Route, chosen, &models.simple, &Spent::metered(&models.simple, &meter))
            }
            _ => agent::runs::Step::new(StepKind::Route, chosen),
        };
        out.step(clock, step);
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
            conversation: q.conversation,
            message: q.message,
            history,
            locale,
            today,
            started: out.started,
        };
        let by = assistant::Answerer { sou: self, providers, model };
        let answered = assistant::answer(by, tcx, &route, question, out).await;
        self.model_answered(unsure, model, answered, locale, out).await
    }

    /// What a model's tool loop did, told and summed up: its ending said, the names it
    /// mentioned offered, the answer's confidence and warnings.
    async fn model_answered(
        &self,
        unsure: Unsure<'_>,
        model: &Model,
        answered: Result<assistant::Outcome, assistant::Failed>,
        locale: Locale,
        out: &mut Emitter,
    ) -> Answered {
        let Unsure { parser, models, mut warnings } = unsure;
        let today = self.today();
        let (outcome, error) = match answered {
            Ok(o) => (o, None),
            Err(f) => (f.outcome, Some(f.error)),
        };
        if let Some(e) = &error {
            tracing::warn!(error = %e, provider = %models.provider, "the model's answer failed");
            let (code, message) = llm_message(models.provider, e, locale);
            out.emit(ChatEvent::Error { code, message }).await;
        }
        match outcome.ending {
            assistant::Ending::Answered | assistant::Ending::Awaiting => {}
            assistant::Ending::Stopped if self.runs.draining() => {
                let message = match locale {
                    Locale::Fr => {
                        "Sou redémarrait : cette réponse a été interrompue. Posez la question à nouveau."
                    }
                    Locale::En => "Sou was restarting: this answer was cut short. Ask again.",
                };
                out.emit(ChatEvent::Error { code: "interrupted".into(), message: message.into() }).await;
            }
            assistant::Ending::Stopped => {
                out.emit(ChatEvent::Error {
                    code: "stopped".into(),
                    message: emitter::stopped_text(locale).into(),
                })
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
        // (A write waiting for the person's decision is about their data.)
        let grounded = outcome.tools_run > 0 || outcome.ending == assistant::Ending::Awaiting;
        if !grounded {
            warnings.push(match locale {
                Locale::Fr => {
                    "Cette réponse n'utilise aucune de vos données : le modèle a répondu de lui-même.".into()
                }
                Locale::En => "This answer uses none of your data: the model answered on its own.".into(),
            });
        }
        let base = match (&error, outcome.ending, grounded) {
            (None, assistant::Ending::Answered | assistant::Ending::Awaiting, true) => 0.8,
            (None, assistant::Ending::Answered, false) => 0.6,
            _ => 0.0,
        };
        warnings.extend(
            outcome.checks.iter().filter(|c| c.outcome == CheckOutcome::Failed).map(|c| c.text.clone()),
        );
        let answer_confidence = answer_confidence(base, &outcome.checks);
        Answered {
            plan: None,
            uncertainty: Uncertainty { plan_confidence: None, answer_confidence, warnings },
            route: "llm",
            model: Some(model.name.clone()),
            first_token_ms: outcome.first_token_ms,
            stopped: outcome.ending == assistant::Ending::Stopped,
            proposed: false,
        }
    }

    /// The answer that goes on with a model's tool loop after the person decided.
    pub(super) async fn continued(
        &self,
        q: Asked<'_>,
        c: Continuation,
        out: &mut Emitter,
    ) -> Result<Answered, BackendError> {
        out.stored().await?;
        let locale = c.paused.locale;
        let mut warnings = Vec::new();
        let (Some(models), Some(providers)) =
            (self.models(q.user, locale, &mut warnings).await, self.providers.as_ref())
        else {
            // No model now (removed, or the month's limit reached): said, nothing asked.
            let message = locale.pick(
                "Aucun modèle n'est disponible pour continuer cette réponse.",
                "No model is available to go on with this answer.",
            );
            out.emit(ChatEvent::Error { code: "provider_config".into(), message: message.into() }).await;
            return Ok(Answered::parser(None, no_answer(warnings)));
        };
        let model = if !c.paused.complex && models.simple.name == c.paused.model {
            &models.simple
        } else {
            &models.complex
        };
        let parser = self.parser(q.user).await?;
        let question = assistant::Question {
            user: q.user,
            conversation: q.conversation,
            message: q.message,
            history: Vec::new(),
            locale,
            today: self.today(),
            started: out.started,
        };
        let by = assistant::Answerer { sou: self, providers, model };
        let answered = assistant::resume(
            by,
            &mut ToolCx::new(&self.store, self.calendar(), q.user),
            c.paused,
            &c.result,
            question,
            out,
        )
        .await;
        let unsure = Unsure { parser: &parser, models: &models, warnings };
        Ok(self.model_answered(unsure, model, answered, locale, out).await)
    }

    /// Once a write a model's tool loop proposed is decided, the loop goes on: the run
    /// that does, if any.
    pub(crate) async fn go_on_after(&self, user: UserId, approval: &agent::Approval) -> Option<String> {
        let result = match approval.state {
            ApprovalState::Executed => {
                let summary =
                    approval.change.as_ref().map_or(approval.title.as_str(), |c| c.summary.as_str());
                format!("Done, the user approved it: {summary}")
            }
            ApprovalState::Failed => {
                format!("The change failed: {}", approval.reason.as_deref().unwrap_or("no reason given"))
            }
            ApprovalState::Rejected => "The user rejected this change: nothing changed.".to_string(),
            _ => return None,
        };
        let (paused, conversation) = match self.approvals.take_paused(user, &approval.id).await {
            Ok(Some(p)) => p,
            Ok(None) => return None,
            Err(e) => {
                tracing::error!(error = %e, "reading the tool loop kept with an approval failed");
                return None;
            }
        };
        let locale = paused.locale;
        let title = &approval.title;
        let message = match approval.state {
            ApprovalState::Rejected => {
                locale.pick(format!("✗ Refusé : {title}"), format!("✗ Rejected: {title}"))
            }
            ApprovalState::Failed => locale.pick(format!("⚠ Échec : {title}"), format!("⚠ Failed: {title}")),
            _ => locale.pick(format!("✓ Approuvé : {title}"), format!("✓ Approved: {title}")),
        };
        let req = ChatRequest {
            message,
            conversation_id: Some(conversation),
            plan: None,
            locale: Some(locale.as_str().into()),
        };
        // The answer is written and stored whoever follows it.
        match self.chat_for(user, None, req, Some(Continuation { paused, result })).await {
            Ok(stream) => Some(stream.run_id),
            Err(e) => {
                tracing::error!(error = %e, "going on with a model's tool loop after an approval failed");
                None
            }
        }
    }
}

impl crate::approvals::Resume for Sou {
    fn go_on<'a>(
        &'a self,
        user: UserId,
        approval: &'a agent::Approval,
    ) -> std::pin::Pin<Box<dyn std::future::Future<Output = Option<String>> + Send + 'a>> {
        Box::pin(self.go_on_after(user, approval))
    }
}

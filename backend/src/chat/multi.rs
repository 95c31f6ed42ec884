//! A message that asks several things: the parser's plan of steps, or — with a model
//! configured, when the parser could not split it — the planner's; checked by the
//! registry step by step, stored with the run and shown. Nothing runs until the user
//! accepts it (`crate::runs::plans`).

use agent::protocol::{ChatEvent, Uncertainty};
use agent::runs::StepKind;
use agent::{Locale, Parser};

use super::{planner, Answered};
use crate::error::{llm_message, BackendError};
use crate::ids::UserId;
use crate::llm::model::Spent;
use crate::llm::retry::Meter;
use crate::providers::Resolved;
use crate::runs::emitter::Emitter;
use crate::runs::record::Clock;
use crate::runs::steps;
use crate::sou::Sou;

/// A plan shown to the user: what the answer's status says of it.
pub(super) struct Proposed {
    pub(super) uncertainty: Uncertainty,
    /// The planner made it: the model.
    pub(super) by: Option<String>,
}

impl Sou {
    /// A plan of several steps: checked by the registry step by step, stored, shown.
    /// Nothing runs until the user accepts it.
    pub(super) async fn propose_plan(
        &self,
        user: UserId,
        plan: agent::runs::RunPlan,
        out: &mut Emitter,
    ) -> Result<Proposed, BackendError> {
        for s in &plan.steps {
            crate::registry::check_call(&s.call)?;
        }
        let locale = plan.locale;
        self.runs.store_plan(user, &out.run.id, &plan).await?;
        let confidence = plan.confidence;
        let n = plan.steps.len();
        out.emit(ChatEvent::PlanProposed { run: out.run.id.clone(), plan: Box::new(plan) }).await;
        out.emit(ChatEvent::text(locale.pick(
            format!("Voici un plan en {n} étapes. Rien ne s'exécute avant votre accord : acceptez-le, modifiez-le ou refusez-le."),
            format!("Here is a plan of {n} steps. Nothing runs until you agree: accept, edit or reject it."),
        )))
        .await;
        Ok(Proposed {
            uncertainty: Uncertainty {
                plan_confidence: Some(confidence),
                answer_confidence: 1.0,
                warnings: Vec::new(),
            },
            by: None,
        })
    }

    /// The planner's plan for a message of several requests, proposed (or the answer
    /// stopped while the planner was asked); `None` (the usual route answers) when it
    /// gave none the registry accepts.
    pub(super) async fn model_plan(
        &self,
        parser: &Parser,
        (user, message): (UserId, &str),
        locale: Locale,
        models: &Resolved,
        out: &mut Emitter,
    ) -> Option<Answered> {
        let providers = self.providers.as_ref()?;
        let model = &models.complex;
        let clock = Clock::now();
        let meter = Meter::default();
        let planned =
            planner::plan(providers.caller(), model, parser, (message, locale, self.today()), &meter);
        let Some(planned) = out.unless_stopped(planned).await else {
            steps::stopped_while(out, clock, StepKind::Planner, model, &meter, locale).await;
            return Some(Answered::stopped(None, Vec::new(), "llm"));
        };
        let spent = Spent::metered(model, &meter);
        match planned {
            Ok(planned) => {
                let title = match (&planned.plan, locale) {
                    (Some(p), _) => plan_title(p),
                    (None, Locale::Fr) => "Pas de plan utilisable".to_string(),
                    (None, Locale::En) => "No usable plan".to_string(),
                };
                out.step(clock, steps::model(StepKind::Planner, title, model, &spent));
                if let Some(why) = &planned.refused {
                    tracing::info!(why = %why, "the planner's plan was not used");
                }
                let plan = planned.plan?;
                match self.propose_plan(user, plan, out).await {
                    Ok(mut done) => {
                        done.by = Some(model.name.clone());
                        Some(Answered::proposed(done))
                    }
                    Err(e) => {
                        tracing::warn!(error = %e, "proposing the planner's plan failed");
                        None
                    }
                }
            }
            Err(e) => {
                let step =
                    steps::model(StepKind::Planner, locale.pick("Pas de plan", "No plan"), model, &spent);
                out.step(clock, steps::failed(step, llm_message(models.provider, &e, locale).1));
                tracing::warn!(error = %e, "the planner failed; the usual route answers");
                None
            }
        }
    }
}

/// A plan's title in a trace: its steps' names.
pub(super) fn plan_title(plan: &agent::runs::RunPlan) -> String {
    let names: Vec<&str> = plan.steps.iter().map(|s| s.call.name()).collect();
    plan.locale.pick(
        format!("Plan en {} étapes : {}", names.len(), names.join(", ")),
        format!("A plan of {} steps: {}", names.len(), names.join(", ")),
    )
}

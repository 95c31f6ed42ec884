//! What the user's parser makes of a message, and that the parser is still theirs.
//!
//! The parser kept for a user (`crate::vocabulary`) is used at once; their vocabulary
//! stamp is read meanwhile: alongside the plan's read when the plan runs at once, else
//! before anything else is done. A parser built before a change to their categories,
//! merchants, accounts, datasets or currency is never acted on: the message is parsed
//! again with the new one, and the read made with the old one is dropped.

use std::sync::Arc;

use agent::{Confidence, Context, Date, ParseOutcome, Parser, Reason, ReasonCode, ToolCall, ToolCallPlan};

use super::Asked;
use crate::error::BackendError;
use crate::runs::record::Clock;
use crate::runs::steps::{PendingRead, Prefetched, ToolCx};
use crate::sou::Sou;
use crate::tools::{self, Known};
use crate::vocabulary;

/// The plan that runs at once, before the question is stored: one the parser is sure
/// of, that only reads.
pub(super) fn quick(outcome: &ParseOutcome) -> Option<&ToolCallPlan> {
    match outcome {
        ParseOutcome::Plan(p) if p.meta.confidence == Confidence::High && !p.call.is_write() => Some(p),
        _ => None,
    }
}

impl Sou {
    /// The user's parser (a widget's: the site's vocabulary), what it made of the
    /// message, and the parse step's clock. The parser's vocabulary is what tools take
    /// labels and the currency from (`tcx.known`); a quick plan's read may already be
    /// begun (`tcx.prefetched`).
    pub(super) async fn understand(
        &self,
        q: &Asked<'_>,
        client_plan: Option<ToolCall>,
        today: Date,
        tcx: &mut ToolCx<'_>,
    ) -> Result<(Arc<Parser>, ParseOutcome, Clock), BackendError> {
        let clock = Clock::now();
        if let Some(scope) = q.scope {
            let parser = Arc::new(Parser::new(scope.vocabulary(self.vocabulary(q.user).await?)));
            let outcome = parse(&parser, q, client_plan, today);
            return Ok((parser, outcome, clock.stop()));
        }
        let Some((kept, parser)) = self.parser_kept(q.user) else {
            let parser = self.parser_stamped(q.user, None).await?;
            tcx.known = Known::from(parser.clone());
            let outcome = parse(&parser, q, client_plan.clone(), today);
            return Ok((parser, outcome, clock.stop()));
        };
        let outcome = parse(&parser, q, client_plan.clone(), today);
        let parsed = clock.stop();
        let known = Known::from(parser.clone());
        let (stamp, read) = match quick(&outcome) {
            Some(plan) => {
                // The read goes on while the stamp is read; once the stamp says the
                // parser is still the user's, the plan can be shown while it ends.
                let clock = Clock::now();
                let (store, user, known, call) =
                    (self.store.clone(), q.user, known.clone(), plan.call.clone());
                let (locale, day) = (plan.meta.locale, plan.meta.today);
                let read: PendingRead =
                    Box::pin(async move { tools::read(&store, user, &known, &call, locale, day).await });
                let stamp = Box::pin(vocabulary::stamp(&self.store, q.user));
                let (stamp, read) = match futures::future::select(stamp, read).await {
                    futures::future::Either::Left((stamp, read)) => (stamp, read),
                    futures::future::Either::Right((done, stamp)) => {
                        (stamp.await, Box::pin(std::future::ready(done)) as PendingRead)
                    }
                };
                (stamp?, Some(Prefetched { call: plan.call.clone(), locale, today: day, clock, read }))
            }
            None => (vocabulary::stamp(&self.store, q.user).await?, None),
        };
        if stamp == kept {
            tcx.known = known;
            tcx.prefetched = read;
            return Ok((parser, outcome, parsed));
        }
        let parser = self.parser_stamped(q.user, Some(stamp)).await?;
        tcx.known = Known::from(parser.clone());
        let outcome = parse(&parser, q, client_plan, today);
        Ok((parser, outcome, clock.stop()))
    }
}

/// The message parsed. The server never trusts a client's plan: it is validated (done
/// by the caller), and unless it is exactly what the server parsed, it is run as the
/// user's explicit choice, not as the parser's inference.
fn parse(parser: &Parser, q: &Asked<'_>, client_plan: Option<ToolCall>, today: Date) -> ParseOutcome {
    let outcome = parser.parse(q.message, &Context { today, locale: q.locale, previous: q.previous });
    match (client_plan, outcome) {
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
    }
}

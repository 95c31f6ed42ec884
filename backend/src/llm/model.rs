//! A model ready to call, and the one way Sou calls it: the context budget applied,
//! the retry policy around the call, and a context overflow answered by truncating the
//! conversation further and trying again.

use std::sync::Arc;
use std::time::{Duration, Instant};

use futures::StreamExt;
use serde_json::Value;

use super::catalog::{self, ProviderId};
use super::context;
use super::retry::{self, EventStream, Meter, Pause, RealPause, RetryPolicy};
use super::{Endpoint, LlmError, LlmRequest, StreamEvent};

/// A model at a provider. `Debug` shows no key (see [`Endpoint`]).
#[derive(Clone, Debug)]
pub struct Model {
    pub provider: ProviderId,
    pub name: String,
    pub endpoint: Endpoint,
}

/// Times out connections and stalled streams; shared by every call.
#[derive(Clone)]
pub struct Caller {
    client: reqwest::Client,
    policy: RetryPolicy,
    pause: Arc<dyn Pause>,
    /// The context budget in tokens (reply included).
    pub budget: u32,
}

/// How many times a context overflow is answered by halving the budget.
const OVERFLOW_RETRIES: u32 = 2;

/// What a call took, for logs and tests.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CallInfo {
    /// Requests sent, retries included.
    pub requests: u32,
    /// Messages dropped from the start of the conversation to fit the budget.
    pub dropped: usize,
}

impl Caller {
    pub fn new(connect: Duration, read: Duration, budget: u32) -> Result<Caller, LlmError> {
        Ok(Caller {
            client: super::http_client(connect, read)?,
            policy: RetryPolicy::default(),
            pause: Arc::new(RealPause),
            budget,
        })
    }

    /// The same caller with another retry policy and clock (tests).
    pub fn with_retry(mut self, policy: RetryPolicy, pause: Arc<dyn Pause>) -> Caller {
        self.policy = policy;
        self.pause = pause;
        self
    }

    pub fn client(&self) -> &reqwest::Client {
        &self.client
    }

    /// Sends `request` to `model`: fitted to the budget, retried by the [`retry`] policy, and on a
    /// context overflow truncated to half the budget and sent again (twice at most).
    /// Every token the provider reports is counted in `meter`, whatever becomes of the
    /// call (stopped, failed, retried).
    pub async fn stream(
        &self,
        model: &Model,
        mut request: LlmRequest,
        meter: &Meter,
    ) -> (Result<EventStream, LlmError>, CallInfo) {
        request.model = model.name.clone();
        let mut info = CallInfo::default();
        let mut budget = self.budget;
        let mut overflows = 0;
        loop {
            info.dropped += context::fit(&mut request, budget).dropped;
            let attempted = retry::stream(
                &self.policy,
                self.pause.as_ref(),
                retry::Target {
                    wire: model.provider.wire(),
                    client: &self.client,
                    endpoint: &model.endpoint,
                },
                &request,
                meter,
            )
            .await;
            info.requests += attempted.attempts;
            match attempted.result {
                Err(LlmError::ContextOverflow)
                    if overflows < OVERFLOW_RETRIES && request.messages.len() > 1 =>
                {
                    overflows += 1;
                    budget =
                        context::shrink(budget.min(context::request_tokens(&request) + request.max_tokens));
                    tracing::warn!(budget, "context overflow: truncating the conversation and retrying");
                }
                result => return (result, info),
            }
        }
    }

    /// A call whose reply Sou reads whole (the guardian, the router, the planner); its
    /// tokens are counted in `meter`.
    pub async fn complete(
        &self,
        model: &Model,
        request: LlmRequest,
        meter: &Meter,
    ) -> Result<Reply, LlmError> {
        let started = Instant::now();
        let (result, _) = self.stream(model, request, meter).await;
        let mut events = result?;
        let mut reply = Reply::default();
        while let Some(event) = events.next().await {
            match event? {
                StreamEvent::TextDelta(t) => {
                    reply.first_token_ms.get_or_insert_with(|| elapsed_ms(started));
                    reply.text.push_str(&t);
                }
                StreamEvent::ToolCall { id, name, arguments } => {
                    reply.first_token_ms.get_or_insert_with(|| elapsed_ms(started));
                    reply.tool_calls.push((id, name, arguments));
                }
                StreamEvent::Usage { .. } | StreamEvent::Done { .. } => {}
            }
        }
        Ok(reply)
    }
}

pub fn elapsed_ms(since: Instant) -> u64 {
    u64::try_from(since.elapsed().as_millis()).unwrap_or(u64::MAX)
}

/// A reply read whole.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Reply {
    pub text: String,
    pub tool_calls: Vec<(String, String, Value)>,
    pub first_token_ms: Option<u64>,
}

impl Reply {
    /// The outermost JSON object in the text (code fences and prose around it allowed):
    /// how models answer a structured question when they do not use a tool.
    pub fn json_in_text(&self) -> Option<Value> {
        let start = self.text.find('{')?;
        let end = self.text.rfind('}')?;
        serde_json::from_str(self.text.get(start..=end)?).ok()
    }
}

/// Tokens and money spent over one or more calls.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Spent {
    pub input_tokens: u64,
    pub output_tokens: u64,
    pub cost_eur_micros: u64,
    /// True when a model without a known price took part: the cost is then a floor.
    pub unpriced: bool,
}

impl Spent {
    pub fn add(&mut self, model: &Model, input: u64, output: u64) {
        self.input_tokens = self.input_tokens.saturating_add(input);
        self.output_tokens = self.output_tokens.saturating_add(output);
        match catalog::price(model.provider, &model.name) {
            Some(p) => {
                self.cost_eur_micros = self.cost_eur_micros.saturating_add(p.cost_micros(input, output))
            }
            None => self.unpriced = true,
        }
    }

    /// What `model`'s call counted in `meter` cost.
    pub fn metered(model: &Model, meter: &Meter) -> Spent {
        let mut spent = Spent::default();
        let (input, output) = meter.tokens();
        if input > 0 || output > 0 {
            spent.add(model, input, output);
        }
        spent
    }

    pub fn merge(&mut self, other: &Spent) {
        self.input_tokens = self.input_tokens.saturating_add(other.input_tokens);
        self.output_tokens = self.output_tokens.saturating_add(other.output_tokens);
        self.cost_eur_micros = self.cost_eur_micros.saturating_add(other.cost_eur_micros);
        self.unpriced |= other.unpriced;
    }
}

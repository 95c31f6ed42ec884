//! The retry policy on top of [`super::stream`].
//!
//! - `RateLimited` (429): up to [`RetryPolicy::max_retries`] retries (2 by default),
//!   waiting `retry-after` when the provider gave one (capped by `max_delay`), else
//!   exponential backoff with jitter.
//! - `Timeout`, `Network`: one retry each, then the error.
//! - `EmptyReply`: one retry with another temperature ([`empty_reply_temperature`]),
//!   as the same request would likely get the same nothing.
//! - `ContextOverflow`: returned as is. Truncating the conversation is the caller's job
//!   (it owns the token budget: system prompt first, oldest turns dropped first); it may
//!   then call again with the shorter request.
//! - `KeyRejected`, `InBand`, `Malformed`, `Truncated`, `Status`, `Config`: no retry.
//!
//! Retries happen only before the first content event (a [`StreamEvent::TextDelta`] or
//! [`StreamEvent::ToolCall`]) reaches the caller. Until then every event is held back,
//! so a retried attempt never shows the caller anything twice; once content has been
//! forwarded, errors come through as they are. The provider is never switched: every
//! attempt goes to the same endpoint with the same request.
//!
//! Every attempt's tokens are counted in the call's [`Meter`], those of an attempt that
//! failed and was retried included.
//!
//! Time is injected through [`Pause`] so tests neither sleep nor depend on randomness.

use std::collections::VecDeque;
use std::future::Future;
use std::hash::{BuildHasher, Hasher};
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use futures::{Stream, StreamExt};

use super::{Endpoint, LlmError, LlmRequest, StreamEvent, Wire};

/// How hard to retry a rate-limited call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Retries after a 429 (2 by default).
    pub max_retries: u32,
    /// The first backoff; each further one doubles it.
    pub base_delay: Duration,
    /// No wait is longer, `retry-after` included.
    pub max_delay: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            max_retries: 2,
            base_delay: Duration::from_millis(500),
            max_delay: Duration::from_secs(20),
        }
    }
}

impl RetryPolicy {
    /// The exponential backoff before retry number `retry` (0-based), capped by
    /// `max_delay`, before jitter.
    pub fn backoff(&self, retry: u32) -> Duration {
        let factor = 2u32.checked_pow(retry).unwrap_or(u32::MAX);
        self.base_delay.checked_mul(factor).unwrap_or(self.max_delay).min(self.max_delay)
    }

    /// The wait before retry number `retry` after `error`: `retry-after` (capped) when
    /// the provider gave one, else half the backoff plus a jittered half.
    pub fn delay(&self, error: &LlmError, retry: u32, pause: &dyn Pause) -> Duration {
        if let LlmError::RateLimited { retry_after: Some(d) } = error {
            return (*d).min(self.max_delay);
        }
        let backoff = self.backoff(retry);
        let half = backoff / 2;
        half + pause.jitter(backoff - half).min(backoff - half)
    }
}

/// Waiting and randomness, injectable for tests.
pub trait Pause: Send + Sync {
    /// Waits `d`.
    fn sleep(&self, d: Duration) -> Pin<Box<dyn Future<Output = ()> + Send + '_>>;
    /// A duration in `[0, max]`.
    fn jitter(&self, max: Duration) -> Duration;
}

/// Real time (`tokio::time::sleep`) and std's per-process random hashing keys as the
/// jitter source.
#[derive(Debug, Clone, Copy, Default)]
pub struct RealPause;

impl Pause for RealPause {
    fn sleep(&self, d: Duration) -> Pin<Box<dyn Future<Output = ()> + Send + '_>> {
        Box::pin(tokio::time::sleep(d))
    }

    fn jitter(&self, max: Duration) -> Duration {
        let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
        hasher.write_u64(0x50u64);
        let unit = (hasher.finish() >> 11) as f64 / (1u64 << 53) as f64;
        max.mul_f64(unit)
    }
}

/// The events of a call, as from [`super::stream`].
pub type EventStream = Pin<Box<dyn Stream<Item = Result<StreamEvent, LlmError>> + Send>>;

/// The tokens a provider reported for one call, every attempt included, counted as its
/// events arrive: a call stopped (its future dropped) or failed still says what it cost.
/// Cloned into the call; the caller reads it whatever became of the call.
#[derive(Debug, Clone, Default)]
pub struct Meter(std::sync::Arc<(AtomicU64, AtomicU64)>);

impl Meter {
    fn count(&self, event: &StreamEvent) {
        if let StreamEvent::Usage { input_tokens, output_tokens } = event {
            self.0 .0.fetch_add(*input_tokens, Ordering::Relaxed);
            self.0 .1.fetch_add(*output_tokens, Ordering::Relaxed);
        }
    }

    /// Input and output tokens reported so far.
    pub fn tokens(&self) -> (u64, u64) {
        (self.0 .0.load(Ordering::Relaxed), self.0 .1.load(Ordering::Relaxed))
    }
}

/// What [`stream`] returns: the result, shaped like [`super::stream`]'s, and how many
/// requests were sent for it (1 when nothing was retried).
pub struct Attempted {
    pub attempts: u32,
    pub result: Result<EventStream, LlmError>,
}

impl std::fmt::Debug for Attempted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Attempted")
            .field("attempts", &self.attempts)
            .field("result", &self.result.as_ref().map(|_| "<stream>"))
            .finish()
    }
}

/// Retries left per kind of error.
struct Budget {
    rate_limited: u32,
    timeout: u32,
    empty: u32,
    network: u32,
}

impl Budget {
    /// Takes one retry for `error` if it has any left; `Some(n)` is the 0-based index of
    /// this retry among those of its kind.
    fn take(&mut self, error: &LlmError, policy: &RetryPolicy) -> Option<u32> {
        let (left, total) = match error {
            LlmError::RateLimited { .. } => (&mut self.rate_limited, policy.max_retries),
            LlmError::Timeout => (&mut self.timeout, 1),
            LlmError::EmptyReply => (&mut self.empty, 1),
            LlmError::Network(_) => (&mut self.network, 1),
            _ => return None,
        };
        if *left == 0 {
            return None;
        }
        *left -= 1;
        Some(total - *left - 1)
    }
}

/// Where a request goes: the provider's wire format, the HTTP client and the endpoint.
#[derive(Clone, Copy)]
pub struct Target<'a> {
    pub wire: Wire,
    pub client: &'a reqwest::Client,
    pub endpoint: &'a Endpoint,
}

/// Sends `request` with the retries of the module documentation.
///
/// `Ok` once a content event arrived or the stream ended cleanly: the events held back
/// so far come first, then the rest of that attempt's stream, with no further retries.
/// `Err` when an attempt failed before any content and no retry is left for its error.
pub async fn stream(
    policy: &RetryPolicy,
    pause: &dyn Pause,
    to: Target<'_>,
    request: &LlmRequest,
    meter: &Meter,
) -> Attempted {
    let mut budget = Budget { rate_limited: policy.max_retries, timeout: 1, empty: 1, network: 1 };
    let mut attempts = 0u32;
    // The request an empty reply is retried with: another temperature.
    let mut adjusted: Option<LlmRequest> = None;
    loop {
        attempts += 1;
        let sent = adjusted.as_ref().unwrap_or(request);
        let error = match attempt(to, sent, meter).await {
            Ok(events) => return Attempted { attempts, result: Ok(events) },
            Err(e) => e,
        };
        let Some(retry) = budget.take(&error, policy) else {
            return Attempted { attempts, result: Err(error) };
        };
        if error == LlmError::EmptyReply {
            let mut again = request.clone();
            again.temperature = Some(empty_reply_temperature(request.temperature));
            adjusted = Some(again);
        }
        let delay = policy.delay(&error, retry, pause);
        tracing::warn!(attempt = attempts, ?delay, error = %error, "LLM call failed before any content, retrying");
        pause.sleep(delay).await;
    }
}

/// The temperature an empty reply is retried with: 0.3 away from the first one's,
/// towards the middle of the usual range (0.7 when the first left the provider's
/// default, which is 1.0 for most).
pub fn empty_reply_temperature(first: Option<f32>) -> f32 {
    match first {
        None => 0.7,
        Some(t) if t >= 0.7 => t - 0.3,
        Some(t) => t + 0.3,
    }
}

/// One request, read up to its first content event (or its clean end).
async fn attempt(to: Target<'_>, request: &LlmRequest, meter: &Meter) -> Result<EventStream, LlmError> {
    let meter = meter.clone();
    let events = super::stream(to.wire, to.client, to.endpoint, request).await?;
    let mut events = Box::pin(events.inspect(move |e| {
        if let Ok(e) = e {
            meter.count(e);
        }
    }));
    let mut held = VecDeque::new();
    loop {
        match events.next().await {
            None => break,
            Some(Err(e)) => return Err(e),
            Some(Ok(ev)) => {
                let content = matches!(ev, StreamEvent::TextDelta(_) | StreamEvent::ToolCall { .. });
                held.push_back(Ok(ev));
                if content {
                    break;
                }
            }
        }
    }
    Ok(Box::pin(futures::stream::iter(held).chain(events)))
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Fixed(Duration);

    impl Pause for Fixed {
        fn sleep(&self, _: Duration) -> Pin<Box<dyn Future<Output = ()> + Send + '_>> {
            Box::pin(async {})
        }
        fn jitter(&self, max: Duration) -> Duration {
            self.0.min(max)
        }
    }

    #[test]
    fn delays_back_off_jitter_and_cap() {
        let p = RetryPolicy {
            max_retries: 2,
            base_delay: Duration::from_millis(400),
            max_delay: Duration::from_secs(1),
        };
        let rl = LlmError::RateLimited { retry_after: None };
        assert_eq!(p.delay(&rl, 0, &Fixed(Duration::ZERO)), Duration::from_millis(200));
        assert_eq!(p.delay(&rl, 0, &Fixed(Duration::from_secs(9))), Duration::from_millis(400));
        assert_eq!(p.delay(&rl, 1, &Fixed(Duration::ZERO)), Duration::from_millis(400));
        // 1600 ms capped at 1 s.
        assert_eq!(p.delay(&rl, 2, &Fixed(Duration::from_secs(9))), Duration::from_secs(1));
        assert_eq!(p.delay(&rl, 30, &Fixed(Duration::from_secs(9))), Duration::from_secs(1));
        let given = LlmError::RateLimited { retry_after: Some(Duration::from_secs(120)) };
        assert_eq!(p.delay(&given, 0, &Fixed(Duration::ZERO)), Duration::from_secs(1));
    }

    #[test]
    fn an_empty_reply_is_retried_with_another_temperature() {
        assert_eq!(empty_reply_temperature(None), 0.7);
        assert!((empty_reply_temperature(Some(1.0)) - 0.7).abs() < 1e-6);
        assert!((empty_reply_temperature(Some(0.0)) - 0.3).abs() < 1e-6);
        assert!((empty_reply_temperature(Some(0.3)) - 0.6).abs() < 1e-6);
    }

    #[test]
    fn real_jitter_stays_in_range() {
        for _ in 0..100 {
            assert!(RealPause.jitter(Duration::from_millis(10)) <= Duration::from_millis(10));
        }
    }

    #[test]
    fn budgets_per_kind() {
        let p = RetryPolicy::default();
        let mut b = Budget { rate_limited: p.max_retries, timeout: 1, empty: 1, network: 1 };
        let rl = LlmError::RateLimited { retry_after: None };
        assert_eq!(b.take(&rl, &p), Some(0));
        assert_eq!(b.take(&rl, &p), Some(1));
        assert_eq!(b.take(&rl, &p), None);
        assert_eq!(b.take(&LlmError::Timeout, &p), Some(0));
        assert_eq!(b.take(&LlmError::Timeout, &p), None);
        for e in [
            LlmError::KeyRejected,
            LlmError::ContextOverflow,
            LlmError::InBand(String::new()),
            LlmError::Malformed(String::new()),
            LlmError::Truncated,
            LlmError::Config(String::new()),
            LlmError::Status(500, String::new()),
        ] {
            assert_eq!(b.take(&e, &p), None, "{e:?}");
        }
    }
}

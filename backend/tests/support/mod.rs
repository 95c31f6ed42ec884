//! What the backend's test modules share. What the server's tests share too is in
//! `backend::testing` (the `test-support` feature).

use std::future::Future;
use std::net::SocketAddr;
use std::path::Path;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};
use std::time::Duration;

use backend::llm::model::Caller;
use backend::llm::retry::{Pause, RetryPolicy};
use backend::testing::Captured;
use backend::Vault;
use backend::{demo, Sou, Store, UserId};
use backend::{LlmConfig, Providers};

/// A store in `dir` with the user `local` and the demo ledger.
pub async fn demo_store(dir: &Path) -> (Store, UserId) {
    let store = Store::open_in(dir).await.unwrap();
    let user = store.ensure_user("local").await.unwrap();
    assert!(demo::seed(&store, user).await.unwrap());
    (store, user)
}

/// Serves `app` on a free port of 127.0.0.1 (a mock provider) while the test runs.
pub async fn serve(app: axum::Router) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(async move { axum::serve(listener, app).await });
    addr
}

/// A mock's state, even after a panic in another of its handlers.
pub fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Injected time for the retry policy: the waits it asks for are recorded, nothing
/// sleeps, jitter is zero.
#[derive(Default)]
pub struct Waits(pub Mutex<Vec<Duration>>);

impl Pause for Waits {
    fn sleep(&self, d: Duration) -> Pin<Box<dyn Future<Output = ()> + Send + '_>> {
        lock(&self.0).push(d);
        Box::pin(async {})
    }
    fn jitter(&self, _: Duration) -> Duration {
        Duration::ZERO
    }
}

impl Waits {
    pub fn sleeps(&self) -> Vec<Duration> {
        self.0.lock().unwrap().clone()
    }
}

/// Sou on `store` with the providers of `config`: connect and read timeouts, the default
/// retry policy waiting through `pause`, keys sealed with `vault_key`.
pub fn sou_with_providers(
    store: Store,
    config: LlmConfig,
    (connect, read): (Duration, Duration),
    pause: Arc<dyn Pause>,
    vault_key: [u8; 32],
) -> Sou {
    let caller =
        Caller::new(connect, read, config.context_tokens).unwrap().with_retry(RetryPolicy::default(), pause);
    let providers = Providers::new(config, Vault::from_key(vault_key)).unwrap().with_caller(caller);
    Sou::new(store, chrono_tz::UTC).with_providers(providers)
}

/// Every log line at TRACE level of this process since the first call: the one global
/// subscriber of the tests' binary, installed once. Whatever any test logs meanwhile is
/// in it too, so it serves checks that no line may fail (a key in no line).
pub fn logs() -> Captured {
    static LOGS: OnceLock<Captured> = OnceLock::new();
    LOGS.get_or_init(|| {
        let c = Captured::default();
        let writer = c.clone();
        let _ = tracing_subscriber::fmt()
            .with_max_level(tracing::Level::TRACE)
            .with_writer(move || writer.clone())
            .with_ansi(false)
            .try_init();
        c
    })
    .clone()
}

/// Asks `message` (in English) and waits until the model has `asked` requests (up to
/// 5 s) and `settle` more, then stops the answer and reads what is left of it: the
/// events, when it was stopped, and how long after the stop the stream ended (5 s at
/// most, else the test fails).
pub async fn ask_then_stop(
    sou: &Sou,
    user: UserId,
    message: &str,
    asked: impl Fn() -> usize,
    settle: Duration,
) -> (Vec<agent::protocol::ChatEvent>, std::time::Instant, Duration) {
    use futures::StreamExt;
    let req = backend::ChatRequest {
        message: message.into(),
        conversation_id: None,
        plan: None,
        locale: Some("en".into()),
    };
    let stream = sou.chat(user, req).await.unwrap();
    let run = stream.run_id.clone();
    for _ in 0..500 {
        if asked() > 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(asked(), 1, "the model was asked");
    tokio::time::sleep(settle).await;
    let stopped = std::time::Instant::now();
    sou.runs().act(user, &run, backend::RunAction::Cancel).await.unwrap();
    let events = tokio::time::timeout(Duration::from_secs(5), stream.events.collect())
        .await
        .expect("the stream ends once stopped");
    (events, stopped, stopped.elapsed())
}

/// What Settings → Usage counts in all for `user`: calls, input and output tokens, cost.
pub async fn settings_total(sou: &Sou, user: UserId) -> [u64; 4] {
    let u = sou.runs().usage(user).await.unwrap();
    u.months.iter().fold([0; 4], |a, m| {
        [a[0] + m.calls, a[1] + m.input_tokens, a[2] + m.output_tokens, a[3] + m.cost_eur_micros]
    })
}

/// The answer in `events` (its status's usage), its trace's model steps and what Settings →
/// Usage gained since `before` count the same calls, tokens and cost; returns the answer's
/// input and output tokens.
pub async fn usage_adds_up(
    sou: &Sou,
    user: UserId,
    events: &[agent::protocol::ChatEvent],
    before: [u64; 4],
) -> (u64, u64) {
    use agent::protocol::ChatEvent;
    let Some(ChatEvent::Status { usage, message_id: Some(run), .. }) = events.last() else {
        panic!("no status with a run: {events:?}")
    };
    let trace = sou.runs().trace(user, run, agent::Locale::En).await.unwrap();
    let models: Vec<_> = trace.steps.iter().filter(|s| s.provider.is_some()).collect();
    let steps = models.iter().fold([models.len() as u64, 0, 0, 0], |a, s| {
        [a[0], a[1] + s.input_tokens, a[2] + s.output_tokens, a[3] + s.cost_eur_micros]
    });
    let answer = [steps[0], usage.input_tokens, usage.output_tokens, usage.cost_eur_micros];
    assert_eq!(answer, steps, "the answer's usage and its trace's model steps");
    let after = settings_total(sou, user).await;
    let added = [0, 1, 2, 3].map(|i| after[i] - before[i]);
    assert_eq!(added, steps, "Settings → Usage and the trace's model steps");
    (usage.input_tokens, usage.output_tokens)
}

//! What a run records, and the task that stores it: a [`Recorder`] queues the run's
//! events, steps, checkpoints and end; one writer task a run stores them in batches
//! (one transaction each, retried with backoff) and keeps the run's heartbeat, so that
//! an answer's first event never waits for the database. The [`Hub`] is what one
//! server knows of the runs it writes and the clients waiting on them. Nothing here
//! knows `Sou`: `Sou` holds a [`Runs`].

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use agent::protocol::{ChatEvent, StreamStatus, Uncertainty, Usage};
use agent::runs::{RunStatus, Step};
use tokio::sync::{mpsc, oneshot, Notify};

use super::batch::{Record, Start};
use super::stored::{Stored, Storing};
use crate::calendar::Calendar;
use crate::ids::UserId;
use crate::messages::NewMessage;
use crate::store::Store;
use crate::vocabulary::Parsers;

/// The limits this server sets, in millionths of a euro per month.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct UsageLimits {
    /// What all users together may spend.
    pub instance_monthly_eur_micros: Option<u64>,
    /// What each user may spend (a user may set a lower limit for themselves).
    pub user_monthly_eur_micros: Option<u64>,
}

/// How runs are recorded and watched.
#[derive(Clone, Debug)]
pub struct RunConfig {
    /// A running run whose server has not written for this long was left by a server
    /// that stopped: the next sweep closes it (or resumes its plan).
    pub stale_after: Duration,
    /// Record runs at all. Off only to measure what recording costs.
    pub record: bool,
    pub limits: UsageLimits,
    /// A pause between two steps of a plan (crash tests only; zero otherwise).
    pub pause_between_steps: Duration,
    /// How long a chat run's first batch waits for the answer (see [`FIRST_LINGER`]);
    /// tests that check a quick answer is one transaction wait longer, whatever the
    /// machine's load.
    pub first_linger: Duration,
}

impl Default for RunConfig {
    fn default() -> RunConfig {
        RunConfig {
            stale_after: Duration::from_secs(60),
            record: true,
            limits: UsageLimits::default(),
            pause_between_steps: Duration::ZERO,
            first_linger: FIRST_LINGER,
        }
    }
}

/// Wakes the clients of this server waiting for a run's next events (those of another
/// server find them by polling).
#[derive(Clone)]
pub(crate) struct Hub {
    waiting: Arc<Mutex<HashMap<String, Arc<Notify>>>>,
    /// The plans whose steps this server is running.
    running: Arc<Mutex<std::collections::HashSet<String>>>,
    /// The answers this server is writing, each with what stops it.
    stops: Arc<Mutex<HashMap<String, Arc<Notify>>>>,
    /// This server, as a run's `owner`.
    pub(crate) instance: String,
    /// Set once the server is stopping: answers in flight end as interrupted, plans stop
    /// at their next step and are left for the next server.
    draining: Arc<std::sync::atomic::AtomicBool>,
    /// PostgreSQL's notifications reach this server (`notify.rs`): polling can be slow.
    listening: Arc<std::sync::atomic::AtomicBool>,
}

impl Default for Hub {
    fn default() -> Hub {
        Hub {
            waiting: Arc::default(),
            running: Arc::default(),
            stops: Arc::default(),
            instance: uuid::Uuid::new_v4().simple().to_string(),
            draining: Arc::default(),
            listening: Arc::default(),
        }
    }
}

impl Hub {
    /// Starts this server's listener for what other servers do to runs (PostgreSQL).
    pub(crate) fn listen(&self, store: &Store) {
        super::notify::listen(store, self.clone());
    }

    /// How often to look in the database for what another server did to a run: each
    /// run's events, a cancel. Seldom while notifications come; else five times a second.
    pub(crate) fn poll_every(&self, notified: Duration, unnotified: Duration) -> Duration {
        if self.listening.load(std::sync::atomic::Ordering::SeqCst) {
            notified
        } else {
            unnotified
        }
    }

    pub(crate) fn waiter(&self, run: &str) -> Arc<Notify> {
        let mut map = self.waiting.lock().unwrap_or_else(|p| p.into_inner());
        map.entry(run.to_string()).or_default().clone()
    }

    pub(crate) fn wake(&self, run: &str) {
        let map = self.waiting.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(n) = map.get(run) {
            n.notify_waiters();
        }
    }

    /// Stops the answer `run` if this server is writing it (another server finds the
    /// run cancelled in the database).
    pub(crate) fn stop(&self, run: &str) {
        let map = self.stops.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(n) = map.get(run) {
            n.notify_one();
        }
    }

    pub(crate) fn drain(&self) {
        self.draining.store(true, std::sync::atomic::Ordering::SeqCst);
    }

    pub(crate) fn draining(&self) -> bool {
        self.draining.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// How many answers and plans this server is running.
    pub(crate) fn in_flight(&self) -> usize {
        self.stops.lock().unwrap_or_else(|p| p.into_inner()).len()
            + self.running.lock().unwrap_or_else(|p| p.into_inner()).len()
    }

    /// Stops every answer this server is writing.
    pub(crate) fn stop_all(&self) {
        for n in self.stops.lock().unwrap_or_else(|p| p.into_inner()).values() {
            n.notify_one();
        }
    }

    /// Marks a plan as run by this server; `false` if a task of this server runs it.
    pub(crate) fn start_running(&self, run: &str) -> bool {
        self.running.lock().unwrap_or_else(|p| p.into_inner()).insert(run.to_string())
    }

    pub(crate) fn stop_running(&self, run: &str) {
        self.running.lock().unwrap_or_else(|p| p.into_inner()).remove(run);
    }

    /// Forgets a run no client waits for any more: called by a waiter about to drop its
    /// handle, the last one of which leaves the map's and its own.
    pub(crate) fn release(&self, run: &str) {
        let mut map = self.waiting.lock().unwrap_or_else(|p| p.into_inner());
        if map.get(run).is_some_and(|n| Arc::strong_count(n) <= 2) {
            map.remove(run);
        }
    }
}

impl super::notify::Listener for Hub {
    fn notice(&self, notice: super::notify::Notice<'_>) {
        match notice {
            super::notify::Notice::Moved(run) => self.wake(run),
            super::notify::Notice::Stopped(run) => {
                self.stop(run);
                self.wake(run);
            }
        }
    }

    fn listening(&self, on: bool) {
        self.listening.store(on, std::sync::atomic::Ordering::SeqCst);
    }

    /// This handle is the last one: the listener's, once its server is gone.
    fn alone(&self) -> bool {
        Arc::strong_count(&self.waiting) <= 1
    }
}

/// What a run records, in order. Cheap to call: it only queues.
pub(crate) struct Recorder {
    pub(crate) id: String,
    started: Instant,
    events: u64,
    steps: u32,
    tx: Option<mpsc::UnboundedSender<Record>>,
    /// The last event, held for the run's end.
    last: Option<(u64, String)>,
    /// Notified when the user stops the answer on this server.
    stop: Arc<Notify>,
    hub: Hub,
    store: Store,
    user: UserId,
    /// Not recording runs: the question, stored on its own, which the answer follows.
    question: Option<Stored>,
}

impl Drop for Recorder {
    fn drop(&mut self) {
        let mut map = self.hub.stops.lock().unwrap_or_else(|p| p.into_inner());
        if map.get(&self.id).is_some_and(|n| Arc::ptr_eq(n, &self.stop)) {
            map.remove(&self.id);
        }
    }
}

/// When a step started, to record it once it is done (or when it ended, if it is
/// recorded later).
#[derive(Clone, Copy)]
pub(crate) struct Clock {
    at: Instant,
    end: Option<Instant>,
}

impl Clock {
    pub(crate) fn now() -> Clock {
        Clock { at: Instant::now(), end: None }
    }

    /// The step ended now, whenever it is recorded.
    pub(crate) fn stop(self) -> Clock {
        Clock { end: Some(Instant::now()), ..self }
    }
}

impl Recorder {
    /// The recorder of a chat run that `start`s: its question and row are its first
    /// batch, stored with what follows within a moment (a quick answer is one
    /// transaction), or as soon as the answer waits for them (`Self::flush`). `Stored`
    /// says when they are. Not recording runs, the question is stored on its own.
    pub(crate) fn start(
        runs: &Runs,
        (user, id): (UserId, String),
        started: Instant,
        start: Start,
    ) -> (Recorder, Stored) {
        if !runs.config.record {
            let db = runs.store.clone();
            let stored =
                Stored::spawn(async move { Ok(super::batch::store_question(&db, user, &start).await?) });
            let mut recorder = Recorder::spawn(runs, (user, id), started, None);
            recorder.question = Some(stored.clone());
            return (recorder, stored);
        }
        let (storing, stored) = Stored::pending();
        (Recorder::spawn(runs, (user, id), started, Some((start, storing))), stored)
    }

    /// A recorder for run `id`: with `first`, a chat run's question and row (`start`),
    /// else a run whose row is stored.
    fn spawn(
        runs: &Runs,
        (user, id): (UserId, String),
        started: Instant,
        first: Option<(Start, Storing)>,
    ) -> Recorder {
        let tx = runs.config.record.then(|| {
            let (tx, rx) = mpsc::unbounded_channel();
            let storing = first.map(|(start, storing)| {
                let _ = tx.send(Record::Start(Box::new(start)));
                storing
            });
            let heartbeat = (runs.config.stale_after / 4).max(Duration::from_millis(250));
            let (store, hub) = (runs.store.clone(), runs.hub.clone());
            let timing = (heartbeat, runs.config.first_linger);
            tokio::spawn(write_loop(store, (user, id.clone()), rx, (hub, timing), storing));
            tx
        });
        let stop = Arc::new(Notify::new());
        let hub = runs.hub.clone();
        hub.stops.lock().unwrap_or_else(|p| p.into_inner()).insert(id.clone(), stop.clone());
        Recorder {
            id,
            started,
            events: 0,
            steps: 0,
            tx,
            last: None,
            stop,
            hub,
            store: runs.store.clone(),
            user,
            question: None,
        }
    }

    /// Stores the run's question (and what came so far) now: a model's call or a write
    /// waits for it, not for the writer's linger.
    pub(crate) fn flush(&self) {
        if let Some(tx) = &self.tx {
            let _ = tx.send(Record::Flush);
        }
    }

    /// Resolves when the user stops this answer (`POST /api/v1/runs/{id}/cancel`, on
    /// this server or another): a client going away does not stop it, so that it can
    /// come back to it.
    pub(crate) async fn stopped(&self) {
        loop {
            tokio::select! {
                () = self.stop.notified() => return,
                () = tokio::time::sleep(self.hub.poll_every(Duration::from_secs(5), Duration::from_secs(1))) => {
                    if self.tx.is_some() && self.cancelled_in_store().await {
                        return;
                    }
                }
            }
        }
    }

    async fn cancelled_in_store(&self) -> bool {
        let Ok(mut db) = self.store.tenant_read(self.user).await else { return false };
        let status: Option<String> =
            sqlx::query_scalar("SELECT status FROM runs WHERE id = $1 AND user_id = $2")
                .bind(&self.id)
                .bind(self.user.0)
                .fetch_optional(&mut *db)
                .await
                .ok()
                .flatten();
        let _ = db.commit().await;
        status.as_deref() == Some("cancelled")
    }

    /// A recorder that goes on with run `id` (a plan accepted, resumed, or taken over
    /// from a stopped server) after its `events` events and `steps` steps.
    pub(crate) fn resume(
        runs: &Runs,
        user: UserId,
        id: String,
        (started, events, steps): (Instant, u64, u32),
    ) -> Recorder {
        let mut r = Recorder::spawn(runs, (user, id), started, None);
        r.events = events;
        r.steps = steps;
        r
    }

    /// Stores everything recorded so far with the plan's progress, in one transaction,
    /// and waits until it is: a step is done once this returns.
    pub(crate) async fn checkpoint(&mut self, next_step: u32) {
        let Some(tx) = &self.tx else { return };
        let (done, stored) = oneshot::channel();
        let _ = tx.send(Record::Checkpoint { next_step, done: Some(done) });
        let _ = tokio::time::timeout(Duration::from_secs(10), stored).await;
    }

    /// Records an event; its number is its stream id.
    pub(crate) fn event(&mut self, e: &ChatEvent) -> u64 {
        self.events += 1;
        if let Some(tx) = &self.tx {
            let _ = tx.send(Record::Event { seq: self.events, json: e.to_json() });
        }
        self.events
    }

    /// Records the run's last event, stored with its end (the next `finish`), never in
    /// a batch before it: a client that sees it finds the run ended and its answer.
    pub(crate) fn end_with(&mut self, e: &ChatEvent) -> u64 {
        self.events += 1;
        if self.tx.is_some() {
            self.last = Some((self.events, e.to_json()));
        }
        self.events
    }

    /// Records a step that started at `clock` and is done now; returns its number.
    pub(crate) fn step(&mut self, clock: Clock, mut step: Step) -> u32 {
        self.steps += 1;
        step.seq = self.steps;
        step.started_ms = clock.at.saturating_duration_since(self.started).as_millis() as u64;
        let end = clock.end.unwrap_or_else(Instant::now);
        step.duration_us = end.saturating_duration_since(clock.at).as_micros() as u64;
        if let Some(tx) = &self.tx {
            let _ = tx.send(Record::Step(Box::new(step)));
        }
        self.steps
    }

    /// Records how the run ended and waits (a few seconds at most) until everything it
    /// recorded is stored, so that a client reading the trace after the stream's end
    /// finds it whole.
    pub(crate) async fn finish(&mut self, status: RunStatus, confidence: Option<f32>) {
        self.finish_with(status, confidence, None).await;
    }

    /// The same, storing the chat `answer` in the same transaction as the run's end and
    /// last event: a client that sees the end finds the answer, and an answer costs one
    /// commit less. Not recording runs, the answer is stored alone.
    pub(crate) async fn finish_answered(
        &mut self,
        status: RunStatus,
        confidence: Option<f32>,
        answer: Result<NewMessage, serde_json::Error>,
    ) {
        let answer = match answer {
            Ok(a) => a,
            Err(e) => {
                tracing::error!(error = %e, "an answer that cannot be stored");
                return self.finish(status, confidence).await;
            }
        };
        if self.tx.is_some() {
            return self.finish_with(status, confidence, Some(Box::new(answer))).await;
        }
        // After its question, and not at all without it.
        if let Some(question) = &mut self.question {
            if !question.wait().await {
                return;
            }
        }
        store_answer(&self.store, self.user, &answer).await;
    }

    async fn finish_with(
        &mut self,
        status: RunStatus,
        confidence: Option<f32>,
        answer: Option<Box<NewMessage>>,
    ) {
        let Some(tx) = self.tx.take() else { return };
        let (done, stored) = oneshot::channel();
        let total_ms = self.started.elapsed().as_millis() as u64;
        // The stream ends once this returns: with the answer in it, as long as storing
        // it may take (as an answer stored on its own would), else a few seconds.
        let wait = if answer.is_some() { Duration::from_secs(60) } else { Duration::from_secs(5) };
        let last = self.last.take();
        let _ = tx.send(Record::Finish { status, confidence, total_ms, answer, last, done: Some(done) });
        drop(tx);
        let _ = tokio::time::timeout(wait, stored).await;
    }
}

/// An answer stored on its own (runs not recorded, or their records failed).
async fn store_answer(store: &Store, user: UserId, answer: &NewMessage) {
    let stored = async {
        let mut db = store.tenant(user).await?;
        answer.insert(&mut db, user).await?;
        db.commit().await
    };
    if let Err(e) = stored.await {
        tracing::error!(error = %e, "storing the answer failed");
    }
}

/// How long the writer waits for more records after a first one before it stores them.
const LINGER: Duration = Duration::from_millis(25);

/// The same, for a chat run's first batch (its question and row): a parser's answer
/// that comes within it is stored with its question, in one transaction; a slower one
/// starts its stream then. A model's call or a write does not wait (`Record::Flush`).
const FIRST_LINGER: Duration = Duration::from_millis(100);

impl Record {
    /// Whether the run waits until this record is stored.
    fn awaited(&self) -> bool {
        matches!(self, Record::Finish { .. } | Record::Checkpoint { .. } | Record::Flush)
    }
}

/// Stores a run's records in batches (one transaction each), retrying a failed batch
/// with backoff, and moves the run's heartbeat even when nothing happens. With
/// `storing`, the first batch holds the run's question and row: it is tried once, and
/// if it fails nothing of the run is stored.
async fn write_loop(
    store: Store,
    (user, run): (UserId, String),
    mut rx: mpsc::UnboundedReceiver<Record>,
    (hub, (heartbeat, first_linger)): (Hub, (Duration, Duration)),
    mut storing: Option<Storing>,
) {
    // When the heartbeat last moved: a batch moves it only when it is due, not at every
    // event (an answer's events come a few milliseconds apart).
    let mut beat = tokio::time::Instant::now();
    loop {
        let mut batch = match tokio::time::timeout(heartbeat, rx.recv()).await {
            Ok(Some(r)) => vec![r],
            Ok(None) => return,
            Err(_) => Vec::new(),
        };
        // What comes within `LINGER` of the first record goes in the same batch, unless
        // the run waits for it to be stored (a checkpoint, the end): a quick answer's
        // steps and events are then one transaction, a long one's a few a second.
        let linger = if storing.is_some() { first_linger } else { LINGER };
        let until = tokio::time::Instant::now() + linger;
        while !batch.is_empty() && batch.len() < 512 && !batch.iter().any(Record::awaited) {
            match rx.try_recv() {
                Ok(r) => batch.push(r),
                Err(mpsc::error::TryRecvError::Disconnected) => break,
                Err(mpsc::error::TryRecvError::Empty) => {
                    match tokio::time::timeout_at(until, rx.recv()).await {
                        Ok(Some(r)) => batch.push(r),
                        Ok(None) | Err(_) => break,
                    }
                }
            }
        }
        let mut done = Vec::new();
        let mut finished = false;
        for r in &mut batch {
            match r {
                Record::Finish { done: d, .. } => {
                    done.extend(d.take());
                    finished = true;
                }
                Record::Checkpoint { done: d, .. } => done.extend(d.take()),
                _ => {}
            }
        }
        let due = batch.is_empty() || beat.elapsed() >= heartbeat / 2;
        // The question: stored or not at all, at once (the request waits to say which).
        if let Some(storing) = storing.take() {
            let stored = super::batch::write_batch(&store, user, &run, &batch, false).await;
            if let Err(e) = &stored {
                tracing::error!(error = %e, "storing a question failed");
            }
            storing.done(stored.is_ok());
            if stored.is_err() {
                return;
            }
            beat = tokio::time::Instant::now();
        } else {
            let stored = write_retried(&store, (user, &run), &batch, due && !finished).await;
            if due && stored {
                beat = tokio::time::Instant::now();
            }
        }
        hub.wake(&run);
        for d in done {
            let _ = d.send(());
        }
        if finished {
            return;
        }
    }
}

/// Stores a batch, retried with backoff; what fails at last is logged, and the answer
/// the user saw kept if it can be, without the run's records: the run, left running,
/// is closed as interrupted later. Whether it was stored.
async fn write_retried(store: &Store, (user, run): (UserId, &str), batch: &[Record], beat: bool) -> bool {
    let mut pause = Duration::from_millis(20);
    for attempt in 1..=4 {
        match super::batch::write_batch(store, user, run, batch, beat).await {
            Ok(()) => return true,
            Err(e) if attempt < 4 => {
                tracing::warn!(error = %e, attempt, "storing a run's records failed; retrying");
                tokio::time::sleep(pause).await;
                pause *= 4;
            }
            Err(e) => {
                tracing::error!(error = %e, "storing a run's records failed");
                for r in batch {
                    if let Record::Finish { answer: Some(answer), .. } = r {
                        store_answer(store, user, answer).await;
                    }
                }
            }
        }
    }
    false
}

/// Runs, as every surface reads and acts on them: how they are recorded, who waits on
/// them, the store they are kept in, the calendar their usage months are counted in,
/// and the users' parsers (an edited plan's titles).
#[derive(Clone)]
pub struct Runs {
    pub(crate) store: Store,
    pub(crate) config: RunConfig,
    pub(crate) hub: Hub,
    pub(crate) calendar: Calendar,
    pub(crate) parsers: Parsers,
}

impl Runs {
    /// On PostgreSQL, within a Tokio runtime, this starts the listener for other
    /// servers' runs (`notify.rs`); it ends with the last clone.
    pub(crate) fn new(store: Store, calendar: Calendar, parsers: Parsers) -> Runs {
        let hub = Hub::default();
        hub.listen(&store);
        Runs { store, config: RunConfig::default(), hub, calendar, parsers }
    }
}

/// A run's last event when Sou writes it itself: a plan's steps ended, or a run that
/// ended without its own (interrupted, or its server gone).
pub(crate) fn final_status(
    conversation: &str,
    run: &str,
    plan_confidence: Option<agent::Confidence>,
    answer_confidence: f32,
    warnings: Vec<String>,
) -> ChatEvent {
    ChatEvent::Status {
        content: StreamStatus::Done,
        usage: Usage { route: "parser".into(), ..Usage::default() },
        uncertainty: Uncertainty { plan_confidence, answer_confidence, warnings },
        conversation_id: Some(conversation.to_string()),
        message_id: Some(run.to_string()),
    }
}

//! The one way an answer reaches the client: each event is sent on the stream and kept
//! for the stored answer. The chat pipeline makes one per answer; the model's tool loop
//! writes through it too.

use std::time::Instant;

use agent::protocol::ChatEvent;
use agent::runs::Step;
use futures::Stream;
use tokio::sync::mpsc;

use crate::error::BackendError;
use crate::runs::record::{Clock, Recorder};
use crate::runs::Stored;

/// Sends events to the client while keeping them for the stored answer.
pub(crate) struct Emitter {
    pub(crate) tx: mpsc::Sender<ChatEvent>,
    pub(crate) sent: Vec<ChatEvent>,
    pub(crate) started: Instant,
    pub(crate) first_event_ms: Option<u64>,
    /// The run this answer is: every event and step is recorded there.
    pub(crate) run: Recorder,
    /// What the answer read of the user with their question, which its tools need not
    /// read again.
    pub(crate) known: crate::tools::Known,
    /// The question's transaction, while it may still be under way: events wait in
    /// `held` until it committed.
    stored: Option<Stored>,
    held: Vec<ChatEvent>,
}

impl Emitter {
    /// An answer's emitter, sending on `tx` and recording in `run`; `started`: when the
    /// question came.
    pub(crate) fn new(tx: mpsc::Sender<ChatEvent>, started: Instant, run: Recorder) -> Emitter {
        Emitter {
            tx,
            sent: Vec::new(),
            started,
            first_event_ms: None,
            run,
            known: Default::default(),
            stored: None,
            held: Vec::new(),
        }
    }

    /// The same, for the answer to a question whose transaction `stored` may still be
    /// under way: its events are sent once the question is stored, never if it is not.
    pub(crate) fn after(
        tx: mpsc::Sender<ChatEvent>,
        started: Instant,
        run: Recorder,
        stored: Stored,
    ) -> Emitter {
        Emitter { stored: Some(stored), ..Emitter::new(tx, started, run) }
    }

    /// Has the question stored now (not with the answer), waits until it is, then sends
    /// the events held meanwhile. What writes or calls a model waits for this; `Err` if
    /// the question was not stored (the request then failed, and nothing may be sent or
    /// written).
    pub(crate) async fn stored(&mut self) -> Result<(), BackendError> {
        if let Some(stored) = &mut self.stored {
            if stored.now().is_none() {
                self.run.flush();
            }
            if !stored.wait().await {
                return Err(BackendError::Unstored);
            }
            self.stored = None;
        }
        for e in std::mem::take(&mut self.held) {
            self.send(e).await;
        }
        Ok(())
    }

    /// Whether the question failed to be stored (the request failed).
    pub(crate) fn unstored(&self) -> bool {
        self.stored.as_ref().is_some_and(|s| s.now() == Some(false))
    }

    /// Resolves when the user stops the answer (the stop button, `POST
    /// /api/v1/runs/{id}/cancel`). A client going away (a closed tab, a reload, a lost
    /// network) does not: the answer goes on and is stored, and the client can come
    /// back to it.
    pub(crate) async fn closed(&self) {
        self.run.stopped().await
    }

    /// Sends `e` (once the question is stored: until then it is held) and records it.
    /// Does not hurry the question: a quick answer is stored with it.
    pub(crate) async fn emit(&mut self, e: ChatEvent) {
        self.run.event(&e);
        self.sent.push(e.clone());
        if self.stored.as_ref().is_some_and(|s| s.now().is_none()) {
            self.held.push(e);
        } else if self.stored().await.is_ok() {
            self.send(e).await;
        }
    }

    async fn send(&mut self, e: ChatEvent) {
        let started = self.started;
        self.first_event_ms.get_or_insert_with(|| started.elapsed().as_millis() as u64);
        // A client that went away stops nothing: the answer is stored, and recorded
        // for a client that comes back.
        let _ = self.tx.send(e).await;
    }

    /// Records a step of the answer that started at `clock`; returns its number.
    pub(crate) fn step(&mut self, clock: Clock, step: Step) -> u32 {
        self.run.step(clock, step)
    }
}

/// The events of one answer, and the conversation and run they belong to.
pub struct ChatStream {
    pub conversation_id: String,
    /// The run (and the answer's id): `GET /api/v1/runs/{id}`.
    pub run_id: String,
    /// The first event's number; each next one is one more (the stream's `id`s).
    pub first_seq: u64,
    pub events: std::pin::Pin<Box<dyn Stream<Item = ChatEvent> + Send>>,
}

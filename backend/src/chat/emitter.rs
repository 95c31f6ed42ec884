//! The one way an answer reaches the client: each event is sent on the stream and kept
//! for the stored answer. The chat pipeline makes one per answer; the model's tool loop
//! writes through it too.

use std::time::Instant;

use agent::protocol::ChatEvent;
use agent::runs::Step;
use futures::Stream;
use tokio::sync::mpsc;

use crate::runs::record::{Clock, Recorder};

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
}

impl Emitter {
    /// An answer's emitter, sending on `tx` and recording in `run`; `started`: when the
    /// question came.
    pub(crate) fn new(tx: mpsc::Sender<ChatEvent>, started: Instant, run: Recorder) -> Emitter {
        Emitter { tx, sent: Vec::new(), started, first_event_ms: None, run, known: Default::default() }
    }

    /// Resolves when the user stops the answer (the stop button, `POST
    /// /api/v1/runs/{id}/cancel`). A client going away (a closed tab, a reload, a lost
    /// network) does not: the answer goes on and is stored, and the client can come
    /// back to it.
    pub(crate) async fn closed(&self) {
        self.run.stopped().await
    }

    pub(crate) async fn emit(&mut self, e: ChatEvent) {
        let started = self.started;
        self.first_event_ms.get_or_insert_with(|| started.elapsed().as_millis() as u64);
        self.run.event(&e);
        self.sent.push(e.clone());
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

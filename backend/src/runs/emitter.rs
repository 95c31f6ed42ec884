//! The one way an answer reaches the client: each event is sent on the stream and kept
//! for the stored answer. The chat pipeline makes one per answer; the model's tool loop
//! writes through it too.

use std::time::Instant;

use agent::protocol::ChatEvent;
use agent::runs::Step;
use futures::Stream;
use tokio::sync::mpsc;

use crate::error::BackendError;
use crate::llm::model::Spent;
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
    /// The question's transaction, while it may still be under way. Events are sent
    /// meanwhile: the stream reaches the client only once it committed (`chat_for`
    /// returns it then, and never if it did not), and then at once, not with the
    /// answer's next event.
    stored: Option<Stored>,
    /// An event was sent before the question was stored: the client got it at the
    /// commit (`first_event_ms`).
    early: bool,
    /// What the models this answer asked cost: the sum of its model steps, so the
    /// answer's usage, its trace and Settings → Usage (one row per model step) agree.
    spent: Spent,
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
            stored: None,
            early: false,
            spent: Spent::default(),
        }
    }

    /// The same, for the answer to a question whose transaction `stored` may still be
    /// under way: its events reach the client once the question is stored (the stream
    /// starts then), never if it is not.
    pub(crate) fn after(
        tx: mpsc::Sender<ChatEvent>,
        started: Instant,
        run: Recorder,
        stored: Stored,
    ) -> Emitter {
        Emitter { stored: Some(stored), ..Emitter::new(tx, started, run) }
    }

    /// Has the question stored now (not with the answer) and waits until it is. What
    /// writes or calls a model waits for this; `Err` if the question was not stored
    /// (the request then failed, and nothing may be sent or written).
    pub(crate) async fn stored(&mut self) -> Result<(), BackendError> {
        if let Some(stored) = &mut self.stored {
            if stored.now().is_none() {
                self.run.flush();
            }
            if !stored.wait().await {
                return Err(BackendError::Unstored);
            }
            self.committed();
        }
        Ok(())
    }

    /// The question is stored: the client has what was sent so far.
    fn committed(&mut self) {
        self.stored = None;
        if std::mem::take(&mut self.early) {
            self.first_event_ms = Some(self.started.elapsed().as_millis() as u64);
        }
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

    /// `call`, unless the user stops the answer first: then `None`, and dropping `call`
    /// closes its upstream request.
    pub(crate) async fn unless_stopped<T>(&self, call: impl std::future::Future<Output = T>) -> Option<T> {
        tokio::select! {
            v = call => Some(v),
            () = self.closed() => None,
        }
    }

    /// Sends `e` and records it; nothing if the question could not be stored. Does not
    /// hurry the question: a quick answer is stored with it.
    pub(crate) async fn emit(&mut self, e: ChatEvent) {
        self.run.event(&e);
        self.sent.push(e.clone());
        match self.stored.as_ref().map(Stored::now) {
            Some(Some(false)) => {}
            Some(None) => {
                self.early = true;
                self.send(e).await;
            }
            Some(Some(true)) | None => {
                self.committed();
                self.send(e).await;
            }
        }
    }

    async fn send(&mut self, e: ChatEvent) {
        let started = self.started;
        if !self.early {
            self.first_event_ms.get_or_insert_with(|| started.elapsed().as_millis() as u64);
        }
        // A client that went away stops nothing: the answer is stored, and recorded
        // for a client that comes back.
        let _ = self.tx.send(e).await;
    }

    /// Records a step of the answer that started at `clock`; returns its number.
    pub(crate) fn step(&mut self, clock: Clock, step: Step) -> u32 {
        if step.provider.is_some() {
            self.spent.merge(&Spent {
                input_tokens: step.input_tokens,
                output_tokens: step.output_tokens,
                cost_eur_micros: step.cost_eur_micros,
                unpriced: step.unpriced,
            });
        }
        self.run.step(clock, step)
    }

    /// What the models asked so far cost (the sum of the model steps).
    pub(crate) fn spent(&self) -> &Spent {
        &self.spent
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

/// What the stream says when the user stops an answer.
pub(crate) fn stopped_text(locale: agent::Locale) -> &'static str {
    match locale {
        agent::Locale::Fr => "Réponse arrêtée.",
        agent::Locale::En => "Answer stopped.",
    }
}

//! The one way an answer reaches the client: each event is sent on the stream and kept
//! for the stored answer. The chat pipeline makes one per answer; the model's tool loop
//! writes through it too.

use std::time::Instant;

use agent::protocol::ChatEvent;
use tokio::sync::mpsc;

/// Sends events to the client while keeping them for the stored answer.
pub(crate) struct Emitter {
    pub(crate) tx: mpsc::Sender<ChatEvent>,
    pub(crate) sent: Vec<ChatEvent>,
    pub(crate) started: Instant,
    pub(crate) first_event_ms: Option<u64>,
}

impl Emitter {
    /// Resolves when the client has gone away (stop button, closed tab, lost network).
    pub(crate) async fn closed(&self) {
        self.tx.closed().await
    }

    pub(crate) async fn emit(&mut self, e: ChatEvent) {
        let started = self.started;
        self.first_event_ms.get_or_insert_with(|| started.elapsed().as_millis() as u64);
        self.sent.push(e.clone());
        // A client that went away does not stop a parser answer (it is stored); a
        // model's answer watches `closed` and stops.
        let _ = self.tx.send(e).await;
    }
}

//! A question's transaction finishing while its answer starts. The question is stored
//! (with its conversation and its run's row) by the run's writer, in its first batch
//! (`record.rs`); the answer's reads may run meanwhile, but nothing is sent to the
//! client, or asked of a model, before [`Stored::wait`] said the question is there.

use tokio::sync::watch;

use crate::error::BackendError;

/// Whether a question's transaction committed: `None` while it runs.
#[derive(Clone, Debug)]
pub(crate) struct Stored(watch::Receiver<Option<bool>>);

/// What tells every [`Stored`] how the question's transaction ended: dropped untold,
/// that it failed.
pub(crate) struct Storing(watch::Sender<Option<bool>>);

impl Storing {
    pub(crate) fn done(self, committed: bool) {
        let _ = self.0.send(Some(committed));
    }
}

impl Stored {
    /// A question's transaction still to be committed, by whoever holds the [`Storing`].
    pub(crate) fn pending() -> (Storing, Stored) {
        let (state, stored) = watch::channel(None);
        (Storing(state), Stored(stored))
    }

    /// Runs `storing` (which commits) in a task of its own. The task goes on if the
    /// request is dropped, so that a question whose commit began is answered or not
    /// stored at all.
    pub(crate) fn spawn<F>(storing: F) -> Stored
    where
        F: std::future::Future<Output = Result<(), BackendError>> + Send + 'static,
    {
        let (state, stored) = Stored::pending();
        tokio::spawn(async move {
            let done = storing.await;
            if let Err(e) = &done {
                tracing::error!(error = %e, "storing a question failed");
            }
            state.done(done.is_ok());
        });
        stored
    }

    /// Already stored (`Some(true)`), failed (`Some(false)`), or still under way.
    pub(crate) fn now(&self) -> Option<bool> {
        *self.0.borrow()
    }

    /// Waits until the question's transaction is over; whether it committed.
    pub(crate) async fn wait(&mut self) -> bool {
        match self.0.wait_for(Option::is_some).await {
            Ok(done) => *done == Some(true),
            Err(_) => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn says_what_the_commit_did() {
        let (gate, release) = tokio::sync::oneshot::channel::<bool>();
        let mut stored = Stored::spawn(async move {
            match release.await {
                Ok(true) => Ok(()),
                _ => Err(BackendError::NotFound),
            }
        });
        assert_eq!(stored.now(), None);
        let _ = gate.send(true);
        assert!(stored.wait().await);
        assert_eq!(stored.now(), Some(true));

        let mut failed = Stored::spawn(async { Err(BackendError::NotFound) });
        assert!(!failed.wait().await);
        assert_eq!(failed.now(), Some(false));

        // A writer gone without a word: not stored.
        let (storing, mut gone) = Stored::pending();
        drop(storing);
        assert!(!gone.wait().await);
    }
}

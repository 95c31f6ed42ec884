//! A question's transaction finishing while its answer starts. The question is stored
//! (with its conversation and its run's row) by a task of its own; the answer's reads
//! may run meanwhile, but nothing is sent to the client, written for the run or asked
//! of a model before [`Stored::wait`] said the question is there.

use tokio::sync::{oneshot, watch};

use crate::error::BackendError;

/// The outcome of a question's transaction, for the request that stores it.
pub(crate) type Committed = oneshot::Receiver<Result<(), BackendError>>;

/// Whether a question's transaction committed: `None` while it runs.
#[derive(Clone, Debug)]
pub(crate) struct Stored(watch::Receiver<Option<bool>>);

impl Stored {
    /// Runs `storing` (which commits) in a task of its own: its result reaches the
    /// request through the returned receiver, and every [`Stored`] as a yes or no. The
    /// task goes on if the request is dropped, so that a question whose commit began
    /// is answered (and can be re-attached to) or not stored at all.
    pub(crate) fn spawn<F>(storing: F) -> (Stored, Committed)
    where
        F: std::future::Future<Output = Result<(), BackendError>> + Send + 'static,
    {
        let (state, stored) = watch::channel(None);
        let (result, outcome) = oneshot::channel();
        tokio::spawn(async move {
            let done = storing.await;
            if let Err(e) = &done {
                tracing::error!(error = %e, "storing a question failed");
            }
            let _ = state.send(Some(done.is_ok()));
            let _ = result.send(done);
        });
        (Stored(stored), outcome)
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
        let (gate, release) = oneshot::channel::<bool>();
        let (mut stored, outcome) = Stored::spawn(async move {
            match release.await {
                Ok(true) => Ok(()),
                _ => Err(BackendError::NotFound),
            }
        });
        assert_eq!(stored.now(), None);
        let _ = gate.send(true);
        assert!(stored.wait().await);
        assert_eq!(stored.now(), Some(true));
        assert!(matches!(outcome.await, Ok(Ok(()))));

        let (mut failed, outcome) = Stored::spawn(async { Err(BackendError::NotFound) });
        assert!(!failed.wait().await);
        assert!(matches!(outcome.await, Ok(Err(BackendError::NotFound))));
    }
}

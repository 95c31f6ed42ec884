//! Fair turns at dataset SQL (`datasets::query`), the one slow thing a user can start
//! at will: each user runs at most [`QueryLimits::per_user`] queries at once, and
//! [`QueryLimits::queue`] more wait their turn; past that a query is refused at once
//! ([`Full::User`]) instead of waiting behind the user's own. All users together run at
//! most [`QueryLimits::total`], always more than one user's share, so no account fills
//! the server's sandbox connections: another user's query finds a free one and takes
//! only its own time. A query waits at most [`QueryLimits::wait`] for its turn (then
//! [`Full::Server`] or [`Full::User`]).
//!
//! The turns are this server's, in memory, like the sandbox connections they share out:
//! several servers on one database each give a user their own `per_user`.
//!
//! A [`Slot`] is held until the query's database work ends: the caller runs it in a
//! task of its own that keeps the slot, so a client that goes away (its request's
//! future dropped) frees nothing while the database still works for it.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::ids::UserId;

/// The most dataset queries a server runs at once, whatever is configured: its
/// sandbox pools hold at most this many connections.
pub const MAX_TOTAL: usize = 32;

/// How many dataset queries run at once: one user's, waiting behind them, everyone's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QueryLimits {
    /// A user's queries running at once (at least 1, less than `total`).
    pub per_user: usize,
    /// A user's queries waiting for one of theirs to end; past it, refused at once.
    pub queue: usize,
    /// Everyone's queries running at once (at most [`MAX_TOTAL`]).
    pub total: usize,
    /// How long a query waits for its turn at most.
    pub wait: Duration,
}

impl Default for QueryLimits {
    fn default() -> QueryLimits {
        QueryLimits { per_user: 2, queue: 2, total: 6, wait: Duration::from_secs(5) }
    }
}

impl QueryLimits {
    /// Why these limits cannot be used, if they cannot: one user's share must leave
    /// room for another's.
    pub fn problem(&self) -> Option<String> {
        if self.total < 2 || self.total > MAX_TOTAL {
            return Some(format!("the total must be 2 to {MAX_TOTAL}, not {}", self.total));
        }
        if self.per_user == 0 || self.per_user >= self.total {
            return Some(format!(
                "a user's share must be at least 1 and less than the total ({}), not {}",
                self.total, self.per_user
            ));
        }
        if self.queue > 100 {
            return Some(format!("the queue must be 0 to 100, not {}", self.queue));
        }
        None
    }

    /// The same made usable: the total within 2 and [`MAX_TOTAL`], a user's share
    /// below it, the queue at most 100.
    fn bounded(self) -> QueryLimits {
        let total = self.total.clamp(2, MAX_TOTAL);
        QueryLimits { total, per_user: self.per_user.clamp(1, total - 1), queue: self.queue.min(100), ..self }
    }
}

/// Why a query got no turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Full {
    /// The user's queries already take their share and fill their queue (or the
    /// turn did not come in time).
    #[error(
        "{running} of the user's dataset queries are running, their most at once, and the queue is full"
    )]
    User { running: usize },
    /// Everyone's queries take every turn of the server, past the wait.
    #[error("the server's dataset queries took every turn for longer than the wait")]
    Server,
}

/// The turns of one server, shared by every clone of its store.
#[derive(Debug)]
pub struct Slots {
    limits: QueryLimits,
    total: Arc<Semaphore>,
    users: Mutex<HashMap<UserId, Turns>>,
}

/// One user's turns, kept while one of their queries runs or waits.
#[derive(Debug)]
struct Turns {
    running: Arc<Semaphore>,
    /// Queries running or waiting: the entry goes at 0.
    held: usize,
    waiting: usize,
}

/// A turn: while it lives, the query counts against its user's share and the total.
#[derive(Debug)]
pub struct Slot {
    _total: OwnedSemaphorePermit,
    _user: OwnedSemaphorePermit,
    _held: Held,
}

/// One of the user's queries, running or waiting: its entry is dropped with the last.
#[derive(Debug)]
struct Held {
    slots: Arc<Slots>,
    user: UserId,
}

impl Drop for Held {
    fn drop(&mut self) {
        let mut users = self.slots.users.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(turns) = users.get_mut(&self.user) {
            turns.held = turns.held.saturating_sub(1);
            if turns.held == 0 {
                users.remove(&self.user);
            }
        }
    }
}

/// A query in the user's queue, counted there until it leaves (its turn came, or
/// it was given up).
struct Waiting<'a> {
    slots: &'a Slots,
    user: UserId,
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        let mut users = self.slots.users.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(turns) = users.get_mut(&self.user) {
            turns.waiting = turns.waiting.saturating_sub(1);
        }
    }
}

impl Slots {
    /// Turns under `limits` (made usable: see [`QueryLimits::problem`]).
    pub fn new(limits: QueryLimits) -> Arc<Slots> {
        let limits = limits.bounded();
        Arc::new(Slots {
            limits,
            total: Arc::new(Semaphore::new(limits.total)),
            users: Mutex::new(HashMap::new()),
        })
    }

    pub fn limits(&self) -> QueryLimits {
        self.limits
    }

    /// A turn for one of `user`'s queries: at once if they run fewer than their
    /// share, else after one of theirs ends if their queue has room, else
    /// [`Full::User`] at once. Then a turn of the server's total, within the wait.
    pub async fn enter(self: &Arc<Self>, user: UserId) -> Result<Slot, Full> {
        let started = tokio::time::Instant::now();
        let (semaphore, now, held) = {
            let mut users = self.users.lock().unwrap_or_else(PoisonError::into_inner);
            let turns = users.entry(user).or_insert_with(|| Turns {
                running: Arc::new(Semaphore::new(self.limits.per_user)),
                held: 0,
                waiting: 0,
            });
            let now = turns.running.clone().try_acquire_owned().ok();
            if now.is_none() && turns.waiting >= self.limits.queue {
                let running = self.limits.per_user - turns.running.available_permits();
                if turns.held == 0 {
                    users.remove(&user);
                }
                return Err(Full::User { running });
            }
            if now.is_none() {
                turns.waiting += 1;
            }
            turns.held += 1;
            (turns.running.clone(), now, Held { slots: self.clone(), user })
        };
        let mine = match now {
            Some(permit) => permit,
            None => {
                let _waiting = Waiting { slots: self, user };
                match tokio::time::timeout(self.limits.wait, semaphore.acquire_owned()).await {
                    Ok(Ok(permit)) => permit,
                    _ => return Err(Full::User { running: self.limits.per_user }),
                }
            }
        };
        let left = self.limits.wait.saturating_sub(started.elapsed());
        let total = match self.total.clone().try_acquire_owned() {
            Ok(permit) => permit,
            Err(_) => match tokio::time::timeout(left, self.total.clone().acquire_owned()).await {
                Ok(Ok(permit)) => permit,
                _ => return Err(Full::Server),
            },
        };
        Ok(Slot { _total: total, _user: mine, _held: held })
    }

    /// How many of `user`'s queries run or wait now.
    pub fn held(&self, user: UserId) -> usize {
        let users = self.users.lock().unwrap_or_else(PoisonError::into_inner);
        users.get(&user).map_or(0, |t| t.held)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    fn limits(per_user: usize, queue: usize, total: usize) -> QueryLimits {
        QueryLimits { per_user, queue, total, wait: Duration::from_secs(60) }
    }

    /// A's share runs, her queue waits, the rest is refused at once; B still gets a
    /// turn at once; A's queued query runs when one of hers ends.
    #[tokio::test]
    async fn a_user_gets_her_share_and_a_queue_and_no_more() {
        let slots = Slots::new(limits(2, 1, 3));
        let (a, b) = (UserId(1), UserId(2));
        let first = slots.enter(a).await.unwrap();
        let _second = slots.enter(a).await.unwrap();
        let queued = tokio::spawn({
            let slots = slots.clone();
            async move { slots.enter(a).await.map(|_| ()) }
        });
        while slots.held(a) < 3 {
            tokio::task::yield_now().await;
        }
        assert_eq!(slots.enter(a).await.unwrap_err(), Full::User { running: 2 });
        assert_eq!(slots.enter(a).await.unwrap_err(), Full::User { running: 2 }, "still");
        let b_turn = slots.enter(b).await.expect("B's first query runs at once");
        assert!(!queued.is_finished());
        drop(first);
        queued.await.unwrap().expect("A's queued query gets the turn she freed");
        drop(b_turn);
        assert_eq!(slots.held(b), 0, "an idle user's entry goes");
    }

    /// One user's share is below the total, so she never takes every turn; once the
    /// total is taken by several users, a query waits up to the wait, then is refused.
    #[tokio::test(start_paused = true)]
    async fn the_total_is_shared_and_a_wait_ends() {
        let slots = Slots::new(QueryLimits { wait: Duration::from_secs(5), ..limits(2, 5, 3) });
        let (a, b, c) = (UserId(1), UserId(2), UserId(3));
        let _a1 = slots.enter(a).await.unwrap();
        let _a2 = slots.enter(a).await.unwrap();
        let b1 = slots.enter(b).await.expect("A cannot take the last turn");
        assert_eq!(slots.enter(c).await.unwrap_err(), Full::Server, "after the wait");
        let waiting = tokio::spawn({
            let slots = slots.clone();
            async move { slots.enter(c).await.map(|_| ()) }
        });
        tokio::time::sleep(Duration::from_secs(1)).await;
        drop(b1);
        waiting.await.unwrap().expect("C gets B's turn within the wait");
        // A's queued query gives up after the wait too.
        assert_eq!(slots.enter(a).await.unwrap_err(), Full::User { running: 2 });
        assert_eq!(slots.held(c), 0);
        assert_eq!(slots.held(a), 2);
    }

    /// A waiting query dropped (its client gone) leaves the queue: the next one fits.
    #[tokio::test]
    async fn a_query_given_up_leaves_the_queue() {
        let slots = Slots::new(limits(1, 1, 2));
        let a = UserId(1);
        let running = slots.enter(a).await.unwrap();
        let waiting = tokio::spawn({
            let slots = slots.clone();
            async move { slots.enter(a).await.map(|_| ()) }
        });
        while slots.held(a) < 2 {
            tokio::task::yield_now().await;
        }
        assert!(slots.enter(a).await.is_err(), "the queue is full");
        waiting.abort();
        let _ = waiting.await;
        assert_eq!(slots.held(a), 1);
        let next = tokio::spawn({
            let slots = slots.clone();
            async move { slots.enter(a).await.map(|_| ()) }
        });
        drop(running);
        next.await.unwrap().expect("the queue had room again");
        assert_eq!(slots.held(a), 0);
    }

    #[test]
    fn limits_that_leave_no_room_for_another_user_are_named() {
        assert_eq!(QueryLimits::default().problem(), None);
        assert!(limits(2, 2, 2).problem().unwrap().contains("less than the total"));
        assert!(limits(0, 2, 4).problem().is_some());
        assert!(limits(1, 2, 1).problem().is_some());
        assert!(limits(1, 2, MAX_TOTAL + 1).problem().is_some());
        assert!(limits(1, 101, 4).problem().is_some());
        let made = limits(9, 500, 4).bounded();
        assert_eq!((made.per_user, made.queue, made.total), (3, 100, 4));
    }
}

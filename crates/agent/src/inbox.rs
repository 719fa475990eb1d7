//! The inbox: every message from every source reaches the brain through here, one turn
//! at a time and in order of arrival (seed §4). A message sent while a reply is being
//! written waits in the queue, where it can be cancelled; it is answered when the turns
//! before it are done. Control commands never queue (they are answered at once).
//!
//! `Queue` is the rule, pure: arrivals, finishes and cancellations in, decisions out.
//! `Inbox` wraps it with the wake-ups that let a waiting sender go on.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

use serde::Serialize;
use tokio::sync::oneshot;

use sidecar_domain::Channel;

/// A message waiting for its turn, as the UI lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct QueuedMessage {
    pub id: u64,
    pub text: String,
    pub channel: Channel,
}

/// What happens to a message that arrives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Arrival {
    /// Nothing is running: it is answered now.
    RunNow,
    /// A turn is running: it waits with this id.
    Queued(u64),
}

/// The queue's state: whether a turn runs, and who waits, oldest first.
#[derive(Debug, Default)]
pub(crate) struct Queue {
    running: bool,
    waiting: VecDeque<QueuedMessage>,
    next_id: u64,
}

impl Queue {
    pub(crate) fn arrive(&mut self, text: &str, channel: Channel) -> Arrival {
        if !self.running {
            self.running = true;
            return Arrival::RunNow;
        }
        self.next_id += 1;
        self.waiting.push_back(QueuedMessage { id: self.next_id, text: text.to_string(), channel });
        Arrival::Queued(self.next_id)
    }

    /// The running turn ended: the next waiting message runs now (the turn slot passes
    /// straight to it), or the inbox goes idle.
    pub(crate) fn finish(&mut self) -> Option<QueuedMessage> {
        let next = self.waiting.pop_front();
        self.running = next.is_some();
        next
    }

    /// Takes a waiting message out; false if it already started or never was.
    pub(crate) fn cancel(&mut self, id: u64) -> bool {
        let before = self.waiting.len();
        self.waiting.retain(|m| m.id != id);
        self.waiting.len() != before
    }

    pub(crate) fn waiting(&self) -> Vec<QueuedMessage> {
        self.waiting.iter().cloned().collect()
    }

    pub(crate) fn is_running(&self) -> bool {
        self.running
    }
}

/// Why a message did not get its turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub(crate) enum NotAnswered {
    #[error("the queued message was cancelled")]
    Cancelled,
}

#[derive(Default)]
struct Shared {
    queue: Queue,
    wake: HashMap<u64, oneshot::Sender<()>>,
}

/// The queue with its wake-ups. `enter` returns once the message may run; dropping the
/// returned `Turn` passes the slot on.
#[derive(Default)]
pub(crate) struct Inbox {
    shared: Mutex<Shared>,
}

/// A message's place in line.
pub(crate) enum Entry<'a> {
    /// Its turn, now.
    Now(Turn<'a>),
    /// Waiting behind others.
    Waiting { inbox: &'a Inbox, id: u64, woken: oneshot::Receiver<()> },
}

impl<'a> Entry<'a> {
    /// Waits for its turn; errs if it was cancelled while waiting.
    pub(crate) async fn ready(self) -> Result<Turn<'a>, NotAnswered> {
        match self {
            Entry::Now(turn) => Ok(turn),
            // A dropped sender means cancelled; a sent one, that the slot is ours.
            Entry::Waiting { inbox, id, woken } => match woken.await {
                Ok(()) => Ok(Turn { inbox, waited: Some(id) }),
                Err(_) => Err(NotAnswered::Cancelled),
            },
        }
    }
}

/// The right to run one turn; the next message goes on when it is dropped.
pub(crate) struct Turn<'a> {
    inbox: &'a Inbox,
    /// The queue id when the message waited, `None` when it ran at once.
    pub waited: Option<u64>,
}

impl Drop for Turn<'_> {
    fn drop(&mut self) {
        self.inbox.finish();
    }
}

impl Inbox {
    /// Waits until `text` may be answered. `on_change` is told the waiting list each
    /// time it changes (to show it). Errs if the message was cancelled while waiting.
    pub(crate) async fn enter(&self, text: &str, channel: Channel, on_change: impl Fn(Vec<QueuedMessage>)) -> Result<Turn<'_>, NotAnswered> {
        self.arrive(text, channel, on_change).ready().await
    }

    /// Takes its place in line now (so order is arrival order, whoever awaits first);
    /// `Entry::ready` then waits for its turn.
    pub(crate) fn arrive(&self, text: &str, channel: Channel, on_change: impl Fn(Vec<QueuedMessage>)) -> Entry<'_> {
        let mut shared = self.shared.lock().expect("inbox lock");
        match shared.queue.arrive(text, channel) {
            Arrival::RunNow => Entry::Now(Turn { inbox: self, waited: None }),
            Arrival::Queued(id) => {
                let (tx, woken) = oneshot::channel();
                shared.wake.insert(id, tx);
                on_change(shared.queue.waiting());
                Entry::Waiting { inbox: self, id, woken }
            }
        }
    }

    /// Cancels a waiting message; false if it is not waiting (it started, or is gone).
    pub(crate) fn cancel(&self, id: u64) -> bool {
        let mut shared = self.shared.lock().expect("inbox lock");
        let cancelled = shared.queue.cancel(id);
        shared.wake.remove(&id);
        cancelled
    }

    pub(crate) fn waiting(&self) -> Vec<QueuedMessage> {
        self.shared.lock().expect("inbox lock").queue.waiting()
    }

    pub(crate) fn is_running(&self) -> bool {
        self.shared.lock().expect("inbox lock").queue.is_running()
    }

    fn finish(&self) {
        let mut shared = self.shared.lock().expect("inbox lock");
        while let Some(next) = shared.queue.finish() {
            match shared.wake.remove(&next.id).map(|wake| wake.send(())) {
                Some(Ok(())) => return,
                // Its sender gave up (the future was dropped): the next one runs.
                _ => continue,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_runs_the_rest_wait_in_order_and_a_cancelled_one_is_skipped() {
        let mut queue = Queue::default();
        assert_eq!(queue.arrive("one", Channel::Desktop), Arrival::RunNow);
        assert_eq!(queue.arrive("two", Channel::Desktop), Arrival::Queued(1));
        assert_eq!(queue.arrive("three", Channel::Cli), Arrival::Queued(2));
        assert_eq!(queue.arrive("four", Channel::Desktop), Arrival::Queued(3));
        assert!(queue.cancel(2));
        assert!(!queue.cancel(2), "already gone");
        assert_eq!(queue.finish().map(|m| m.text), Some("two".into()));
        assert!(queue.is_running(), "the slot passed straight on");
        assert_eq!(queue.finish().map(|m| m.text), Some("four".into()));
        assert_eq!(queue.finish(), None);
        assert!(!queue.is_running());
        assert_eq!(queue.arrive("five", Channel::Desktop), Arrival::RunNow);
    }
}

//! A message source fed by calls: the desktop window (each IPC `send_message`) and any
//! caller of `Companion::send`. A call puts its message in line and waits for the
//! answer, which comes back through the same inbox as every other source's.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use tokio::sync::{mpsc, oneshot};

use super::source::{IncomingMessage, MessageSource};
use futures_util::future::BoxFuture;
use sidecar_agent::TurnError;
use sidecar_agent::TurnOutcome;
use sidecar_domain::Channel;
use sidecar_domain::Clock;

type Answer = Result<TurnOutcome, TurnError>;

/// The source side, served by `serving::serve`.
pub struct CallSource {
    channel: Channel,
    clock: Clock,
    calls: tokio::sync::Mutex<mpsc::UnboundedReceiver<(String, oneshot::Sender<Answer>)>>,
    waiting: Mutex<HashMap<String, oneshot::Sender<Answer>>>,
    next_id: AtomicU64,
}

/// The calling side: what `Companion::send` uses.
#[derive(Clone)]
pub struct Caller {
    calls: mpsc::UnboundedSender<(String, oneshot::Sender<Answer>)>,
}

impl CallSource {
    pub fn new(channel: Channel, clock: Clock) -> (Self, Caller) {
        let (tx, rx) = mpsc::unbounded_channel();
        let source = Self { channel, clock, calls: tokio::sync::Mutex::new(rx), waiting: Mutex::default(), next_id: AtomicU64::new(1) };
        (source, Caller { calls: tx })
    }
}

impl Caller {
    /// Sends `text` and waits for its answer.
    pub async fn call(&self, text: &str) -> Answer {
        let (answer, answered) = oneshot::channel();
        self.calls.send((text.to_string(), answer)).map_err(|_| TurnError::ShuttingDown)?;
        answered.await.map_err(|_| TurnError::ShuttingDown)?
    }
}

impl MessageSource for CallSource {
    fn channel(&self) -> Channel {
        self.channel
    }

    fn next(&self) -> BoxFuture<'_, Option<IncomingMessage>> {
        Box::pin(async move {
            // `recv` is cancel-safe: a message is taken only when this completes.
            let (content, answer) = self.calls.lock().await.recv().await?;
            let id = self.next_id.fetch_add(1, Ordering::Relaxed).to_string();
            self.waiting.lock().expect("calls lock").insert(id.clone(), answer);
            Some(IncomingMessage { id, channel: self.channel, user_id: String::new(), content, received_at: self.clock.now() })
        })
    }

    fn send_response<'a>(&'a self, to: &'a IncomingMessage, answer: Answer) -> BoxFuture<'a, Result<(), crate::error::PhoneError>> {
        let waiting = self.waiting.lock().expect("calls lock").remove(&to.id);
        Box::pin(async move {
            // A caller that stopped waiting (a closed window) needs no answer.
            if let Some(waiting) = waiting {
                let _ = waiting.send(answer);
            }
            Ok(())
        })
    }

    fn is_connected(&self) -> bool {
        !self.calls.try_lock().is_ok_and(|calls| calls.is_closed())
    }
}

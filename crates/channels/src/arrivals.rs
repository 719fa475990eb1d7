//! The messages a phone channel has let through, waiting for the inbox to take them
//! (`MessageSource::next`): pushed by the channel's own loop, taken one at a time,
//! ended when the channel stops.

use tokio::sync::{mpsc, Mutex};
use tokio_util::sync::CancellationToken;

use super::source::IncomingMessage;

pub(crate) struct Arrivals {
    tx: mpsc::UnboundedSender<IncomingMessage>,
    rx: Mutex<mpsc::UnboundedReceiver<IncomingMessage>>,
}

impl Default for Arrivals {
    fn default() -> Self {
        let (tx, rx) = mpsc::unbounded_channel();
        Self { tx, rx: Mutex::new(rx) }
    }
}

impl Arrivals {
    pub(crate) fn push(&self, message: IncomingMessage) {
        // The receiver lives as long as `self`: a send cannot fail.
        let _ = self.tx.send(message);
    }

    /// The next message, or `None` once `stop` is cancelled. Cancel-safe: a message is
    /// taken only when this returns it.
    pub(crate) async fn next(&self, stop: &CancellationToken) -> Option<IncomingMessage> {
        let mut rx = self.rx.lock().await;
        tokio::select! {
            message = rx.recv() => message,
            _ = stop.cancelled() => None,
        }
    }
}

//! A desktop-notification sink that keeps what it was given, for tests that check what
//! Sidecar notified (reminders, task results).

use std::sync::Mutex;

use futures_util::future::BoxFuture;
use sidecar_outbox::{Kind, Outgoing, Sink, SinkError};
use sidecar_proactive::Channel;
use sidecar_proactive::SinkId;

/// What the notifications were given, in order.
#[derive(Default)]
pub(crate) struct Notifications(pub Mutex<Vec<Outgoing>>);

impl Notifications {
    /// Each notification's kind and chat line.
    pub(crate) fn said(&self) -> Vec<(Kind, String)> {
        self.0.lock().unwrap().iter().map(|m| (m.kind, m.chat.clone())).collect()
    }
}

impl Sink for Notifications {
    fn id(&self) -> SinkId {
        SinkId::Notification
    }
    fn channel(&self) -> Channel {
        Channel::Desktop
    }
    fn send<'a>(&'a self, message: &'a Outgoing) -> BoxFuture<'a, Result<Option<i64>, SinkError>> {
        self.0.lock().unwrap().push(message.clone());
        Box::pin(async { Ok(None) })
    }
}

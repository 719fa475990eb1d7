//! The MessageRouter: where proactive messages go. Sources (the desktop window, the
//! CLI) bring the user's messages in and get their replies back directly; sinks (the
//! chat, OS notifications, the tray, the daemon's terminal) receive what Sidecar says
//! on its own. The routing policy is the seed's:
//! - reminders go to every available sink set to `all` or `reminders-only`;
//! - spontaneous messages go to the primary sink only, and only when it is set to
//!   `all` (if it is not available, they are not sent at all);
//! - `/quiet here` keeps spontaneous messages off the sinks of one channel.

use std::sync::{Arc, RwLock};

use serde::Serialize;

use super::config::{SinkId, SinkPreference, SinkPreferences};
use super::state::Channel;
use crate::reminders::scheduler::BoxFuture;

/// What kind of proactive message this is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Reminder,
    Spontaneous,
}

/// A message Sidecar sends on its own.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Outgoing {
    pub kind: Kind,
    /// The notification's title.
    pub title: String,
    /// The notification's body.
    pub body: String,
    /// The line in the chat.
    pub chat: String,
    /// greeting / checkin / contextual, for spontaneous messages.
    pub message_type: Option<String>,
    pub reminder_id: Option<i64>,
    pub late: bool,
    /// The chat message this was posted as, once the chat sink has run (so a click on
    /// the notification can open the window on it).
    pub message_id: Option<i64>,
    /// A reminder's occurrence: its chat line is posted once, however often it is shown.
    pub occurrence: Option<String>,
}

/// One place a proactive message can be shown.
pub trait Sink: Send + Sync {
    fn id(&self) -> SinkId;
    /// The channel whose user sees this sink (for `/quiet here`).
    fn channel(&self) -> Channel;
    fn available(&self) -> bool {
        true
    }
    /// Shows the message. The chat sink returns the id of the message it posted.
    fn send<'a>(&'a self, message: &'a Outgoing) -> BoxFuture<'a, Result<Option<i64>, String>>;
}

/// The sinks a message goes to, in delivery order (chat first, so later sinks can
/// point at the posted message). Pure: the policy in one place.
pub fn targets(kind: Kind, prefs: &SinkPreferences, available: &[(SinkId, Channel)], quiet_channel: Option<Channel>) -> Vec<SinkId> {
    let mut out: Vec<SinkId> = match kind {
        Kind::Reminder => available
            .iter()
            .filter(|(sink, _)| matches!(prefs.of(*sink), SinkPreference::All | SinkPreference::RemindersOnly))
            .map(|(sink, _)| *sink)
            .collect(),
        Kind::Spontaneous => available
            .iter()
            .filter(|(sink, channel)| {
                *sink == prefs.primary && prefs.of(*sink) == SinkPreference::All && Some(*channel) != quiet_channel
            })
            .map(|(sink, _)| *sink)
            .collect(),
    };
    out.sort();
    out.dedup();
    out
}

/// What a routed message reached.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Routed {
    pub delivered: Vec<SinkId>,
    pub failed: Vec<(SinkId, String)>,
    pub message_id: Option<i64>,
}

impl Routed {
    pub fn reached_anyone(&self) -> bool {
        !self.delivered.is_empty()
    }
}

/// Keeps what Sidecar said in the conversation's history even when no sink put it in
/// the chat (a reminder shown only as a notification).
pub trait History: Send + Sync {
    /// Stores `message` as shown on `channel`; returns its conversation and its id.
    fn record<'a>(&'a self, message: &'a Outgoing, channel: Channel) -> BoxFuture<'a, Result<(i64, i64), String>>;
}

#[derive(Default, Clone)]
pub struct MessageRouter {
    sinks: Arc<RwLock<Vec<Arc<dyn Sink>>>>,
    history: Arc<RwLock<Option<Arc<dyn History>>>>,
}

impl MessageRouter {
    /// Adds a sink; one of the same id replaces it.
    pub fn register(&self, sink: Arc<dyn Sink>) {
        let mut sinks = self.sinks.write().expect("sinks lock");
        sinks.retain(|s| s.id() != sink.id());
        sinks.push(sink);
    }

    /// Where messages no sink put in the chat are recorded.
    pub fn set_history(&self, history: Arc<dyn History>) {
        *self.history.write().expect("history lock") = Some(history);
    }

    pub fn sinks(&self) -> Vec<(SinkId, Channel, bool)> {
        self.sinks.read().expect("sinks lock").iter().map(|s| (s.id(), s.channel(), s.available())).collect()
    }

    fn available(&self) -> Vec<(SinkId, Channel)> {
        self.sinks().into_iter().filter(|(_, _, up)| *up).map(|(id, channel, _)| (id, channel)).collect()
    }

    /// Whether a spontaneous message would reach anyone now.
    pub fn takes_spontaneous(&self, prefs: &SinkPreferences, quiet_channel: Option<Channel>) -> bool {
        !targets(Kind::Spontaneous, prefs, &self.available(), quiet_channel).is_empty()
    }

    /// Keeps `message` in the conversation without showing it on any sink (the chat
    /// view finds it on its next load, or when told); returns its conversation and id.
    pub async fn keep(&self, message: &Outgoing) -> Result<(i64, i64), String> {
        let history = self.history.read().expect("history lock").clone().ok_or("no conversation to keep it in")?;
        let channel = self.sinks().into_iter().find(|(id, _, _)| *id == SinkId::Chat).map_or(Channel::Desktop, |(_, channel, _)| channel);
        history.record(message, channel).await
    }

    /// Sends `message` by the policy. A failing sink does not stop the others.
    pub async fn send(&self, mut message: Outgoing, prefs: &SinkPreferences, quiet_channel: Option<Channel>) -> Routed {
        let chosen = targets(message.kind, prefs, &self.available(), quiet_channel);
        let sinks: Vec<Arc<dyn Sink>> = {
            let all = self.sinks.read().expect("sinks lock");
            chosen.iter().filter_map(|id| all.iter().find(|s| s.id() == *id).cloned()).collect()
        };
        let mut routed = Routed::default();
        let mut shown_on = None;
        for sink in sinks {
            tracing::info!(sink = sink.id().as_str(), kind = ?message.kind, "routing a proactive message");
            match sink.send(&message).await {
                Ok(id) => {
                    if id.is_some() {
                        message.message_id = id;
                        routed.message_id = id;
                    }
                    routed.delivered.push(sink.id());
                    shown_on.get_or_insert(sink.channel());
                }
                Err(error) => {
                    tracing::warn!(sink = sink.id().as_str(), %error, "a sink could not show a proactive message");
                    routed.failed.push((sink.id(), error));
                }
            }
        }
        let history = self.history.read().expect("history lock").clone();
        if let (Some(channel), None, Some(history)) = (shown_on, routed.message_id, history) {
            match history.record(&message, channel).await {
                Ok((_, id)) => routed.message_id = Some(id),
                Err(error) => tracing::warn!(%error, "a proactive message was shown but could not be kept in the history"),
            }
        }
        routed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DESKTOP: [(SinkId, Channel); 3] =
        [(SinkId::Tray, Channel::Desktop), (SinkId::Notification, Channel::Desktop), (SinkId::Chat, Channel::Desktop)];

    #[test]
    fn reminders_go_to_every_sink_that_takes_them_chat_first() {
        let prefs = SinkPreferences { tray: SinkPreference::None, notification: SinkPreference::RemindersOnly, ..Default::default() };
        assert_eq!(targets(Kind::Reminder, &prefs, &DESKTOP, None), [SinkId::Chat, SinkId::Notification]);
        // Quiet here never holds back a reminder: the user asked for it.
        assert_eq!(targets(Kind::Reminder, &prefs, &DESKTOP, Some(Channel::Desktop)).len(), 2);
    }

    #[test]
    fn spontaneous_messages_go_to_the_primary_only_when_it_takes_all() {
        let prefs = SinkPreferences::default();
        assert_eq!(targets(Kind::Spontaneous, &prefs, &DESKTOP, None), [SinkId::Chat]);
        let notify = SinkPreferences { primary: SinkId::Notification, ..Default::default() };
        assert_eq!(targets(Kind::Spontaneous, &notify, &DESKTOP, None), [SinkId::Notification]);
        let reminders_only = SinkPreferences { chat: SinkPreference::RemindersOnly, ..Default::default() };
        assert!(targets(Kind::Spontaneous, &reminders_only, &DESKTOP, None).is_empty());
        // The primary is not running (the daemon has no chat window): no fallback.
        let console_primary = SinkPreferences { primary: SinkId::Console, ..Default::default() };
        assert!(targets(Kind::Spontaneous, &console_primary, &DESKTOP, None).is_empty());
        assert!(targets(Kind::Spontaneous, &prefs, &DESKTOP, Some(Channel::Desktop)).is_empty());
        assert_eq!(targets(Kind::Spontaneous, &prefs, &DESKTOP, Some(Channel::Cli)), [SinkId::Chat]);
    }
}

//! A phone channel's link as the user sees it: connected, down since when and why,
//! or waiting for setup; and when its last message came. Every change is published,
//! so Settings → Channels and the tray follow it.

use std::sync::Mutex;

use chrono::{DateTime, Utc};
use serde::Serialize;

use crate::events::ChannelEvent;
use sidecar_domain::Channel;
use sidecar_domain::Emitter;

#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum Link {
    /// Starting, or not yet heard back from the server.
    Connecting,
    Connected {
        since: DateTime<Utc>,
    },
    /// Down; retried on its own with backoff.
    Down {
        since: DateTime<Utc>,
        reason: String,
    },
    /// Cannot run until the user does something (a token, a QR scan).
    NeedsSetup {
        what: String,
    },
}

/// One channel's state, shared by its tasks.
pub struct Health {
    channel: Channel,
    events: Emitter<ChannelEvent>,
    link: Mutex<Link>,
    last_message_at: Mutex<Option<DateTime<Utc>>>,
}

/// What Settings → Channels shows for one channel.
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
pub struct HealthView {
    pub channel: Channel,
    pub link: Link,
    pub last_message_at: Option<DateTime<Utc>>,
}

impl Health {
    pub(crate) fn new(channel: Channel, events: Emitter<ChannelEvent>) -> Self {
        Self { channel, events, link: Mutex::new(Link::Connecting), last_message_at: Mutex::new(None) }
    }

    fn set(&self, next: impl FnOnce(&Link) -> Option<Link>) {
        let mut link = self.link.lock().expect("health lock");
        if let Some(next) = next(&link) {
            if *link != next {
                *link = next;
                drop(link);
                self.events.publish(ChannelEvent::ChannelsChanged);
            }
        }
    }

    /// The server answered: connected (since the first answer after a gap).
    pub(crate) fn up(&self, now: DateTime<Utc>) {
        self.set(|link| match link {
            Link::Connected { .. } => None,
            _ => Some(Link::Connected { since: now }),
        });
    }

    /// The server could not be reached: down since the first failure.
    pub(crate) fn down(&self, now: DateTime<Utc>, reason: &str) {
        self.set(|link| match link {
            Link::Down { since, .. } => Some(Link::Down { since: *since, reason: reason.to_string() }),
            _ => Some(Link::Down { since: now, reason: reason.to_string() }),
        });
    }

    pub(crate) fn needs_setup(&self, what: &str) {
        self.set(|_| Some(Link::NeedsSetup { what: what.to_string() }));
    }

    pub(crate) fn message_arrived(&self, now: DateTime<Utc>) {
        *self.last_message_at.lock().expect("health lock") = Some(now);
        self.events.publish(ChannelEvent::ChannelsChanged);
    }

    pub fn is_connected(&self) -> bool {
        matches!(*self.link.lock().expect("health lock"), Link::Connected { .. })
    }

    pub fn view(&self) -> HealthView {
        HealthView {
            channel: self.channel,
            link: self.link.lock().expect("health lock").clone(),
            last_message_at: *self.last_message_at.lock().expect("health lock"),
        }
    }
}

//! Where Sidecar's own messages may reach the user (the sinks), and what each one takes:
//! the outbox's settings, read by the message router. In a file of its own so the
//! router needs nothing of the spontaneous loop's configuration.

use serde::{Deserialize, Serialize};

/// Where a proactive message can reach the user.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, PartialOrd, Ord, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum SinkId {
    /// The conversation in the app's window.
    Chat,
    /// A native OS notification.
    Notification,
    /// The tray icon's alert state, until the window is focused.
    Tray,
    /// The terminal of `sidecar daemon`.
    Console,
    /// The paired Telegram chats.
    Telegram,
    /// The user's WhatsApp ("message yourself", or the allowed numbers).
    Whatsapp,
    /// A notification on the user's other computer attached to this one, the one the
    /// user is at; it takes what `notification` takes.
    Devices,
}

impl SinkId {
    pub fn as_str(self) -> &'static str {
        match self {
            SinkId::Chat => "chat",
            SinkId::Notification => "notification",
            SinkId::Tray => "tray",
            SinkId::Console => "console",
            SinkId::Telegram => "telegram",
            SinkId::Whatsapp => "whatsapp",
            SinkId::Devices => "devices",
        }
    }
}

/// What a sink receives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default, ts_rs::TS)]
#[serde(rename_all = "kebab-case")]
pub enum SinkPreference {
    #[default]
    All,
    RemindersOnly,
    None,
}

/// Per-sink preferences and the primary sink (the only one spontaneous messages use).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[serde(default)]
pub struct SinkPreferences {
    pub primary: SinkId,
    pub chat: SinkPreference,
    pub notification: SinkPreference,
    pub tray: SinkPreference,
    pub console: SinkPreference,
    pub telegram: SinkPreference,
    pub whatsapp: SinkPreference,
    /// Phone channels get what Sidecar says on its own only once the desktop has seen
    /// no activity for this long (0: always), unless a phone is the primary.
    pub phone_when_idle_minutes: u32,
}

impl Default for SinkPreferences {
    fn default() -> Self {
        Self {
            primary: SinkId::Chat,
            chat: SinkPreference::All,
            notification: SinkPreference::All,
            tray: SinkPreference::All,
            console: SinkPreference::All,
            telegram: SinkPreference::All,
            whatsapp: SinkPreference::All,
            phone_when_idle_minutes: DEFAULT_PHONE_WHEN_IDLE_MINUTES,
        }
    }
}

impl SinkPreferences {
    pub fn of(&self, sink: SinkId) -> SinkPreference {
        match sink {
            SinkId::Chat => self.chat,
            SinkId::Notification => self.notification,
            SinkId::Tray => self.tray,
            SinkId::Console => self.console,
            SinkId::Telegram => self.telegram,
            SinkId::Whatsapp => self.whatsapp,
            SinkId::Devices => self.notification,
        }
    }
}

/// The desktop counts as idle (phones take over) after this many minutes without activity.
pub(crate) const DEFAULT_PHONE_WHEN_IDLE_MINUTES: u32 = 10;

//! Where a message was said or shown: the desktop window, the terminal, or a phone
//! (Telegram, WhatsApp). Stored on every message (DT-6), so history says where each
//! was said.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "sqlx", derive(sqlx::Type), sqlx(type_name = "TEXT", rename_all = "lowercase"))]
#[serde(rename_all = "lowercase")]
pub enum Channel {
    Desktop,
    Cli,
    Telegram,
    Whatsapp,
    /// A program using Sidecar's local HTTP API (its chat completions).
    Api,
    /// Another of the user's devices attached to this Sidecar (a second computer).
    Device,
}

impl Channel {
    pub fn as_str(self) -> &'static str {
        match self {
            Channel::Desktop => "desktop",
            Channel::Cli => "cli",
            Channel::Api => "api",
            Channel::Telegram => "telegram",
            Channel::Whatsapp => "whatsapp",
            Channel::Device => "device",
        }
    }

    /// A channel the user writes in themselves; a program over the local API is not the
    /// user being here.
    pub fn is_the_user(self) -> bool {
        self != Channel::Api
    }

    /// A channel that reaches the user away from the desk.
    pub fn is_phone(self) -> bool {
        matches!(self, Channel::Telegram | Channel::Whatsapp)
    }
}

//! Where a message was said or shown: the desktop window or the terminal today, phone
//! channels next. Stored on every message (DT-6), so history says where each was said.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, sqlx::Type)]
#[serde(rename_all = "lowercase")]
#[sqlx(type_name = "TEXT", rename_all = "lowercase")]
pub enum Channel {
    Desktop,
    Cli,
}

impl Channel {
    pub fn as_str(self) -> &'static str {
        match self {
            Channel::Desktop => "desktop",
            Channel::Cli => "cli",
        }
    }
}

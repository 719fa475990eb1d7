//! The user's standing answers: a grant per tool or per server, and the definition of
//! each tool as the user last approved it.

use chrono::{DateTime, Utc};
use serde::Serialize;

use sidecar_tools::ToolDefinition;

#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
pub struct Grant {
    pub id: i64,
    pub server: String,
    pub identity: String,
    /// `None`: every tool of the server.
    pub tool: Option<String>,
    /// `false` is a standing denial.
    pub allow: bool,
    pub created_at: DateTime<Utc>,
}

/// A tool definition the user approved, and its pin.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Pinned {
    pub identity: String,
    pub tool: String,
    pub pin: String,
    pub definition: ToolDefinition,
}

/// What the user answered for one call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum Choice {
    AllowOnce,
    AllowInChat,
    AlwaysTool,
    AlwaysServer,
    Deny,
}

impl Choice {
    /// Every answer, in the order a question offers them.
    pub const ALL: [Choice; 5] = [Choice::AllowOnce, Choice::AllowInChat, Choice::AlwaysTool, Choice::AlwaysServer, Choice::Deny];

    pub fn allows(self) -> bool {
        self != Choice::Deny
    }
}

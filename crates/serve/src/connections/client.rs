//! A program that uses Sidecar as a server, as the user sees it: its name, whether it
//! is allowed, and the scopes it was given.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

/// What a client may do. Health facts stay out unless `Health` is given too. `Chat`
/// talks to Sidecar as its user does (the local API's chat completions): its answers
/// draw on everything Sidecar knows, so the user gives it knowing that.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum Scope {
    ReadMemory,
    WriteMemory,
    Reminders,
    Messages,
    Health,
    Chat,
}

impl Scope {
    pub const ALL: [Scope; 6] = [Scope::ReadMemory, Scope::WriteMemory, Scope::Reminders, Scope::Messages, Scope::Health, Scope::Chat];

    pub fn as_str(self) -> &'static str {
        match self {
            Scope::ReadMemory => "read_memory",
            Scope::WriteMemory => "write_memory",
            Scope::Reminders => "reminders",
            Scope::Messages => "messages",
            Scope::Health => "health",
            Scope::Chat => "chat",
        }
    }

    pub fn parse(word: &str) -> Option<Scope> {
        Scope::ALL.into_iter().find(|s| s.as_str() == word.trim())
    }

    /// A stored or typed list; words it does not know are dropped (they give nothing).
    pub(crate) fn parse_list(text: &str) -> Vec<Scope> {
        let mut scopes: Vec<Scope> = text.split(',').filter_map(Scope::parse).collect();
        scopes.sort();
        scopes.dedup();
        scopes
    }

    pub fn join(scopes: &[Scope]) -> String {
        scopes.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(",")
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum ClientState {
    /// Seen, not yet allowed: it gets nothing.
    Pending,
    Allowed,
    Revoked,
}

impl ClientState {
    pub fn as_str(self) -> &'static str {
        match self {
            ClientState::Pending => "pending",
            ClientState::Allowed => "allowed",
            ClientState::Revoked => "revoked",
        }
    }

    /// Anything but a known state reads as revoked: what is unknown never serves.
    pub(crate) fn parse(text: &str) -> ClientState {
        match text {
            "pending" => ClientState::Pending,
            "allowed" => ClientState::Allowed,
            _ => ClientState::Revoked,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
pub struct Client {
    pub name: String,
    pub state: ClientState,
    pub scopes: Vec<Scope>,
    pub first_seen: DateTime<Utc>,
    pub changed_at: DateTime<Utc>,
}

/// One thing a client did, or was refused.
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
pub struct Logged {
    pub action: String,
    pub allowed: bool,
    pub at: DateTime<Utc>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scopes_read_back_as_written_and_unknown_words_give_nothing() {
        assert_eq!(Scope::parse_list("reminders,read_memory,reminders,root"), [Scope::ReadMemory, Scope::Reminders]);
        assert_eq!(Scope::join(&[Scope::ReadMemory, Scope::Health]), "read_memory,health");
        assert_eq!(ClientState::parse("allowed"), ClientState::Allowed);
        assert_eq!(ClientState::parse("ALLOWED"), ClientState::Revoked);
    }
}

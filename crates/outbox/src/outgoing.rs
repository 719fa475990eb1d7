//! A message Sidecar sends on its own, and its kind: what the router routes, the sinks
//! show and the stored outbox holds (as JSON).

use serde::{Deserialize, Serialize};

/// What kind of proactive message this is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Reminder,
    Spontaneous,
    /// A scheduled task's result, already kept in the Tasks conversation (so never
    /// posted in the chat); whether quiet holds it back is decided before it is sent.
    Task,
}

/// A message Sidecar sends on its own.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Outgoing {
    pub kind: Kind,
    /// The notification's title.
    pub title: String,
    /// The notification's body.
    pub body: String,
    /// The line in the chat.
    pub chat: String,
    /// A spontaneous message's kind.
    pub message_type: Option<crate::message_type::MessageType>,
    pub reminder_id: Option<i64>,
    pub late: bool,
    /// The chat message this was posted as, once the chat sink has run (so a click on
    /// the notification can open the window on it).
    pub message_id: Option<i64>,
    /// A reminder's occurrence: its chat line is posted once, however often it is shown.
    pub occurrence: Option<String>,
}

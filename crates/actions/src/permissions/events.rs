//! What the permission gate says happened: a question asked of the user, and its end.

use serde::Serialize;

#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum PermissionEvent {
    /// A tool that acts waits for the user's permission (a card in the chat).
    PermissionAsked { question: Box<crate::permissions::Question> },
    /// A permission question was answered, timed out, or its turn stopped.
    PermissionSettled { id: u64 },
}

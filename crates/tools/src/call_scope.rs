//! What a tool call was made for: the message, the chat and the channel. In a file of its
//! own because the permission gate reads it, and the gate is what the registry calls.

/// What a tool call was made for.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CallScope {
    /// The stored user message the turn answers; `None` out of a chat turn.
    pub asked_in: Option<i64>,
    /// The chat the call was made in ("Allow in this chat" holds there).
    pub conversation_id: Option<i64>,
    /// Where the user who can grant permission is.
    pub channel: Option<sidecar_domain::Channel>,
    /// The turn has read a stranger's words (a mail, now or in an earlier turn whose
    /// result its prompt still carries) that may ask Sidecar to act: every
    /// tool that is not a [`crate::Tool::local_read`] asks the user first, each time.
    pub after_strangers: bool,
}

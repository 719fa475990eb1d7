//! What proactivity says happened: Sidecar spoke first, went quiet or spoke again, or
//! learned when to speak.

use serde::Serialize;

#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ProactiveEvent {
    /// Sidecar spoke first (a greeting, a check-in…) and posted it in the chat.
    SpontaneousMessage { conversation_id: i64, message_id: i64, message_type: String, first_line: String },
    /// Sidecar went quiet (`/quiet`, "be quiet", the tray, quiet hours set to include
    /// now) or spoke again; what stands now at the desk.
    QuietChanged { quiet: crate::quiet::QuietNow },
    /// Sidecar learned something worth saying about its spontaneous messages (a kind
    /// pauses for a week, unanswered); said once.
    ProactiveLearned { said: String },
}

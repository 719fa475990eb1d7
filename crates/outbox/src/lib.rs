//! Where Sidecar's own messages go: the [`router::MessageRouter`] and the contract of its
//! sinks (the window, notifications, the phone), the user's choice of sinks, and the
//! kinds of message Sidecar says on its own ([`message_type::MessageType`]). Reminders
//! and the spontaneous loop send through it; the sinks are registered by the assembly.

pub mod message_type;
pub mod router;
pub mod sink_preferences;

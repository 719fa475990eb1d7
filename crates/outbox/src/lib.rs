//! Where Sidecar's own messages go: the [`router::MessageRouter`] and the contract of its
//! sinks (the window, notifications, the phone), the user's choice of sinks, and the
//! kinds of message Sidecar says on its own ([`message_type::MessageType`]). Reminders
//! and the spontaneous loop send through it; the sinks are registered by the assembly.
//! What a phone cannot take now waits in the stored outbox (`waiting`, the table
//! `outbox_waiting`) and goes once, in order, when the phone is back.

mod message_type;
mod outgoing;
mod router;
mod sink_preferences;
mod waiting;

// The face: what the crates above, the faces and the tests name.
pub use message_type::MessageType;
pub use outgoing::{Kind, Outgoing};
pub use router::{History, MessageRouter, Presence, Routed, Sink, SinkError, Whereabouts};
pub use sink_preferences::{SinkId, SinkPreference, SinkPreferences};

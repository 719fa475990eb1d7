//! What the spontaneous loop says, in English and Spanish: its notifications' buttons
//! and pauses (`proactive`), and why it spoke or kept quiet (`decision`).

pub mod decision;
pub mod proactive;

pub use sidecar_domain::Lang;

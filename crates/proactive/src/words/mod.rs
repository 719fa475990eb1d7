//! What the spontaneous loop says, in English and Spanish: its notifications' buttons
//! and pauses (`proactive`), and why it spoke or kept quiet (`decision`).

pub(crate) mod decision;
pub(crate) mod proactive;

pub(crate) use sidecar_domain::Lang;

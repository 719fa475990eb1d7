//! Channels: where messages come from and where answers go. `source` is where they
//! come from, `inbox` queues them for the brain, `slash` reads the control commands
//! and `control` answers them; the way out is `proactive::router` and its sinks.
//! `telegram` (and WhatsApp) are phone channels: both a source and a sink, with a
//! `health` the user can see.

// The inbox and the control commands are the agent's (crates/agent).
pub use sidecar_agent::{control, inbox, slash};
pub mod arrivals;
pub mod asking;
pub mod backoff;
pub mod call;
pub mod error;
pub mod events;
pub use sidecar_domain::channel;
pub mod health;
pub mod phone;
pub mod rows;
pub mod service;
pub mod serving;
pub mod source;
pub mod telegram;
pub mod whatsapp;

//! Channels: where messages come from and where answers go. `source` is where they
//! come from; the inbox that queues them for the brain, and the control commands, are
//! the agent's (`sidecar_agent::{inbox, slash, control}`); the way out is
//! `proactive::router` and its sinks. `telegram` (and WhatsApp) are phone channels:
//! both a source and a sink, with a `health` the user can see; `voice_note` hears what
//! their users say aloud. `words` is what they say, in both languages.

pub(crate) mod arrivals;
pub(crate) mod asking;
pub(crate) mod backoff;
pub mod call;
pub mod error;
pub mod events;
pub use sidecar_domain::channel;
pub mod health;
pub mod phone;
pub(crate) mod rows;
pub mod service;
pub mod serving;
pub mod source;
pub(crate) mod telegram;
pub(crate) mod voice_note;
pub mod whatsapp;
pub mod words;

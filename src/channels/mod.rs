//! Channels: where messages come from and where answers go. `source` is where they
//! come from, `inbox` queues them for the brain, `slash` reads the control commands
//! and `control` answers them; the way out is `proactive::router` and its sinks.

pub mod call;
pub mod channel;
pub mod control;
pub mod inbox;
pub mod slash;
pub mod source;

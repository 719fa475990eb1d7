//! Channels: where messages come from and where answers go. `slash` reads the control
//! commands, `control` answers them.

pub mod channel;
pub mod control;
pub mod inbox;
pub mod slash;

//! The agent: the turn state machine, the driver that performs its effects, the prompt
//! builder, and the claim-versus-action check.

pub mod claims;
pub mod complexity;
pub mod driver;
pub mod error;
pub mod events;
pub mod plan_watch;
pub mod prompt;
pub mod turn;

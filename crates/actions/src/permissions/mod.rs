//! Permission before every action: a tool that acts in the user's world (an MCP tool, a
//! note tool that writes) runs only with the user's grant.
//!
//! `policy` decides from the standing grants alone (pure, property-tested); `gate`
//! asks the user when the policy cannot decide, through the `asking` front-end of the
//! process (a card in the window, the terminal, or no one), and records the answer.

pub(crate) mod asking;
pub(crate) mod events;
pub(crate) mod gate;
pub(crate) mod grant;
pub(crate) mod policy;
pub(crate) mod question;
pub(crate) mod rows;
pub(crate) mod words;

// What a tool that acts is about to do (crates/tools), which the gate judges.
pub use asking::{Answer, Asker};
pub use gate::PermissionGate;
pub use question::Question;
pub(crate) use sidecar_tools::Action;

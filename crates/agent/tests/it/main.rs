//! The agent crate's tests, in one binary: the turn's state machine on its own, and
//! arbitrary settings files against what the agent reads from them.

mod settings_fuzz;
mod turn_machine;

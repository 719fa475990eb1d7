//! The agent's words: the control commands and their table, plans, and what an intent
//! answers, in English and Spanish, keyed by the injected `Lang`.

pub mod command_table;
pub mod commands;
pub mod intent;
pub mod plans;

pub use sidecar_domain::Lang;

//! The agent's words: the control commands and their table, plans, and what an intent
//! answers, in English and Spanish, keyed by the injected `Lang`.

pub(crate) mod command_table;
pub(crate) mod commands;
pub(crate) mod intent;
pub(crate) mod plans;

pub(crate) use sidecar_domain::Lang;

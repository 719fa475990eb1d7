//! Reminders: reading "when" from the user's words (`when`) and delivering them on
//! time, once (`scheduler`). The tools, the notifier and the UI build on these.

pub mod scheduler;
pub mod when;

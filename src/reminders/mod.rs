//! Reminders. So far: reading "when" from the user's words (`when`); the scheduler,
//! the tools and the UI build on it.

pub mod when;

//! The settings the model clients read: how a model samples, how hard a provider is
//! retried, how long a call may take, what a call costs. They sit with the settings
//! so the settings can hold them without the wire clients; the core's `llm` module
//! re-exports them under its own name.

pub mod pricing;
pub mod retry;
pub mod sampling;
pub mod timeouts;

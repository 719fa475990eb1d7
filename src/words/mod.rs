//! The assembly's own words: the tray's labels, in English and Spanish, keyed by the one
//! `Lang` the assembly injects. Every feature's words live in its crate
//! (`sidecar_reminders::words`, `sidecar_agent`'s commands, …).

pub mod tray;

pub use sidecar_domain::Lang;

//! What Sidecar knows about the user, kept in Markdown files the user can edit:
//! `learnings.md` (facts with weights and dates, by category), and the facts engine
//! that saves to it without losing or corrupting anything (the seed's Bug 1–12).

pub mod events;
pub mod facts;
pub mod learnings;
pub mod meaning;
pub mod profile_form;
pub mod slots;
pub mod store;
pub mod suggest;
pub mod unsaved;
pub mod watch;
pub use sidecar_domain::word_overlap as words;

//! What Sidecar knows about the user, kept in Markdown files the user can edit:
//! `learnings.md` (facts with weights and dates, by category), and the facts engine
//! that saves to it without losing or corrupting anything (the seed's Bug 1–12).

pub(crate) mod brought;
pub(crate) mod events;
pub(crate) mod facts;
pub(crate) mod kept_apart;
pub(crate) mod learnings;
pub(crate) mod meaning;
pub(crate) mod profile_form;
pub(crate) mod review;
pub(crate) mod screen;
pub(crate) mod slots;
pub(crate) mod sources;
pub(crate) mod store;
pub(crate) mod suggest;
pub(crate) mod suspect;
mod templates;
pub(crate) mod unsaved;
pub(crate) mod watch;
pub use sidecar_domain::word_overlap as words;

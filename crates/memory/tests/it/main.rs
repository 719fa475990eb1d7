//! The memory crate's tests, in one binary: the knowledge files as the user and a crash
//! leave them (a hand edit, a write cut half-way), the facts' own rules (the seeds'
//! bugs), and the profile.

mod crash_write;
mod facts_bugs;
mod important;
mod outside_edit;
mod profile;
mod suspect;

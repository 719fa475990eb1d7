//! The desktop's own features, which only the window shows: where the character stands
//! on each screen (`character`) and the look for updates with its rules for where they
//! come from (`updates`). `words` is what an update says, in both languages.
//!
//! The package is `sidecar-desktop-features` because `sidecar-desktop` is the Tauri
//! shell; this crate has no Tauri in it, and the shell only adapts it.

pub mod character;
pub mod updates;
pub mod words;

//! Sidecar's assembly: the `Companion` that opens every crate of the workspace, wires
//! them together and owns the loops. No GUI dependency: the desktop shell and the CLI
//! are thin adapters over this crate and the crates' own faces, and everything here is
//! testable headless. A path names its crate: `sidecar_memory::KnowledgeStore`, never an
//! alias of it here (docs/architecture.md has the code map).

pub mod commands;
pub mod companion;
pub(crate) mod companion_options;
pub(crate) mod devices_error;
pub mod error;
pub mod events;
mod ui_types;
pub mod words;

pub use companion::{Companion, CompanionError, CompanionOptions, ComputerView, Delivery, Face, Heard, Running, VoiceModel, VoiceView};
pub use events::{CoreEvent, EventBus, ModelStatus};
pub use sidecar_agent::TurnOutcome;

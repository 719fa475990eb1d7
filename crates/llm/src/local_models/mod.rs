//! The local model manager: a catalogue of recommended GGUF models, resumable and
//! verified downloads into the models folder, import and delete, and which model
//! the local llama.cpp server runs.

pub mod catalogue;
pub mod choice;
pub mod download;
pub(crate) mod download_state;
pub mod error;
pub mod events;
pub mod gguf;
pub(crate) mod hub;
pub mod library;
pub mod machine;
pub mod tuning;

pub use choice::LocalChoice;
pub use download_state::DownloadState;
pub use hub::{HubView, ModelHub, Switched};

//! The local model manager: a catalogue of recommended GGUF models, resumable and
//! verified downloads into the models folder, import and delete, and which model
//! the local llama.cpp server runs.

pub(crate) mod catalogue;
pub(crate) mod choice;
pub(crate) mod download;
pub(crate) mod download_state;
pub(crate) mod error;
pub(crate) mod events;
pub(crate) mod gguf;
pub(crate) mod hub;
pub(crate) mod library;
pub(crate) mod machine;
pub(crate) mod tuning;

pub(crate) use choice::LocalChoice;
pub(crate) use download_state::DownloadState;
pub use hub::{HubView, ModelHub, Switched};

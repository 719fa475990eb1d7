//! A download's progress as events carry it to the window: in a file of its own, so
//! the events can name it without reaching the hub that makes it.

use serde::Serialize;

/// A download's progress, as events carry it.
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
pub struct DownloadState {
    pub file: String,
    pub received_bytes: u64,
    pub total_bytes: Option<u64>,
    pub phase: DownloadPhase,
    /// What stopped it, said so the user knows what to do.
    pub message: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum DownloadPhase {
    Running,
    Paused,
    Failed,
    Done,
}

//! What the model hub says happened: a download moved on, paused, failed or finished.

use serde::Serialize;

#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum LocalModelEvent {
    /// A model download moved on, paused, failed or finished.
    ModelDownload(crate::local_models::DownloadState),
}

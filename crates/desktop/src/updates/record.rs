//! When Sidecar last looked for an update, kept across restarts in `updates.json` in the
//! data folder, so the daily look stays daily however often the app starts.

use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct LookRecord {
    pub last_looked: Option<DateTime<Utc>>,
}

pub(crate) fn path_in(data_dir: &Path) -> PathBuf {
    data_dir.join("updates.json")
}

/// The record, or none when the file is missing or unreadable (the worst case is one
/// look too many).
pub(crate) fn read(path: &Path) -> LookRecord {
    std::fs::read(path).ok().and_then(|bytes| serde_json::from_slice(&bytes).ok()).unwrap_or_default()
}

pub(crate) fn write(path: &Path, record: &LookRecord) -> std::io::Result<()> {
    let bytes = serde_json::to_vec_pretty(record).map_err(std::io::Error::other)?;
    sidecar_domain::write_atomically(path, &bytes)
}

//! A restore asked for from the app: the running app holds the data, so the restore
//! is noted (`restore-pending.json`) and carried out at the next start, before the
//! store opens; its outcome (`restore-result.json`) is shown once after. The note is
//! removed before the restore runs, so a failing backup cannot stop every start. A
//! sealed backup is opened when it is noted, with the passphrase the user typed then
//! (a wrong one is said at once), into a plain copy in the data folder that the restore
//! uses and removes: the next start has no one to ask.

use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::restore::{restore, Restored, WithSettings};
use super::sealed::{self, Passphrase};
use super::{BackupError, BadBackup};

const PENDING: &str = "restore-pending.json";
/// The opened copy of a sealed backup, waiting for the next start.
const OPENED: &str = "restore-pending.sidecar-backup";
const RESULT: &str = "restore-result.json";
/// How many times (300 ms apart) a restore waits for the data to be let go.
const RELEASE_TRIES: u32 = 20;

#[derive(Serialize, Deserialize)]
struct Pending {
    file: PathBuf,
    /// `file` is the opened copy of a sealed backup, removed once used.
    #[serde(default)]
    opened: bool,
}

/// How a restore asked for from the app went, for the app to say once.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum RestoreNote {
    Restored { files: usize, created_at: String, aside: PathBuf },
    Refused { file: PathBuf, why: String },
}

/// Notes `file` to be restored at the next start of the app on `data_dir`; a sealed one
/// is opened now with `seal`, and refused without it or with a wrong one.
pub fn schedule(data_dir: &Path, file: &Path, seal: Option<&Passphrase>) -> Result<(), BackupError> {
    let read = |source| BackupError::Read { path: file.to_path_buf(), source };
    if !file.is_file() {
        return Err(read(std::io::Error::new(std::io::ErrorKind::NotFound, format!("{} is not a backup file", file.display()))));
    }
    let opened = sealed::is_sealed(file).map_err(read)?;
    let noted = if opened {
        let copy = data_dir.join(OPENED);
        let invalid = |why: BadBackup| BackupError::Invalid { path: file.to_path_buf(), why };
        let mut from = sealed::open(file, seal).map_err(invalid)?;
        let written = std::fs::File::create(&copy).and_then(|mut to| std::io::copy(&mut from, &mut to).and_then(|_| to.sync_all()));
        if let Err(source) = written {
            let _ = std::fs::remove_file(&copy);
            // age refuses a changed chunk as it reads: the backup is damaged, not the disk.
            return Err(if source.kind() == std::io::ErrorKind::InvalidData { invalid(BadBackup::Damaged(source)) } else { read(source) });
        }
        copy
    } else {
        file.to_path_buf()
    };
    let text = serde_json::to_string(&Pending { file: noted, opened }).expect("serialisable");
    sidecar_domain::write_atomically(&data_dir.join(PENDING), text.as_bytes()).map_err(|source| BackupError::Write { path: data_dir.join(PENDING), source })
}

/// Carries out a noted restore, if any (settings are kept as they are); what it did.
pub async fn apply(data_dir: &Path, config_path: Option<&Path>, now: DateTime<Utc>) -> Option<RestoreNote> {
    let noted = data_dir.join(PENDING);
    let text = std::fs::read_to_string(&noted).ok()?;
    if let Err(error) = std::fs::remove_file(&noted) {
        tracing::warn!(%error, "could not remove the restore note; not restoring, so it cannot repeat");
        return None;
    }
    let Ok(Pending { file, opened }) = serde_json::from_str::<Pending>(&text) else {
        return Some(RestoreNote::Refused { file: PathBuf::new(), why: "the restore note was unreadable".into() });
    };
    // Right after a restart the process before may still be letting go of the data.
    let mut outcome = restore(&file, data_dir, config_path, now, WithSettings::Keep, None).await;
    for _ in 0..RELEASE_TRIES {
        if !matches!(outcome, Err(super::BackupError::InUse { .. })) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        outcome = restore(&file, data_dir, config_path, now, WithSettings::Keep, None).await;
    }
    if opened {
        let _ = std::fs::remove_file(&file);
    }
    let note = match outcome {
        Ok(Restored { files, created_at, aside, .. }) => RestoreNote::Restored { files, created_at, aside },
        Err(error) => RestoreNote::Refused { file, why: error.to_string() },
    };
    tracing::info!(?note, "restore asked for from the app");
    let text = serde_json::to_string(&note).expect("serialisable");
    if let Err(error) = sidecar_domain::write_atomically(&data_dir.join(RESULT), text.as_bytes()) {
        tracing::warn!(%error, "could not keep the restore's outcome for the app");
    }
    Some(note)
}

/// The outcome of the last restore asked for from the app, once.
pub fn take_result(data_dir: &Path) -> Option<RestoreNote> {
    let path = data_dir.join(RESULT);
    let text = std::fs::read_to_string(&path).ok()?;
    let _ = std::fs::remove_file(&path);
    serde_json::from_str(&text).ok()
}

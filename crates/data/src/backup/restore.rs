//! Putting a backup back: checked whole first, then swapped in, with the data it
//! replaces kept aside.

use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use serde::Serialize;

use super::{archive, BackupError, BadBackup, Passphrase};
use sidecar_reminders::SchedulerLock;

/// What a restore did.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Restored {
    /// Files put back.
    pub files: usize,
    /// When the backup was made.
    pub created_at: String,
    /// Where the data it replaced now is.
    pub aside: PathBuf,
    /// What became of the backup's settings.toml.
    pub settings: SettingsOutcome,
}

/// Whether the backup's settings are put back: only when the user asked, after seeing
/// what they change, and only settings that pass the checks made at start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WithSettings {
    Keep,
    Restore,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum SettingsOutcome {
    /// The backup holds none, or this Sidecar keeps no settings file.
    None,
    /// Put back, as asked; what they changed.
    Restored { changes: Vec<String> },
    /// Left as they were; what the backup's would change.
    Kept { changes: Vec<String> },
    /// The backup's settings do not pass the checks; left as they were.
    Invalid { why: String },
}

/// Restores `file` into `data_dir` (and `config_path` for the settings), opening a
/// sealed one with `seal`. Refused while Sidecar runs on this data, and for any backup
/// that does not check out whole.
pub async fn restore(
    file: &Path,
    data_dir: &Path,
    config_path: Option<&Path>,
    now: DateTime<Utc>,
    with_settings: WithSettings,
    seal: Option<&Passphrase>,
) -> Result<Restored, BackupError> {
    let io = |source| BackupError::Read { path: file.to_path_buf(), source };
    let invalid = |why: BadBackup| BackupError::Invalid { path: file.to_path_buf(), why };
    let Some(_lock) = SchedulerLock::try_acquire(data_dir).map_err(io)? else {
        return Err(BackupError::InUse { dir: data_dir.to_path_buf() });
    };
    let staging = tempfile::Builder::new().prefix(".restore-").tempdir_in(data_dir).map_err(io)?;
    let manifest = archive::unpack(file, staging.path(), seal).map_err(invalid)?;
    sidecar_store::check_integrity(&staging.path().join("sidecar.db"), None).await.map_err(|e| invalid(BadBackup::DamagedDatabase(e)))?;
    sidecar_store::check_usable(staging.path()).await.map_err(|e| invalid(e.into()))?;
    let config = config_path.filter(|_| manifest.files.iter().any(|f| f.path == "settings.toml"));
    let settings = match config {
        None => SettingsOutcome::None,
        Some(config) => match sidecar_settings::Settings::check_file(&staging.path().join("settings.toml")) {
            // Settings that would break every command are never put back.
            Err(why) if with_settings == WithSettings::Restore => return Err(invalid(BadBackup::Settings(why))),
            Err(why) => SettingsOutcome::Invalid { why: why.to_string() },
            Ok(backup) => {
                let current = sidecar_settings::Settings::check_file(config).unwrap_or_default();
                let changes = super::settings_diff::changes(&current, &backup);
                match with_settings {
                    WithSettings::Restore => SettingsOutcome::Restored { changes },
                    WithSettings::Keep => SettingsOutcome::Kept { changes },
                }
            }
        },
    };

    let aside = data_dir.join(format!("before-restore-{}", now.format("%Y%m%d-%H%M%S")));
    std::fs::create_dir_all(&aside).map_err(io)?;
    let swap = |why: std::io::Error| BackupError::Swap { why: why.to_string(), aside: aside.clone() };
    for name in ["sidecar.db", "sidecar.db-wal", "sidecar.db-shm", "knowledge", sidecar_memory::FOLDER] {
        let current = data_dir.join(name);
        if current.exists() {
            std::fs::rename(&current, aside.join(name)).map_err(swap)?;
        }
    }
    // Settings go back only where this Sidecar keeps them, and only as asked.
    let settings_to = config.filter(|_| matches!(settings, SettingsOutcome::Restored { .. }));
    if let Some(config) = settings_to.filter(|c| c.is_file()) {
        std::fs::copy(config, aside.join("settings.toml")).map_err(swap)?;
    }
    std::fs::rename(staging.path().join("sidecar.db"), data_dir.join("sidecar.db")).map_err(swap)?;
    for folder in ["knowledge", sidecar_memory::FOLDER] {
        if staging.path().join(folder).is_dir() {
            std::fs::rename(staging.path().join(folder), data_dir.join(folder)).map_err(swap)?;
        }
    }
    if let Some(config) = settings_to {
        let bytes = std::fs::read(staging.path().join("settings.toml")).map_err(swap)?;
        sidecar_domain::write_atomically(config, &bytes).map_err(swap)?;
    }
    Ok(Restored { files: manifest.files.len(), created_at: manifest.created_at, aside, settings })
}

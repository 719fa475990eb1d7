//! Backups (the seeds' FASE 5): one file holding a consistent snapshot of the database
//! (`VACUUM INTO`, safe while Sidecar runs), the knowledge files and settings.toml
//! (which never holds a key: keys live in the system keychain), and a manifest with
//! every file's SHA-256.
//!
//! - `sidecar backup` and Settings → Data → Back up now write one on demand.
//! - The app and the daemon write one a day into `backups/` and keep 7 daily and 4
//!   weekly ([`retention`]).
//! - A restore ([`restore`]) unpacks into a staging folder, checks every checksum and
//!   the database's integrity, and only then moves the current data aside
//!   (`before-restore-…/`) and puts the backup in its place. A damaged or truncated
//!   backup is refused with nothing changed.
//! - With a passphrase set (Settings → Your data), every backup is sealed with it
//!   ([`sealed`]); a restore asks for it, on this computer or another.

use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};

use chrono::{DateTime, NaiveDate, Utc};
use serde::Serialize;

use sidecar_store::Store;

mod archive;
mod bad_backup;
pub(crate) mod manifest;
pub(crate) mod pending;
pub(crate) mod restore;
pub(crate) mod retention;
pub(crate) mod sealed;
pub(crate) mod settings_diff;
pub(crate) mod upgrade;

pub use bad_backup::BadBackup;
pub use sealed::{is_sealed, Passphrase};

/// Where automatic backups go, inside the data directory.
pub(crate) const BACKUP_DIR: &str = "backups";
/// The file extension of a backup (a gzip-compressed tar).
pub(crate) const EXTENSION: &str = "sidecar-backup";

#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    #[error("cannot write the backup {path}: {source}")]
    Write { path: PathBuf, source: std::io::Error },
    #[error("cannot read the backup {path}: {source}")]
    Read { path: PathBuf, source: std::io::Error },
    #[error("cannot snapshot the database: {0}")]
    Snapshot(String),
    #[error("{path} is not a usable Sidecar backup: {why}. Nothing was changed")]
    Invalid { path: PathBuf, why: BadBackup },
    #[error("Sidecar is running (the app or the daemon holds {dir}). Quit it, then restore again")]
    InUse { dir: PathBuf },
    #[error("the restore stopped while putting files in place ({why}); your data from before is in {aside}")]
    Swap { why: String, aside: PathBuf },
}

/// A backup written.
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
pub struct BackupInfo {
    pub path: PathBuf,
    pub bytes: u64,
    pub files: usize,
    pub created_at: String,
}

/// The data a backup covers, where backups go, and the passphrase they are sealed with.
#[derive(Debug, Clone)]
pub struct Backups {
    store: Store,
    data_dir: PathBuf,
    /// settings.toml, when this Sidecar has one.
    config_path: Option<PathBuf>,
    seal: Arc<RwLock<Option<Passphrase>>>,
}

impl Backups {
    pub(crate) fn new(store: Store, data_dir: PathBuf, config_path: Option<PathBuf>, seal: Option<Passphrase>) -> Self {
        Self { store, data_dir, config_path, seal: Arc::new(RwLock::new(seal)) }
    }

    /// Backups from now on are sealed with `seal` (none: plain).
    pub(crate) fn seal_with(&self, seal: Option<Passphrase>) {
        *self.seal.write().expect("seal lock") = seal;
    }

    pub(crate) fn sealed(&self) -> bool {
        self.seal.read().expect("seal lock").is_some()
    }

    pub(crate) fn dir(&self) -> PathBuf {
        self.data_dir.join(BACKUP_DIR)
    }

    /// Writes a backup to `path` (a folder gets a dated file name inside it).
    pub(crate) async fn write(&self, path: &Path, now: DateTime<Utc>) -> Result<BackupInfo, BackupError> {
        let path = if path.is_dir() { path.join(file_name(now)) } else { path.to_path_buf() };
        let parent = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new(".")).to_path_buf();
        std::fs::create_dir_all(&parent).map_err(|source| BackupError::Write { path: path.clone(), source })?;
        let staging =
            tempfile::Builder::new().prefix(".sidecar-backup-").tempdir_in(&parent).map_err(|source| BackupError::Write { path: path.clone(), source })?;
        let snapshot = staging.path().join("sidecar.db");
        self.store.plain_copy(&snapshot).await.map_err(|e| BackupError::Snapshot(e.to_string()))?;
        // An incognito chat open now is not the user's history: the copy never holds it.
        sidecar_store::forget_unkept_in(&snapshot).await.map_err(|e| BackupError::Snapshot(e.to_string()))?;
        let mut files: Vec<(String, PathBuf)> = vec![("sidecar.db".into(), snapshot)];
        for folder in ["knowledge", sidecar_memory::FOLDER] {
            let Ok(entries) = std::fs::read_dir(self.data_dir.join(folder)) else { continue };
            let mut names: Vec<String> = entries.flatten().filter_map(|e| e.file_name().into_string().ok()).collect();
            names.sort();
            for name in names {
                let relative = format!("{folder}/{name}");
                if manifest::allowed(&relative) {
                    files.push((relative, self.data_dir.join(folder).join(name)));
                }
            }
        }
        if let Some(config) = self.config_path.as_ref().filter(|p| p.is_file()) {
            files.push(("settings.toml".into(), config.clone()));
        }
        let created_at = sidecar_store::utc(now);
        let seal = self.seal.read().expect("seal lock").clone();
        let (bytes, count) = archive::write(&path, &files, &created_at, seal.as_ref()).map_err(|source| BackupError::Write { path: path.clone(), source })?;
        Ok(BackupInfo { path, bytes, files: count, created_at })
    }

    /// Today's automatic backup, unless one exists; then prunes to 7 daily and 4 weekly.
    /// Returns the backup written, if any.
    pub async fn daily(&self, now: DateTime<Utc>, today: NaiveDate) -> Result<Option<BackupInfo>, BackupError> {
        let dir = self.dir();
        let existing = self.automatic();
        let written = if existing.iter().any(|(date, _)| *date == today) { None } else { Some(self.write(&dir.join(daily_name(today)), now).await?) };
        let all = self.automatic();
        let keep = retention::keep(&all.iter().map(|(d, _)| *d).collect::<Vec<_>>());
        for (date, path) in all {
            if !keep.contains(&date) {
                if let Err(e) = std::fs::remove_file(&path) {
                    tracing::warn!(error = %e, path = %path.display(), "cannot remove an old backup");
                }
            }
        }
        Ok(written)
    }

    /// The automatic backups in `backups/`, by date.
    /// Every backup in `backups/` (daily, made on demand, before an upgrade) last written
    /// before `at`, oldest first.
    pub(crate) fn written_before(&self, at: DateTime<Utc>) -> Vec<PathBuf> {
        let Ok(entries) = std::fs::read_dir(self.dir()) else { return Vec::new() };
        let mut found: Vec<(DateTime<Utc>, PathBuf)> = entries
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().ends_with(&format!(".{EXTENSION}")))
            .filter_map(|e| Some((DateTime::<Utc>::from(e.metadata().ok()?.modified().ok()?), e.path())))
            .filter(|(written, _)| *written < at)
            .collect();
        found.sort();
        found.into_iter().map(|(_, path)| path).collect()
    }

    pub fn automatic(&self) -> Vec<(NaiveDate, PathBuf)> {
        let Ok(entries) = std::fs::read_dir(self.dir()) else { return Vec::new() };
        let mut found: Vec<(NaiveDate, PathBuf)> = entries
            .flatten()
            .filter_map(|e| {
                let name = e.file_name().into_string().ok()?;
                let date = name.strip_prefix("daily-")?.strip_suffix(&format!(".{EXTENSION}"))?;
                Some((NaiveDate::parse_from_str(date, "%Y-%m-%d").ok()?, e.path()))
            })
            .collect();
        found.sort();
        found
    }

    /// Restores `file` over the current data (see [`restore`]), opened with `seal` if
    /// it is sealed.
    pub async fn restore(
        &self,
        file: &Path,
        now: DateTime<Utc>,
        with_settings: restore::WithSettings,
        seal: Option<&Passphrase>,
    ) -> Result<restore::Restored, BackupError> {
        restore::restore(file, &self.data_dir, self.config_path.as_deref(), now, with_settings, seal).await
    }
}

fn file_name(now: DateTime<Utc>) -> String {
    format!("sidecar-{}.{EXTENSION}", now.format("%Y-%m-%d-%H%M%S"))
}

fn daily_name(today: NaiveDate) -> String {
    format!("daily-{}.{EXTENSION}", today.format("%Y-%m-%d"))
}

impl sidecar_domain::Worded for BackupError {
    fn spanish(&self) -> String {
        match self {
            BackupError::Write { path, source } => format!("no se puede escribir la copia {}: {source}", path.display()),
            BackupError::Read { path, source } => format!("no se puede leer la copia {}: {source}", path.display()),
            BackupError::Snapshot(why) => format!("no se puede copiar la base de datos: {why}"),
            BackupError::Invalid { path, why } => {
                format!("{} no es una copia de Sidecar utilizable: {}. No se ha cambiado nada", path.display(), why.spanish())
            }
            BackupError::InUse { dir } => {
                format!("Sidecar está abierto (la app o el servicio usan {}). Ciérralo y vuelve a restaurar", dir.display())
            }
            BackupError::Swap { why, aside } => {
                format!("la restauración se detuvo al colocar los archivos ({why}); tus datos de antes están en {}", aside.display())
            }
        }
    }
}

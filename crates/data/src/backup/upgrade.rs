//! Opening the data folder when Sidecar was updated: an existing database that lacks
//! some of this Sidecar's migrations is backed up first (the same backup as every
//! other, in `backups/`), then migrated once. A database from a newer Sidecar is
//! refused unchanged (`StoreError::Newer`), so a downgrade never damages data.

use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};

use super::{BackupError, Backups, BACKUP_DIR, EXTENSION};
use sidecar_domain::Secrets;
use sidecar_store::Store;
use sidecar_store::StoreError;

/// Why the data folder could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The backup before an upgrade failed: nothing was migrated.
    #[error(transparent)]
    Backup(#[from] BackupError),
}

/// The store, migrated, and the backup written before an upgrade (if there was one),
/// sealed as every other backup is. The database is first encrypted or decrypted as the
/// user asked, with the key `secrets` keeps (`crate::encryption`).
pub async fn open_store(data_dir: &Path, config_path: Option<&Path>, now: DateTime<Utc>, secrets: &Secrets) -> Result<(Store, Option<PathBuf>), OpenError> {
    let _opening = sidecar_store::OpeningLock::take(data_dir).await?;
    let key = crate::encryption::prepare(data_dir, secrets).await?;
    let seal = crate::backup_seal(secrets);
    let (store, state) = Store::open_unmigrated(data_dir, key.as_ref()).await?;
    let backup = if state.upgrades() {
        let path = data_dir.join(BACKUP_DIR).join(format!("before-upgrade-{}.{EXTENSION}", now.format("%Y-%m-%d-%H%M%S")));
        let written = Backups::new(store.clone(), data_dir.to_path_buf(), config_path.map(Path::to_path_buf), seal).write(&path, now).await?;
        tracing::info!(path = %written.path.display(), pending = state.pending, "data backed up before the upgrade");
        Some(written.path)
    } else {
        None
    };
    store.migrate().await?;
    Ok((store, backup))
}

//! The database encrypted at rest, as the user turns it on and off (Settings → Your
//! data). The key is random and kept in the OS keychain under this data folder's name:
//! a key there means "encrypted", and the next start converts a plain file to it (a
//! plain backup restored too). Turning it off is noted beside the database; the next
//! start converts back, then removes the key. A keychain that keeps keys for this session
//! only is refused: the key lost at the next restart would lose everything.
//!
//! The Markdown memory files stay plain and editable; Settings says so, and that disk
//! encryption covers them.

use std::path::{Path, PathBuf};

use serde::Serialize;

use sidecar_domain::{KeyStorage, Lang, Secrets, Worded};
use sidecar_store::{DatabaseKey, FileState, StoreError, DB_FILE};

use crate::error::DataError;

/// Beside the database while a decryption waits for the next start.
const DECRYPT_NOTE: &str = "database-decrypt.pending";
/// Why the last conversion at start failed, until one succeeds.
const FAILED_NOTE: &str = "database-conversion.failed";

/// Where the database stands, as Settings → Your data shows it.
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
pub struct DatabaseEncryption {
    pub encrypted: bool,
    /// What the next start does.
    pub pending: Option<EncryptionChange>,
    /// Why the last start could not convert it (the database was left as it was).
    pub failed: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum EncryptionChange {
    Encrypt,
    Decrypt,
}

/// The keychain entry of `data_dir`'s database key: one per data folder, so a second
/// folder (a test's, another profile's) never reads another's.
pub fn account(data_dir: &Path) -> String {
    let dir = std::path::absolute(data_dir).unwrap_or_else(|_| data_dir.to_path_buf());
    format!("database-key:{}", dir.display())
}

fn key_of(data_dir: &Path, secrets: &Secrets) -> Option<DatabaseKey> {
    secrets.get(&account(data_dir)).and_then(|text| DatabaseKey::from_hex(&text))
}

fn note(data_dir: &Path, name: &str) -> PathBuf {
    data_dir.join(name)
}

/// Where the database in `data_dir` stands.
pub(crate) fn state(data_dir: &Path, secrets: &Secrets, lang: Lang) -> DatabaseEncryption {
    let encrypted = sidecar_store::file_state(&data_dir.join(DB_FILE)).ok() == Some(FileState::Encrypted);
    let keyed = key_of(data_dir, secrets).is_some();
    let pending = match (encrypted, keyed, note(data_dir, DECRYPT_NOTE).exists()) {
        (false, true, _) => Some(EncryptionChange::Encrypt),
        (true, _, true) => Some(EncryptionChange::Decrypt),
        _ => None,
    };
    let failed = std::fs::read_to_string(note(data_dir, FAILED_NOTE))
        .ok()
        .filter(|_| pending.is_some())
        .and_then(|text| serde_json::from_str::<[String; 2]>(&text).ok())
        .map(|[english, spanish]| if lang == Lang::Es { spanish } else { english });
    DatabaseEncryption { encrypted, pending, failed }
}

/// Encrypted from the next start on: a new key in the keychain (or the one there, when
/// a decryption was waiting: it is called off).
pub(crate) fn turn_on(data_dir: &Path, secrets: &Secrets, lang: Lang) -> Result<DatabaseEncryption, DataError> {
    remove(&note(data_dir, DECRYPT_NOTE))?;
    if key_of(data_dir, secrets).is_none() {
        let account = account(data_dir);
        match secrets.store(&account, &DatabaseKey::generate().to_hex()) {
            KeyStorage::Keychain => tracing::info!("the database key is in the keychain; the next start encrypts the database"),
            KeyStorage::Session { reason } => {
                secrets.delete(&account);
                return Err(DataError::NoKeychain(reason));
            }
            other => unreachable!("a stored key is in the keychain or the session, not {other:?}"),
        }
    }
    Ok(state(data_dir, secrets, lang))
}

/// Plain from the next start on. A database not encrypted yet only drops its key.
pub(crate) fn turn_off(data_dir: &Path, secrets: &Secrets, lang: Lang) -> Result<DatabaseEncryption, DataError> {
    if sidecar_store::file_state(&data_dir.join(DB_FILE)).ok() == Some(FileState::Encrypted) {
        sidecar_domain::write_atomically(&note(data_dir, DECRYPT_NOTE), b"decrypt at the next start\n")
            .map_err(|source| DataError::Write { path: note(data_dir, DECRYPT_NOTE), source })?;
    } else {
        secrets.delete(&account(data_dir));
    }
    Ok(state(data_dir, secrets, lang))
}

/// At start, before the store opens (the caller holds the opening lock): converts the
/// database as the user asked, and gives the key to open it with. A conversion that
/// fails leaves the database as it was and is said in Settings; only an encrypted
/// database without its key stops the start.
pub(crate) async fn prepare(data_dir: &Path, secrets: &Secrets) -> Result<Option<DatabaseKey>, StoreError> {
    let path = data_dir.join(DB_FILE);
    let file = sidecar_store::file_state(&path).map_err(|source| StoreError::CreateDir { path: path.display().to_string(), source })?;
    let key = key_of(data_dir, secrets);
    let decrypt = note(data_dir, DECRYPT_NOTE);
    match (file, key) {
        (FileState::Encrypted, None) => Err(StoreError::NoKey { path: path.display().to_string() }),
        (FileState::Encrypted, Some(key)) if decrypt.exists() => match sidecar_store::convert(data_dir, Some(&key), None).await {
            Ok(_) => {
                // The key goes before the note: a crash between them must not read as
                // "encrypt it" at the next start.
                secrets.delete(&account(data_dir));
                let _ = remove(&decrypt);
                let _ = remove(&note(data_dir, FAILED_NOTE));
                Ok(None)
            }
            Err(error) => {
                failed(data_dir, &error);
                Ok(Some(key))
            }
        },
        (FileState::Encrypted, Some(key)) => Ok(Some(key)),
        // Made plain, then stopped before its key was removed: finished now.
        (FileState::Plain, Some(_)) if decrypt.exists() => {
            secrets.delete(&account(data_dir));
            let _ = remove(&decrypt);
            Ok(None)
        }
        (FileState::Plain, Some(key)) => match sidecar_store::convert(data_dir, None, Some(&key)).await {
            Ok(_) => {
                let _ = remove(&note(data_dir, FAILED_NOTE));
                Ok(Some(key))
            }
            Err(error) => {
                failed(data_dir, &error);
                Ok(None)
            }
        },
        // A new database is made encrypted from its first page.
        (FileState::Absent, key) => {
            let _ = remove(&decrypt);
            Ok(key)
        }
        (FileState::Plain, None) => {
            let _ = remove(&decrypt);
            Ok(None)
        }
    }
}

fn failed(data_dir: &Path, error: &StoreError) {
    tracing::warn!(%error, "the database was not converted at start; it stays as it was");
    let said = serde_json::to_string(&[error.to_string(), error.spanish()]).expect("serialisable");
    if let Err(e) = sidecar_domain::write_atomically(&note(data_dir, FAILED_NOTE), said.as_bytes()) {
        tracing::warn!(error = %e, "why the conversion failed could not be kept for Settings");
    }
}

fn remove(path: &Path) -> Result<(), DataError> {
    match std::fs::remove_file(path) {
        Err(source) if source.kind() != std::io::ErrorKind::NotFound => Err(DataError::Write { path: path.to_path_buf(), source }),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sidecar_store::Store;

    /// A data folder with a database of one message, and secrets kept for this session.
    async fn folder(key: Option<&DatabaseKey>) -> (tempfile::TempDir, Secrets) {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open_keyed(dir.path(), key).await.unwrap();
        let conversation = store.conversations().current_conversation().await.unwrap();
        let said = sidecar_domain::ChatMessage::new(sidecar_store::Role::User, "hola");
        store.conversations().add_message(sidecar_store::NewMessage::plain(conversation, &said)).await.unwrap();
        store.close().await;
        let secrets = Secrets::new(false);
        if let Some(key) = key {
            secrets.store(&account(dir.path()), &key.to_hex());
        }
        (dir, secrets)
    }

    fn file(dir: &Path) -> FileState {
        sidecar_store::file_state(&dir.join(DB_FILE)).unwrap()
    }

    #[tokio::test]
    async fn each_start_does_what_was_asked_and_a_stop_between_steps_never_reverses_it() {
        // A key and a plain file: encrypt.
        let (dir, secrets) = folder(None).await;
        secrets.store(&account(dir.path()), &DatabaseKey::generate().to_hex());
        assert!(prepare(dir.path(), &secrets).await.unwrap().is_some());
        assert_eq!(file(dir.path()), FileState::Encrypted);
        assert_eq!(state(dir.path(), &secrets, Lang::En), DatabaseEncryption { encrypted: true, pending: None, failed: None });

        // Asked to decrypt: plain, and the key gone.
        std::fs::write(dir.path().join(DECRYPT_NOTE), "x").unwrap();
        assert_eq!(state(dir.path(), &secrets, Lang::En).pending, Some(EncryptionChange::Decrypt));
        assert!(prepare(dir.path(), &secrets).await.unwrap().is_none());
        assert_eq!(file(dir.path()), FileState::Plain);
        assert!(secrets.get(&account(dir.path())).is_none() && !dir.path().join(DECRYPT_NOTE).exists());

        // Stopped after the rename, before the key went: finished, not encrypted again.
        let (dir, secrets) = folder(None).await;
        secrets.store(&account(dir.path()), &DatabaseKey::generate().to_hex());
        std::fs::write(dir.path().join(DECRYPT_NOTE), "x").unwrap();
        assert!(prepare(dir.path(), &secrets).await.unwrap().is_none());
        assert_eq!(file(dir.path()), FileState::Plain);
        assert!(secrets.get(&account(dir.path())).is_none());

        // Encrypted and no key: the start stops, saying so; nothing changes.
        let key = DatabaseKey::generate();
        let (dir, _) = folder(Some(&key)).await;
        let error = prepare(dir.path(), &Secrets::new(false)).await.unwrap_err();
        assert!(matches!(error, StoreError::NoKey { .. }), "{error}");
        assert_eq!(file(dir.path()), FileState::Encrypted);
    }

    #[tokio::test]
    async fn a_conversion_that_cannot_run_now_is_said_in_settings_in_the_users_language() {
        let (dir, secrets) = folder(None).await;
        secrets.store(&account(dir.path()), &DatabaseKey::generate().to_hex());
        // Another program holds the database open.
        let holder = Store::open(dir.path()).await.unwrap();
        assert!(prepare(dir.path(), &secrets).await.unwrap().is_none(), "opened plain this time");
        let said = state(dir.path(), &secrets, Lang::Es);
        assert_eq!(said.pending, Some(EncryptionChange::Encrypt));
        assert!(said.failed.as_deref().is_some_and(|f| f.contains("está abierta en otro Sidecar")), "{said:?}");
        holder.close().await;
        prepare(dir.path(), &secrets).await.unwrap();
        assert_eq!(state(dir.path(), &secrets, Lang::En), DatabaseEncryption { encrypted: true, pending: None, failed: None });
    }
}

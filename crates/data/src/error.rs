//! What the user's data work can fail with, in both languages.

use sidecar_store::StoreError;
use std::path::PathBuf;

use crate::backup::BackupError;
use crate::problem::NotAnExport;

#[derive(Debug, thiserror::Error)]
pub enum DataError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Backup(#[from] BackupError),
    #[error("cannot write {path}: {source}")]
    Write { path: PathBuf, source: std::io::Error },
    #[error(transparent)]
    NotAnExport(#[from] NotAnExport),
    #[error("there is no conversation {0} to export")]
    NoConversation(i64),
    #[error("a passphrase needs at least {0} characters; a sentence you will remember is best")]
    ShortPassphrase(usize),
    #[error(transparent)]
    Knowledge(#[from] sidecar_memory::KnowledgeError),
    /// The database key would be kept for this session only and lost at the next restart.
    #[error("no system keychain can keep the database's key ({0}), and a key lost at the next restart would lose everything. Unlock your desktop's keychain (GNOME Keyring, KWallet), then try again")]
    NoKeychain(String),
}

impl sidecar_domain::Worded for DataError {
    fn spanish(&self) -> String {
        match self {
            DataError::Store(e) => e.spanish(),
            DataError::Backup(e) => e.spanish(),
            DataError::Write { path, source } => format!("no se puede escribir {}: {source}", path.display()),
            DataError::NotAnExport(e) => e.spanish(),
            DataError::NoConversation(id) => format!("no hay ninguna conversación {id} que exportar"),
            DataError::ShortPassphrase(n) => format!("una frase de contraseña necesita al menos {n} caracteres; lo mejor es una frase que recuerdes"),
            DataError::Knowledge(e) => e.spanish(),
            DataError::NoKeychain(why) => format!(
                "ningún llavero del sistema puede guardar la clave de la base de datos ({why}), y una clave perdida al reiniciar lo perdería todo. Desbloquea el llavero de tu escritorio (GNOME Keyring, KWallet) y vuelve a intentarlo"
            ),
        }
    }
}

//! Why a backup is refused before anything is restored from it, said in English
//! (`Display`) and Spanish ([`Worded`]): what the archive holds that a Sidecar backup
//! does not, or why its database or settings cannot be used here.

use sidecar_domain::Worded;
use sidecar_settings::SettingsError;
use sidecar_store::StoreError;
use sidecar_store::Unusable;

#[derive(Debug, thiserror::Error)]
pub enum BadBackup {
    /// The system's reason, quoted as it came.
    #[error("{0}")]
    Io(std::io::Error),
    #[error("it is damaged or cut short ({0})")]
    Damaged(std::io::Error),
    #[error("it is encrypted: give the passphrase it was made with")]
    Sealed,
    #[error("the passphrase does not open it: check it and try again (it is the one set in Settings → Your data when the backup was made)")]
    WrongPassphrase,
    #[error("it was sealed with a passphrase so costly to check that this computer refuses to try (a hostile file, or one made on a far faster computer)")]
    TooCostly,
    #[error("it holds {name} as a {kind} entry; a Sidecar backup holds plain files only")]
    NotPlain { name: String, kind: String },
    #[error("its manifest is not its first file, as Sidecar writes it")]
    ManifestNotFirst,
    #[error("its manifest is too large")]
    ManifestTooLarge,
    #[error("its manifest cannot be read ({0})")]
    ManifestUnreadable(serde_json::Error),
    #[error("it is a {format} version {version} file, not a Sidecar backup this version reads")]
    OtherFormat { format: String, version: u32 },
    #[error("its manifest lists a file Sidecar does not back up ({0})")]
    ListsForeign(String),
    #[error("it holds a file Sidecar does not back up ({0})")]
    HoldsForeign(String),
    #[error("{0} is in it but not in its manifest")]
    Unlisted(String),
    #[error("{0} is in it twice")]
    Twice(String),
    #[error("{0} is not the size its manifest says")]
    WrongSize(String),
    #[error("{0} is larger than its manifest says")]
    Larger(String),
    #[error("it has no manifest")]
    NoManifest,
    #[error("{0} is missing from it")]
    Missing(String),
    #[error("{0} does not match its checksum")]
    Checksum(String),
    #[error("it holds no database")]
    NoDatabase,
    #[error(transparent)]
    DamagedDatabase(StoreError),
    #[error(transparent)]
    Database(#[from] Unusable),
    #[error("its settings.toml does not pass Sidecar's checks ({0})")]
    Settings(SettingsError),
}

impl Worded for BadBackup {
    fn spanish(&self) -> String {
        match self {
            BadBackup::Io(e) => e.to_string(),
            BadBackup::Damaged(e) => format!("está dañada o cortada ({e})"),
            BadBackup::Sealed => "está cifrada: escribe la frase de contraseña con la que se hizo".into(),
            BadBackup::WrongPassphrase => {
                "la frase de contraseña no la abre: revísala y vuelve a intentarlo (es la que estaba puesta en Ajustes → Tus datos cuando se hizo la copia)".into()
            }
            BadBackup::TooCostly => {
                "se cifró con una frase tan costosa de comprobar que este ordenador se niega a intentarlo (un archivo hostil, o uno hecho en un ordenador mucho más rápido)".into()
            }
            BadBackup::NotPlain { name, kind } => format!("guarda {name} como una entrada {kind}; una copia de Sidecar solo guarda archivos normales"),
            BadBackup::ManifestNotFirst => "su manifiesto no es su primer archivo, como lo escribe Sidecar".into(),
            BadBackup::ManifestTooLarge => "su manifiesto es demasiado grande".into(),
            BadBackup::ManifestUnreadable(e) => format!("su manifiesto no se puede leer ({e})"),
            BadBackup::OtherFormat { format, version } => {
                format!("es un archivo {format} de versión {version}, no una copia de Sidecar que esta versión sepa leer")
            }
            BadBackup::ListsForeign(name) => format!("su manifiesto nombra un archivo del que Sidecar no hace copia ({name})"),
            BadBackup::HoldsForeign(name) => format!("guarda un archivo del que Sidecar no hace copia ({name})"),
            BadBackup::Unlisted(name) => format!("{name} está en ella pero no en su manifiesto"),
            BadBackup::Twice(name) => format!("{name} está en ella dos veces"),
            BadBackup::WrongSize(name) => format!("{name} no tiene el tamaño que dice su manifiesto"),
            BadBackup::Larger(name) => format!("{name} es más grande de lo que dice su manifiesto"),
            BadBackup::NoManifest => "no tiene manifiesto".into(),
            BadBackup::Missing(name) => format!("falta {name}"),
            BadBackup::Checksum(name) => format!("{name} no coincide con su suma de comprobación"),
            BadBackup::NoDatabase => "no guarda ninguna base de datos".into(),
            BadBackup::DamagedDatabase(e) => e.spanish(),
            BadBackup::Database(e) => e.spanish(),
            BadBackup::Settings(e) => format!("su settings.toml no pasa las comprobaciones de Sidecar ({})", e.spanish()),
        }
    }
}

//! What can go wrong with a mailbox, in both languages, with what to do.

use sidecar_domain::Worded;
use sidecar_store::StoreError;

#[derive(Debug, thiserror::Error)]
pub enum MailError {
    #[error("{0:?} is not a mail server's name (for example imap.fastmail.com)")]
    NotAServer(String),
    /// Plain IMAP sends the password as it is: only to this computer (Proton Bridge).
    #[error("Sidecar connects to {0} only with TLS; plain IMAP is for a server on this computer (such as Proton Bridge)")]
    PlainElsewhere(String),
    #[error("the mail server refused the user name or password; check them, or make an app password (Gmail, Outlook, iCloud and Fastmail ask for one)")]
    Refused,
    /// The transport's own words go to the log where it is made, not to the user.
    #[error("the mail server could not be reached: check its name and port, that it is running and that this computer is online; the last copy is used until it answers")]
    Unreachable(String),
    #[error("the mail server's certificate could not be trusted: check the server's name; Sidecar does not read mail over a connection it cannot trust")]
    Untrusted(String),
    #[error("the mail server answered something unexpected: {0}")]
    MailServer(String),
    #[error("the mail server has no folder {0:?}; choose the folders again in Settings → Mail")]
    NoFolder(String),
    #[error("no mail account is connected; connect one in Settings → Mail")]
    NoAccount,
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl From<sqlx::Error> for MailError {
    fn from(e: sqlx::Error) -> Self {
        MailError::Store(StoreError::from(e))
    }
}

impl Worded for MailError {
    fn spanish(&self) -> String {
        match self {
            MailError::NotAServer(host) => format!("{host:?} no es el nombre de un servidor de correo (por ejemplo imap.fastmail.com)"),
            MailError::PlainElsewhere(host) => {
                format!("Sidecar se conecta a {host} solo con TLS; el IMAP sin cifrar es para un servidor en este ordenador (como Proton Bridge)")
            }
            MailError::Refused => {
                "el servidor de correo rechazó el usuario o la contraseña; revísalos, o crea una contraseña de aplicación (Gmail, Outlook, iCloud y Fastmail la piden)".into()
            }
            MailError::Unreachable(_) => "no se pudo llegar al servidor de correo: revisa su nombre y su puerto, que esté en marcha y que este ordenador tenga conexión; se usa la última copia hasta que responda".into(),
            MailError::Untrusted(_) => "no se pudo confiar en el certificado del servidor de correo: revisa el nombre del servidor; Sidecar no lee correo por una conexión en la que no puede confiar".into(),
            MailError::MailServer(what) => format!("el servidor de correo respondió algo inesperado: {what}"),
            MailError::NoFolder(name) => format!("el servidor de correo no tiene la carpeta {name:?}; elige las carpetas de nuevo en Ajustes → Correo"),
            MailError::NoAccount => "no hay ninguna cuenta de correo conectada; conecta una en Ajustes → Correo".into(),
            MailError::Store(e) => e.spanish(),
        }
    }
}

impl From<async_imap::error::Error> for MailError {
    fn from(e: async_imap::error::Error) -> Self {
        use async_imap::error::Error;
        match e {
            Error::Io(io) => MailError::Unreachable(io.to_string()),
            Error::ConnectionLost => MailError::Unreachable("the connection was lost".into()),
            other => MailError::MailServer(other.to_string()),
        }
    }
}

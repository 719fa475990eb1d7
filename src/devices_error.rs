//! What Settings → Devices can refuse: an address that is no IP address, a settings file
//! that cannot be written, the link's own errors; said in both languages.

use sidecar_settings::SettingsFileError;

#[derive(Debug, thiserror::Error)]
pub enum DevicesError {
    #[error("\"{0}\" is not an IP address (for example 192.168.1.20, or 100.101.102.103:47200 with a port)")]
    Address(String),
    #[error(transparent)]
    Settings(#[from] SettingsFileError),
    /// Said as the link's own words say it (what to do, not the protocol's terms).
    #[error("{}", sidecar_link::words::error(.0, sidecar_domain::Lang::En))]
    Link(#[from] sidecar_link::LinkError),
}

impl sidecar_domain::Worded for DevicesError {
    fn spanish(&self) -> String {
        match self {
            DevicesError::Address(a) => format!("«{a}» no es una dirección IP (por ejemplo 192.168.1.20, o 100.101.102.103:47200 con un puerto)"),
            DevicesError::Settings(e) => e.spanish(),
            DevicesError::Link(e) => sidecar_link::words::error(e, sidecar_domain::Lang::Es),
        }
    }
}

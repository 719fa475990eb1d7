//! Why the model manager could not do what it was asked, worded in both languages.

use super::download::PullError;
use super::library::LibraryError;
use crate::sampling::OutOfRange;
use crate::ModelUnavailable;
use sidecar_domain::Worded;
use sidecar_settings::SettingsFileError;

#[derive(Debug, thiserror::Error)]
pub enum HubError {
    #[error(transparent)]
    Library(#[from] LibraryError),
    #[error(transparent)]
    Download(#[from] PullError),
    #[error(transparent)]
    Unavailable(#[from] ModelUnavailable),
    #[error(transparent)]
    Range(#[from] OutOfRange),
    #[error(transparent)]
    SettingsFile(#[from] SettingsFileError),
}

impl Worded for HubError {
    fn spanish(&self) -> String {
        match self {
            HubError::Library(e) => e.spanish(),
            HubError::Download(e) => e.spanish(),
            HubError::Unavailable(e) => e.spanish(),
            HubError::Range(e) => e.spanish(),
            HubError::SettingsFile(e) => e.spanish(),
        }
    }
}

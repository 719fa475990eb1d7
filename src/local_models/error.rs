//! Why the model manager could not do what it was asked, worded in both languages.

use super::download::PullError;
use super::library::LibraryError;
use crate::llm::sampling::OutOfRange;
use crate::llm::ModelUnavailable;
use crate::said::Worded;
use crate::settings::file::SettingsFileError;

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

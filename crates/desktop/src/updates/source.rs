//! What the core asks of whatever fetches and installs updates. The desktop shell answers
//! with Tauri's updater plugin (signed manifests, the system's package installer); the
//! core keeps the rules: when to look, what to say, and that nothing installs unasked.

use chrono::{DateTime, Utc};
use futures_util::future::BoxFuture;
use serde::Serialize;

/// How this copy of Sidecar was installed, which decides whether it can update itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(rename_all = "lowercase")]
pub enum PackageFormat {
    Deb,
    Rpm,
    AppImage,
    /// Windows and macOS installers: the updater supports them, this project does not
    /// build them yet.
    Other,
}

impl PackageFormat {
    /// The formats the updater replaces in place. A copy built from source has no
    /// format: `git pull` and `make run` update it.
    pub(crate) fn updates_in_place(self) -> bool {
        matches!(self, PackageFormat::Deb | PackageFormat::Rpm | PackageFormat::AppImage)
    }
}

/// A newer version the manifest offers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct Offer {
    pub version: String,
    /// When it was published, if the manifest says.
    pub published: Option<DateTime<Utc>>,
    /// What changed, as the release notes put it.
    pub notes: String,
}

/// Why looking for or installing an update failed; [`crate::words`] says each
/// in the user's language with what to do about it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UpdateFailure {
    /// The address could not be reached or answered with an error.
    #[error("could not reach the update address: {0}")]
    Unreachable(String),
    /// It answered, but not with an update manifest Sidecar can read.
    #[error("the update address did not answer with an update manifest: {0}")]
    NotAManifest(String),
    /// The manifest has no package for this system and format.
    #[error("the manifest offers nothing for {0}")]
    NothingForThisSystem(String),
    /// The download does not match the signature the manifest gives, or the signature
    /// was made with another key: it is never installed.
    #[error("the update's signature does not match Sidecar's key: {0}")]
    BadSignature(String),
    /// The system's installer refused or was cancelled (a password not given).
    #[error("the system's installer did not install the update: {0}")]
    InstallFailed(String),
}

/// The updater behind the core. `check` remembers the offer it found; `install` downloads,
/// verifies and installs that one, reporting bytes as they arrive.
pub trait UpdateSource: Send + Sync {
    fn check<'a>(&'a self, address: &'a str, public_key: Option<&'a str>) -> BoxFuture<'a, Result<Option<Offer>, UpdateFailure>>;
    fn install<'a>(&'a self, progress: Box<dyn FnMut(u64, Option<u64>) + Send + 'a>) -> BoxFuture<'a, Result<(), UpdateFailure>>;
}

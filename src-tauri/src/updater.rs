//! Tauri's updater plugin as the core's update source: it fetches the manifest, checks the
//! package's minisign signature against the key, and installs it with the system's
//! installer (`pkexec dpkg -i` for a .deb, `rpm -U` for a .rpm). The core decides when
//! and says what happened.

use std::sync::Mutex;

use futures_util::future::BoxFuture;
use sidecar_desktop_features::Offer;
use sidecar_desktop_features::PackageFormat;
use sidecar_desktop_features::UpdateFailure;
use sidecar_desktop_features::UpdateSource;
use tauri::utils::config::BundleType;
use tauri::AppHandle;
use tauri_plugin_updater::{Error, Update, UpdaterExt};

pub(crate) struct PluginUpdates {
    app: AppHandle,
    /// What the last look found, which `install` installs.
    found: Mutex<Option<Update>>,
}

impl PluginUpdates {
    pub(crate) fn new(app: AppHandle) -> Self {
        Self { app, found: Mutex::new(None) }
    }
}

/// How this copy was installed, as Tauri's bundler marked the binary; none for a build
/// from source.
pub(crate) fn format() -> Option<PackageFormat> {
    tauri::utils::platform::bundle_type().map(|bundle| match bundle {
        BundleType::Deb => PackageFormat::Deb,
        BundleType::Rpm => PackageFormat::Rpm,
        BundleType::AppImage => PackageFormat::AppImage,
        _ => PackageFormat::Other,
    })
}

impl UpdateSource for PluginUpdates {
    fn check<'a>(&'a self, address: &'a str, public_key: Option<&'a str>) -> BoxFuture<'a, Result<Option<Offer>, UpdateFailure>> {
        Box::pin(async move {
            let endpoint = url::Url::parse(address).map_err(|e| UpdateFailure::NotAManifest(e.to_string()))?;
            let mut builder = self.app.updater_builder().endpoints(vec![endpoint]).map_err(failure)?;
            if let Some(key) = public_key {
                builder = builder.pubkey(key);
            }
            let found = builder.build().map_err(failure)?.check().await.map_err(failure)?;
            let offer = found.as_ref().map(|update| Offer {
                version: update.version.clone(),
                published: update.date.and_then(|date| chrono::DateTime::from_timestamp(date.unix_timestamp(), 0)),
                notes: update.body.clone().unwrap_or_default(),
            });
            *self.found.lock().expect("updater lock") = found;
            Ok(offer)
        })
    }

    fn install<'a>(&'a self, mut progress: Box<dyn FnMut(u64, Option<u64>) + Send + 'a>) -> BoxFuture<'a, Result<(), UpdateFailure>> {
        Box::pin(async move {
            let update = self.found.lock().expect("updater lock").clone();
            let update = update.ok_or_else(|| UpdateFailure::InstallFailed("no update was found first".into()))?;
            update.download_and_install(|chunk, total| progress(chunk as u64, total), || {}).await.map_err(failure)
        })
    }
}

/// The plugin's error as one of the failures the core puts into words.
fn failure(error: Error) -> UpdateFailure {
    let said = error.to_string();
    match error {
        Error::Minisign(_) | Error::Base64(_) | Error::SignatureUtf8(_) | Error::SignedVersionMismatch { .. } | Error::MissingSignedVersion => {
            UpdateFailure::BadSignature(said)
        }
        Error::Reqwest(e) if e.is_decode() => UpdateFailure::NotAManifest(said),
        Error::Reqwest(_) | Error::Network(_) => UpdateFailure::Unreachable(said),
        Error::ReleaseNotFound | Error::Serialization(_) | Error::Semver(_) | Error::UrlParse(_) | Error::InsecureTransportProtocol | Error::EmptyEndpoints => {
            UpdateFailure::NotAManifest(said)
        }
        Error::TargetNotFound(target) => UpdateFailure::NothingForThisSystem(target),
        Error::TargetsNotFound(targets) => UpdateFailure::NothingForThisSystem(targets.join(", ")),
        _ => UpdateFailure::InstallFailed(said),
    }
}

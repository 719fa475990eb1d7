//! The manifest inside every backup: what each file is, its size and SHA-256, so a
//! restore can refuse a damaged or incomplete backup before it touches anything.

use serde::{Deserialize, Serialize};

pub(crate) const FORMAT: &str = "sidecar-backup";
pub(crate) const VERSION: u32 = 1;
/// The manifest's own name inside the archive.
pub(crate) const MANIFEST: &str = "manifest.json";

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Manifest {
    pub format: String,
    pub version: u32,
    /// UTC, RFC 3339.
    pub created_at: String,
    pub app_version: String,
    pub files: Vec<ManifestEntry>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct ManifestEntry {
    /// Relative, `/`-separated: `sidecar.db`, `settings.toml`, `knowledge/NAME.md`.
    pub path: String,
    pub bytes: u64,
    pub sha256: String,
}

/// Whether `path` is one a backup may hold: nothing absolute, no `..`, only the
/// database, the settings, the knowledge files and the images attached in the chat
/// (named by their SHA-256).
pub(crate) fn allowed(path: &str) -> bool {
    match path.split('/').collect::<Vec<_>>().as_slice() {
        ["sidecar.db"] | ["settings.toml"] => true,
        ["knowledge", name] => name.ends_with(".md") && !name.starts_with('.') && name.chars().all(|c| c.is_alphanumeric() || "._-".contains(c)),
        ["attachments", name] => name.split_once('.').is_some_and(|(hash, extension)| {
            hash.len() == 64 && hash.chars().all(|c| c.is_ascii_hexdigit()) && ["png", "jpeg", "gif", "webp"].contains(&extension)
        }),
        _ => false,
    }
}

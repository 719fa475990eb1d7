//! Where Sidecar keeps its data and settings.
//!
//! Resolution order for both: explicit flag, then environment variable, then the
//! platform's standard directory (XDG on Linux, Application Support on macOS,
//! AppData on Windows).

use std::path::{Path, PathBuf};

/// Environment variable overriding the data directory.
pub(crate) const DATA_DIR_ENV: &str = "SIDECAR_DATA_DIR";
/// Environment variable overriding the settings file.
pub(crate) const CONFIG_ENV: &str = "SIDECAR_CONFIG";

const QUALIFIER: &str = "dev";
const ORGANIZATION: &str = "Sidecar";
const APPLICATION: &str = "Sidecar";

/// The data directory: `explicit`, else `$SIDECAR_DATA_DIR`, else the platform default.
pub fn data_dir(explicit: Option<&Path>) -> PathBuf {
    if let Some(dir) = explicit {
        return dir.to_path_buf();
    }
    if let Some(dir) = std::env::var_os(DATA_DIR_ENV).filter(|v| !v.is_empty()) {
        return PathBuf::from(dir);
    }
    project_dirs().map(|d| d.data_dir().to_path_buf()).unwrap_or_else(|| PathBuf::from(".sidecar"))
}

/// The settings file: `explicit`, else `$SIDECAR_CONFIG`, else `settings.toml` in the
/// platform's config directory.
pub fn config_file(explicit: Option<&Path>) -> PathBuf {
    if let Some(file) = explicit {
        return file.to_path_buf();
    }
    if let Some(file) = std::env::var_os(CONFIG_ENV).filter(|v| !v.is_empty()) {
        return PathBuf::from(file);
    }
    project_dirs().map(|d| d.config_dir().join("settings.toml")).unwrap_or_else(|| PathBuf::from("settings.toml"))
}

fn project_dirs() -> Option<directories::ProjectDirs> {
    directories::ProjectDirs::from(QUALIFIER, ORGANIZATION, APPLICATION)
}

/// Where files the user asked for are written (an `.ics` export): the Downloads
/// folder, or the data folder when the system has none.
pub fn export_dir(data_dir: &std::path::Path) -> std::path::PathBuf {
    directories::UserDirs::new().and_then(|d| d.download_dir().map(|p| p.to_path_buf())).unwrap_or_else(|| data_dir.to_path_buf())
}

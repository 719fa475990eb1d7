//! The IPC commands the device keeps for itself (the core's are `sidecar::commands`,
//! served by `ipc`): files on this computer, its notifications, restarting the app.

use std::sync::Arc;

use sidecar::Companion;
use tauri::{AppHandle, State};

pub(crate) use sidecar::commands::{blocking, CommandError, SaidBy};

pub(crate) type Core<'a> = State<'a, Arc<Companion>>;

#[tauri::command]
pub(crate) async fn attach_file(core: Core<'_>, path: std::path::PathBuf) -> Result<sidecar_memory::Attachment, CommandError> {
    core.attach(&path).await.said(&core)
}

#[tauri::command]
pub(crate) async fn send_test_notification(app: AppHandle) {
    // The notifier blocks on D-Bus; keep it off the async workers.
    let _ = tauri::async_runtime::spawn_blocking(move || crate::tray::send_test_notification(&app)).await;
}

/// Notes `path` to be restored and restarts the app, which restores it before opening
/// the data (the running app holds it).
#[tauri::command]
pub(crate) fn restore_at_restart(app: tauri::AppHandle, core: Core<'_>, path: String, passphrase: Option<String>) -> Result<(), CommandError> {
    let seal = passphrase.as_deref().and_then(sidecar_data::Passphrase::new);
    sidecar_data::schedule_restore(core.data_dir(), std::path::Path::new(&path), seal.as_ref()).map_err(sidecar_data::DataError::Backup).said(&core)?;
    app.restart()
}

/// Opens the folder of the daily log files in the system's file manager.
#[tauri::command]
pub(crate) fn open_logs_folder(app: AppHandle, core: Core<'_>) -> Result<(), CommandError> {
    use tauri_plugin_opener::OpenerExt;
    let dir = sidecar_domain::log_dir(core.data_dir());
    app.opener().open_path(dir.to_string_lossy(), None::<&str>).map_err(|e| CommandError {
        message: format!("cannot open {}: {e}", dir.display()),
        retryable: false,
        cancelled: false,
    })
}

/// Shows the folder holding `path` (a backup or an export) in the file manager.
#[tauri::command]
pub(crate) fn reveal_path(app: AppHandle, path: String) -> Result<(), CommandError> {
    use tauri_plugin_opener::OpenerExt;
    let folder = std::path::Path::new(&path).parent().map(|p| p.to_string_lossy().to_string()).unwrap_or(path);
    app.opener().open_path(folder.clone(), None::<&str>).map_err(|e| CommandError {
        message: format!("cannot open {folder}: {e}"),
        retryable: false,
        cancelled: false,
    })
}

//! IPC commands for the preferences people look for: theme, language, the global
//! shortcut, launch at login, the web search service. Each a few lines calling the
//! core or a plugin.

use serde::Serialize;
use sidecar_settings::HotkeyError;
use sidecar_settings::HotkeyRole;
use sidecar_settings::PreferencesView;
use tauri::AppHandle;
use tauri_plugin_autostart::ManagerExt;

use crate::commands::{blocking, CommandError, Core, SaidBy};
use crate::error::ShellError;

/// Why a shortcut was refused, for the UI to say in the user's language.
#[derive(Serialize)]
#[serde(untagged)]
pub(crate) enum HotkeyRefusal {
    Hotkey(HotkeyError),
    Other(CommandError),
}

#[tauri::command]
pub(crate) async fn set_hotkey(app: AppHandle, core: Core<'_>, hotkey: String) -> Result<PreferencesView, HotkeyRefusal> {
    let hotkey = core.preferences().read_hotkey(&hotkey, HotkeyRole::Window).map_err(HotkeyRefusal::Hotkey)?;
    crate::hotkey::switch(&app, &hotkey, HotkeyRole::Window).map_err(HotkeyRefusal::Hotkey)?;
    blocking(&core, move |c| c.preferences().save_hotkey(&hotkey)).await.said(&core).map_err(HotkeyRefusal::Other)
}

#[tauri::command]
pub(crate) fn launch_at_login(app: AppHandle) -> Result<bool, CommandError> {
    Ok(app.autolaunch().is_enabled().map_err(|e| ShellError::LaunchAtLogin(e.to_string()))?)
}

#[tauri::command]
pub(crate) fn set_launch_at_login(app: AppHandle, on: bool) -> Result<bool, CommandError> {
    let launcher = app.autolaunch();
    let refused = |e: tauri_plugin_autostart::Error| ShellError::LaunchAtLogin(e.to_string());
    if on { launcher.enable() } else { launcher.disable() }.map_err(refused)?;
    Ok(launcher.is_enabled().map_err(refused)?)
}

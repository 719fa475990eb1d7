//! IPC commands for Settings → About: the version, looking for an update, installing it
//! after the user asked, and the restart that runs it.

use sidecar::updates::UpdatesView;
use tauri::AppHandle;

use crate::commands::{blocking, CommandError, Core};

#[tauri::command]
pub fn updates(core: Core<'_>) -> UpdatesView {
    core.updates().view()
}

#[tauri::command]
pub async fn look_for_update(core: Core<'_>) -> Result<UpdatesView, CommandError> {
    Ok(core.updates().look().await)
}

#[tauri::command]
pub async fn install_update(core: Core<'_>) -> Result<UpdatesView, CommandError> {
    Ok(core.updates().install().await?)
}

#[tauri::command]
pub async fn set_update_address(core: Core<'_>, address: Option<String>) -> Result<UpdatesView, CommandError> {
    Ok(blocking(&core, move |c| c.updates().set_address(address.as_deref())).await?)
}

#[tauri::command]
pub async fn set_daily_updates(core: Core<'_>, daily: bool) -> Result<UpdatesView, CommandError> {
    Ok(blocking(&core, move |c| c.updates().set_daily(daily)).await?)
}

/// Starts the installed version in place of this one.
#[tauri::command]
pub fn restart_app(app: AppHandle) {
    app.restart();
}

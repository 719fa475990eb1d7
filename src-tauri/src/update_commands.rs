//! IPC commands for Settings → About: the version, looking for an update, installing it
//! after the user asked, and the restart that runs it.

use sidecar_desktop_features::UpdatesView;
use tauri::AppHandle;

use crate::commands::{blocking, CommandError, Core, SaidBy};

#[tauri::command]
pub(crate) fn updates(core: Core<'_>) -> UpdatesView {
    core.updates().view()
}

#[tauri::command]
pub(crate) async fn look_for_update(core: Core<'_>) -> Result<UpdatesView, CommandError> {
    Ok(core.updates().look().await)
}

#[tauri::command]
pub(crate) async fn install_update(core: Core<'_>) -> Result<UpdatesView, CommandError> {
    core.updates().install().await.said(&core)
}

#[tauri::command]
pub(crate) async fn set_update_address(core: Core<'_>, address: Option<String>) -> Result<UpdatesView, CommandError> {
    blocking(&core, move |c| c.updates().set_address(address.as_deref())).await.said(&core)
}

#[tauri::command]
pub(crate) async fn set_daily_updates(core: Core<'_>, daily: bool) -> Result<UpdatesView, CommandError> {
    blocking(&core, move |c| c.updates().set_daily(daily)).await.said(&core)
}

/// Starts the installed version in place of this one.
#[tauri::command]
pub(crate) fn restart_app(app: AppHandle) {
    app.restart();
}

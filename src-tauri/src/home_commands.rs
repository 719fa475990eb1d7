//! IPC commands for Settings → Devices on a second computer: using the Sidecar of
//! another computer (the home core) from this one, and stopping. Each a few lines
//! calling the core.

use sidecar::companion::home::HomeView;

use crate::commands::{CommandError, Core, SaidBy};

/// The home this computer uses, if any, and how the link is.
#[tauri::command]
pub(crate) fn home_view(core: Core<'_>) -> Option<HomeView> {
    core.home_view()
}

/// Pairs with the home Sidecar at `address` with `code`; this window shows it from now on.
#[tauri::command]
pub(crate) async fn attach_home(core: Core<'_>, address: String, code: String) -> Result<HomeView, CommandError> {
    core.inner().attach_home(&address, &code).await.said(&core)
}

/// Stops using the home Sidecar: this computer's own answers again.
#[tauri::command]
pub(crate) async fn leave_home(core: Core<'_>) -> Result<(), CommandError> {
    core.leave_home().await.said(&core)
}

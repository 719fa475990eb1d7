//! The tray's test notification, shown like every other (the core's notifier): a
//! click brings up the main window.

use std::sync::Arc;

use sidecar::Companion;
use sidecar_proactive::NotificationAction;
use tauri::AppHandle;

use crate::window;

pub(crate) fn notify(app: &AppHandle, companion: &Companion, summary: &str, body: &str) -> Result<(), sidecar_proactive::NotifyError> {
    let app = app.clone();
    let open = Arc::new(move |action| {
        if let NotificationAction::Open { .. } = action {
            window::show_main(&app)
        }
    });
    companion.notifier().show(summary, body, None, None, false, companion.lang(), open)
}

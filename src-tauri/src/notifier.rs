//! The tray's test notification, shown like every other (the core's notifier): a
//! click brings up the main window.

use std::sync::Arc;

use sidecar::proactive::sinks::{show_notification, NotificationAction};
use tauri::AppHandle;

use crate::window;

pub fn notify(app: &AppHandle, summary: &str, body: &str, lang: sidecar::words::Lang) -> Result<(), String> {
    let app = app.clone();
    let open = Arc::new(move |action| {
        if let NotificationAction::Open { .. } = action {
            window::show_main(&app)
        }
    });
    show_notification(summary, body, None, None, false, lang, open)
}

//! Native OS notifications (notify-rust). Clicking one brings up the main window.

use tauri::AppHandle;

use crate::window;

/// Shows a notification; on Linux, a click on it (its default action) opens Sidecar.
/// Blocking D-Bus work happens on its own thread.
pub fn notify(app: &AppHandle, summary: &str, body: &str) -> Result<(), String> {
    let mut notification = notify_rust::Notification::new();
    notification.appname("Sidecar").summary(summary).body(body);
    #[cfg(all(unix, not(target_os = "macos")))]
    notification.action("default", "Open Sidecar");
    let handle = notification.show().map_err(|e| {
        format!("could not show a notification ({e}); is a notification service running?")
    })?;
    #[cfg(all(unix, not(target_os = "macos")))]
    {
        let app = app.clone();
        std::thread::spawn(move || {
            handle.wait_for_action(|action| {
                if action == "default" {
                    window::show_main(&app);
                }
            })
        });
    }
    #[cfg(not(all(unix, not(target_os = "macos"))))]
    let _ = (handle, app);
    Ok(())
}

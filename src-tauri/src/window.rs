//! Showing, hiding and focusing the main window.

use tauri::{AppHandle, Emitter, Manager};

pub(crate) const MAIN: &str = "main";
/// Tells the UI to put the cursor in the composer.
pub(crate) const FOCUS_COMPOSER: &str = "sidecar://focus-composer";
/// Tells the UI to scroll to a message (a notification was clicked).
pub(crate) const SHOW_MESSAGE: &str = "sidecar://show-message";

/// Brings the main window up, focused, with the cursor in the composer.
pub(crate) fn show_main(app: &AppHandle) {
    if let Some(window) = app.get_webview_window(MAIN) {
        let _ = window.unminimize();
        let _ = window.show();
        let _ = window.set_focus();
        let _ = window.emit(FOCUS_COMPOSER, ());
    }
}

/// Whether the user can see the main window now.
pub(crate) fn is_visible(app: &AppHandle) -> bool {
    app.get_webview_window(MAIN).is_some_and(|w| w.is_visible().unwrap_or(false) && !w.is_minimized().unwrap_or(false))
}

/// Whether the user is looking at the chat: shown and focused.
pub(crate) fn is_focused(app: &AppHandle) -> bool {
    app.get_webview_window(MAIN).is_some_and(|w| w.is_visible().unwrap_or(false) && w.is_focused().unwrap_or(false))
}

/// The hotkey's action: hide a visible window, show a hidden one.
pub(crate) fn toggle_main(app: &AppHandle) {
    let Some(window) = app.get_webview_window(MAIN) else {
        return;
    };
    if is_visible(app) {
        let _ = window.hide();
    } else {
        show_main(app);
    }
}

/// Brings the window up on a message (a clicked notification).
pub(crate) fn show_message(app: &AppHandle, message_id: Option<i64>) {
    show_main(app);
    if let (Some(window), Some(id)) = (app.get_webview_window(MAIN), message_id) {
        let _ = window.emit(SHOW_MESSAGE, id);
    }
}

/// Draws the page without GPU compositing. A chat needs no 3D layers, and compositing
/// makes WebKit's web process hold GL buffers (software GL under Xvfb and on many
/// machines): about 70 MB at idle, measured by `make figures`.
pub(crate) fn render_in_software(app: &AppHandle) {
    if let Some(window) = app.get_webview_window(MAIN) {
        render_webview_in_software(&window);
    }
}

/// The same for one window's webview (the character's too).
pub(crate) fn render_webview_in_software(window: &tauri::WebviewWindow) {
    #[cfg(target_os = "linux")]
    let _ = window.with_webview(|webview| {
        use webkit2gtk::{HardwareAccelerationPolicy, SettingsExt, WebViewExt};
        if let Some(settings) = WebViewExt::settings(&webview.inner()) {
            settings.set_hardware_acceleration_policy(HardwareAccelerationPolicy::Never);
        }
    });
    #[cfg(not(target_os = "linux"))]
    let _ = window;
}

//! The global shortcut that summons Sidecar from anywhere.

use tauri::AppHandle;
use tauri_plugin_global_shortcut::{Code, GlobalShortcutExt, Modifiers, Shortcut, ShortcutState};

use crate::window;

/// Ctrl+Shift+Space (Cmd+Shift+Space on macOS).
fn toggle_shortcut() -> Shortcut {
    let primary = if cfg!(target_os = "macos") {
        Modifiers::SUPER
    } else {
        Modifiers::CONTROL
    };
    Shortcut::new(Some(primary | Modifiers::SHIFT), Code::Space)
}

pub fn register(app: &AppHandle) -> tauri::Result<()> {
    let toggle = toggle_shortcut();
    app.plugin(
        tauri_plugin_global_shortcut::Builder::new()
            .with_handler(move |app, shortcut, event| {
                if shortcut == &toggle && event.state() == ShortcutState::Pressed {
                    window::toggle_main(app);
                }
            })
            .build(),
    )?;
    // Another program may own the combination; Sidecar still works from the tray.
    if let Err(error) = app.global_shortcut().register(toggle) {
        tracing::warn!(%error, "global shortcut unavailable");
    }
    Ok(())
}

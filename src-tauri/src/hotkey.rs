//! The global shortcut that summons Sidecar from anywhere. The user picks it in
//! Settings; the core says what a valid one is, this registers it with the desktop.

use std::sync::Mutex;

use sidecar::preferences::{Hotkey, HotkeyError};
use tauri::{AppHandle, Manager};
use tauri_plugin_global_shortcut::{GlobalShortcutExt, Shortcut, ShortcutState};

use crate::window;

/// The shortcut registered now, if any.
struct Registered(Mutex<Option<Shortcut>>);

pub fn register(app: &AppHandle, hotkey: &Hotkey) -> tauri::Result<()> {
    app.manage(Registered(Mutex::new(None)));
    app.plugin(
        tauri_plugin_global_shortcut::Builder::new()
            .with_handler(|app, shortcut, event| {
                let current = *app.state::<Registered>().0.lock().expect("hotkey lock");
                if current.as_ref() == Some(shortcut) && event.state() == ShortcutState::Pressed {
                    window::toggle_main(app);
                }
            })
            .build(),
    )?;
    // Another program may own the combination; Sidecar still works from the tray, and
    // Settings says so when the user picks one.
    if let Err(error) = switch(app, hotkey) {
        tracing::warn!(%error, "global shortcut unavailable");
    }
    Ok(())
}

/// Registers `hotkey` in place of the current one; when it is taken, the current one
/// stays.
pub fn switch(app: &AppHandle, hotkey: &Hotkey) -> Result<(), HotkeyError> {
    let shortcut: Shortcut = hotkey.to_string().parse().map_err(|_| HotkeyError::Unknown { text: hotkey.to_string() })?;
    let state = app.state::<Registered>();
    let mut current = state.0.lock().expect("hotkey lock");
    if *current == Some(shortcut) {
        return Ok(());
    }
    let shortcuts = app.global_shortcut();
    if let Some(old) = *current {
        let _ = shortcuts.unregister(old);
    }
    match shortcuts.register(shortcut) {
        Ok(()) => {
            *current = Some(shortcut);
            Ok(())
        }
        Err(error) => {
            tracing::info!(%error, %hotkey, "global shortcut taken");
            if let Some(old) = *current {
                let _ = shortcuts.register(old);
            }
            Err(HotkeyError::Taken { hotkey: hotkey.to_string() })
        }
    }
}

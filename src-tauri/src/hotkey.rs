//! The global shortcuts: one summons Sidecar's window from anywhere, one shows or
//! hides the character on the desktop, one is push-to-talk. The user picks them in Settings; the core says
//! what a valid one is, this registers them with the desktop.

use std::sync::Mutex;
use std::time::Instant;

use sidecar_voice::TalkKey;

use sidecar_settings::Hotkey;
use sidecar_settings::HotkeyError;
use sidecar_settings::HotkeyRole;
use tauri::{AppHandle, Emitter, Manager};
use tauri_plugin_global_shortcut::{GlobalShortcutExt, Shortcut, ShortcutState};

use crate::window;

/// Told to the window when push-to-talk's shortcut is pressed.
const TALK: &str = "sidecar://talk";

/// The shortcuts registered now: the window's, the character's, push-to-talk's.
struct Registered([Mutex<Option<Shortcut>>; 3]);

fn slot(role: HotkeyRole) -> usize {
    match role {
        HotkeyRole::Window => 0,
        HotkeyRole::Character => 1,
        HotkeyRole::Talk => 2,
    }
}

pub(crate) fn register(app: &AppHandle, hotkeys: &[(Hotkey, HotkeyRole)]) -> tauri::Result<()> {
    app.manage(Registered([Mutex::new(None), Mutex::new(None), Mutex::new(None)]));
    app.plugin(
        tauri_plugin_global_shortcut::Builder::new()
            .with_handler(|app, shortcut, event| {
                let registered = app.state::<Registered>();
                if registered.0[slot(HotkeyRole::Talk)].lock().expect("hotkey lock").as_ref() == Some(shortcut) {
                    return talk(app, event.state());
                }
                if event.state() != ShortcutState::Pressed {
                    return;
                }
                if registered.0[slot(HotkeyRole::Window)].lock().expect("hotkey lock").as_ref() == Some(shortcut) {
                    window::toggle_main(app);
                } else if registered.0[slot(HotkeyRole::Character)].lock().expect("hotkey lock").as_ref() == Some(shortcut) {
                    crate::character::toggle(app);
                }
            })
            .build(),
    )?;
    // Another program may own the combination; Sidecar still works from the tray, and
    // Settings says so when the user picks one.
    for (hotkey, role) in hotkeys {
        if let Err(error) = switch(app, hotkey, *role) {
            tracing::warn!(%error, ?role, "global shortcut unavailable");
        }
    }
    Ok(())
}

/// Push-to-talk's key: taps toggle, a hold sends when let go (the core's rule).
static TALK_KEY: Mutex<TalkKey> = Mutex::new(TalkKey::new());

/// Push-to-talk's shortcut: when the core's rule says the microphone button is pressed,
/// the window shows and its button takes the press.
fn talk(app: &AppHandle, state: ShortcutState) {
    let now = Instant::now();
    let mut key = TALK_KEY.lock().expect("talk hotkey lock");
    let press = match state {
        ShortcutState::Pressed => key.pressed(now),
        ShortcutState::Released => key.released(now),
    };
    if press {
        window::show_main(app);
        let _ = app.emit(TALK, ());
    }
}

/// Registers `hotkey` for `role` in place of the current one; when it is taken, the
/// current one stays.
pub(crate) fn switch(app: &AppHandle, hotkey: &Hotkey, role: HotkeyRole) -> Result<(), HotkeyError> {
    let shortcut: Shortcut = hotkey.to_string().parse().map_err(|_| HotkeyError::Unknown { text: hotkey.to_string() })?;
    let state = app.state::<Registered>();
    let mut current = state.0[slot(role)].lock().expect("hotkey lock");
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

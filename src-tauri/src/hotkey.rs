//! The global shortcuts: one summons Sidecar's window from anywhere, one shows or
//! hides the character on the desktop, one is push-to-talk. The user picks them in Settings; the core says
//! what a valid one is, this registers them with the desktop.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use sidecar::preferences::{Hotkey, HotkeyError, HotkeyRole};
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

pub fn register(app: &AppHandle, hotkeys: &[(Hotkey, HotkeyRole)]) -> tauri::Result<()> {
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

/// Push-to-talk's key while it is down: when it went down, and when it was last seen
/// (a held key repeats its press every few tens of milliseconds).
static TALK_DOWN: Mutex<Option<(Instant, Instant)>> = Mutex::new(None);
/// A press this soon after the last one seen is the key repeating, not a new press (a
/// desktop that never reports the release, as some Wayland portals, still toggles).
const REPEAT: Duration = Duration::from_millis(300);

/// Push-to-talk's shortcut: the window shows and its microphone button takes the press.
/// Pressed once it starts listening and pressed again it sends; held, it sends when let
/// go (a release after a short tap does nothing).
fn talk(app: &AppHandle, state: ShortcutState) {
    let mut down = TALK_DOWN.lock().expect("talk hotkey lock");
    let now = Instant::now();
    match state {
        ShortcutState::Pressed => {
            if let Some((_, seen)) = down.as_mut().filter(|(_, seen)| now.duration_since(*seen) < REPEAT) {
                *seen = now;
                return;
            }
            *down = Some((now, now));
            window::show_main(app);
            let _ = app.emit(TALK, ());
        }
        ShortcutState::Released => {
            if down.take().is_some_and(|(at, _)| now.duration_since(at) >= sidecar::preferences::HOLD_TO_TALK) {
                let _ = app.emit(TALK, ());
            }
        }
    }
}

/// Registers `hotkey` for `role` in place of the current one; when it is taken, the
/// current one stays.
pub fn switch(app: &AppHandle, hotkey: &Hotkey, role: HotkeyRole) -> Result<(), HotkeyError> {
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

//! The character on the desktop, as the core keeps it: its switch and shortcut in
//! `[desktop]`, its place per screen across restarts (kept whole on a screen that
//! shrank, found on the screen where the user last left it), what makes it sleep
//! (`/quiet` typed at the desk, not a phone's own quiet), and the first line its speech
//! bubble shows.

use std::time::Duration;

use sidecar::CoreEvent;
use sidecar_desktop_features::Screen;
use sidecar_desktop_features::Size;
use sidecar_desktop_features::Spot;
use sidecar_desktop_features::MARGIN;
use sidecar_proactive::ProactiveEvent;
use sidecar_settings::HotkeyError;
use sidecar_settings::HotkeyRole;
use sidecar_settings::DEFAULT_CHARACTER_HOTKEY;

use crate::support::open_with_config as open;

fn screen(name: &str, x: i32, width: u32, height: u32) -> Screen {
    Screen { name: name.into(), x, y: 0, width, height, scale: 1.0 }
}
const SIZE: Size = Size { width: 112, height: 112 };

#[tokio::test]
async fn the_switch_and_the_shortcut_are_kept_and_the_two_shortcuts_differ() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("settings.toml");
    std::fs::write(&config, "[desktop]\ntheme = \"dark\"\n").unwrap();
    let core = open(&dir.path().join("data"), &config).await;
    let view = core.preferences().view();
    assert!(!view.character, "off until the user turns it on");
    assert_eq!(view.character_hotkey, DEFAULT_CHARACTER_HOTKEY);

    core.preferences().set_character(true).unwrap();
    let same = core.preferences().read_hotkey("ctrl+shift+space", HotkeyRole::Character);
    assert_eq!(same, Err(HotkeyError::SameAsOther { hotkey: "Ctrl+Shift+Space".into() }));
    assert!(matches!(core.preferences().read_hotkey(DEFAULT_CHARACTER_HOTKEY, HotkeyRole::Window), Err(HotkeyError::SameAsOther { .. })));
    let hotkey = core.preferences().read_hotkey("alt+shift+c", HotkeyRole::Character).unwrap();
    core.preferences().save_character_hotkey(&hotkey).unwrap();
    let text = std::fs::read_to_string(&config).unwrap();
    assert!(text.contains("theme = \"dark\"\ncharacter = true\ncharacter_hotkey = \"Alt+Shift+C\""), "{text}");
    core.shutdown().await;
    drop(core);

    let again = open(&dir.path().join("data2"), &config).await;
    let view = again.preferences().view();
    assert!(view.character);
    assert_eq!(view.character_hotkey, "Alt+Shift+C");
}

#[tokio::test]
async fn a_character_hotkey_that_is_the_windows_own_is_not_registered_twice() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("settings.toml");
    std::fs::write(&config, "[desktop]\nhotkey = \"Ctrl+Shift+Period\"\n").unwrap();
    let core = open(dir.path(), &config).await;
    assert_ne!(core.preferences().character_hotkey(), core.preferences().hotkey());
}

#[tokio::test]
async fn the_place_is_kept_per_screen_across_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("settings.toml");
    let data = dir.path().join("data");
    let laptop = screen("eDP-1", 0, 1280, 800);
    let monitor = screen("HDMI-1", 1280, 1920, 1080);
    let core = open(&data, &config).await;
    let places = core.character_places();
    // The first time: the primary screen's bottom-right corner.
    assert_eq!(
        places.spot(&[laptop.clone(), monitor.clone()], SIZE).await.unwrap(),
        Some(Spot { x: 1280 - 112 - MARGIN as i32, y: 800 - 112 - MARGIN as i32 })
    );
    // Dropped half off the laptop's screen: kept whole on it.
    assert_eq!(places.dropped(&laptop, SIZE, Spot { x: -50, y: 300 }).await.unwrap(), Spot { x: 0, y: 300 });
    tokio::time::sleep(Duration::from_millis(5)).await;
    places.dropped(&monitor, SIZE, Spot { x: 2900, y: 500 }).await.unwrap();
    core.shutdown().await;
    drop(core);

    let core = open(&data, &config).await;
    let places = core.character_places();
    // Back where it was last left, on the monitor.
    assert_eq!(places.spot(&[laptop.clone(), monitor.clone()], SIZE).await.unwrap(), Some(Spot { x: 2900, y: 500 }));
    // The monitor unplugged: where it was on the laptop.
    assert_eq!(places.spot(std::slice::from_ref(&laptop), SIZE).await.unwrap(), Some(Spot { x: 0, y: 300 }));
    // The monitor now smaller: still whole on it.
    let smaller = screen("HDMI-1", 1280, 1024, 768);
    assert_eq!(places.spot(&[laptop, smaller], SIZE).await.unwrap(), Some(Spot { x: 1280 + 1024 - 112, y: 500 }));
    assert_eq!(places.spot(&[], SIZE).await.unwrap(), None, "no screen, no place");
}

#[tokio::test]
async fn quiet_typed_at_the_desk_is_told_and_a_phones_own_quiet_is_not_the_desks() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("settings.toml");
    // No quiet hours, so only asked quiet counts.
    std::fs::write(&config, "").unwrap();
    let core = open(dir.path(), &config).await;
    let mut config_now = core.proactive().config().await.unwrap();
    config_now.quiet_hours.end = config_now.quiet_hours.start;
    core.proactive().set_config(config_now).await.unwrap();
    let mut events = core.events().subscribe();
    assert!(!core.proactive().quiet_now().await.unwrap().quiet);

    core.send("/quiet").await.unwrap();
    let told = tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            if let Ok(CoreEvent::Proactive(ProactiveEvent::QuietChanged { quiet })) = events.recv().await {
                return quiet;
            }
        }
    })
    .await
    .expect("no QuietChanged after /quiet");
    assert!(told.quiet, "/quiet typed at the desk makes the desk quiet");
    assert!(told.changes_at.is_some());
    assert_eq!(core.proactive().quiet_now().await.unwrap(), told);

    core.send("/quiet off").await.unwrap();
    assert!(!core.proactive().quiet_now().await.unwrap().quiet);
    // A phone's own quiet leaves the desk awake.
    core.proactive().set_quiet(Some(60), Some(sidecar_domain::Channel::Telegram)).await.unwrap();
    assert!(!core.proactive().quiet_now().await.unwrap().quiet);
}

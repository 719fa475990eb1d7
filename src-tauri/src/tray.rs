//! The tray icon and its menu.

use std::sync::Arc;

use sidecar::words::tray::labels;
use sidecar::Companion;
use sidecar_proactive::QUIET_FOR_MINUTES;
use tauri::image::Image;
use tauri::menu::{Menu, MenuItem, PredefinedMenuItem};
use tauri::tray::{MouseButton, MouseButtonState, TrayIconBuilder, TrayIconEvent};
use tauri::AppHandle;
use tauri::Manager;

use crate::error::ShellError;
use crate::{notifier, window};

pub(crate) const TRAY_ID: &str = "main";
const OPEN: &str = "open";
const TEST_NOTIFICATION: &str = "test_notification";
const QUIT: &str = "quit";
const QUIET_HOUR: &str = "quiet_hour";
const DISMISS: &str = "dismiss";

/// The menu's Dismiss entry, enabled only while the alert shows.
static DISMISS_ITEM: std::sync::OnceLock<MenuItem<tauri::Wry>> = std::sync::OnceLock::new();
/// The spontaneous message the alert is about, if it is about one.
static UNREAD: std::sync::Mutex<Option<i64>> = std::sync::Mutex::new(None);

pub(crate) fn build(app: &AppHandle) -> tauri::Result<()> {
    let text = labels(app.state::<Arc<Companion>>().lang());
    let dismiss = MenuItem::with_id(app, DISMISS, text.dismiss, false, None::<&str>)?;
    let _ = DISMISS_ITEM.set(dismiss.clone());
    let menu = Menu::with_items(
        app,
        &[
            &MenuItem::with_id(app, OPEN, text.open, true, None::<&str>)?,
            &dismiss,
            &MenuItem::with_id(app, QUIET_HOUR, &text.quiet, true, None::<&str>)?,
            &MenuItem::with_id(app, TEST_NOTIFICATION, text.test, true, None::<&str>)?,
            &PredefinedMenuItem::separator(app)?,
            &MenuItem::with_id(app, QUIT, text.quit, true, None::<&str>)?,
        ],
    )?;
    TrayIconBuilder::with_id(TRAY_ID)
        .icon(Image::from_bytes(include_bytes!("../../icons/tray.png"))?)
        .tooltip("Sidecar")
        .menu(&menu)
        .show_menu_on_left_click(false)
        .on_menu_event(|app, event| match event.id().as_ref() {
            OPEN => window::show_main(app),
            DISMISS => dismiss_unread(app),
            QUIET_HOUR => quiet_for_an_hour(app),
            TEST_NOTIFICATION => send_test_notification(app),
            QUIT => quit(app),
            _ => {}
        })
        .on_tray_icon_event(|tray, event| {
            if let TrayIconEvent::Click { button: MouseButton::Left, button_state: MouseButtonState::Up, .. } = event {
                window::show_main(tray.app_handle());
            }
        })
        .build(app)?;
    Ok(())
}

/// Whether the tray shows its alert icon now.
static ALERT: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Switches the tray icon to its alert state (a proactive message is unread) or back;
/// nothing to do when it is already so (every focus of the window asks).
pub(crate) fn set_alert(app: &AppHandle, alert: bool) -> Result<(), ShellError> {
    let Some(tray) = app.tray_by_id(TRAY_ID) else {
        return Err(ShellError::NoTray);
    };
    if !alert {
        *UNREAD.lock().expect("unread lock") = None;
    }
    if ALERT.swap(alert, std::sync::atomic::Ordering::SeqCst) == alert {
        return Ok(());
    }
    if let Some(item) = DISMISS_ITEM.get() {
        let _ = item.set_enabled(alert);
    }
    let bytes: &[u8] = if alert { include_bytes!("../../icons/tray-alert.png") } else { include_bytes!("../../icons/tray.png") };
    let icon = Image::from_bytes(bytes)?;
    tray.set_icon(Some(icon))?;
    let _ = tray.set_tooltip(Some(if alert { "Sidecar •" } else { "Sidecar" }));
    Ok(())
}

/// The alert for a proactive message; a spontaneous one's id is kept, so dismissing
/// the alert from the menu tells Sidecar it was not welcome.
pub(crate) fn alert_for(app: &AppHandle, spontaneous: Option<i64>) -> Result<(), ShellError> {
    set_alert(app, true)?;
    *UNREAD.lock().expect("unread lock") = spontaneous;
    Ok(())
}

/// Dismiss: the alert goes without the window opening, and a spontaneous message it
/// was about counts as dismissed, as closing its notification does.
fn dismiss_unread(app: &AppHandle) {
    let unread = UNREAD.lock().expect("unread lock").take();
    let _ = set_alert(app, false);
    let (Some(message_id), Some(companion)) = (unread, app.try_state::<Arc<Companion>>().map(|c| c.inner().clone())) else { return };
    tauri::async_runtime::spawn(async move {
        if let Err(error) = companion.proactive().feedback(message_id, sidecar_proactive::Signal::Dismissed).await {
            tracing::debug!(%error, "a dismissed alert taught nothing");
        }
    });
}

/// A phone channel stayed down (W1) or came back: a notification says so, and the
/// tray's tooltip keeps saying it while it lasts.
pub(crate) fn channel_alert(app: &AppHandle, title: &str, body: &str, down: bool) {
    if let Some(tray) = app.tray_by_id(TRAY_ID) {
        let tooltip = if down { format!("Sidecar — {title}") } else { "Sidecar".to_string() };
        let _ = tray.set_tooltip(Some(tooltip));
    }
    channel_warning(app, title, body);
}

/// While a plan is worked on, the tray's tooltip says which step ("step 3 of 5").
pub(crate) fn plan_progress(app: &AppHandle, items: &[sidecar_agent::PlanItem], lang: sidecar::words::Lang) {
    static SHOWN: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    let Some(tray) = app.tray_by_id(TRAY_ID) else { return };
    let working = sidecar_agent::plan_is_open(items);
    // Only the tooltip this set is put back: an alert's or a channel's stays.
    if !SHOWN.swap(working, std::sync::atomic::Ordering::SeqCst) && !working {
        return;
    }
    let tooltip = if working {
        let (done, total) = sidecar_agent::plan_progress(items);
        sidecar_agent::working_on_plan(done, total, lang)
    } else {
        "Sidecar".to_string()
    };
    let _ = tray.set_tooltip(Some(tooltip));
}

/// A notification about a channel that leaves the tray as it is.
pub(crate) fn channel_warning(app: &AppHandle, title: &str, body: &str) {
    // The notifier blocks on D-Bus: off the task that forwards the core's events.
    let (app, title, body) = (app.clone(), title.to_string(), body.to_string());
    tauri::async_runtime::spawn_blocking(move || {
        if let Err(error) = notifier::notify(&app, &app.state::<Arc<Companion>>(), &title, &body) {
            tracing::warn!(%error, "could not tell the user about a channel");
        }
    });
}

fn quiet_for_an_hour(app: &AppHandle) {
    use tauri::Manager;
    let Some(companion) = app.try_state::<std::sync::Arc<sidecar::Companion>>().map(|c| c.inner().clone()) else {
        return;
    };
    tauri::async_runtime::spawn(async move {
        if let Err(error) = companion.proactive().set_quiet(Some(QUIET_FOR_MINUTES), None).await {
            tracing::warn!(%error, "could not set quiet from the tray");
        }
    });
}

pub(crate) fn send_test_notification(app: &AppHandle) {
    let companion = app.state::<Arc<Companion>>();
    let text = labels(companion.lang());
    if let Err(error) = notifier::notify(app, &companion, text.test_summary, text.test_body) {
        tracing::warn!(%error, "test notification failed");
    }
}

fn quit(app: &AppHandle) {
    use tauri_plugin_window_state::{AppHandleExt, StateFlags};
    let _ = app.save_window_state(StateFlags::all());
    app.exit(0);
}

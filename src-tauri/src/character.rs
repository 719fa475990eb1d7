//! The character on the desktop: a small frameless window, transparent where the desktop
//! composites, that shows Sidecar's state. Its page (`character.html`) renders the core's
//! events; this module makes the window, puts it where the core says, grows it for a
//! speech bubble or its menu, and follows the user's drags.

use std::sync::{Arc, Mutex};

use sidecar::Companion;
use sidecar_desktop_features::Grown;
use sidecar_desktop_features::Screen;
use sidecar_desktop_features::Size;
use sidecar_desktop_features::Spot;
use sidecar_desktop_features::WindowFacts;
use tauri::{AppHandle, Manager, PhysicalPosition, PhysicalSize, WebviewUrl, WebviewWindow, WebviewWindowBuilder};

use crate::error::ShellError;

pub(crate) const CHARACTER: &str = "character";
/// Tells every window the preferences changed (the character's switch from its menu or
/// shortcut: Settings shows it at once).
pub(crate) const PREFERENCES_CHANGED: &str = "sidecar://preferences-changed";
/// The window's title: never shown (no decorations, no taskbar), but window lists and
/// tests tell it from the chat window by it.
const TITLE: &str = "Sidecar character";
/// The window with the character alone, logical pixels.
pub(crate) const REST: (f64, f64) = (112.0, 112.0);

/// What the shell knows of the character's window.
#[derive(Default)]
pub(crate) struct CharacterWindow {
    /// Where the character stands (the window's corner when it is not grown).
    rest: Mutex<Option<Spot>>,
    /// The window was made transparent (the desktop composites).
    transparent: Mutex<Option<bool>>,
}

impl CharacterWindow {
    /// Whether the character's window is see-through; `None` until it was first made.
    pub(crate) fn transparent(&self) -> Option<bool> {
        *self.transparent.lock().expect("character lock")
    }

    pub(crate) fn facts(&self) -> WindowFacts {
        WindowFacts { transparent: self.transparent().unwrap_or(false), rest: REST }
    }
}

fn companion(app: &AppHandle) -> Arc<Companion> {
    app.state::<Arc<Companion>>().inner().clone()
}

/// Shows the character where the core says (creating its window), or hides it (closing
/// the window, so a hidden character costs nothing).
pub(crate) async fn apply(app: &AppHandle, shown: bool) -> Result<(), ShellError> {
    let existing = app.get_webview_window(CHARACTER);
    match (shown, existing) {
        (true, Some(window)) => Ok(window.show()?),
        (true, None) => create(app).await,
        (false, Some(window)) => Ok(window.destroy()?),
        (false, None) => Ok(()),
    }
}

/// The character's shortcut: shows a hidden character, hides a shown one, and keeps
/// that as the preference (Settings shows the same switch).
pub(crate) fn toggle(app: &AppHandle) {
    let app = app.clone();
    tauri::async_runtime::spawn(async move {
        let core = companion(&app);
        let shown = !core.preferences().character();
        match core.preferences().set_character(shown) {
            Ok(view) => tell_preferences(&app, &view),
            Err(error) => tracing::warn!(%error, "could not keep the character's switch"),
        }
        if let Err(error) = apply(&app, shown).await {
            tracing::warn!(%error, "could not show or hide the character");
        }
    });
}

pub(crate) fn tell_preferences(app: &AppHandle, view: &sidecar_settings::PreferencesView) {
    use tauri::Emitter;
    let _ = app.emit(PREFERENCES_CHANGED, view);
}

async fn create(app: &AppHandle) -> Result<(), ShellError> {
    let screens = screens(app);
    let scale = app.primary_monitor().ok().flatten().map(|m| m.scale_factor()).unwrap_or(1.0);
    let size = rest_size(scale);
    let spot = companion(app).character_places().spot(&screens, size).await?.unwrap_or(Spot { x: 0, y: 0 });
    *app.state::<CharacterWindow>().rest.lock().expect("character lock") = Some(spot);
    let main = app.get_webview_window(crate::window::MAIN).ok_or(ShellError::MainWindowGone)?;
    let handle = app.clone();
    // Built on the main thread beside the chat's webview, sharing its web process rather
    // than starting a second one for 112 pixels.
    Ok(main.with_webview(move |platform| {
        if let Err(error) = build(&handle, platform, spot) {
            tracing::warn!(%error, "could not open the character's window");
        }
    })?)
}

fn build(app: &AppHandle, platform: tauri::webview::PlatformWebview, spot: Spot) -> tauri::Result<()> {
    let transparent = composited();
    *app.state::<CharacterWindow>().transparent.lock().expect("character lock") = Some(transparent);
    let builder = WebviewWindowBuilder::new(app, CHARACTER, WebviewUrl::App("character.html".into()))
        .title(TITLE)
        .decorations(false)
        .transparent(transparent)
        .always_on_top(true)
        .skip_taskbar(true)
        .shadow(false)
        .focused(false)
        .visible_on_all_workspaces(true)
        .inner_size(REST.0, REST.1)
        .visible(false);
    #[cfg(target_os = "linux")]
    let builder = builder.with_related_view(platform.inner());
    #[cfg(not(target_os = "linux"))]
    let _ = platform;
    let window = builder.build()?;
    window.set_position(PhysicalPosition::new(spot.x, spot.y))?;
    crate::window::render_webview_in_software(&window);
    // See-through, what changes stays inside the drawing (see ui/src/features/character/Art.tsx).
    if !transparent {
        round_corners(&window, REST.0, REST.1);
    }
    window.show()?;
    Ok(())
}

/// Corner radius of the card the character sits on without a compositor, logical pixels.
const CARD_RADIUS: f64 = 16.0;

/// Without a compositor the window cannot be see-through, but X11 can still cut its
/// corners: the card the character sits on is a small rounded window.
fn round_corners(window: &WebviewWindow, width: f64, height: f64) {
    #[cfg(target_os = "linux")]
    {
        let target = window.clone();
        let _ = window.run_on_main_thread(move || {
            use gtk::prelude::WidgetExt;
            let Ok(gtk_window) = target.gtk_window() else { return };
            let (w, h, r) = (width.round() as i32, height.round() as i32, CARD_RADIUS);
            // One row per pixel of the rounded part, the straight middle in one piece.
            let mut rows = Vec::new();
            for y in 0..r as i32 {
                let dy = r - y as f64 - 0.5;
                let inset = (r - (r * r - dy * dy).max(0.0).sqrt()).round() as i32;
                rows.push(gtk::cairo::RectangleInt::new(inset, y, w - 2 * inset, 1));
                rows.push(gtk::cairo::RectangleInt::new(inset, h - 1 - y, w - 2 * inset, 1));
            }
            rows.push(gtk::cairo::RectangleInt::new(0, r as i32, w, h - 2 * r as i32));
            gtk_window.shape_combine_region(Some(&gtk::cairo::Region::create_rectangles(&rows)));
        });
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (window, width, height);
}

/// Whether the desktop composites windows (transparency works).
fn composited() -> bool {
    #[cfg(target_os = "linux")]
    {
        gtk::gdk::Screen::default().is_some_and(|screen| screen.is_composited())
    }
    #[cfg(not(target_os = "linux"))]
    true
}

fn rest_size(scale: f64) -> Size {
    Size { width: (REST.0 * scale).round() as u32, height: (REST.1 * scale).round() as u32 }
}

fn screen_of(monitor: &tauri::Monitor, index: usize) -> Screen {
    let area = monitor.work_area();
    Screen {
        name: monitor.name().cloned().unwrap_or_else(|| format!("screen-{index}")),
        x: area.position.x,
        y: area.position.y,
        width: area.size.width,
        height: area.size.height,
        scale: monitor.scale_factor(),
    }
}

/// The connected screens, the primary first.
fn screens(app: &AppHandle) -> Vec<Screen> {
    let primary = app.primary_monitor().ok().flatten();
    let mut monitors = app.available_monitors().unwrap_or_default();
    if let Some(primary) = &primary {
        monitors.sort_by_key(|m| m.name() != primary.name());
    }
    monitors.iter().enumerate().map(|(i, m)| screen_of(m, i)).collect()
}

/// The screen under a point, with its scale.
fn screen_at(window: &WebviewWindow, point: Spot) -> Option<Screen> {
    let monitor = window.monitor_from_point(point.x as f64, point.y as f64).ok().flatten().or_else(|| window.primary_monitor().ok().flatten())?;
    let index = window.available_monitors().unwrap_or_default().iter().position(|m| m.name() == monitor.name()).unwrap_or(0);
    Some(screen_of(&monitor, index))
}

fn window(app: &AppHandle) -> Result<WebviewWindow, ShellError> {
    app.get_webview_window(CHARACTER).ok_or(ShellError::CharacterHidden)
}

fn rest(app: &AppHandle) -> Result<Spot, ShellError> {
    app.state::<CharacterWindow>().rest.lock().expect("character lock").ok_or(ShellError::CharacterUnplaced)
}

/// Grows the window to `width`×`height` (logical) for a bubble or the menu, or back to
/// the character alone; the character itself does not move.
pub(crate) fn fit(app: &AppHandle, width: f64, height: f64) -> Result<Grown, ShellError> {
    let window = window(app)?;
    let rest = rest(app)?;
    let screen = screen_at(&window, rest).ok_or(ShellError::NoScreen)?;
    let scale = screen.scale;
    let rest_size = rest_size(scale);
    let wanted = Size { width: (width.max(REST.0) * scale).round() as u32, height: (height.max(REST.1) * scale).round() as u32 };
    let grown = if wanted == rest_size {
        Grown { window: rest, right: true, bottom: true }
    } else {
        sidecar_desktop_features::grow_character(&screen, rest, rest_size, wanted)
    };
    window.set_size(PhysicalSize::new(wanted.width, wanted.height))?;
    window.set_position(PhysicalPosition::new(grown.window.x, grown.window.y))?;
    if app.state::<CharacterWindow>().transparent() == Some(false) {
        round_corners(&window, wanted.width as f64 / scale, wanted.height as f64 / scale);
    }
    Ok(grown)
}

/// The character follows a drag: `dx`, `dy` logical pixels from where it stood.
pub(crate) fn drag(app: &AppHandle, dx: f64, dy: f64) -> Result<(), ShellError> {
    let window = window(app)?;
    let spot = moved(&window, rest(app)?, dx, dy);
    Ok(window.set_position(PhysicalPosition::new(spot.x, spot.y))?)
}

/// The drag ended: the core keeps the place (whole on the screen under it) for that
/// screen.
pub(crate) async fn drop(app: &AppHandle, dx: f64, dy: f64) -> Result<Spot, ShellError> {
    let window = window(app)?;
    let spot = moved(&window, rest(app)?, dx, dy);
    // The screen under the character's middle is the one it was dropped on.
    let half = (REST.0 * window.scale_factor().unwrap_or(1.0) / 2.0) as i32;
    let screen = screen_at(&window, Spot { x: spot.x + half, y: spot.y + half }).ok_or(ShellError::NoScreen)?;
    let kept = companion(app).character_places().dropped(&screen, rest_size(screen.scale), spot).await?;
    *app.state::<CharacterWindow>().rest.lock().expect("character lock") = Some(kept);
    window.set_position(PhysicalPosition::new(kept.x, kept.y))?;
    Ok(kept)
}

fn moved(window: &WebviewWindow, from: Spot, dx: f64, dy: f64) -> Spot {
    let scale = window.scale_factor().unwrap_or(1.0);
    Spot { x: from.x + (dx * scale).round() as i32, y: from.y + (dy * scale).round() as i32 }
}

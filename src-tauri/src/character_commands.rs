//! IPC commands of the character on the desktop and of its switch in Settings; each a
//! few lines calling the core or the character's window.

use serde::Serialize;
use sidecar_desktop_features::Grown;
use sidecar_desktop_features::Spot;
use sidecar_domain::Channel;
use sidecar_proactive::QuietNow;
use sidecar_settings::HotkeyRole;
use sidecar_settings::PreferencesView;
use tauri::{AppHandle, Emitter, State};

use crate::character::CharacterWindow;
use crate::commands::{blocking, CommandError, Core, SaidBy};
use crate::preference_commands::HotkeyRefusal;
use sidecar_desktop_features::WindowFacts;

/// Everything the character's page shows when it opens; events keep it current.
#[derive(Serialize)]
pub(crate) struct CharacterStart {
    pub window: WindowFacts,
    pub quiet: QuietNow,
    /// Phone channels down long enough to have been announced.
    pub down: Vec<Channel>,
    /// A tool waits for the user's Allow.
    pub asking: bool,
}

/// Tells the main window to open Settings on a section.
pub(crate) const OPEN_SETTINGS: &str = "sidecar://open-settings";

#[tauri::command]
pub(crate) async fn character_start(core: Core<'_>, window: State<'_, CharacterWindow>) -> Result<CharacterStart, CommandError> {
    Ok(CharacterStart {
        window: window.facts(),
        quiet: core.proactive().quiet_now().await.said(&core)?,
        down: core.channels().down_now(),
        asking: !core.window_questions().waiting().is_empty(),
    })
}

/// Whether the character is see-through (Settings says when it cannot be); `None`
/// until it was first shown.
#[tauri::command]
pub(crate) fn character_transparent(window: State<'_, CharacterWindow>) -> Option<bool> {
    window.transparent()
}

#[tauri::command]
pub(crate) async fn set_character(app: AppHandle, core: Core<'_>, on: bool) -> Result<PreferencesView, CommandError> {
    let view = blocking(&core, move |c| c.preferences().set_character(on)).await.said(&core)?;
    crate::character::tell_preferences(&app, &view);
    crate::character::apply(&app, on).await?;
    Ok(view)
}

#[tauri::command]
pub(crate) async fn set_character_hotkey(app: AppHandle, core: Core<'_>, hotkey: String) -> Result<PreferencesView, HotkeyRefusal> {
    let hotkey = core.preferences().read_hotkey(&hotkey, HotkeyRole::Character).map_err(HotkeyRefusal::Hotkey)?;
    crate::hotkey::switch(&app, &hotkey, HotkeyRole::Character).map_err(HotkeyRefusal::Hotkey)?;
    blocking(&core, move |c| c.preferences().save_character_hotkey(&hotkey)).await.said(&core).map_err(HotkeyRefusal::Other)
}

#[tauri::command]
pub(crate) fn character_fit(app: AppHandle, width: f64, height: f64) -> Result<Grown, CommandError> {
    Ok(crate::character::fit(&app, width, height)?)
}

#[tauri::command]
pub(crate) fn character_drag(app: AppHandle, dx: f64, dy: f64) -> Result<(), CommandError> {
    Ok(crate::character::drag(&app, dx, dy)?)
}

#[tauri::command]
pub(crate) async fn character_drop(app: AppHandle, dx: f64, dy: f64) -> Result<Spot, CommandError> {
    Ok(crate::character::drop(&app, dx, dy).await?)
}

/// A click on the character: the chat, on the message its bubble shows, if any.
#[tauri::command]
pub(crate) fn character_open(app: AppHandle, message_id: Option<i64>) {
    crate::window::show_message(&app, message_id);
}

#[tauri::command]
pub(crate) async fn character_settings(app: AppHandle) {
    crate::window::show_main(&app);
    let _ = app.emit(OPEN_SETTINGS, "desktop");
}

#[tauri::command]
pub(crate) async fn quiet_for_an_hour(core: Core<'_>) -> Result<QuietNow, CommandError> {
    core.proactive().set_quiet(Some(sidecar_proactive::QUIET_FOR_MINUTES), None).await.said(&core)?;
    core.proactive().quiet_now().await.said(&core)
}

#[tauri::command]
pub(crate) async fn quiet_now(core: Core<'_>) -> Result<QuietNow, CommandError> {
    core.proactive().quiet_now().await.said(&core)
}

/// The user types in the chat (the character listens).
#[tauri::command]
pub(crate) fn user_typing(core: Core<'_>) {
    core.user_typing();
}

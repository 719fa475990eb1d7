//! IPC commands for push-to-talk, spoken replies and Settings → Voice: each a few lines
//! calling the core, which says what went wrong in the user's language.

use sidecar::{Heard, VoiceView};
use sidecar_settings::HotkeyRole;
use sidecar_settings::PreferencesView;
use sidecar_settings::SpeakReplies;
use sidecar_settings::VoiceSwitch;
use tauri::AppHandle;

use crate::commands::{blocking, CommandError, Core, SaidBy};
use crate::preference_commands::HotkeyRefusal;

/// Opens the microphone (and silences a reply being said); the level and the states
/// arrive as core events.
#[tauri::command]
pub(crate) fn voice_start(core: Core<'_>) -> Result<(), CommandError> {
    core.start_talking().map_err(CommandError::from)
}

/// Stops listening; the words said, and whether to read them over before sending.
#[tauri::command]
pub(crate) async fn voice_finish(core: Core<'_>) -> Result<Heard, CommandError> {
    core.finish_talking().await.map_err(CommandError::from)
}

#[tauri::command]
pub(crate) fn voice_cancel(core: Core<'_>) {
    core.talk().cancel();
}

/// Stops saying the reply aloud.
#[tauri::command]
pub(crate) fn voice_hush(core: Core<'_>) {
    core.talk().narrator().stop();
}

#[tauri::command]
pub(crate) fn voice_view(core: Core<'_>) -> VoiceView {
    core.voice_view()
}

#[tauri::command]
pub(crate) fn set_speak_replies(core: Core<'_>, which: SpeakReplies) -> Result<VoiceView, CommandError> {
    core.set_speak_replies(which).said(&core)
}

#[tauri::command]
pub(crate) fn set_voice_switch(core: Core<'_>, which: VoiceSwitch, on: bool) -> Result<VoiceView, CommandError> {
    core.set_voice_switch(which, on).said(&core)
}

#[tauri::command]
pub(crate) fn set_input_device(core: Core<'_>, name: Option<String>) -> Result<VoiceView, CommandError> {
    core.set_input_device(name).said(&core)
}

#[tauri::command]
pub(crate) fn set_output_device(core: Core<'_>, name: Option<String>) -> Result<VoiceView, CommandError> {
    core.set_output_device(name).said(&core)
}

#[tauri::command]
pub(crate) fn set_voicing(core: Core<'_>, spanish: String, english: String, speed: f32) -> Result<VoiceView, CommandError> {
    core.set_voicing(spanish, english, speed).said(&core)
}

/// Whether every reply of the current conversation is said aloud.
#[tauri::command]
pub(crate) async fn speaks_here(core: Core<'_>) -> Result<bool, CommandError> {
    core.speaks_here().await.said(&core)
}

#[tauri::command]
pub(crate) async fn set_speaks_here(core: Core<'_>, on: bool) -> Result<bool, CommandError> {
    core.set_speaks_here(on).await.said(&core)
}

/// Settings → Voice: listens for three seconds; what was heard.
#[tauri::command]
pub(crate) async fn voice_test_microphone(core: Core<'_>) -> Result<String, CommandError> {
    core.test_microphone().await.map_err(CommandError::from)
}

/// Settings → Voice: a sentence said aloud.
#[tauri::command]
pub(crate) fn voice_test_speaking(core: Core<'_>) {
    core.test_speaking();
}

/// Push-to-talk's shortcut: refused when taken or another of Sidecar's.
#[tauri::command]
pub(crate) async fn set_talk_hotkey(app: AppHandle, core: Core<'_>, hotkey: String) -> Result<PreferencesView, HotkeyRefusal> {
    let hotkey = core.preferences().read_hotkey(&hotkey, HotkeyRole::Talk).map_err(HotkeyRefusal::Hotkey)?;
    crate::hotkey::switch(&app, &hotkey, HotkeyRole::Talk).map_err(HotkeyRefusal::Hotkey)?;
    blocking(&core, move |c| c.preferences().save_talk_hotkey(&hotkey)).await.said(&core).map_err(HotkeyRefusal::Other)
}

//! IPC commands for push-to-talk: each a few lines calling the core, which says what went
//! wrong in the user's language.

use crate::commands::{CommandError, Core};

fn refused(message: String) -> CommandError {
    CommandError { message, retryable: false, cancelled: false }
}

/// Opens the microphone; the level and the states arrive as core events.
#[tauri::command]
pub fn voice_start(core: Core<'_>) -> Result<(), CommandError> {
    core.talk().start(None, core.preferences().lang()).map_err(refused)
}

/// Stops listening; the words said.
#[tauri::command]
pub async fn voice_finish(core: Core<'_>) -> Result<String, CommandError> {
    core.talk().finish(core.preferences().lang()).await.map_err(refused)
}

#[tauri::command]
pub fn voice_cancel(core: Core<'_>) {
    core.talk().cancel();
}

//! IPC commands for a message's actions (regenerate, versions, edit): each a few lines
//! calling the core.

use sidecar::conversation::TurnOutcome;
use sidecar::store::ReplyVersions;

use crate::commands::{CommandError, Core, SaidBy};

#[tauri::command]
pub async fn regenerate_reply(core: Core<'_>) -> Result<TurnOutcome, CommandError> {
    core.conversation().regenerate().await.said(&core)
}

#[tauri::command]
pub async fn reply_versions(core: Core<'_>) -> Result<Option<ReplyVersions>, CommandError> {
    core.conversation().reply_versions().await.said(&core)
}

#[tauri::command]
pub async fn show_reply_version(core: Core<'_>, number: u32) -> Result<ReplyVersions, CommandError> {
    core.conversation().show_version(number).await.said(&core)
}

#[tauri::command]
pub async fn edit_message(core: Core<'_>, id: i64, text: String) -> Result<TurnOutcome, CommandError> {
    core.conversation().edit(id, text).await.said(&core)
}

//! IPC commands for the conversation list: each a few lines calling the core.

use sidecar::chats::ChatListView;

use crate::commands::{CommandError, Core, SaidBy};

#[tauri::command]
pub async fn list_chats(core: Core<'_>, query: Option<String>) -> Result<ChatListView, CommandError> {
    core.chats().view(query.as_deref()).await.said(&core)
}

#[tauri::command]
pub async fn open_chat(core: Core<'_>, id: i64) -> Result<(), CommandError> {
    core.chats().open(id).await.said(&core)
}

/// Opens the conversation of a message (a memory search hit); returns its id.
#[tauri::command]
pub async fn open_chat_at(core: Core<'_>, message_id: i64) -> Result<i64, CommandError> {
    core.chats().open_at(message_id).await.said(&core)
}

#[tauri::command]
pub async fn rename_chat(core: Core<'_>, id: i64, title: String) -> Result<(), CommandError> {
    core.chats().rename(id, &title).await.said(&core)
}

#[tauri::command]
pub async fn pin_chat(core: Core<'_>, id: i64, pinned: bool) -> Result<(), CommandError> {
    core.chats().pin(id, pinned).await.said(&core)
}

#[tauri::command]
pub async fn delete_chat(core: Core<'_>, id: i64) -> Result<(), CommandError> {
    core.chats().delete(id).await.said(&core)
}

#[tauri::command]
pub async fn undelete_chat(core: Core<'_>, id: i64) -> Result<bool, CommandError> {
    core.chats().undelete(id).await.said(&core)
}

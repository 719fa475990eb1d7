//! The window's chats commands (`commands` says how the table serves them).

use crate::commands::{commands, CommandError, SaidBy};
use sidecar_agent::ChatListView;

commands! {
    async fn list_chats(core, query: Option<String>) -> Result<ChatListView, CommandError> {
        core.chats().view(query.as_deref()).await.said(&core)
    }

    /// Whether the conversation on screen is an incognito chat (the window says so).
    async fn chat_is_incognito(core) -> Result<bool, CommandError> {
        core.chats().current_is_incognito().await.said(&core)
    }

    async fn open_chat(core, id: i64) -> Result<(), CommandError> {
        core.chats().open(id).await.said(&core)
    }

    /// Opens the conversation of a message (a memory search hit); returns its id.
    async fn open_chat_at(core, message_id: i64) -> Result<i64, CommandError> {
        core.chats().open_at(message_id).await.said(&core)
    }

    async fn rename_chat(core, id: i64, title: String) -> Result<(), CommandError> {
        core.chats().rename(id, &title).await.said(&core)
    }

    async fn pin_chat(core, id: i64, pinned: bool) -> Result<(), CommandError> {
        core.chats().pin(id, pinned).await.said(&core)
    }

    async fn delete_chat(core, id: i64) -> Result<(), CommandError> {
        core.chats().delete(id).await.said(&core)
    }

    async fn undelete_chat(core, id: i64) -> Result<bool, CommandError> {
        core.chats().undelete(id).await.said(&core)
    }
}

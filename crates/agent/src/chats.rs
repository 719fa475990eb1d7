//! `Chats`: past conversations as a service: list and search them, open one (its
//! replies continue there), rename, delete with a window for undo, and find the
//! conversation of a message a memory search turned up.

use std::sync::Arc;

use crate::conversation::ConversationService;
use crate::error::TurnError;
use sidecar_domain::Clock;
use sidecar_store::ChatSummary;
use sidecar_store::Store;

/// How long a deleted conversation can be brought back.
pub const UNDO_SECONDS: i64 = 30;
/// Longest title kept.
const TITLE_MAX: usize = 120;
const LIST_LIMIT: u32 = 500;
/// How much of a matching message the list shows under a conversation's title.
const MATCH_CHARS: usize = 90;

/// The list as the sidebar shows it.
#[derive(Debug, Clone, PartialEq, serde::Serialize, ts_rs::TS)]
pub struct ChatListView {
    pub current: i64,
    /// The current conversation is an incognito chat (not in `chats`).
    pub incognito: bool,
    pub chats: Vec<ChatSummary>,
    /// How long Undo is offered after a delete.
    pub undo_seconds: i64,
}

pub struct Chats {
    store: Store,
    conversation: Arc<ConversationService>,
    clock: Clock,
}

impl Chats {
    pub fn new(store: Store, conversation: Arc<ConversationService>, clock: Clock) -> Self {
        Self { store, conversation, clock }
    }

    /// The conversations, newest activity first, matching `query` if given; the
    /// current one is listed even while empty. Deletions past their undo window are
    /// carried out first.
    pub async fn list(&self, query: Option<&str>) -> Result<(i64, Vec<ChatSummary>), TurnError> {
        let before = sidecar_store::utc(self.clock.now() - chrono::Duration::seconds(UNDO_SECONDS));
        let purged = self.store.chat_list().purge_deleted(&before).await?;
        if purged > 0 {
            tracing::info!(purged, "deleted conversations removed for good");
        }
        let current = self.store.conversations().current_conversation().await?;
        let query = query.map(str::trim).filter(|q| !q.is_empty());
        let mut chats = self.store.chat_list().list(query, current, LIST_LIMIT).await?;
        if let Some(query) = query {
            let marks = sidecar_memory::marks(query);
            for chat in &mut chats {
                chat.matched = chat.matched.take().map(|text| sidecar_memory::excerpt_within(&text, &marks, MATCH_CHARS));
            }
        }
        Ok((current, chats))
    }

    /// [`Chats::list`] with the current conversation and the undo window named.
    pub async fn view(&self, query: Option<&str>) -> Result<ChatListView, TurnError> {
        let (current, chats) = self.list(query).await?;
        let incognito = self.store.conversations().is_incognito(current).await?;
        Ok(ChatListView { current, incognito, chats, undo_seconds: UNDO_SECONDS })
    }

    /// Whether the current conversation is an incognito chat.
    pub async fn current_is_incognito(&self) -> Result<bool, TurnError> {
        let current = self.store.conversations().current_conversation().await?;
        Ok(self.store.conversations().is_incognito(current).await?)
    }

    /// Opens conversation `id`: it becomes the current one, where replies go.
    pub async fn open(&self, id: i64) -> Result<(), TurnError> {
        if self.conversation.is_busy() {
            return Err(TurnError::Busy);
        }
        if !self.store.chat_list().touch(id).await? {
            return Err(TurnError::NoChatToOpen(id));
        }
        crate::context::service::shown(&self.store, id).await
    }

    pub async fn rename(&self, id: i64, title: &str) -> Result<(), TurnError> {
        let title: String = title.split_whitespace().collect::<Vec<_>>().join(" ").chars().take(TITLE_MAX).collect();
        let title = (!title.is_empty()).then_some(title);
        if !self.store.chat_list().rename(id, title.as_deref()).await? {
            return Err(TurnError::NoChat(id));
        }
        Ok(())
    }

    /// Keeps conversation `id` at the top of the list (or lets it go back in order).
    pub async fn pin(&self, id: i64, pinned: bool) -> Result<(), TurnError> {
        if !self.store.chat_list().pin(id, pinned).await? {
            return Err(TurnError::NoChat(id));
        }
        Ok(())
    }

    /// Deletes conversation `id`; `undelete` brings it back within [`UNDO_SECONDS`].
    pub async fn delete(&self, id: i64) -> Result<(), TurnError> {
        if self.conversation.is_busy() && self.store.conversations().current_conversation().await? == id {
            return Err(TurnError::Busy);
        }
        self.store.chat_list().delete(id).await?;
        Ok(())
    }

    pub async fn undelete(&self, id: i64) -> Result<bool, TurnError> {
        Ok(self.store.chat_list().undelete(id).await?)
    }

    /// The conversation message `message_id` is in, opened (for a memory search hit).
    pub async fn open_at(&self, message_id: i64) -> Result<i64, TurnError> {
        let id = self.store.chat_list().conversation_of(message_id).await?.ok_or_else(|| TurnError::NotInAConversation(message_id))?;
        self.open(id).await?;
        Ok(id)
    }
}

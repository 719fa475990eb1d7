//! Everything said, for an export: conversations not deleted (imported archives
//! included) and the messages shown in them.

use serde::Serialize;

use super::{Store, StoreError};

#[derive(Debug, Clone, PartialEq, Serialize, sqlx::FromRow)]
pub struct ExportedConversation {
    pub id: i64,
    pub title: Option<String>,
    pub created_at: String,
    #[sqlx(skip)]
    pub messages: Vec<ExportedMessage>,
}

#[derive(Debug, Clone, PartialEq, Serialize, sqlx::FromRow)]
pub struct ExportedMessage {
    pub id: i64,
    pub role: String,
    pub content: String,
    pub created_at: String,
}

/// A handle on the store: `store.export_rows()`.
pub struct ExportRows<'a> {
    pub(super) store: &'a Store,
}

impl ExportRows<'_> {
    /// Every conversation with its messages, oldest first.
    pub async fn conversations(&self) -> Result<Vec<ExportedConversation>, StoreError> {
        let mut conversations: Vec<ExportedConversation> =
            sqlx::query_as("SELECT id, title, created_at FROM conversations WHERE deleted_at IS NULL AND incognito = 0 ORDER BY id")
                .fetch_all(&self.store.pool)
                .await?;
        for conversation in &mut conversations {
            conversation.messages = self.messages(conversation.id).await?;
        }
        conversations.retain(|c| !c.messages.is_empty());
        Ok(conversations)
    }

    /// One conversation with its messages; `None` when it is deleted or unknown.
    pub async fn conversation(&self, id: i64) -> Result<Option<ExportedConversation>, StoreError> {
        let found: Option<ExportedConversation> =
            sqlx::query_as("SELECT id, title, created_at FROM conversations WHERE id = ? AND deleted_at IS NULL AND incognito = 0")
                .bind(id)
                .fetch_optional(&self.store.pool)
                .await?;
        let Some(mut conversation) = found else { return Ok(None) };
        conversation.messages = self.messages(id).await?;
        Ok(Some(conversation))
    }

    /// What was said and shown in a conversation, in order.
    async fn messages(&self, conversation_id: i64) -> Result<Vec<ExportedMessage>, StoreError> {
        Ok(sqlx::query_as(
            "SELECT id, role, content, created_at FROM messages
             WHERE conversation_id = ? AND set_aside = 0 AND role IN ('user', 'assistant') AND length(content) > 0 ORDER BY id",
        )
        .bind(conversation_id)
        .fetch_all(&self.store.pool)
        .await?)
    }
}

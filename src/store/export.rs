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
            sqlx::query_as("SELECT id, title, created_at FROM conversations WHERE deleted_at IS NULL ORDER BY id").fetch_all(&self.store.pool).await?;
        for conversation in &mut conversations {
            conversation.messages = sqlx::query_as(
                "SELECT id, role, content, created_at FROM messages
                 WHERE conversation_id = ? AND set_aside = 0 AND role IN ('user', 'assistant') AND length(content) > 0 ORDER BY id",
            )
            .bind(conversation.id)
            .fetch_all(&self.store.pool)
            .await?;
        }
        conversations.retain(|c| !c.messages.is_empty());
        Ok(conversations)
    }
}

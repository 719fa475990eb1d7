//! Conversations, messages and per-call usage rows.

use serde::{Deserialize, Serialize};

use super::{now, Store, StoreError};
use crate::llm::Usage;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, sqlx::Type)]
#[sqlx(type_name = "TEXT", rename_all = "lowercase")]
#[serde(rename_all = "lowercase")]
pub enum Role {
    System,
    User,
    Assistant,
    Tool,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::System => "system",
            Role::User => "user",
            Role::Assistant => "assistant",
            Role::Tool => "tool",
        }
    }
}

/// How a stored message came to an end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, sqlx::Type)]
#[sqlx(type_name = "TEXT", rename_all = "lowercase")]
#[serde(rename_all = "lowercase")]
pub enum MessageStatus {
    Complete,
    /// The user pressed Stop; the text is what had arrived.
    Stopped,
    /// The stream broke; the text is what had arrived.
    Interrupted,
    Error,
}

impl MessageStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            MessageStatus::Complete => "complete",
            MessageStatus::Stopped => "stopped",
            MessageStatus::Interrupted => "interrupted",
            MessageStatus::Error => "error",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, sqlx::FromRow)]
pub struct Message {
    pub id: i64,
    pub conversation_id: i64,
    pub role: Role,
    pub content: String,
    pub status: MessageStatus,
    pub finish_reason: Option<String>,
    pub created_at: String,
}

/// A message about to be stored.
#[derive(Debug, Clone)]
pub struct NewMessage<'a> {
    pub conversation_id: i64,
    pub role: Role,
    pub content: &'a str,
    pub status: MessageStatus,
    pub finish_reason: Option<&'a str>,
}

impl Store {
    /// The most recently active conversation, created if there is none.
    pub async fn current_conversation(&self) -> Result<i64, StoreError> {
        let latest: Option<(i64,)> =
            sqlx::query_as("SELECT id FROM conversations ORDER BY updated_at DESC, id DESC LIMIT 1")
                .fetch_optional(&self.pool)
                .await?;
        match latest {
            Some((id,)) => Ok(id),
            None => self.new_conversation().await,
        }
    }

    pub async fn new_conversation(&self) -> Result<i64, StoreError> {
        let ts = now();
        let (id,): (i64,) = sqlx::query_as(
            "INSERT INTO conversations (created_at, updated_at) VALUES (?, ?) RETURNING id",
        )
        .bind(&ts)
        .bind(&ts)
        .fetch_one(&self.pool)
        .await?;
        Ok(id)
    }

    pub async fn add_message(&self, message: NewMessage<'_>) -> Result<i64, StoreError> {
        let ts = now();
        let mut tx = self.pool.begin().await?;
        let (id,): (i64,) = sqlx::query_as(
            "INSERT INTO messages (conversation_id, role, content, status, finish_reason, created_at)
             VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
        )
        .bind(message.conversation_id)
        .bind(message.role.as_str())
        .bind(message.content)
        .bind(message.status.as_str())
        .bind(message.finish_reason)
        .bind(&ts)
        .fetch_one(&mut *tx)
        .await?;
        sqlx::query("UPDATE conversations SET updated_at = ? WHERE id = ?")
            .bind(&ts)
            .bind(message.conversation_id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(id)
    }

    /// The last `limit` messages of a conversation, oldest first.
    pub async fn recent_messages(
        &self,
        conversation_id: i64,
        limit: u32,
    ) -> Result<Vec<Message>, StoreError> {
        let mut rows: Vec<Message> = sqlx::query_as(
            "SELECT id, conversation_id, role, content, status, finish_reason, created_at
             FROM messages WHERE conversation_id = ? ORDER BY id DESC LIMIT ?",
        )
        .bind(conversation_id)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.reverse();
        Ok(rows)
    }

    /// Records the tokens one model call used.
    pub async fn record_usage(
        &self,
        conversation_id: i64,
        message_id: Option<i64>,
        provider: &str,
        model: &str,
        purpose: &str,
        usage: Option<Usage>,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO usage (conversation_id, message_id, provider, model, purpose,
                                input_tokens, output_tokens, created_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        )
        .bind(conversation_id)
        .bind(message_id)
        .bind(provider)
        .bind(model)
        .bind(purpose)
        .bind(usage.map(|u| u.input_tokens))
        .bind(usage.map(|u| u.output_tokens))
        .bind(now())
        .execute(&self.pool)
        .await?;
        Ok(())
    }
}

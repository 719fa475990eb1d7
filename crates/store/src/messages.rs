//! Conversations and their messages, including tool calls and tool results.
//!
//! Over 400 lines: every query on the conversations and messages tables is here, so a
//! column changed is one file to read.

use serde::{Deserialize, Serialize};
use sqlx::types::Json;

use super::{Store, StoreError};
use sidecar_domain::Channel;
use sidecar_domain::ChatMessage;
use sidecar_domain::ToolCall;
use sidecar_domain::Usage;

pub use sidecar_domain::Role;

/// How a stored message came to an end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, sqlx::Type, ts_rs::TS)]
#[sqlx(type_name = "TEXT", rename_all = "lowercase")]
#[serde(rename_all = "lowercase")]
pub enum MessageStatus {
    Complete,
    /// The user pressed Stop; the text is what had arrived.
    Stopped,
    /// The stream broke; the text is what had arrived.
    Interrupted,
    /// Stopped at the per-turn step limit; the text says so.
    Incomplete,
    Error,
}

impl MessageStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            MessageStatus::Complete => "complete",
            MessageStatus::Stopped => "stopped",
            MessageStatus::Interrupted => "interrupted",
            MessageStatus::Incomplete => "incomplete",
            MessageStatus::Error => "error",
        }
    }
}

/// What the UI shows under a reply.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct MessageMeta {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub provider: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub model: Option<String>,
    /// The provider that should have answered, when a fallback did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub fallback_from: Option<String>,
    /// Why it did not answer, when that was no failure (its budget is spent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub fallback_reason: Option<String>,
    /// Continuations after a length cut.
    #[serde(default, skip_serializing_if = "is_zero")]
    #[ts(as = "Option<u32>", optional)]
    pub continued: u32,
    /// A claimed-but-not-done action was corrected.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    #[ts(as = "Option<bool>", optional)]
    pub corrected: bool,
    /// The turn stopped at the per-turn step limit.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    #[ts(as = "Option<bool>", optional)]
    pub iteration_cap: bool,
    /// All model calls of the turn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub usage: Option<Usage>,
    /// Their cost in US dollars; `None` when a model's price is unknown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub cost_usd: Option<f64>,
    /// The answer to a chat command (`/checkpoint`…), not the model's: never sent back
    /// to the model.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    #[ts(as = "Option<bool>", optional)]
    pub command: bool,
    /// Sidecar carried out the request itself, before the model (a reminder set, a
    /// fact kept): the model sees it as said, and may add its words after it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    #[ts(as = "Option<bool>", optional)]
    pub intent: bool,
    /// Said by Sidecar on its own: "reminder", or a spontaneous message's type
    /// (greeting, checkin, contextual).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub proactive: Option<String>,
    /// The reminder a posted reminder message is about (its Snooze and Done act on it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub reminder_id: Option<i64>,
    /// The user answered a reminder message (Done, or snoozed it from the chat).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    #[ts(as = "Option<bool>", optional)]
    pub handled: bool,
    /// Files attached to a user's message (their text is in the content, for the model).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(as = "Option<Vec<AttachedFile>>", optional)]
    pub attachments: Vec<AttachedFile>,
    /// What the user typed, when files were attached (the chat shows this and chips).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub typed: Option<String>,
    /// The turn worked on a plan: how it ended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub plan: Option<PlanOutcome>,
    /// Times the model was told to go on with open plan steps.
    #[serde(default, skip_serializing_if = "is_zero")]
    #[ts(as = "Option<u32>", optional)]
    pub plan_nudges: u32,
    /// The context's fit had to drop turns or cut messages to fit a call of this turn.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    #[ts(as = "Option<bool>", optional)]
    pub truncated: bool,
    /// The tool rules were said again late in the prompt (a long conversation).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    #[ts(as = "Option<bool>", optional)]
    pub reinforced: bool,
    /// On a user's message: the per-turn block its turn was sent with (the time, the plan…),
    /// sent with it again in later prompts so they start as the last one did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub late: Option<String>,
    /// A checkpoint Sidecar saved on its own during this turn: the chat says so under
    /// the reply, with its id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub checkpoint: Option<i64>,
    /// The scheduled task this message ran for (its prompt, or its result), in the
    /// Tasks conversation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub task: Option<i64>,
    /// A morning brief: the window offers thumbs up and down on it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    #[ts(as = "Option<bool>", optional)]
    pub brief: bool,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// How a turn that worked on a plan ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum PlanOutcome {
    /// Every step is done or failed.
    Finished,
    /// Steps were left: the plan stopped moving, the step cap, Stop or the time limit.
    Abandoned,
}

/// A file attached to a message, as its chip shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
pub struct AttachedFile {
    pub name: String,
    /// `text`, `pdf` or `docx`.
    pub kind: String,
    /// Only its start and end were sent (it was longer than the budget).
    #[serde(default)]
    pub cut: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, sqlx::FromRow, ts_rs::TS)]
pub struct Message {
    pub id: i64,
    pub conversation_id: i64,
    pub role: Role,
    pub content: String,
    pub status: MessageStatus,
    pub finish_reason: Option<String>,
    pub created_at: String,
    #[ts(as = "Option<Vec<ToolCall>>")]
    pub tool_calls: Option<Json<Vec<ToolCall>>>,
    pub tool_call_id: Option<String>,
    pub is_error: bool,
    #[ts(as = "Option<MessageMeta>")]
    pub meta: Option<Json<MessageMeta>>,
    /// Where it was said or shown; `None` for messages from before channels were kept.
    pub channel: Option<Channel>,
}

impl Message {
    /// The message as a model sees it.
    /// The message as the model was sent it: a user's message with its turn's per-turn block.
    pub fn to_chat(&self) -> ChatMessage {
        let late = self.meta.as_ref().and_then(|m| m.0.late.as_deref()).filter(|_| self.role == Role::User);
        ChatMessage {
            role: self.role,
            content: match late {
                Some(block) => format!("{}{block}", self.content),
                None => self.content.clone(),
            },
            tool_calls: self.tool_calls.as_ref().map(|c| c.0.clone()).unwrap_or_default(),
            tool_call_id: self.tool_call_id.clone(),
            is_error: self.is_error,
            images: Vec::new(),
        }
    }
}

/// A message about to be stored.
#[derive(Debug, Clone)]
pub struct NewMessage<'a> {
    pub conversation_id: i64,
    pub message: &'a ChatMessage,
    pub status: MessageStatus,
    pub finish_reason: Option<&'a str>,
    pub meta: Option<&'a MessageMeta>,
    pub channel: Option<Channel>,
    /// Posted at most once per key (a reminder's occurrence): a second post with the
    /// same key stores nothing and gets the first one's id.
    pub once_per: Option<&'a str>,
}

impl<'a> NewMessage<'a> {
    /// A complete message with no extras.
    pub fn plain(conversation_id: i64, message: &'a ChatMessage) -> Self {
        Self { conversation_id, message, status: MessageStatus::Complete, finish_reason: None, meta: None, channel: None, once_per: None }
    }

    /// Said or shown on `channel`.
    pub fn with_meta(self, meta: &'a MessageMeta) -> Self {
        Self { meta: Some(meta), ..self }
    }

    pub fn on(self, channel: Channel) -> Self {
        Self { channel: Some(channel), ..self }
    }
}

/// A message row's columns, in the order `Message` reads them.
pub const COLUMNS: &str = "id, conversation_id, role, content, status, finish_reason, created_at, tool_calls, tool_call_id, is_error, meta, channel";

/// Conversations and their messages, in the order they were said. A handle on the store: `store.conversations()`.
pub struct Conversations<'a> {
    pub(super) store: &'a Store,
}

impl Conversations<'_> {
    /// The most recently active conversation, created if there is none.
    pub async fn current_conversation(&self) -> Result<i64, StoreError> {
        let latest: Option<(i64,)> =
            // A conversation set aside (tasks) is current only once the user opened it.
            sqlx::query_as(
                "SELECT id FROM conversations WHERE archived = 0 AND deleted_at IS NULL AND (kind IS NULL OR updated_at > created_at)
                 ORDER BY updated_at DESC, id DESC LIMIT 1",
            )
                .fetch_optional(&self.store.pool)
                .await?;
        match latest {
            Some((id,)) => Ok(id),
            None => self.new_conversation().await,
        }
    }

    pub async fn new_conversation(&self) -> Result<i64, StoreError> {
        self.create(false).await
    }

    /// A conversation nothing is remembered from: its messages are not indexed, and
    /// `ChatList::forget_incognito` removes it for good once it is left.
    pub async fn new_incognito_conversation(&self) -> Result<i64, StoreError> {
        self.create(true).await
    }

    async fn create(&self, incognito: bool) -> Result<i64, StoreError> {
        let ts = self.store.now();
        let (id,): (i64,) = sqlx::query_as("INSERT INTO conversations (created_at, updated_at, incognito) VALUES (?, ?, ?) RETURNING id")
            .bind(&ts)
            .bind(&ts)
            .bind(incognito)
            .fetch_one(&self.store.pool)
            .await?;
        Ok(id)
    }

    /// Whether conversation `id` is an incognito one (false for one that is gone).
    pub async fn is_incognito(&self, id: i64) -> Result<bool, StoreError> {
        let row: Option<(bool,)> = sqlx::query_as("SELECT incognito FROM conversations WHERE id = ?").bind(id).fetch_optional(&self.store.pool).await?;
        Ok(row.is_some_and(|r| r.0))
    }

    /// The conversation of `kind` (the one scheduled tasks post in), made with `title` and
    /// pinned to the top of the list when there is none (or the user deleted it).
    /// Posting there does not make it the current chat.
    pub async fn set_aside(&self, kind: &str, title: &str) -> Result<i64, StoreError> {
        let mut tx = self.store.write_transaction().await?;
        let found: Option<(i64,)> = sqlx::query_as("SELECT id FROM conversations WHERE kind = ? AND deleted_at IS NULL ORDER BY id DESC LIMIT 1")
            .bind(kind)
            .fetch_optional(&mut *tx)
            .await?;
        let id = match found {
            Some((id,)) => id,
            None => {
                // Older than any chat, so it is never taken for the current one unopened.
                let (id,): (i64,) = sqlx::query_as(
                    "INSERT INTO conversations (created_at, updated_at, kind, title, pinned) VALUES (?, '1970-01-01T00:00:00Z', ?, ?, 1) RETURNING id",
                )
                .bind(self.store.now())
                .bind(kind)
                .bind(title)
                .fetch_one(&mut *tx)
                .await?;
                id
            }
        };
        tx.commit().await?;
        Ok(id)
    }

    /// The conversation of `kind` whose title is still one of `ours` (Sidecar's own
    /// names for it, in any language) is called `title`: it follows the language the
    /// app now speaks; a title the user gave stays.
    pub async fn retitle_set_aside(&self, kind: &str, title: &str, ours: &[&str]) -> Result<(), StoreError> {
        let mut tx = self.store.write_transaction().await?;
        for old in ours.iter().filter(|old| **old != title) {
            sqlx::query("UPDATE conversations SET title = ? WHERE kind = ? AND title = ?").bind(title).bind(kind).bind(old).execute(&mut *tx).await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// The provider pinned to a conversation, if the user picked one.
    pub async fn conversation_provider(&self, conversation_id: i64) -> Result<Option<String>, StoreError> {
        let row: Option<(Option<String>,)> =
            sqlx::query_as("SELECT provider_id FROM conversations WHERE id = ?").bind(conversation_id).fetch_optional(&self.store.pool).await?;
        Ok(row.and_then(|r| r.0))
    }

    pub async fn set_conversation_provider(&self, conversation_id: i64, provider_id: Option<&str>) -> Result<(), StoreError> {
        sqlx::query("UPDATE conversations SET provider_id = ? WHERE id = ?").bind(provider_id).bind(conversation_id).execute(&self.store.pool).await?;
        Ok(())
    }

    /// Whether a conversation's replies are said aloud: its own choice, if the user made one.
    pub async fn conversation_speaks(&self, conversation_id: i64) -> Result<Option<bool>, StoreError> {
        let row: Option<(Option<bool>,)> =
            sqlx::query_as("SELECT speaks FROM conversations WHERE id = ?").bind(conversation_id).fetch_optional(&self.store.pool).await?;
        Ok(row.and_then(|r| r.0))
    }

    /// Sets a conversation's own choice; `None` follows Settings → Voice again.
    pub async fn set_conversation_speaks(&self, conversation_id: i64, speaks: Option<bool>) -> Result<(), StoreError> {
        sqlx::query("UPDATE conversations SET speaks = ? WHERE id = ?").bind(speaks).bind(conversation_id).execute(&self.store.pool).await?;
        Ok(())
    }

    pub async fn add_message(&self, new: NewMessage<'_>) -> Result<i64, StoreError> {
        let ts = self.store.now();
        let message = new.message;
        let tool_calls = (!message.tool_calls.is_empty()).then_some(Json(&message.tool_calls));
        let mut tx = self.store.write_transaction().await?;
        if let Some(key) = new.once_per {
            let posted: Option<(i64,)> = sqlx::query_as("SELECT id FROM messages WHERE occurrence_key = ?").bind(key).fetch_optional(&mut *tx).await?;
            if let Some((id,)) = posted {
                return Ok(id);
            }
        }
        let (id,): (i64,) = sqlx::query_as(
            "INSERT INTO messages (conversation_id, role, content, status, finish_reason, created_at,
                                   tool_calls, tool_call_id, is_error, meta, channel, occurrence_key)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
        )
        .bind(new.conversation_id)
        .bind(message.role.as_str())
        .bind(&message.content)
        .bind(new.status.as_str())
        .bind(new.finish_reason)
        .bind(&ts)
        .bind(tool_calls)
        .bind(message.tool_call_id.as_deref())
        .bind(message.is_error)
        .bind(new.meta.map(Json))
        .bind(new.channel)
        .bind(new.once_per)
        .fetch_one(&mut *tx)
        .await?;
        // A conversation set aside (the one tasks post in) does not become the current
        // chat because something was posted there; opening it does.
        sqlx::query("UPDATE conversations SET updated_at = ? WHERE id = ? AND kind IS NULL").bind(&ts).bind(new.conversation_id).execute(&mut *tx).await?;
        tx.commit().await?;
        Ok(id)
    }

    /// What Sidecar said on its own (reminders, spontaneous messages) after message
    /// `after`, in any conversation, oldest first.
    pub async fn proactive_messages_after(&self, after: i64) -> Result<Vec<Message>, StoreError> {
        Ok(sqlx::query_as(columns_sql!(
            "SELECT {COLUMNS} FROM messages
             WHERE id > ? AND role = 'assistant' AND json_extract(meta, '$.proactive') IS NOT NULL ORDER BY id"
        ))
        .bind(after)
        .fetch_all(&self.store.pool)
        .await?)
    }

    /// One message still in its conversation (not set aside).
    pub async fn message(&self, id: i64) -> Result<Option<Message>, StoreError> {
        Ok(sqlx::query_as(columns_sql!("SELECT {COLUMNS} FROM messages WHERE id = ? AND set_aside = 0")).bind(id).fetch_optional(&self.store.pool).await?)
    }

    /// Keeps the per-turn block a user's message was sent with, to send it the same way again.
    pub async fn keep_late(&self, id: i64, block: &str) -> Result<(), StoreError> {
        sqlx::query("UPDATE messages SET meta = json_set(CASE WHEN json_valid(meta) THEN meta ELSE '{}' END, '$.late', ?) WHERE id = ? AND role = 'user'")
            .bind(block)
            .bind(id)
            .execute(&self.store.pool)
            .await?;
        Ok(())
    }

    /// Marks a reminder message as answered by the user; false when `id` is no
    /// reminder message.
    /// Marks a task's reply as the task's (and as a brief), once the turn stored it.
    pub async fn mark_task_reply(&self, message_id: i64, task_id: i64, brief: bool) -> Result<(), StoreError> {
        sqlx::query("UPDATE messages SET meta = json_set(COALESCE(meta, '{}'), '$.task', ?, '$.brief', json(?)) WHERE id = ?")
            .bind(task_id)
            .bind(if brief { "true" } else { "false" })
            .bind(message_id)
            .execute(&self.store.pool)
            .await?;
        Ok(())
    }

    /// Marks the questions a task asked (run a missed time now?) as answered, so the
    /// chat stops offering their buttons.
    pub async fn mark_task_questions_handled(&self, task_id: i64) -> Result<u64, StoreError> {
        let done = sqlx::query(
            "UPDATE messages SET meta = json_set(meta, '$.handled', json('true'))
             WHERE role = 'assistant' AND status = 'complete' AND json_extract(meta, '$.task') = ? AND json_extract(meta, '$.command') = 1",
        )
        .bind(task_id)
        .execute(&self.store.pool)
        .await?;
        Ok(done.rows_affected())
    }

    pub async fn mark_handled(&self, id: i64) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE messages SET meta = json_set(meta, '$.handled', json('true')) WHERE id = ? AND json_extract(meta, '$.reminder_id') IS NOT NULL",
        )
        .bind(id)
        .execute(&self.store.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// The newest message's id (0 when there is none).
    pub async fn latest_message_id(&self) -> Result<i64, StoreError> {
        let (id,): (i64,) = sqlx::query_as("SELECT COALESCE(MAX(id), 0) FROM messages").fetch_one(&self.store.pool).await?;
        Ok(id)
    }

    /// The last `limit` messages of a conversation, oldest first (not those set aside by
    /// a regeneration or an edit).
    pub async fn recent_messages(&self, conversation_id: i64, limit: u32) -> Result<Vec<Message>, StoreError> {
        let mut rows: Vec<Message> =
            sqlx::query_as(columns_sql!("SELECT {COLUMNS} FROM messages WHERE conversation_id = ? AND set_aside = 0 ORDER BY id DESC LIMIT ?"))
                .bind(conversation_id)
                .bind(limit)
                .fetch_all(&self.store.pool)
                .await?;
        rows.reverse();
        Ok(rows)
    }
}

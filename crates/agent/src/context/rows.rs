//! What the context engine keeps per conversation: the running summary, checkpoints,
//! the plan, and which checkpoint a conversation continues.

use sqlx::types::Json;

use crate::context::checkpoint::{Checkpoint, CheckpointBody, CheckpointStatus};
use crate::context::plan_item::PlanItem;
use sidecar_store::columns_sql;
use sidecar_store::Message;
use sidecar_store::Store;
use sidecar_store::StoreError;

/// The latest running summary of a conversation.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct Summary {
    pub id: i64,
    /// Messages up to this id are summarised and no longer sent verbatim.
    pub upto_message_id: i64,
    pub text: String,
}

#[derive(sqlx::FromRow)]
struct CheckpointRow {
    id: i64,
    conversation_id: i64,
    status: CheckpointStatus,
    trigger: String,
    body: Json<CheckpointBody>,
    created_at: String,
    updated_at: String,
}

impl From<CheckpointRow> for Checkpoint {
    fn from(row: CheckpointRow) -> Self {
        Checkpoint {
            id: row.id,
            conversation_id: row.conversation_id,
            status: row.status,
            trigger: row.trigger,
            body: row.body.0,
            created_at: row.created_at,
            updated_at: row.updated_at,
        }
    }
}

const CHECKPOINT_COLUMNS: &str = "id, conversation_id, status, trigger, body, created_at, updated_at";

/// What context management keeps: summaries, checkpoints, continuations and plans. A handle on the store: `store.context()`.
pub struct ContextRows<'a> {
    store: &'a Store,
}

impl ContextRows<'_> {
    pub async fn latest_summary(&self, conversation_id: i64) -> Result<Option<Summary>, StoreError> {
        Ok(sqlx::query_as("SELECT id, upto_message_id, text FROM context_summaries WHERE conversation_id = ? ORDER BY id DESC LIMIT 1")
            .bind(conversation_id)
            .fetch_optional(self.store.pool())
            .await?)
    }

    pub(crate) async fn add_summary(&self, conversation_id: i64, upto_message_id: i64, text: &str) -> Result<i64, StoreError> {
        let (id,): (i64,) =
            sqlx::query_as("INSERT INTO context_summaries (conversation_id, upto_message_id, text, created_at) VALUES (?, ?, ?, ?) RETURNING id")
                .bind(conversation_id)
                .bind(upto_message_id)
                .bind(text)
                .bind(self.store.now())
                .fetch_one(self.store.pool())
                .await?;
        Ok(id)
    }

    /// Every message of a conversation after `after_id` still in it (not set aside),
    /// oldest first.
    pub async fn messages_after(&self, conversation_id: i64, after_id: i64) -> Result<Vec<Message>, StoreError> {
        Ok(sqlx::query_as(columns_sql!(
            "SELECT {} FROM messages WHERE conversation_id = ? AND id > ? AND set_aside = 0 ORDER BY id",
            sidecar_store::MESSAGE_COLUMNS
        ))
        .bind(conversation_id)
        .bind(after_id)
        .fetch_all(self.store.pool())
        .await?)
    }

    pub(crate) async fn message_count(&self, conversation_id: i64) -> Result<i64, StoreError> {
        let (n,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM messages WHERE conversation_id = ? AND set_aside = 0")
            .bind(conversation_id)
            .fetch_one(self.store.pool())
            .await?;
        Ok(n)
    }

    pub async fn add_checkpoint(&self, conversation_id: i64, trigger: &str, body: &CheckpointBody) -> Result<Checkpoint, StoreError> {
        let ts = self.store.now();
        let row: CheckpointRow = sqlx::query_as(columns_sql!(
            "INSERT INTO checkpoints (conversation_id, status, trigger, body, created_at, updated_at)
             VALUES (?, 'in_progress', ?, ?, ?, ?) RETURNING {CHECKPOINT_COLUMNS}"
        ))
        .bind(conversation_id)
        .bind(trigger)
        .bind(Json(body))
        .bind(&ts)
        .bind(&ts)
        .fetch_one(self.store.pool())
        .await?;
        Ok(row.into())
    }

    pub async fn checkpoint(&self, id: i64) -> Result<Option<Checkpoint>, StoreError> {
        let row: Option<CheckpointRow> =
            sqlx::query_as(columns_sql!("SELECT {CHECKPOINT_COLUMNS} FROM checkpoints WHERE id = ?")).bind(id).fetch_optional(self.store.pool()).await?;
        Ok(row.map(Into::into))
    }

    /// The newest checkpoints first.
    pub(crate) async fn checkpoints(&self, limit: u32) -> Result<Vec<Checkpoint>, StoreError> {
        let rows: Vec<CheckpointRow> = sqlx::query_as(columns_sql!("SELECT {CHECKPOINT_COLUMNS} FROM checkpoints ORDER BY id DESC LIMIT ?"))
            .bind(limit)
            .fetch_all(self.store.pool())
            .await?;
        Ok(rows.into_iter().map(Into::into).collect())
    }

    /// Replaces a checkpoint's body (the user edited its observations).
    pub(crate) async fn set_checkpoint_body(&self, id: i64, body: &CheckpointBody) -> Result<(), StoreError> {
        sqlx::query("UPDATE checkpoints SET body = ?, updated_at = ? WHERE id = ?")
            .bind(Json(body))
            .bind(self.store.now())
            .bind(id)
            .execute(self.store.pool())
            .await?;
        Ok(())
    }

    /// The open checkpoint "continue from checkpoint" picks: by status first (work in
    /// progress, then paused, then already resumed elsewhere), then the newest; only
    /// those updated since `since`, when given.
    pub(crate) async fn resumable_checkpoint(&self, since: Option<&str>) -> Result<Option<Checkpoint>, StoreError> {
        let row: Option<CheckpointRow> = sqlx::query_as(columns_sql!(
            "SELECT {CHECKPOINT_COLUMNS} FROM checkpoints
             WHERE status IN ('in_progress', 'paused', 'resumed') AND updated_at >= COALESCE(?, '')
             ORDER BY CASE status WHEN 'in_progress' THEN 0 WHEN 'paused' THEN 1 ELSE 2 END, updated_at DESC, id DESC LIMIT 1"
        ))
        .bind(since)
        .fetch_optional(self.store.pool())
        .await?;
        Ok(row.map(Into::into))
    }

    /// When something was last said in `conversation_id` (RFC 3339); `None` when nothing was.
    pub(crate) async fn last_said_at(&self, conversation_id: i64) -> Result<Option<String>, StoreError> {
        Ok(sqlx::query_scalar("SELECT MAX(created_at) FROM messages WHERE conversation_id = ? AND role IN ('user', 'assistant')")
            .bind(conversation_id)
            .fetch_one(self.store.pool())
            .await?)
    }

    /// Messages said (by the user or a reply) in `conversation_id` since its newest
    /// checkpoint, or since it began.
    pub(crate) async fn messages_since_checkpoint(&self, conversation_id: i64) -> Result<i64, StoreError> {
        let (n,): (i64,) = sqlx::query_as(
            "SELECT COUNT(*) FROM messages
             WHERE conversation_id = ?1 AND role IN ('user', 'assistant') AND content != ''
               AND created_at > COALESCE((SELECT MAX(created_at) FROM checkpoints WHERE conversation_id = ?1), '')",
        )
        .bind(conversation_id)
        .fetch_one(self.store.pool())
        .await?;
        Ok(n)
    }

    pub async fn set_checkpoint_status(&self, id: i64, status: CheckpointStatus) -> Result<(), StoreError> {
        sqlx::query("UPDATE checkpoints SET status = ?, updated_at = ? WHERE id = ?")
            .bind(status.as_str())
            .bind(self.store.now())
            .bind(id)
            .execute(self.store.pool())
            .await?;
        Ok(())
    }

    /// Pauses the open checkpoints of every conversation but `except`.
    pub(crate) async fn pause_checkpoints_outside(&self, except: i64) -> Result<(), StoreError> {
        // `updated_at` stays: the work was not touched, and it is what the seven days of
        // the offer and of "continue from checkpoint" count from. (Stamping it here kept
        // every open checkpoint a day old for as long as new conversations were started.)
        sqlx::query("UPDATE checkpoints SET status = 'paused' WHERE conversation_id != ? AND status IN ('in_progress', 'resumed')")
            .bind(except)
            .execute(self.store.pool())
            .await?;
        Ok(())
    }

    /// The newest open checkpoint of another conversation updated since `since`.
    pub(crate) async fn latest_open_checkpoint(&self, since: &str, except: i64) -> Result<Option<Checkpoint>, StoreError> {
        let row: Option<CheckpointRow> = sqlx::query_as(columns_sql!(
            "SELECT {CHECKPOINT_COLUMNS} FROM checkpoints
             WHERE status IN ('in_progress', 'paused', 'resumed') AND updated_at >= ? AND conversation_id != ?
             ORDER BY updated_at DESC, id DESC LIMIT 1"
        ))
        .bind(since)
        .bind(except)
        .fetch_optional(self.store.pool())
        .await?;
        Ok(row.map(Into::into))
    }

    /// The newest open checkpoint written in `conversation_id`, else the open one it
    /// continues.
    pub(crate) async fn open_checkpoint_of(&self, conversation_id: i64) -> Result<Option<Checkpoint>, StoreError> {
        let row: Option<CheckpointRow> = sqlx::query_as(columns_sql!(
            "SELECT {CHECKPOINT_COLUMNS} FROM checkpoints
             WHERE status IN ('in_progress', 'paused', 'resumed')
               AND (conversation_id = ?1 OR id = (SELECT resumed_checkpoint_id FROM conversations WHERE id = ?1))
             ORDER BY conversation_id = ?1 DESC, id DESC LIMIT 1"
        ))
        .bind(conversation_id)
        .fetch_optional(self.store.pool())
        .await?;
        Ok(row.map(Into::into))
    }

    /// (the checkpoint this conversation continues, whether the offer was declined)
    pub(crate) async fn continuation(&self, conversation_id: i64) -> Result<(Option<i64>, bool), StoreError> {
        let row: Option<(Option<i64>, bool)> = sqlx::query_as("SELECT resumed_checkpoint_id, offer_dismissed FROM conversations WHERE id = ?")
            .bind(conversation_id)
            .fetch_optional(self.store.pool())
            .await?;
        Ok(row.unwrap_or((None, false)))
    }

    pub(crate) async fn set_continuation(&self, conversation_id: i64, checkpoint_id: Option<i64>, dismissed: bool) -> Result<(), StoreError> {
        sqlx::query("UPDATE conversations SET resumed_checkpoint_id = ?, offer_dismissed = ? WHERE id = ?")
            .bind(checkpoint_id)
            .bind(dismissed)
            .bind(conversation_id)
            .execute(self.store.pool())
            .await?;
        Ok(())
    }

    pub(crate) async fn plan(&self, conversation_id: i64) -> Result<Vec<PlanItem>, StoreError> {
        let row: Option<(Json<Vec<PlanItem>>,)> =
            sqlx::query_as("SELECT items FROM plans WHERE conversation_id = ?").bind(conversation_id).fetch_optional(self.store.pool()).await?;
        Ok(row.map(|r| r.0 .0).unwrap_or_default())
    }

    /// The model's notes for the conversation's request (empty when none).
    pub(crate) async fn scratchpad(&self, conversation_id: i64) -> Result<String, StoreError> {
        let row: Option<(String,)> =
            sqlx::query_as("SELECT scratchpad FROM plans WHERE conversation_id = ?").bind(conversation_id).fetch_optional(self.store.pool()).await?;
        Ok(row.map(|r| r.0).unwrap_or_default())
    }

    pub(crate) async fn set_scratchpad(&self, conversation_id: i64, text: &str) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO plans (conversation_id, items, updated_at, scratchpad) VALUES (?, '[]', ?, ?)
             ON CONFLICT(conversation_id) DO UPDATE SET scratchpad = excluded.scratchpad, updated_at = excluded.updated_at",
        )
        .bind(conversation_id)
        .bind(self.store.now())
        .bind(text)
        .execute(self.store.pool())
        .await?;
        Ok(())
    }

    pub async fn set_plan(&self, conversation_id: i64, items: &[PlanItem]) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO plans (conversation_id, items, updated_at) VALUES (?, ?, ?)
             ON CONFLICT(conversation_id) DO UPDATE SET items = excluded.items, updated_at = excluded.updated_at",
        )
        .bind(conversation_id)
        .bind(Json(items))
        .bind(self.store.now())
        .execute(self.store.pool())
        .await?;
        Ok(())
    }
}

/// The store's seam to these rows: `store.context()`, with this trait in scope.
pub trait ContextStore {
    fn context(&self) -> ContextRows<'_>;
}

impl ContextStore for Store {
    fn context(&self) -> ContextRows<'_> {
        ContextRows { store: self }
    }
}

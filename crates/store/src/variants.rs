//! Versions of a reply, and edited messages. What a regeneration or an edit replaced is
//! set aside: kept in the database, but neither shown nor sent to the model. A
//! regenerated reply's versions are numbered under the user message they answer
//! (1, 2, …, in the order they were written), so any of them can be shown again.
//!
//! Messages Sidecar posted on its own (a reminder, a spontaneous message) are never set
//! aside: they were not part of the reply, and happened whatever it said.

use serde::Serialize;

use super::{Store, StoreError};

/// The versions of the last reply, as the chat offers them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct ReplyVersions {
    /// The user message they answer.
    pub user_message_id: i64,
    pub count: u32,
    /// The one shown, from 1; 0 when none is (the last attempt failed before writing).
    pub current: u32,
}

/// Not a message Sidecar posted on its own.
const NOT_PROACTIVE: &str = "json_extract(COALESCE(meta, '{}'), '$.proactive') IS NULL";

/// A handle on the store: `store.variants()`.
pub struct Variants<'a> {
    pub(super) store: &'a Store,
}

impl Variants<'_> {
    /// Sets aside the reply shown after message `after` (the user message, or Sidecar's
    /// own answer to it), numbered as a version of the reply to `user_message_id`.
    /// Returns how many messages were set aside.
    pub async fn set_aside_reply(&self, conversation_id: i64, user_message_id: i64, after: i64) -> Result<u64, StoreError> {
        let mut tx = self.store.write_transaction().await?;
        let set = set_aside_shown(&mut tx, conversation_id, user_message_id, after).await?;
        forget_summaries_from(&mut tx, conversation_id, after).await?;
        tx.commit().await?;
        Ok(set)
    }

    /// Shows version `number` of the reply to `user_message_id` in place of the one
    /// shown now (which is kept as a version). False when there is no such version.
    pub async fn show(&self, conversation_id: i64, user_message_id: i64, after: i64, number: u32) -> Result<bool, StoreError> {
        let mut tx = self.store.write_transaction().await?;
        let (exists,): (bool,) = sqlx::query_as("SELECT EXISTS (SELECT 1 FROM messages WHERE conversation_id = ? AND variant_of = ? AND variant = ?)")
            .bind(conversation_id)
            .bind(user_message_id)
            .bind(number)
            .fetch_one(&mut *tx)
            .await?;
        if !exists {
            return Ok(false);
        }
        set_aside_shown(&mut tx, conversation_id, user_message_id, after).await?;
        sqlx::query("UPDATE messages SET set_aside = 0 WHERE conversation_id = ? AND variant_of = ? AND variant = ?")
            .bind(conversation_id)
            .bind(user_message_id)
            .bind(number)
            .execute(&mut *tx)
            .await?;
        forget_summaries_from(&mut tx, conversation_id, after).await?;
        tx.commit().await?;
        Ok(true)
    }

    /// The versions of the reply to `user_message_id` shown after message `after`.
    pub async fn versions(&self, conversation_id: i64, user_message_id: i64, after: i64) -> Result<ReplyVersions, StoreError> {
        let (kept,): (Option<u32>,) = sqlx::query_as("SELECT MAX(variant) FROM messages WHERE conversation_id = ? AND variant_of = ?")
            .bind(conversation_id)
            .bind(user_message_id)
            .fetch_one(&self.store.pool)
            .await?;
        let kept = kept.unwrap_or(0);
        let shown: Option<(Option<u32>,)> = sqlx::query_as(columns_sql!(
            "SELECT variant FROM messages WHERE conversation_id = ? AND id > ? AND set_aside = 0 AND {NOT_PROACTIVE} ORDER BY id LIMIT 1"
        ))
        .bind(conversation_id)
        .bind(after)
        .fetch_optional(&self.store.pool)
        .await?;
        let (count, current) = match shown {
            // A version flipped back to.
            Some((Some(number),)) => (kept, number),
            // The newest reply, not numbered until it is set aside.
            Some((None,)) => (kept + 1, kept + 1),
            None => (kept, 0),
        };
        Ok(ReplyVersions { user_message_id, count, current })
    }

    /// Sets aside one reply that says nothing (a model that failed after Sidecar had
    /// answered the message itself).
    pub async fn withdraw_empty(&self, message_id: i64) -> Result<bool, StoreError> {
        let done = sqlx::query("UPDATE messages SET set_aside = 1 WHERE id = ? AND content = ''").bind(message_id).execute(&self.store.pool).await?;
        Ok(done.rows_affected() == 1)
    }

    /// Sets aside message `from` and everything said after it: an edited message and
    /// the replies to it. Returns how many messages were set aside.
    pub async fn set_aside_from(&self, conversation_id: i64, from: i64) -> Result<u64, StoreError> {
        let mut tx = self.store.write_transaction().await?;
        let done = sqlx::query(columns_sql!("UPDATE messages SET set_aside = 1 WHERE conversation_id = ? AND id >= ? AND set_aside = 0 AND {NOT_PROACTIVE}"))
            .bind(conversation_id)
            .bind(from)
            .execute(&mut *tx)
            .await?;
        forget_summaries_from(&mut tx, conversation_id, from - 1).await?;
        tx.commit().await?;
        Ok(done.rows_affected())
    }
}

/// Numbers the reply shown after `after` (if it is not yet) and sets it aside.
async fn set_aside_shown(tx: &mut sqlx::SqliteConnection, conversation_id: i64, user_message_id: i64, after: i64) -> Result<u64, StoreError> {
    let (next,): (u32,) = sqlx::query_as("SELECT COALESCE(MAX(variant), 0) + 1 FROM messages WHERE conversation_id = ? AND variant_of = ?")
        .bind(conversation_id)
        .bind(user_message_id)
        .fetch_one(&mut *tx)
        .await?;
    let done = sqlx::query(columns_sql!(
        "UPDATE messages SET set_aside = 1, variant_of = ?, variant = COALESCE(variant, ?)
         WHERE conversation_id = ? AND id > ? AND set_aside = 0 AND {NOT_PROACTIVE}"
    ))
    .bind(user_message_id)
    .bind(next)
    .bind(conversation_id)
    .bind(after)
    .execute(&mut *tx)
    .await?;
    Ok(done.rows_affected())
}

/// A summary of older turns that took in what is now set aside would tell the model
/// about it: it goes, and the next prompt folds again from the one before.
async fn forget_summaries_from(tx: &mut sqlx::SqliteConnection, conversation_id: i64, after: i64) -> Result<(), StoreError> {
    sqlx::query("DELETE FROM context_summaries WHERE conversation_id = ? AND upto_message_id > ?").bind(conversation_id).bind(after).execute(&mut *tx).await?;
    Ok(())
}

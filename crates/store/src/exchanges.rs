//! Forgetting part of a conversation for good (issue 74). What is deleted is an exchange,
//! never half of one: a message of the user goes with the reply that answered it (its
//! tool calls and results, the versions Regenerate set aside), and a reply goes whole,
//! the question staying. What was made from them goes too: the running summaries that
//! covered them (the next turn folds again from what is left), the checkpoints and the
//! replies that quote them word for word; usage rows stay, unlinked, so the totals still
//! add up.

use super::{Store, StoreError};

/// How much of a message a checkpoint or a reply must hold, word for word, to be taken as
/// quoting it.
const QUOTE_CHARS: i64 = 40;

/// What was forgotten.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Forgotten {
    pub conversation_id: i64,
    /// The messages removed, the one asked for among them.
    pub messages: Vec<i64>,
    pub summaries: u64,
    pub checkpoints: u64,
}

/// A handle on the store: `store.exchanges()`.
pub struct Exchanges<'a> {
    pub(super) store: &'a Store,
}

impl Exchanges<'_> {
    /// Removes for good the exchange message `id` belongs to (see the module's doc);
    /// `None` when there is no such message.
    pub async fn forget(&self, id: i64) -> Result<Option<Forgotten>, StoreError> {
        let mut tx = self.store.write_transaction().await?;
        let found: Option<(i64, String)> = sqlx::query_as("SELECT conversation_id, role FROM messages WHERE id = ?").bind(id).fetch_optional(&mut *tx).await?;
        let Some((conversation_id, role)) = found else { return Ok(None) };
        // The user's message starts its exchange; a reply starts after the question.
        let after: i64 = if role == "user" {
            id - 1
        } else {
            sqlx::query_scalar("SELECT COALESCE(MAX(id), 0) FROM messages WHERE conversation_id = ? AND id < ? AND role = 'user' AND set_aside = 0")
                .bind(conversation_id)
                .bind(id)
                .fetch_one(&mut *tx)
                .await?
        };
        let until: i64 = sqlx::query_scalar(
            "SELECT COALESCE(MIN(id), 9223372036854775807) FROM messages WHERE conversation_id = ? AND id > ? AND role = 'user' AND set_aside = 0",
        )
        .bind(conversation_id)
        .bind(id)
        .fetch_one(&mut *tx)
        .await?;
        // The replies Regenerate set aside hang off the question (`variant_of`).
        let messages: Vec<i64> = sqlx::query_scalar(
            "SELECT id FROM messages WHERE conversation_id = ?1 AND ((id > ?2 AND id < ?3)
                 OR (variant_of IS NOT NULL AND variant_of IN (SELECT id FROM messages WHERE conversation_id = ?1 AND id > ?2 AND id < ?3))
                 OR (?4 <> 'user' AND set_aside = 1 AND role <> 'user' AND variant_of = ?2))
             ORDER BY id",
        )
        .bind(conversation_id)
        .bind(after)
        .bind(until)
        .bind(&role)
        .fetch_all(&mut *tx)
        .await?;
        // Sidecar's and the model's words elsewhere in the conversation that quote them
        // (a checkpoint's title in `/checkpoint`'s answer) go too.
        let quoting: Vec<i64> = sqlx::query_scalar(
            "SELECT q.id FROM messages q WHERE q.conversation_id = ?1 AND q.role = 'assistant'
               AND q.id NOT IN (SELECT value FROM json_each(?2)) AND EXISTS (
                 SELECT 1 FROM messages m WHERE m.id IN (SELECT value FROM json_each(?2)) AND length(m.content) >= ?3
                   AND instr(q.content, substr(m.content, 1, ?3)) > 0)",
        )
        .bind(conversation_id)
        .bind(serde_json::to_string(&messages).expect("ids serialise"))
        .bind(QUOTE_CHARS)
        .fetch_all(&mut *tx)
        .await?;
        let mut messages = messages;
        messages.extend(quoting);
        messages.sort_unstable();
        let first = messages.first().copied().unwrap_or(id);
        let list = serde_json::to_string(&messages).expect("ids serialise");
        sqlx::query(
            "DELETE FROM notes_fts WHERE kind = 'summary' AND ref_id IN (SELECT id FROM context_summaries WHERE conversation_id = ?1 AND upto_message_id >= ?2)",
        )
        .bind(conversation_id)
        .bind(first)
        .execute(&mut *tx)
        .await?;
        let summaries = sqlx::query("DELETE FROM context_summaries WHERE conversation_id = ? AND upto_message_id >= ?")
            .bind(conversation_id)
            .bind(first)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        let quoting_checkpoints = "SELECT c.id FROM checkpoints c WHERE c.conversation_id = ?1 AND EXISTS (
                SELECT 1 FROM messages m WHERE m.id IN (SELECT value FROM json_each(?2)) AND length(m.content) >= ?3
                  AND instr(c.body, substr(m.content, 1, ?3)) > 0)";
        let checkpoints: Vec<i64> = sqlx::query_scalar(quoting_checkpoints).bind(conversation_id).bind(&list).bind(QUOTE_CHARS).fetch_all(&mut *tx).await?;
        let checkpoint_list = serde_json::to_string(&checkpoints).expect("ids serialise");
        for statement in [
            "UPDATE conversations SET resumed_checkpoint_id = NULL WHERE resumed_checkpoint_id IN (SELECT value FROM json_each(?1))",
            "DELETE FROM notes_fts WHERE kind = 'checkpoint' AND ref_id IN (SELECT value FROM json_each(?1))",
            "DELETE FROM checkpoints WHERE id IN (SELECT value FROM json_each(?1))",
        ] {
            sqlx::query(statement).bind(&checkpoint_list).execute(&mut *tx).await?;
        }
        for statement in [
            "UPDATE usage SET message_id = NULL WHERE message_id IN (SELECT value FROM json_each(?1))",
            "DELETE FROM messages WHERE id IN (SELECT value FROM json_each(?1))",
        ] {
            sqlx::query(statement).bind(&list).execute(&mut *tx).await?;
        }
        tx.commit().await?;
        self.store.forget_written().await;
        self.store.note_forgotten().await;
        Ok(Some(Forgotten { conversation_id, messages, summaries, checkpoints: checkpoints.len() as u64 }))
    }
}

//! What mentions someone, for "forget everything about Ana" (issue 74): the messages
//! of every chat kept (imported ones too) and the summaries and checkpoints that name
//! them, found by the search index as whole words, accents and case aside. Finding
//! deletes nothing: the window shows the list first; forgetting the messages is
//! [`super::exchanges`]' work, one exchange each.

use serde::Serialize;

use super::{Store, StoreError};

/// How many messages one search lists: a name said more often than this is found again
/// after the first ones are forgotten.
pub const MENTIONS_LISTED: i64 = 500;

/// A message that names them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct MessageMention {
    pub message_id: i64,
    pub conversation_id: i64,
    pub role: String,
    /// Where it names them, the words marked `[like this]` as search results are.
    pub excerpt: String,
    pub at: String,
}

/// A running summary or a checkpoint that names them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize, ts_rs::TS)]
pub struct NoteMention {
    /// `summary` or `checkpoint`.
    pub kind: String,
    pub id: i64,
    pub excerpt: String,
}

/// A handle on the store: `store.mentions()`.
pub struct Mentions<'a> {
    pub(super) store: &'a Store,
}

/// The search index's phrase for `name`: its words, quoted, one after another; `None`
/// when it has none.
fn phrase(name: &str) -> Option<String> {
    let words = sidecar_domain::word_overlap::words(name);
    (!words.is_empty()).then(|| format!("\"{}\"", words.join(" ")))
}

impl Mentions<'_> {
    /// The messages that name `name`, oldest first, in chats that are kept (not an
    /// incognito one, not one being deleted).
    pub async fn messages(&self, name: &str) -> Result<Vec<MessageMention>, StoreError> {
        let Some(phrase) = phrase(name) else { return Ok(Vec::new()) };
        let rows: Vec<(i64, i64, String, String, String)> = sqlx::query_as(
            "SELECT m.id, m.conversation_id, m.role, snippet(messages_fts, 0, '[', ']', '…', 16), m.created_at
             FROM messages_fts JOIN messages m ON m.id = messages_fts.rowid
             JOIN conversations c ON c.id = m.conversation_id
             WHERE messages_fts MATCH ?1 AND c.deleted_at IS NULL AND c.incognito = 0
             ORDER BY m.id LIMIT ?2",
        )
        .bind(&phrase)
        .bind(MENTIONS_LISTED)
        .fetch_all(self.store.pool())
        .await?;
        Ok(rows.into_iter().map(|(message_id, conversation_id, role, excerpt, at)| MessageMention { message_id, conversation_id, role, excerpt, at }).collect())
    }

    /// The running summaries and checkpoints that name `name`.
    pub async fn notes(&self, name: &str) -> Result<Vec<NoteMention>, StoreError> {
        let Some(phrase) = phrase(name) else { return Ok(Vec::new()) };
        let rows: Vec<(String, i64, String)> = sqlx::query_as(
            "SELECT kind, ref_id, snippet(notes_fts, 2, '[', ']', '…', 16) FROM notes_fts
             WHERE notes_fts MATCH ?1 AND kind IN ('summary', 'checkpoint') ORDER BY kind, ref_id",
        )
        .bind(&phrase)
        .fetch_all(self.store.pool())
        .await?;
        Ok(rows.into_iter().map(|(kind, id, excerpt)| NoteMention { kind, id, excerpt }).collect())
    }

    /// Removes for good the summaries and checkpoints `notes` names (the next turn of a
    /// conversation whose summary went folds again from its messages). How many went.
    pub async fn forget_notes(&self, notes: &[NoteMention]) -> Result<u64, StoreError> {
        let ids = |kind: &str| serde_json::to_string(&notes.iter().filter(|n| n.kind == kind).map(|n| n.id).collect::<Vec<_>>()).expect("ids serialise");
        let (summaries, checkpoints) = (ids("summary"), ids("checkpoint"));
        let mut tx = self.store.write_transaction().await?;
        let mut gone = 0;
        for (statement, list) in [
            ("DELETE FROM notes_fts WHERE kind = 'summary' AND ref_id IN (SELECT value FROM json_each(?1))", &summaries),
            ("DELETE FROM notes_fts WHERE kind = 'checkpoint' AND ref_id IN (SELECT value FROM json_each(?1))", &checkpoints),
            ("UPDATE conversations SET resumed_checkpoint_id = NULL WHERE resumed_checkpoint_id IN (SELECT value FROM json_each(?1))", &checkpoints),
        ] {
            sqlx::query(statement).bind(list).execute(&mut *tx).await?;
        }
        for (statement, list) in [
            ("DELETE FROM context_summaries WHERE id IN (SELECT value FROM json_each(?1))", &summaries),
            ("DELETE FROM checkpoints WHERE id IN (SELECT value FROM json_each(?1))", &checkpoints),
        ] {
            gone += sqlx::query(statement).bind(list).execute(&mut *tx).await?.rows_affected();
        }
        tx.commit().await?;
        self.store.forget_written().await;
        self.store.note_forgotten().await;
        Ok(gone)
    }
}

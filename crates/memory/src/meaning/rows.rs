//! The stored vectors of recall by meaning, and what still lacks one. Work is found by
//! asking what has no vector under the current model, so an interrupted run resumes
//! where it stopped.

use crate::meaning::vectors::{ItemKind, Key, Quantized};
use sidecar_store::columns_sql;
use sidecar_store::Store;
use sidecar_store::StoreError;

/// Something to embed.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PendingText {
    pub key: Key,
    pub text: String,
}

/// A handle on the store: `store.embeddings()`.
pub(crate) struct EmbeddingRows<'a> {
    store: &'a Store,
}

/// Messages worth searching: what the user and the assistant said, with some text,
/// outside an incognito chat (nothing said there gets a vector).
const SEARCHABLE_MESSAGES: &str = "m.role IN ('user', 'assistant') AND length(m.content) > 0
    AND m.conversation_id NOT IN (SELECT id FROM conversations WHERE incognito = 1)";

impl EmbeddingRows<'_> {
    /// Up to `limit` messages, summaries and checkpoints with no vector under `model`,
    /// newest messages first (recent turns are the likeliest to be asked about).
    pub(crate) async fn pending(&self, model: &str, limit: u32) -> Result<Vec<PendingText>, StoreError> {
        let messages: Vec<(i64, String)> = sqlx::query_as(columns_sql!(
            "SELECT m.id, m.content FROM messages m
             WHERE {SEARCHABLE_MESSAGES}
               AND NOT EXISTS (SELECT 1 FROM embeddings e WHERE e.kind = 'message' AND e.ref_id = m.id AND e.model = ?)
             ORDER BY m.id DESC LIMIT ?"
        ))
        .bind(model)
        .bind(limit)
        .fetch_all(self.store.pool())
        .await?;
        let mut pending: Vec<PendingText> = messages.into_iter().map(|(id, text)| PendingText { key: Key { kind: ItemKind::Message, id }, text }).collect();
        let room = i64::from(limit) - pending.len() as i64;
        if room > 0 {
            let notes: Vec<(String, i64, String)> = sqlx::query_as(
                "SELECT n.kind, n.ref_id, n.text FROM notes_fts n
                 WHERE NOT EXISTS (SELECT 1 FROM embeddings e WHERE e.kind = n.kind AND e.ref_id = n.ref_id AND e.model = ?)
                 LIMIT ?",
            )
            .bind(model)
            .bind(room)
            .fetch_all(self.store.pool())
            .await?;
            pending.extend(notes.into_iter().filter_map(|(kind, id, text)| Some(PendingText { key: Key { kind: ItemKind::parse(&kind)?, id }, text })));
        }
        Ok(pending)
    }

    /// Stores `model`'s vectors in one transaction, each with its density when already
    /// measured (replacing that model's earlier vector of the same item).
    pub(crate) async fn save(&self, model: &str, vectors: &[(Key, Quantized, Option<f32>)]) -> Result<(), StoreError> {
        let mut tx = self.store.write_transaction().await?;
        for (key, vector, density) in vectors {
            sqlx::query("INSERT OR REPLACE INTO embeddings (kind, ref_id, model, vector, density) VALUES (?, ?, ?, ?, ?)")
                .bind(key.kind.as_str())
                .bind(key.id)
                .bind(model)
                .bind(vector.to_blob())
                .bind(density)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Records densities of `model`'s vectors measured again.
    pub(crate) async fn save_densities(&self, model: &str, densities: &[(Key, f32)]) -> Result<(), StoreError> {
        let mut tx = self.store.write_transaction().await?;
        for (key, density) in densities {
            sqlx::query("UPDATE embeddings SET density = ? WHERE kind = ? AND ref_id = ? AND model = ?")
                .bind(density)
                .bind(key.kind.as_str())
                .bind(key.id)
                .bind(model)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Whether any vector was made by another model (an embedder change not yet done).
    pub(crate) async fn other_models_remain(&self, model: &str) -> Result<bool, StoreError> {
        let (found,): (i64,) = sqlx::query_as("SELECT EXISTS (SELECT 1 FROM embeddings WHERE model <> ?)").bind(model).fetch_one(self.store.pool()).await?;
        Ok(found == 1)
    }

    /// Drops vectors made by any other model, once `model` has embedded everything:
    /// they cannot be compared with its vectors.
    pub(crate) async fn forget_other_models(&self, model: &str) -> Result<u64, StoreError> {
        Ok(sqlx::query("DELETE FROM embeddings WHERE model <> ?").bind(model).execute(self.store.pool()).await?.rows_affected())
    }

    /// The vectors whose message, summary, checkpoint or mail is gone (a conversation
    /// deleted for good, an edited reply replaced, a mail deleted or no longer from
    /// someone who matters): their keys, and removed.
    pub(crate) async fn forget_orphans(&self) -> Result<Vec<Key>, StoreError> {
        const ORPHANS: &str = "FROM embeddings WHERE (kind = 'message' AND ref_id NOT IN (SELECT id FROM messages))
               OR (kind = 'summary' AND ref_id NOT IN (SELECT id FROM context_summaries))
               OR (kind = 'checkpoint' AND ref_id NOT IN (SELECT id FROM checkpoints))
               OR (kind = 'mail' AND ref_id NOT IN (SELECT ref_id FROM notes_fts WHERE kind = 'mail'))";
        let mut tx = self.store.write_transaction().await?;
        let rows: Vec<(String, i64)> = sqlx::query_as(columns_sql!("SELECT DISTINCT kind, ref_id {ORPHANS}")).fetch_all(&mut *tx).await?;
        sqlx::query(columns_sql!("DELETE {ORPHANS}")).execute(&mut *tx).await?;
        tx.commit().await?;
        Ok(rows.into_iter().filter_map(|(kind, id)| Some(Key { kind: ItemKind::parse(&kind)?, id })).collect())
    }

    /// Drops the vectors of these items, under every model (facts no longer in learnings.md).
    pub(crate) async fn remove(&self, keys: &[Key]) -> Result<(), StoreError> {
        let mut tx = self.store.write_transaction().await?;
        for key in keys {
            sqlx::query("DELETE FROM embeddings WHERE kind = ? AND ref_id = ?").bind(key.kind.as_str()).bind(key.id).execute(&mut *tx).await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Every vector of `model` (a damaged blob is skipped: it is simply embedded again).
    pub(crate) async fn load(&self, model: &str) -> Result<Vec<(Key, Quantized, Option<f32>)>, StoreError> {
        let rows: Vec<(String, i64, Vec<u8>, Option<f64>)> =
            sqlx::query_as("SELECT kind, ref_id, vector, density FROM embeddings WHERE model = ?").bind(model).fetch_all(self.store.pool()).await?;
        Ok(rows
            .into_iter()
            .filter_map(|(kind, id, blob, density)| {
                Some((Key { kind: ItemKind::parse(&kind)?, id }, Quantized::from_blob(&blob)?, density.map(|d| d as f32).filter(|d| d.is_finite())))
            })
            .collect())
    }

    /// Messages, summaries and checkpoints that should have a vector (facts are counted
    /// by their owner).
    pub(crate) async fn searchable_count(&self) -> Result<u64, StoreError> {
        let (messages,): (i64,) =
            sqlx::query_as(columns_sql!("SELECT count(*) FROM messages m WHERE {SEARCHABLE_MESSAGES}")).fetch_one(self.store.pool()).await?;
        let (notes,): (i64,) = sqlx::query_as("SELECT count(*) FROM notes_fts").fetch_one(self.store.pool()).await?;
        Ok((messages + notes) as u64)
    }
}

/// The store's seam to these rows: `store.embeddings()`, with this trait in scope.
pub(crate) trait EmbeddingsStore {
    fn embeddings(&self) -> EmbeddingRows<'_>;
}

impl EmbeddingsStore for Store {
    fn embeddings(&self) -> EmbeddingRows<'_> {
        EmbeddingRows { store: self }
    }
}

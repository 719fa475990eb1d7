//! Where a fact was learned (issue 74): the user's message of the turn that saved it as a
//! new fact. The database keeps a hash of the fact's words, not the words (learnings.md
//! stays their one home, and a fact forgotten there leaves nothing readable here), so
//! deleting the message can name the facts learned from it and ask about them.

use std::collections::HashMap;

use sha2::{Digest, Sha256};

use sidecar_store::{Store, StoreError};

/// The fact's words as compared: case and spacing aside.
pub(crate) fn key(text: &str) -> String {
    let plain = text.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase();
    hex::encode(Sha256::digest(plain.as_bytes()))
}

/// The `fact_sources` table. Cheap to clone.
#[derive(Clone)]
pub(crate) struct FactSources {
    store: Store,
}

impl FactSources {
    pub(crate) fn new(store: Store) -> Self {
        Self { store }
    }

    pub(crate) fn store(&self) -> &Store {
        &self.store
    }

    /// Fact `text` was learned from message `message_id`.
    pub(crate) async fn record(&self, text: &str, message_id: i64) -> Result<(), StoreError> {
        sqlx::query("INSERT INTO fact_sources (fact_key, message_id, learned_at) VALUES (?, ?, ?)")
            .bind(key(text))
            .bind(message_id)
            .bind(self.store.now())
            .execute(self.store.pool())
            .await?;
        Ok(())
    }

    /// Fact `from` now reads `to` (edited by the user): where it was learned follows.
    pub(crate) async fn rekey(&self, from: &str, to: &str) -> Result<(), StoreError> {
        sqlx::query("UPDATE fact_sources SET fact_key = ? WHERE fact_key = ?").bind(key(to)).bind(key(from)).execute(self.store.pool()).await?;
        Ok(())
    }

    /// The keys of the facts learned from `messages`, the records kept.
    pub(crate) async fn keys_of(&self, messages: &[i64]) -> Result<Vec<String>, StoreError> {
        let list = serde_json::to_string(messages).expect("ids serialise");
        Ok(sqlx::query_scalar("SELECT DISTINCT fact_key FROM fact_sources WHERE message_id IN (SELECT value FROM json_each(?))")
            .bind(&list)
            .fetch_all(self.store.pool())
            .await?)
    }

    /// The keys of the facts learned from `messages`, whose records go (the messages are
    /// gone, or going).
    pub(crate) async fn take(&self, messages: &[i64]) -> Result<Vec<String>, StoreError> {
        let list = serde_json::to_string(messages).expect("ids serialise");
        let mut tx = self.store.write_transaction().await?;
        let keys: Vec<String> = sqlx::query_scalar("SELECT DISTINCT fact_key FROM fact_sources WHERE message_id IN (SELECT value FROM json_each(?))")
            .bind(&list)
            .fetch_all(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM fact_sources WHERE message_id IN (SELECT value FROM json_each(?))").bind(&list).execute(&mut *tx).await?;
        tx.commit().await?;
        Ok(keys)
    }

    /// The message each fact (by key) was first learned from, among the messages of
    /// chats still kept (a chat being deleted, or one gone, names nothing).
    pub(crate) async fn origins(&self) -> Result<HashMap<String, i64>, StoreError> {
        let rows: Vec<(String, i64)> = sqlx::query_as(
            "SELECT s.fact_key, MIN(s.message_id) FROM fact_sources s
             JOIN messages m ON m.id = s.message_id
             JOIN conversations c ON c.id = m.conversation_id
             WHERE c.deleted_at IS NULL AND c.incognito = 0
             GROUP BY s.fact_key",
        )
        .fetch_all(self.store.pool())
        .await?;
        Ok(rows.into_iter().collect())
    }
}

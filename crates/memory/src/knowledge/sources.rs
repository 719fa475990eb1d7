//! Where a fact was learned (issue 74): the user's message of the turn that saved it as a
//! new fact. The database keeps a hash of the fact's words, not the words (learnings.md
//! stays their one home, and a fact forgotten there leaves nothing readable here), so
//! deleting the message can name the facts learned from it and ask about them.

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
}

//! Full-text recall (SQLite FTS5, bm25 ranking, accent-insensitive) over messages and
//! the facts index.

use serde::Serialize;

use super::{Store, StoreError};
use crate::knowledge::store::ListedFact;

/// One search result.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RecallHit {
    /// `message`, `fact`, `summary` or `checkpoint`.
    pub source: String,
    /// The message id, or the fact's position in learnings.md.
    pub id: i64,
    /// For messages: who said it; for facts: the category.
    pub label: String,
    /// The matching text, with the matched words in [brackets].
    pub snippet: String,
    /// When it was said, or when the fact was last confirmed.
    pub timestamp: String,
    /// The id a message had where it was imported from.
    pub external_id: Option<String>,
    /// bm25 score: lower is a better match.
    pub rank: f64,
}

/// Words of a query as an FTS5 expression: each quoted (so no user text is read as
/// FTS syntax) and matched as a prefix ("peanut" finds "peanuts"); any of them may
/// match, and bm25 ranks those matching more higher.
pub fn fts_query(query: &str) -> Option<String> {
    let words: Vec<String> = query
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.chars().count() > 1)
        .map(|w| format!("\"{}\"*", w.to_lowercase()))
        .collect();
    (!words.is_empty()).then(|| words.join(" OR "))
}

/// The full-text index behind recall, and imported history. A handle on the store: `store.recall_index()`.
pub struct RecallIndex<'a> {
    pub(super) store: &'a Store,
}

impl RecallIndex<'_> {
    /// Replaces the facts index with `facts`.
    pub async fn index_facts(&self, facts: &[ListedFact]) -> Result<(), StoreError> {
        let mut tx = self.store.write_transaction().await?;
        sqlx::query("DELETE FROM facts_fts").execute(&mut *tx).await?;
        for f in facts {
            sqlx::query("INSERT INTO facts_fts (category, text, confirmed) VALUES (?, ?, ?)")
                .bind(f.category.name())
                .bind(&f.fact.text)
                .bind(f.fact.confirmed.to_string())
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// The best `limit` matches among messages (user and assistant) and facts.
    pub async fn recall(&self, query: &str, limit: u32) -> Result<Vec<RecallHit>, StoreError> {
        let Some(expression) = fts_query(query) else { return Ok(Vec::new()) };
        let mut hits: Vec<RecallHit> = sqlx::query_as::<_, (i64, String, String, String, Option<String>, f64)>(
            "SELECT m.id, m.role, snippet(messages_fts, 0, '[', ']', '…', 16), m.created_at, m.external_id,
                    bm25(messages_fts)
             FROM messages_fts JOIN messages m ON m.id = messages_fts.rowid
             WHERE messages_fts MATCH ? AND m.role IN ('user', 'assistant') AND m.set_aside = 0
               AND m.conversation_id NOT IN (SELECT id FROM conversations WHERE deleted_at IS NOT NULL)
             ORDER BY bm25(messages_fts) LIMIT ?",
        )
        .bind(&expression)
        .bind(limit)
        .fetch_all(&self.store.pool)
        .await?
        .into_iter()
        .map(|(id, role, snippet, timestamp, external_id, rank)| RecallHit {
            source: "message".into(),
            id,
            label: role,
            snippet,
            timestamp,
            external_id,
            rank,
        })
        .collect();
        let facts = sqlx::query_as::<_, (i64, String, String, String, f64)>(
            "SELECT rowid, category, snippet(facts_fts, 1, '[', ']', '…', 16), confirmed, bm25(facts_fts)
             FROM facts_fts WHERE facts_fts MATCH ? ORDER BY bm25(facts_fts) LIMIT ?",
        )
        .bind(&expression)
        .bind(limit)
        .fetch_all(&self.store.pool)
        .await?;
        hits.extend(facts.into_iter().map(|(id, category, snippet, confirmed, rank)| RecallHit {
            source: "fact".into(),
            id,
            label: category,
            snippet,
            timestamp: confirmed,
            external_id: None,
            rank,
        }));
        let notes = sqlx::query_as::<_, (i64, String, String, f64, String)>(
            "SELECT n.ref_id, n.kind, snippet(notes_fts, 2, '[', ']', '…', 16), bm25(notes_fts),
                    COALESCE(s.created_at, c.updated_at, '')
             FROM notes_fts n
             LEFT JOIN context_summaries s ON n.kind = 'summary' AND s.id = n.ref_id
             LEFT JOIN checkpoints c ON n.kind = 'checkpoint' AND c.id = n.ref_id
             WHERE notes_fts MATCH ? ORDER BY bm25(notes_fts) LIMIT ?",
        )
        .bind(&expression)
        .bind(limit)
        .fetch_all(&self.store.pool)
        .await?;
        hits.extend(notes.into_iter().map(|(id, kind, snippet, rank, timestamp)| RecallHit {
            label: if kind == "summary" { "summary of earlier turns".into() } else { "checkpoint".into() },
            source: kind,
            id,
            snippet,
            timestamp,
            external_id: None,
            rank,
        }));
        hits.sort_by(|a, b| a.rank.partial_cmp(&b.rank).unwrap_or(std::cmp::Ordering::Equal));
        hits.truncate(limit as usize);
        Ok(hits)
    }

    /// Marks a conversation as an archive: searchable, never the current one.
    pub async fn archive_conversation(&self, conversation_id: i64) -> Result<(), StoreError> {
        sqlx::query("UPDATE conversations SET archived = 1 WHERE id = ?")
            .bind(conversation_id)
            .execute(&self.store.pool)
            .await?;
        Ok(())
    }

    /// Stores an imported message with its original id and time.
    pub async fn import_message(
        &self,
        conversation_id: i64,
        role: crate::llm::Role,
        content: &str,
        timestamp: Option<&str>,
        external_id: Option<&str>,
    ) -> Result<i64, StoreError> {
        let ts = timestamp.map(str::to_string).unwrap_or_else(|| self.store.now());
        let (id,): (i64,) = sqlx::query_as(
            "INSERT INTO messages (conversation_id, role, content, status, created_at, external_id)
             VALUES (?, ?, ?, 'complete', ?, ?) RETURNING id",
        )
        .bind(conversation_id)
        .bind(role.as_str())
        .bind(content)
        .bind(&ts)
        .bind(external_id)
        .fetch_one(&self.store.pool)
        .await?;
        Ok(id)
    }
}

//! What recall reads from the store: matches by words (SQLite FTS5, bm25,
//! accent-insensitive) over messages, the facts index, summaries, checkpoints and the
//! mails the mail feature put in reach, and the found items whole, with the turns beside
//! them.

use super::item_key::{ItemKind, Key};
use super::{Store, StoreError};

/// Messages recall may show: what the user and the assistant said, not set aside by an
/// edit, not in a deleted chat.
const SEARCHABLE: &str = "m.role IN ('user', 'assistant') AND m.set_aside = 0
    AND m.conversation_id NOT IN (SELECT id FROM conversations WHERE deleted_at IS NOT NULL OR incognito = 1)";

/// Something recall found, whole.
#[derive(Debug, Clone, PartialEq)]
pub struct FoundText {
    pub key: Key,
    /// For messages: the conversation it belongs to.
    pub conversation_id: Option<i64>,
    /// For messages: who said it; for facts: the category; otherwise what it is.
    pub label: String,
    pub text: String,
    /// When it was said, or when the fact was last confirmed.
    pub timestamp: String,
    /// The id a message had where it was imported from.
    pub external_id: Option<String>,
    /// For a fact a newer one replaced: since when (it is history, not current).
    pub superseded: Option<String>,
}

#[derive(sqlx::FromRow)]
struct MessageRow {
    id: i64,
    conversation_id: i64,
    role: String,
    content: String,
    created_at: String,
    external_id: Option<String>,
}

impl From<MessageRow> for FoundText {
    fn from(row: MessageRow) -> Self {
        Self {
            key: Key::message(row.id),
            conversation_id: Some(row.conversation_id),
            label: row.role,
            text: row.content,
            timestamp: row.created_at,
            external_id: row.external_id,
            superseded: None,
        }
    }
}

/// Words of a query as an FTS5 expression: each quoted (so no user text is read as
/// FTS syntax) and matched as a prefix ("peanut" finds "peanuts"); any of them may
/// match, and bm25 ranks those matching more higher.
pub fn fts_query(query: &str) -> Option<String> {
    let words: Vec<String> =
        query.split(|c: char| !c.is_alphanumeric()).filter(|w| w.chars().count() > 1).map(|w| format!("\"{}\"*", w.to_lowercase())).collect();
    (!words.is_empty()).then(|| words.join(" OR "))
}

/// The full-text index behind recall, and imported history. A handle on the store: `store.recall_index()`.
pub struct RecallIndex<'a> {
    pub(super) store: &'a Store,
}

/// A fact as the words index keeps it: its category's name, its text, and when it was
/// last confirmed.
pub struct FactWords<'a> {
    pub category: &'a str,
    pub text: &'a str,
    pub confirmed: String,
}

impl RecallIndex<'_> {
    /// Replaces the facts index with `facts`.
    pub async fn index_facts(&self, facts: &[FactWords<'_>]) -> Result<(), StoreError> {
        let mut tx = self.store.write_transaction().await?;
        sqlx::query("DELETE FROM facts_fts").execute(&mut *tx).await?;
        for f in facts {
            sqlx::query("INSERT INTO facts_fts (category, text, confirmed) VALUES (?, ?, ?)")
                .bind(f.category)
                .bind(f.text)
                .bind(&f.confirmed)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// The best `limit` matches by words among messages (user and assistant), facts,
    /// summaries and checkpoints, best first, with their bm25 (lower is better).
    pub async fn word_matches(&self, query: &str, limit: u32) -> Result<Vec<(Key, f64)>, StoreError> {
        let Some(expression) = fts_query(query) else { return Ok(Vec::new()) };
        let messages: Vec<(i64, f64)> = sqlx::query_as(columns_sql!(
            "SELECT m.id, bm25(messages_fts) FROM messages_fts JOIN messages m ON m.id = messages_fts.rowid
             WHERE messages_fts MATCH ? AND {SEARCHABLE} ORDER BY bm25(messages_fts) LIMIT ?"
        ))
        .bind(&expression)
        .bind(limit)
        .fetch_all(&self.store.pool)
        .await?;
        let mut matches: Vec<(Key, f64)> = messages.into_iter().map(|(id, rank)| (Key::message(id), rank)).collect();
        let facts: Vec<(String, f64)> = sqlx::query_as("SELECT text, bm25(facts_fts) FROM facts_fts WHERE facts_fts MATCH ? ORDER BY bm25(facts_fts) LIMIT ?")
            .bind(&expression)
            .bind(limit)
            .fetch_all(&self.store.pool)
            .await?;
        matches.extend(facts.into_iter().map(|(text, rank)| (Key::fact(&text), rank)));
        let notes: Vec<(String, i64, f64)> =
            sqlx::query_as("SELECT kind, ref_id, bm25(notes_fts) FROM notes_fts WHERE notes_fts MATCH ? ORDER BY bm25(notes_fts) LIMIT ?")
                .bind(&expression)
                .bind(limit)
                .fetch_all(&self.store.pool)
                .await?;
        matches.extend(notes.into_iter().filter_map(|(kind, id, rank)| Some((Key { kind: ItemKind::parse(&kind)?, id }, rank))));
        matches.sort_by(|a, b| a.1.total_cmp(&b.1));
        matches.truncate(limit as usize);
        Ok(matches)
    }

    /// The searchable messages among `ids` (not set aside, not in a deleted chat).
    pub async fn messages(&self, ids: &[i64]) -> Result<Vec<FoundText>, StoreError> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let list = serde_json::to_string(ids).expect("ids serialise");
        let rows: Vec<MessageRow> = sqlx::query_as(columns_sql!(
            "SELECT m.id, m.conversation_id, m.role, m.content, m.created_at, m.external_id FROM messages m
             WHERE m.id IN (SELECT value FROM json_each(?)) AND {SEARCHABLE}"
        ))
        .bind(list)
        .fetch_all(&self.store.pool)
        .await?;
        Ok(rows.into_iter().map(FoundText::from).collect())
    }

    /// Searchable messages said between `start` and `end` (UTC, stored form), newest
    /// first, at most `limit`.
    pub async fn message_ids_between(&self, start: &str, end: &str, limit: u32) -> Result<Vec<i64>, StoreError> {
        let rows: Vec<(i64,)> = sqlx::query_as(columns_sql!(
            "SELECT m.id FROM messages m WHERE m.created_at >= ? AND m.created_at < ? AND {SEARCHABLE} ORDER BY m.id DESC LIMIT ?"
        ))
        .bind(start)
        .bind(end)
        .bind(limit)
        .fetch_all(&self.store.pool)
        .await?;
        Ok(rows.into_iter().map(|(id,)| id).collect())
    }

    /// How many messages contain `word` (as a prefix, like the search by words).
    pub async fn messages_saying(&self, word: &str) -> Result<u64, StoreError> {
        let Some(expression) = fts_query(word) else { return Ok(0) };
        let (count,): (i64,) =
            sqlx::query_as("SELECT count(*) FROM messages_fts WHERE messages_fts MATCH ?").bind(&expression).fetch_one(&self.store.pool).await?;
        Ok(count as u64)
    }

    /// How many messages there are.
    pub async fn messages_total(&self) -> Result<u64, StoreError> {
        let (all,): (i64,) = sqlx::query_as("SELECT count(*) FROM messages").fetch_one(&self.store.pool).await?;
        Ok(all as u64)
    }

    /// For each of `ids`, the ids of the searchable messages just before and just after
    /// it in its conversation (one query for all, without their text).
    pub async fn beside_ids(&self, ids: &[i64]) -> Result<Vec<(i64, Option<i64>, Option<i64>)>, StoreError> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let list = serde_json::to_string(ids).expect("ids serialise");
        Ok(sqlx::query_as(columns_sql!(
            "SELECT c.id,
                 (SELECT m.id FROM messages m WHERE m.conversation_id = c.conversation_id AND m.id < c.id AND {SEARCHABLE} ORDER BY m.id DESC LIMIT 1),
                 (SELECT m.id FROM messages m WHERE m.conversation_id = c.conversation_id AND m.id > c.id AND {SEARCHABLE} ORDER BY m.id LIMIT 1)
             FROM messages c WHERE c.id IN (SELECT value FROM json_each(?))"
        ))
        .bind(list)
        .fetch_all(&self.store.pool)
        .await?)
    }

    /// Summaries and checkpoints by key, with their text and time.
    pub async fn notes(&self, keys: &[Key]) -> Result<Vec<FoundText>, StoreError> {
        let mut found = self.mails(keys).await?;
        for key in keys.iter().filter(|k| matches!(k.kind, ItemKind::Summary | ItemKind::Checkpoint)) {
            let row: Option<(String, String)> = sqlx::query_as(
                "SELECT n.text, COALESCE(s.created_at, c.updated_at, '') FROM notes_fts n
                 LEFT JOIN context_summaries s ON n.kind = 'summary' AND s.id = n.ref_id
                 LEFT JOIN checkpoints c ON n.kind = 'checkpoint' AND c.id = n.ref_id
                 WHERE n.kind = ? AND n.ref_id = ?",
            )
            .bind(key.kind.as_str())
            .bind(key.id)
            .fetch_optional(&self.store.pool)
            .await?;
            if let Some((text, timestamp)) = row {
                let label = if key.kind == ItemKind::Summary { "summary of earlier turns" } else { "checkpoint" };
                found.push(FoundText { key: *key, conversation_id: None, label: label.into(), text, timestamp, external_id: None, superseded: None });
            }
        }
        Ok(found)
    }

    /// The mails among `keys` still in the index, labelled with their sender and timed by
    /// when they were sent.
    async fn mails(&self, keys: &[Key]) -> Result<Vec<FoundText>, StoreError> {
        let ids: Vec<i64> = keys.iter().filter(|k| k.kind == ItemKind::Mail).map(|k| k.id).collect();
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let rows: Vec<(i64, String, String, Option<String>, String)> = sqlx::query_as(
            "SELECT n.ref_id, n.text, m.sent_at, m.from_name, m.from_address FROM notes_fts n JOIN mails m ON m.id = n.ref_id
             WHERE n.kind = 'mail' AND n.ref_id IN (SELECT value FROM json_each(?))",
        )
        .bind(serde_json::to_string(&ids).expect("ids serialise"))
        .fetch_all(&self.store.pool)
        .await?;
        Ok(rows
            .into_iter()
            .map(|(id, text, sent_at, name, address)| FoundText {
                key: Key { kind: ItemKind::Mail, id },
                conversation_id: None,
                label: match name {
                    Some(name) => format!("{name} <{address}>"),
                    None => address,
                },
                text,
                timestamp: sent_at,
                external_id: None,
                superseded: None,
            })
            .collect())
    }

    /// The mails recall finds, by id (the mail feature keeps them: those from people who
    /// matter).
    pub async fn mail_ids(&self) -> Result<Vec<i64>, StoreError> {
        let rows: Vec<(i64,)> = sqlx::query_as("SELECT ref_id FROM notes_fts WHERE kind = 'mail'").fetch_all(&self.store.pool).await?;
        Ok(rows.into_iter().map(|(id,)| id).collect())
    }

    /// Puts `mails` (id, the text searched) in reach of recall, and takes `gone` out of it.
    pub async fn change_mails(&self, mails: &[(i64, String)], gone: &[i64]) -> Result<(), StoreError> {
        let mut tx = self.store.write_transaction().await?;
        // One statement: the kind and id are not indexed, so each delete reads the table.
        sqlx::query("DELETE FROM notes_fts WHERE kind = 'mail' AND ref_id IN (SELECT value FROM json_each(?))")
            .bind(serde_json::to_string(gone).expect("ids serialise"))
            .execute(&mut *tx)
            .await?;
        for (id, text) in mails {
            sqlx::query("INSERT INTO notes_fts (kind, ref_id, text) VALUES ('mail', ?, ?)").bind(id).bind(text).execute(&mut *tx).await?;
        }
        tx.commit().await?;
        Ok(())
    }
}

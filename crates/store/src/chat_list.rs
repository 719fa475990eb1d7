//! The conversation list: past conversations with a title, dates and a search over
//! their titles and messages; renaming; deleting with a window for undo, then for good.

use serde::Serialize;

use super::{Store, StoreError};

/// A conversation as the sidebar lists it.
#[derive(Debug, Clone, PartialEq, Serialize, sqlx::FromRow, ts_rs::TS)]
pub struct ChatSummary {
    pub id: i64,
    /// The user's title, else the start of the first thing the user said.
    pub title: Option<String>,
    /// The user renamed it.
    pub renamed: bool,
    pub created_at: String,
    /// When something was last said there.
    pub updated_at: String,
    pub message_count: i64,
    /// Imported history (searchable, read-only).
    pub archived: bool,
    /// Kept at the top of the list.
    pub pinned: bool,
    /// With a search: the latest message that matches it (whole; the service cuts it).
    pub matched: Option<String>,
}

/// How long a first message's start makes a title.
const TITLE_CHARS: usize = 60;

/// The list. A handle on the store: `store.chat_list()`.
pub struct ChatList<'a> {
    pub(super) store: &'a Store,
}

impl ChatList<'_> {
    /// Conversations with at least one message (and `current`, even empty), newest
    /// activity first; with `query`, those whose title or messages contain every word.
    pub async fn list(&self, query: Option<&str>, current: i64, limit: u32) -> Result<Vec<ChatSummary>, StoreError> {
        let words = query.and_then(super::recall::fts_query).map(|any| any.replace(" OR ", " AND "));
        let like = query.map(|q| format!("%{}%", q.trim().replace(['%', '_'], "")));
        let mut rows: Vec<ChatSummary> = sqlx::query_as(
            "SELECT c.id,
                    COALESCE(c.title, (SELECT m.content FROM messages m
                                       WHERE m.conversation_id = c.id AND m.role = 'user' AND m.set_aside = 0 AND m.content NOT LIKE '/%'
                                       ORDER BY m.id LIMIT 1)) AS title,
                    c.title IS NOT NULL AS renamed, c.created_at,
                    -- A conversation set aside (tasks) keeps an old date to stay out of the
                    -- current chat's way; the list shows its last message's time instead.
                    CASE WHEN c.kind IS NULL THEN c.updated_at
                         ELSE COALESCE((SELECT MAX(m.created_at) FROM messages m WHERE m.conversation_id = c.id), c.created_at) END AS updated_at,
                    (SELECT COUNT(*) FROM messages m WHERE m.conversation_id = c.id AND m.role IN ('user', 'assistant') AND m.set_aside = 0) AS message_count,
                    c.archived != 0 AS archived, c.pinned != 0 AS pinned,
                    CASE WHEN ?2 IS NULL THEN NULL ELSE
                      (SELECT m.content FROM messages_fts JOIN messages m ON m.id = messages_fts.rowid
                       WHERE messages_fts MATCH ?2 AND m.conversation_id = c.id AND m.role IN ('user', 'assistant')
                       ORDER BY m.id DESC LIMIT 1) END AS matched
             FROM conversations c
             WHERE c.deleted_at IS NULL AND c.incognito = 0
               AND (c.id = ?1 OR EXISTS (SELECT 1 FROM messages m WHERE m.conversation_id = c.id AND m.role IN ('user', 'assistant')))
               AND (?2 IS NULL
                    OR c.title LIKE ?3
                    OR c.id IN (SELECT m.conversation_id FROM messages_fts JOIN messages m ON m.id = messages_fts.rowid
                                WHERE messages_fts MATCH ?2 AND m.role IN ('user', 'assistant')))
             ORDER BY c.pinned DESC, c.updated_at DESC, c.id DESC LIMIT ?4",
        )
        .bind(current)
        .bind(words.as_deref())
        .bind(like.as_deref())
        .bind(limit)
        .fetch_all(&self.store.pool)
        .await?;
        for row in rows.iter_mut().filter(|r| !r.renamed) {
            row.title = row.title.as_deref().map(first_words);
        }
        Ok(rows)
    }

    /// Pins a conversation to the top of the list, or unpins it; false when it is gone.
    pub async fn pin(&self, conversation_id: i64, pinned: bool) -> Result<bool, StoreError> {
        let done = sqlx::query("UPDATE conversations SET pinned = ? WHERE id = ? AND deleted_at IS NULL")
            .bind(pinned)
            .bind(conversation_id)
            .execute(&self.store.pool)
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Sets a conversation's title (`None`: back to its first words).
    pub async fn rename(&self, conversation_id: i64, title: Option<&str>) -> Result<bool, StoreError> {
        let done = sqlx::query("UPDATE conversations SET title = ? WHERE id = ? AND deleted_at IS NULL")
            .bind(title)
            .bind(conversation_id)
            .execute(&self.store.pool)
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Makes `conversation_id` the current one (its replies continue there).
    pub async fn touch(&self, conversation_id: i64) -> Result<bool, StoreError> {
        let done = sqlx::query("UPDATE conversations SET updated_at = ? WHERE id = ? AND deleted_at IS NULL AND archived = 0")
            .bind(self.store.now())
            .bind(conversation_id)
            .execute(&self.store.pool)
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// The conversation a message belongs to.
    pub async fn conversation_of(&self, message_id: i64) -> Result<Option<i64>, StoreError> {
        let row: Option<(i64,)> =
            sqlx::query_as("SELECT m.conversation_id FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE m.id = ? AND c.deleted_at IS NULL")
                .bind(message_id)
                .fetch_optional(&self.store.pool)
                .await?;
        Ok(row.map(|r| r.0))
    }

    /// Hides a conversation at once; it is removed for good by `purge_deleted`.
    pub async fn delete(&self, conversation_id: i64) -> Result<bool, StoreError> {
        let done = sqlx::query("UPDATE conversations SET deleted_at = ? WHERE id = ? AND deleted_at IS NULL")
            .bind(self.store.now())
            .bind(conversation_id)
            .execute(&self.store.pool)
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Deletes (with the usual undo window) the conversations with nothing said since
    /// `before` (RFC 3339), but pinned ones and `current`: the user's retention.
    pub async fn expire_untouched(&self, before: &str, current: i64) -> Result<u64, StoreError> {
        let done = sqlx::query(
            "UPDATE conversations SET deleted_at = ?1
             WHERE deleted_at IS NULL AND pinned = 0 AND id <> ?3
               AND COALESCE((SELECT MAX(created_at) FROM messages WHERE conversation_id = conversations.id), created_at) < ?2",
        )
        .bind(self.store.now())
        .bind(before)
        .bind(current)
        .execute(&self.store.pool)
        .await?;
        Ok(done.rows_affected())
    }

    /// Brings back a deleted conversation not yet purged.
    pub async fn undelete(&self, conversation_id: i64) -> Result<bool, StoreError> {
        let done = sqlx::query("UPDATE conversations SET deleted_at = NULL WHERE id = ? AND deleted_at IS NOT NULL")
            .bind(conversation_id)
            .execute(&self.store.pool)
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Removes for good the conversations deleted before `before` (RFC 3339): their
    /// messages, summaries, checkpoints and plan. Usage rows stay, unlinked, so the
    /// totals still add up.
    pub async fn purge_deleted(&self, before: &str) -> Result<u64, StoreError> {
        let gone = self.remove_found("SELECT id FROM conversations WHERE deleted_at IS NOT NULL AND deleted_at < ?", before.to_string()).await?;
        if gone > 0 {
            self.store.note_forgotten().await;
        }
        Ok(gone)
    }

    /// Removes for good the conversation that goes first to make room under the user's
    /// size limit: one deleted and waiting out its Undo, then the one untouched longest.
    /// Never a pinned one (the Tasks chat is), an incognito one (forgotten on leaving)
    /// or `current`. Returns its id; `None` when nothing may go.
    pub async fn remove_oldest(&self, current: i64) -> Result<Option<i64>, StoreError> {
        let oldest: Option<(i64,)> = sqlx::query_as(
            "SELECT id FROM conversations WHERE pinned = 0 AND incognito = 0 AND id <> ?1
             ORDER BY deleted_at IS NULL, COALESCE((SELECT MAX(created_at) FROM messages WHERE conversation_id = conversations.id), created_at), id
             LIMIT 1",
        )
        .bind(current)
        .fetch_optional(&self.store.pool)
        .await?;
        let Some((id,)) = oldest else { return Ok(None) };
        self.remove_found("SELECT id FROM conversations WHERE id = ?", id).await?;
        self.store.note_forgotten().await;
        Ok(Some(id))
    }

    /// Removes for good every incognito conversation but `open` (the one still on
    /// screen, if any): leaving one, and at start, where a crash may have left one.
    pub async fn forget_incognito(&self, open: Option<i64>) -> Result<u64, StoreError> {
        self.remove_found("SELECT id FROM conversations WHERE incognito = 1 AND id IS NOT ?", open).await
    }

    /// Removes for good the conversations `select` finds with `value`, then empties the
    /// WAL of their words.
    async fn remove_found<T>(&self, select: &'static str, value: T) -> Result<u64, StoreError>
    where
        T: for<'q> sqlx::Encode<'q, sqlx::Sqlite> + sqlx::Type<sqlx::Sqlite> + Clone + Send + 'static,
    {
        // The list asks on every refresh: a write transaction only when there is work.
        let found: Option<(i64,)> = sqlx::query_as(select).bind(value.clone()).fetch_optional(&self.store.pool).await?;
        if found.is_none() {
            return Ok(0);
        }
        let mut tx = self.store.write_transaction().await?;
        let ids: Vec<(i64,)> = sqlx::query_as(select).bind(value).fetch_all(&mut *tx).await?;
        for (id,) in &ids {
            remove(&mut tx, *id).await?;
        }
        tx.commit().await?;
        self.store.forget_written().await;
        Ok(ids.len() as u64)
    }
}

/// Removes conversation `id` for good: its messages, summaries, checkpoints and plan.
/// Usage rows stay, unlinked, so the totals still add up.
async fn remove(connection: &mut sqlx::SqliteConnection, id: i64) -> Result<(), sqlx::Error> {
    for statement in [
        "UPDATE usage SET conversation_id = NULL, message_id = NULL WHERE conversation_id = ?1",
        "DELETE FROM plans WHERE conversation_id = ?1",
        "DELETE FROM notes_fts WHERE (kind = 'summary' AND ref_id IN (SELECT id FROM context_summaries WHERE conversation_id = ?1))
                                  OR (kind = 'checkpoint' AND ref_id IN (SELECT id FROM checkpoints WHERE conversation_id = ?1))",
        "UPDATE conversations SET resumed_checkpoint_id = NULL WHERE resumed_checkpoint_id IN (SELECT id FROM checkpoints WHERE conversation_id = ?1)",
        "DELETE FROM checkpoints WHERE conversation_id = ?1",
        "DELETE FROM context_summaries WHERE conversation_id = ?1",
        "DELETE FROM messages WHERE conversation_id = ?1",
        "DELETE FROM conversations WHERE id = ?1",
    ] {
        sqlx::query(statement).bind(id).execute(&mut *connection).await?;
    }
    Ok(())
}

/// Removes every conversation that is not kept (an incognito one, one deleted and
/// waiting out its Undo) from the database file at `path`, a copy being made into a
/// backup, and vacuums it so no freed page keeps their words. Returns how many there were.
pub async fn forget_unkept_in(path: &std::path::Path) -> Result<u64, StoreError> {
    use sqlx::Connection;
    let options = sqlx::sqlite::SqliteConnectOptions::new().filename(path).pragma("secure_delete", "ON");
    let mut connection = sqlx::SqliteConnection::connect_with(&options).await?;
    // The backup taken before an upgrade copies a database older than incognito chats.
    let (has,): (bool,) =
        sqlx::query_as("SELECT count(*) > 0 FROM pragma_table_info('conversations') WHERE name = 'incognito'").fetch_one(&mut connection).await?;
    let unkept = if has {
        "SELECT id FROM conversations WHERE incognito = 1 OR deleted_at IS NOT NULL"
    } else {
        "SELECT id FROM conversations WHERE deleted_at IS NOT NULL"
    };
    let ids: Vec<(i64,)> = sqlx::query_as(unkept).fetch_all(&mut connection).await?;
    if !ids.is_empty() {
        let mut tx = connection.begin().await?;
        for (id,) in &ids {
            remove(&mut tx, *id).await?;
        }
        tx.commit().await?;
        sqlx::query("VACUUM").execute(&mut connection).await?;
    }
    connection.close().await?;
    Ok(ids.len() as u64)
}

/// A title from what was said first: one line, cut at the last whole word that fits.
fn first_words(text: &str) -> String {
    let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match line.char_indices().nth(TITLE_CHARS) {
        Some((cut, _)) => {
            let head = &line[..cut];
            let words = if line[cut..].starts_with(' ') { head } else { head.rsplit_once(' ').map_or(head, |(w, _)| w) };
            format!("{}…", words.trim_end())
        }
        None => line,
    }
}

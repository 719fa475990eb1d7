//! Conversations brought in from elsewhere (a ChatGPT or Claude export, JSON lines):
//! each stored as one archived conversation (searchable, never the current one) in
//! one transaction, so an import is fast (one commit, not one per message) and a
//! crash or a full disk leaves whole conversations or none.

use super::{Store, StoreError};
use sidecar_domain::Role;

/// A message as another app kept it.
#[derive(Debug, Clone, Copy)]
pub struct ImportedTurn<'a> {
    pub role: Role,
    pub content: &'a str,
    /// When it was said, in the store's form; `None`: now.
    pub timestamp: Option<&'a str>,
    /// Its id in the other app.
    pub external_id: Option<&'a str>,
}

/// What archiving one conversation did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Archived {
    /// The new conversation; `None` when every message was there already.
    pub conversation_id: Option<i64>,
    pub stored: usize,
    pub already: usize,
}

/// Archived conversations. A handle on the store: `store.archives()`.
pub struct Archives<'a> {
    pub(super) store: &'a Store,
}

impl Archives<'_> {
    /// Stores the turns not already in Sidecar as one archived conversation titled
    /// `title`. A message is already there when the same id from the other app has the
    /// same words or, with no id, the same role said the same words at the same time
    /// (ids alone could collide between two apps' exports); checked against what is
    /// stored so far, so a message twice in one file is kept once.
    pub async fn archive(&self, title: Option<&str>, turns: &[ImportedTurn<'_>]) -> Result<Archived, StoreError> {
        let mut tx = self.store.write_transaction().await?;
        let now = self.store.now();
        let mut done = Archived::default();
        for turn in turns {
            if already_there(&mut tx, turn).await? {
                done.already += 1;
                continue;
            }
            let conversation = match done.conversation_id {
                Some(id) => id,
                None => {
                    let title = title.map(str::trim).filter(|t| !t.is_empty());
                    let (id,): (i64,) = sqlx::query_as("INSERT INTO conversations (created_at, updated_at, archived, title) VALUES (?, ?, 1, ?) RETURNING id")
                        .bind(&now)
                        .bind(&now)
                        .bind(title)
                        .fetch_one(&mut *tx)
                        .await?;
                    *done.conversation_id.insert(id)
                }
            };
            sqlx::query("INSERT INTO messages (conversation_id, role, content, status, created_at, external_id) VALUES (?, ?, ?, 'complete', ?, ?)")
                .bind(conversation)
                .bind(turn.role.as_str())
                .bind(turn.content)
                .bind(turn.timestamp.unwrap_or(&now))
                .bind(turn.external_id)
                .execute(&mut *tx)
                .await?;
            done.stored += 1;
        }
        tx.commit().await?;
        Ok(done)
    }
}

async fn already_there(tx: &mut sqlx::SqliteConnection, turn: &ImportedTurn<'_>) -> Result<bool, StoreError> {
    let found: Option<(i64,)> = match (turn.external_id, turn.timestamp) {
        (Some(id), _) => {
            sqlx::query_as("SELECT 1 FROM messages WHERE external_id = ? AND content = ? LIMIT 1").bind(id).bind(turn.content).fetch_optional(&mut *tx).await?
        }
        (None, Some(at)) => {
            sqlx::query_as("SELECT 1 FROM messages WHERE created_at = ? AND role = ? AND content = ? LIMIT 1")
                .bind(at)
                .bind(turn.role.as_str())
                .bind(turn.content)
                .fetch_optional(&mut *tx)
                .await?
        }
        // Nothing to know it by: a line with no id and no time is always new.
        (None, None) => None,
    };
    Ok(found.is_some())
}

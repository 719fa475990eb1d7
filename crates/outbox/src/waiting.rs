//! The stored outbox (DT-8): what a phone (Telegram, WhatsApp) could not take when it was
//! sent, held in the database until it can, then sent once, in the order it was held.
//! The table is `outbox_waiting`; the router decides what is held and when it is sent.
//!
//! A row leaves the table only once its phone took it. A send cut off (Sidecar quit or
//! crashed while the phone's send was retrying; the row still marked `sending_at` at the
//! next start) is sent again: dropping it would lose every message a quit caught while
//! the network was gone, and the phone can only have it twice if the cut fell in the
//! moment between its server taking it and the row leaving.

use chrono::{DateTime, Utc};

use crate::outgoing::Outgoing;
use crate::sink_preferences::SinkId;
use sidecar_store::Store;
use sidecar_store::StoreError;

/// A held message older than this is not sent: a reminder or a task's result a day late
/// on the phone says nothing the user can still act on, and the desktop has it.
const MAX_WAIT: chrono::Duration = chrono::Duration::hours(24);

/// A message held for a phone.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Held {
    pub id: i64,
    pub message: Outgoing,
    pub held_at: DateTime<Utc>,
}

/// The outbox's rows.
#[derive(Clone)]
pub(crate) struct WaitingRows {
    store: Store,
}

impl WaitingRows {
    pub(crate) fn new(store: Store) -> Self {
        Self { store }
    }

    /// Holds `message` for `sink`, behind what is already waiting for it; a reminder's
    /// occurrence held before for the same sink is not held twice. Returns whether it
    /// was held now.
    pub(crate) async fn hold(&self, sink: SinkId, message: &Outgoing, why: &str) -> Result<bool, StoreError> {
        // Strings, numbers and enums of its own: an Outgoing always serialises.
        let json = serde_json::to_string(message).expect("an Outgoing serialises");
        let done = sqlx::query("INSERT OR IGNORE INTO outbox_waiting (sink, message, occurrence, held_at, last_error) VALUES (?, ?, ?, ?, ?)")
            .bind(sink.as_str())
            .bind(json)
            .bind(&message.occurrence)
            .bind(self.store.now())
            .bind(why)
            .execute(self.store.pool())
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// The oldest message waiting for `sink`. A row that cannot be read (written by
    /// hand, or by another version) is dropped with a warning, not retried for ever.
    pub(crate) async fn next(&self, sink: SinkId) -> Result<Option<Held>, StoreError> {
        loop {
            let row: Option<(i64, String, String)> =
                sqlx::query_as("SELECT id, message, held_at FROM outbox_waiting WHERE sink = ? AND sending_at IS NULL ORDER BY id LIMIT 1")
                    .bind(sink.as_str())
                    .fetch_optional(self.store.pool())
                    .await?;
            let Some((id, json, held_at)) = row else { return Ok(None) };
            let message = serde_json::from_str::<Outgoing>(&json).map_err(|error| error.to_string());
            let held_at = DateTime::parse_from_rfc3339(&held_at).map(|at| at.with_timezone(&Utc)).map_err(|error| error.to_string());
            match (message, held_at) {
                (Ok(message), Ok(held_at)) => return Ok(Some(Held { id, message, held_at })),
                (Err(error), _) | (_, Err(error)) => {
                    tracing::warn!(id, sink = sink.as_str(), %error, "a message held for a phone cannot be read; it is dropped");
                    self.sent(id).await?;
                }
            }
        }
    }

    /// How many messages wait for `sink` (a send under way included).
    pub(crate) async fn count(&self, sink: SinkId) -> Result<i64, StoreError> {
        Ok(sqlx::query_scalar("SELECT COUNT(*) FROM outbox_waiting WHERE sink = ?").bind(sink.as_str()).fetch_one(self.store.pool()).await?)
    }

    /// Marks a send of `id` under way (see the module's docs).
    pub(crate) async fn sending(&self, id: i64) -> Result<(), StoreError> {
        sqlx::query("UPDATE outbox_waiting SET sending_at = ?, attempts = attempts + 1 WHERE id = ?")
            .bind(self.store.now())
            .bind(id)
            .execute(self.store.pool())
            .await?;
        Ok(())
    }

    /// The phone took `id`: it leaves the outbox.
    pub(crate) async fn sent(&self, id: i64) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM outbox_waiting WHERE id = ?").bind(id).execute(self.store.pool()).await?;
        Ok(())
    }

    /// The phone refused `id` again: it waits on, with why.
    pub(crate) async fn failed(&self, id: i64, why: &str) -> Result<(), StoreError> {
        sqlx::query("UPDATE outbox_waiting SET sending_at = NULL, last_error = ? WHERE id = ?").bind(why).bind(id).execute(self.store.pool()).await?;
        Ok(())
    }

    /// Frees the sends cut off by the last quit or crash (at start), and drops what
    /// waited past [`MAX_WAIT`]; returns (freed, dropped).
    pub(crate) async fn tidy(&self, starting: bool) -> Result<(u64, u64), StoreError> {
        let freed = if starting {
            sqlx::query("UPDATE outbox_waiting SET sending_at = NULL WHERE sending_at IS NOT NULL").execute(self.store.pool()).await?.rows_affected()
        } else {
            0
        };
        let before = sidecar_store::utc(self.store.clock().now() - MAX_WAIT);
        let old =
            sqlx::query("DELETE FROM outbox_waiting WHERE held_at < ? AND sending_at IS NULL").bind(before).execute(self.store.pool()).await?.rows_affected();
        Ok((freed, old))
    }
}

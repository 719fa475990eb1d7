//! What the phone channels remember: the message ids already taken in (so a
//! duplicate, a redelivery after a reconnect or a restart, is dropped: W4) and each
//! channel's cursor (Telegram's next update id), and the spontaneous messages each
//! delivered, so a reaction on one can be told to what it was about.

use chrono::{DateTime, Utc};

use sidecar_domain::Channel;
use sidecar_outbox::MessageType;
use sidecar_store::Store;
use sidecar_store::StoreError;

/// Seen ids older than this are forgotten; no channel redelivers that late.
const KEEP_SEEN_DAYS: i64 = 30;

/// A handle on the store: `store.channel_marks()`.
pub(crate) struct ChannelMarks<'a> {
    store: &'a Store,
}

impl ChannelMarks<'_> {
    /// Records `message_id` as taken in; false if it already was (a duplicate).
    pub(crate) async fn first_sight(&self, channel: Channel, message_id: &str) -> Result<bool, StoreError> {
        let done = sqlx::query("INSERT OR IGNORE INTO channel_seen (channel, message_id, seen_at) VALUES (?, ?, ?)")
            .bind(channel)
            .bind(message_id)
            .bind(self.store.now())
            .execute(self.store.pool())
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Forgets seen ids and sent messages older than the keeping period; returns how many.
    pub(crate) async fn forget_old(&self) -> Result<u64, StoreError> {
        let before = sidecar_store::utc(self.store.clock().now() - chrono::Duration::days(KEEP_SEEN_DAYS));
        let seen = sqlx::query("DELETE FROM channel_seen WHERE seen_at < ?").bind(&before).execute(self.store.pool()).await?;
        let sent = sqlx::query("DELETE FROM channel_sent WHERE sent_at < ?").bind(&before).execute(self.store.pool()).await?;
        Ok(seen.rows_affected() + sent.rows_affected())
    }

    /// Records that the channel delivered a spontaneous message of `kind` as `remote_id`.
    pub(crate) async fn sent_spontaneous(&self, channel: Channel, remote_id: &str, kind: MessageType) -> Result<(), StoreError> {
        sqlx::query("INSERT OR REPLACE INTO channel_sent (channel, remote_id, kind, sent_at) VALUES (?, ?, ?, ?)")
            .bind(channel)
            .bind(remote_id)
            .bind(kind.as_str())
            .bind(self.store.now())
            .execute(self.store.pool())
            .await?;
        Ok(())
    }

    /// The kind and the time of the spontaneous message the channel delivered as
    /// `remote_id`; `None` for any other message.
    pub(crate) async fn spontaneous_sent(&self, channel: Channel, remote_id: &str) -> Result<Option<(MessageType, DateTime<Utc>)>, StoreError> {
        let row: Option<(String, String)> = sqlx::query_as("SELECT kind, sent_at FROM channel_sent WHERE channel = ? AND remote_id = ?")
            .bind(channel)
            .bind(remote_id)
            .fetch_optional(self.store.pool())
            .await?;
        Ok(row.and_then(|(kind, at)| Some((MessageType::named(&kind)?, DateTime::parse_from_rfc3339(&at).ok()?.with_timezone(&Utc)))))
    }

    pub(crate) async fn cursor(&self, channel: Channel) -> Result<Option<String>, StoreError> {
        Ok(sqlx::query_scalar("SELECT value FROM channel_cursor WHERE channel = ?").bind(channel).fetch_optional(self.store.pool()).await?)
    }

    pub(crate) async fn set_cursor(&self, channel: Channel, value: &str) -> Result<(), StoreError> {
        sqlx::query("INSERT INTO channel_cursor (channel, value) VALUES (?, ?) ON CONFLICT(channel) DO UPDATE SET value = excluded.value")
            .bind(channel)
            .bind(value)
            .execute(self.store.pool())
            .await?;
        Ok(())
    }
}

/// The store's seam to these rows: `store.channel_marks()`, with this trait in scope.
pub(crate) trait ChannelMarksStore {
    fn channel_marks(&self) -> ChannelMarks<'_>;
}

impl ChannelMarksStore for Store {
    fn channel_marks(&self) -> ChannelMarks<'_> {
        ChannelMarks { store: self }
    }
}

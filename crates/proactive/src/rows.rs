//! The proactive config and state rows, and the reads the spontaneous loop makes fresh
//! at every tick (the user's last message, the pending reminders).

use chrono::{DateTime, Utc};

use crate::config::ProactiveConfig;
use crate::state::ProactiveState;
use sidecar_store::Store;
use sidecar_store::StoreError;

/// The spontaneous loop's config and state. A handle on the store: `store.proactive()`.
pub struct ProactiveRows<'a> {
    store: &'a Store,
}

impl ProactiveRows<'_> {
    /// The saved config; a row that no longer parses (a hand edit, a downgrade) reads
    /// as the defaults, with a warning, rather than stopping reminders.
    pub(crate) async fn proactive_config(&self) -> Result<ProactiveConfig, StoreError> {
        let (json,): (String,) = sqlx::query_as("SELECT config FROM proactive WHERE id = 1").fetch_one(self.store.pool()).await?;
        Ok(serde_json::from_str(&json).unwrap_or_else(|error| {
            tracing::warn!(%error, "the saved proactivity settings could not be read; using the defaults");
            ProactiveConfig::default()
        }))
    }

    pub(crate) async fn save_proactive_config(&self, config: &ProactiveConfig) -> Result<(), StoreError> {
        let json = serde_json::to_string(config).expect("config serialises");
        sqlx::query("UPDATE proactive SET config = ? WHERE id = 1").bind(json).execute(self.store.pool()).await?;
        Ok(())
    }

    pub async fn proactive_state(&self) -> Result<ProactiveState, StoreError> {
        let (json,): (String,) = sqlx::query_as("SELECT state FROM proactive WHERE id = 1").fetch_one(self.store.pool()).await?;
        Ok(serde_json::from_str(&json).unwrap_or_else(|error| {
            tracing::warn!(%error, "the proactive state could not be read; starting from a clean one");
            ProactiveState::default()
        }))
    }

    /// Reads the state, lets `change` edit it, and writes it back, in one write
    /// transaction: two writers (a tick and a chat command) cannot lose each other's
    /// change.
    pub(crate) async fn update_proactive_state<T>(&self, change: impl FnOnce(&mut ProactiveState) -> T) -> Result<(ProactiveState, T), StoreError> {
        let mut tx = self.store.write_transaction().await?;
        let (json,): (String,) = sqlx::query_as("SELECT state FROM proactive WHERE id = 1").fetch_one(&mut *tx).await?;
        let mut state: ProactiveState = serde_json::from_str(&json).unwrap_or_default();
        let out = change(&mut state);
        sqlx::query("UPDATE proactive SET state = ? WHERE id = 1").bind(serde_json::to_string(&state).expect("state serialises")).execute(&mut *tx).await?;
        tx.commit().await?;
        Ok((state, out))
    }

    /// A spontaneous message's kind (greeting, checkin, contextual) and the channel it
    /// was kept on; `None` when `message_id` is not one.
    pub(crate) async fn spontaneous_kind(&self, message_id: i64) -> Result<Option<(sidecar_outbox::MessageType, sidecar_domain::Channel)>, StoreError> {
        use sidecar_domain::Channel;
        let row: Option<(Option<String>, Option<Channel>)> =
            sqlx::query_as("SELECT json_extract(meta, '$.proactive'), channel FROM messages WHERE id = ? AND role = 'assistant'")
                .bind(message_id)
                .fetch_optional(self.store.pool())
                .await?;
        Ok(row.and_then(|(kind, channel)| {
            // A reminder's mark ("reminder") names no kind of spontaneous message.
            let kind = sidecar_outbox::MessageType::named(&kind?)?;
            Some((kind, channel.unwrap_or(Channel::Desktop)))
        }))
    }

    /// The newest user messages of any conversation but an incognito one, newest first
    /// (their time and text), for finding the last one that was not a command.
    pub(crate) async fn latest_user_messages(&self, limit: u32) -> Result<Vec<(DateTime<Utc>, String)>, StoreError> {
        let rows: Vec<(String, String)> = sqlx::query_as(
            "SELECT created_at, content FROM messages
             WHERE role = 'user' AND conversation_id NOT IN (SELECT id FROM conversations WHERE incognito = 1) ORDER BY id DESC LIMIT ?",
        )
        .bind(limit)
        .fetch_all(self.store.pool())
        .await?;
        Ok(rows.into_iter().filter_map(|(at, text)| DateTime::parse_from_rfc3339(&at).ok().map(|t| (t.with_timezone(&Utc), text))).collect())
    }
}

/// The store's seam to these rows: `store.proactive()`, with this trait in scope.
pub trait ProactiveStore {
    fn proactive(&self) -> ProactiveRows<'_>;
}

impl ProactiveStore for Store {
    fn proactive(&self) -> ProactiveRows<'_> {
        ProactiveRows { store: self }
    }
}

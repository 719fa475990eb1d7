//! Tidying what is kept: conversations past the user's retention (only when they set
//! one: by default everything is kept), the oldest chats past the user's size limit
//! (the seeds' purge; never a pinned chat, the current one or a fact, which lives in
//! the memory files), conversations deleted a day ago, vectors whose message is gone,
//! and self-corrections past their time. Nothing the user wrote goes unless they said
//! so; a copy of it in a log is the agent's to cap.

use serde::Serialize;

use sidecar_domain::Clock;
use sidecar_memory::MeaningIndex;
use sidecar_settings::RetentionSettings;
use sidecar_store::Store;
use sidecar_store::StoreError;

/// How often the tidy runs while Sidecar runs, when the user keeps it often (the
/// seeds' 30 minutes: a size limit or an idle chat is seen to within that).
pub const TIDY_OFTEN: std::time::Duration = std::time::Duration::from_secs(30 * 60);

/// How long until the next tidy under `retention`: [`TIDY_OFTEN`], or a day.
pub fn tidy_every(retention: &RetentionSettings) -> std::time::Duration {
    if retention.tidy_often {
        TIDY_OFTEN
    } else {
        std::time::Duration::from_secs(24 * 3600)
    }
}

/// A deletion older than this is past any undo.
const DELETED_FOR_GOOD_AFTER: chrono::Duration = chrono::Duration::days(1);

/// What one tidy did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct TidyReport {
    /// Conversations past the retention, deleted now (removed for good a day later).
    pub conversations_expired: u64,
    /// Conversations deleted more than a day ago, removed for good.
    pub conversations_removed: u64,
    /// Vectors whose message, summary or checkpoint is gone.
    pub vectors_removed: usize,
    /// Self-corrections past their time.
    pub corrections_removed: u64,
    /// The oldest chats removed for good to keep the database under the size limit.
    pub conversations_over_size: u64,
    /// What the database's rows take after the tidy, in bytes.
    pub used_bytes: u64,
    /// A size limit is set and what is left cannot go (pinned chats, the current one,
    /// reminders, the mail and calendar kept here): the database stays over it.
    pub still_over_size: bool,
}

/// Tidies the store now under the user's `retention`.
pub(crate) async fn tidy(store: &Store, meaning: &MeaningIndex, clock: &Clock, retention: &RetentionSettings) -> Result<TidyReport, StoreError> {
    let now = clock.now();
    let current = store.conversations().current_conversation().await?;
    let conversations_expired = match retention.keep_days {
        Some(days) => {
            let before = sidecar_store::utc(now - chrono::Duration::days(i64::from(days)));
            store.chat_list().expire_untouched(&before, current).await?
        }
        None => 0,
    };
    let conversations_removed = store.chat_list().purge_deleted(&sidecar_store::utc(now - DELETED_FOR_GOOD_AFTER)).await?;
    let vectors_removed = meaning.forget_orphans().await?;
    let corrections_removed = store.corrections().purge_expired_corrections(now).await?;
    let (conversations_over_size, used_bytes, still_over_size) = match retention.max_size_mb {
        Some(megabytes) => keep_under(store, meaning, current, u64::from(megabytes) * MEGABYTE).await?,
        None => (0, store.used_bytes().await?, false),
    };
    let report =
        TidyReport { conversations_expired, conversations_removed, vectors_removed, corrections_removed, conversations_over_size, used_bytes, still_over_size };
    tracing::info!(?report, keep_days = retention.keep_days, max_size_mb = retention.max_size_mb, "tidied what is kept");
    Ok(report)
}

/// A megabyte as Settings says it (and as file managers show sizes): 10^6 bytes.
const MEGABYTE: u64 = 1_000_000;

/// Removes the oldest chats, one at a time, until the rows fit in `max_bytes`, then
/// gives the room back to the disk. Returns (removed, bytes used after, still over).
async fn keep_under(store: &Store, meaning: &MeaningIndex, current: i64, max_bytes: u64) -> Result<(u64, u64, bool), StoreError> {
    let mut removed = 0;
    let mut used = store.used_bytes().await?;
    while used > max_bytes {
        let Some(id) = store.chat_list().remove_oldest(current).await? else { break };
        // Its vectors go with it, or the next measure would count them still.
        meaning.forget_orphans().await?;
        removed += 1;
        used = store.used_bytes().await?;
        tracing::info!(conversation_id = id, used, max_bytes, "an old chat removed to keep under the size limit");
    }
    if removed > 0 {
        store.compact().await?;
        used = store.used_bytes().await?;
    }
    if used > max_bytes {
        tracing::warn!(used, max_bytes, "the database stays over the size limit: what is left is pinned, current or not a chat");
    }
    Ok((removed, used, used > max_bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tidy_runs_every_thirty_minutes_as_the_seeds_ask_or_once_a_day() {
        assert_eq!(tidy_every(&RetentionSettings::default()), std::time::Duration::from_secs(30 * 60), "on by default");
        let daily = RetentionSettings { tidy_often: false, ..Default::default() };
        assert_eq!(tidy_every(&daily), std::time::Duration::from_secs(24 * 3600));
    }
}

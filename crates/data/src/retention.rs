//! Tidying what is kept: conversations past the user's retention (only when they set
//! one: by default everything is kept), conversations deleted a day ago, vectors whose
//! message is gone, and self-corrections past their time. Nothing the user wrote goes
//! unless they said so; a copy of it in a log is the agent's to cap.

use serde::Serialize;

use sidecar_domain::Clock;
use sidecar_memory::MeaningIndex;
use sidecar_store::Store;
use sidecar_store::StoreError;

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
}

/// Tidies the store now; `keep_days` is the user's retention (`None`: keep everything).
pub(crate) async fn tidy(store: &Store, meaning: &MeaningIndex, clock: &Clock, keep_days: Option<u32>) -> Result<TidyReport, StoreError> {
    let now = clock.now();
    let conversations_expired = match keep_days {
        Some(days) => {
            let current = store.conversations().current_conversation().await?;
            let before = sidecar_store::utc(now - chrono::Duration::days(i64::from(days)));
            store.chat_list().expire_untouched(&before, current).await?
        }
        None => 0,
    };
    let conversations_removed = store.chat_list().purge_deleted(&sidecar_store::utc(now - DELETED_FOR_GOOD_AFTER)).await?;
    let vectors_removed = meaning.forget_orphans().await?;
    let corrections_removed = store.corrections().purge_expired_corrections(now).await?;
    let report = TidyReport { conversations_expired, conversations_removed, vectors_removed, corrections_removed };
    tracing::info!(?report, keep_days, "tidied what is kept");
    Ok(report)
}

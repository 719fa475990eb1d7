//! The companion's memory, as the faces reach it: facts, the knowledge files and their
//! watch, recall (by words and by meaning), and the user's data (backups, imports).

use std::sync::Arc;

use super::Companion;
use crate::error::CompanionError;
use sidecar_memory::Category;
use sidecar_memory::KnowledgeStore;
use sidecar_memory::SaveOutcome;

impl Companion {
    /// Saves a fact directly (CLI, Memory view); not limited per turn, and a turn
    /// running meanwhile keeps its own count.
    pub async fn remember(&self, text: &str, category: Category) -> Result<SaveOutcome, CompanionError> {
        Ok(self.knowledge.save(text, category, self.clock.local_today()).await?)
    }

    /// [`Companion::remember`] of a fact the user said in message `from` (a "Remember
    /// this?" kept), noted as learned there.
    pub async fn remember_from(&self, text: &str, category: Category, from: i64) -> Result<SaveOutcome, CompanionError> {
        Ok(self.knowledge.save_from(text, category, self.clock.local_today(), from).await?)
    }

    /// Recall itself, for a search in a chosen mode.
    pub fn recall_service(&self) -> &Arc<sidecar_memory::Recall> {
        &self.recall
    }

    /// Recall by meaning: its embedder, vectors and background work.
    pub fn meaning(&self) -> &Arc<sidecar_memory::MeaningIndex> {
        self.recall.meaning()
    }

    /// Settings → Memory: which embedder recall by meaning uses.
    pub fn meaning_setup(&self) -> &Arc<sidecar_memory::MeaningSetup> {
        &self.meaning_setup
    }

    /// "Remember this?": whether noticed facts are saved without asking.
    pub fn noticing(&self) -> &Arc<sidecar_memory::Noticing> {
        &self.noticing
    }

    /// Backups, export and imports.
    pub fn data(&self) -> &Arc<sidecar_data::DataService> {
        &self.data
    }

    /// Tidies what is kept under the user's retention (`[retention] keep_days`; by
    /// default everything is kept): Settings → Your data → Tidy now, and once a day.
    pub async fn tidy(&self) -> Result<sidecar_data::TidyReport, sidecar_data::DataError> {
        self.data.tidy(self.models().settings().retention.keep_days).await
    }

    /// Sets how long conversations are kept (`None`: everything); refused below a week.
    pub fn set_keep_days(&self, days: Option<u32>) -> Result<(), CompanionError> {
        let allowed = sidecar_settings::KEEP_DAYS;
        if days.is_some_and(|days| !allowed.contains(&days)) {
            let (low, high) = (allowed.start().to_string(), allowed.end().to_string());
            return Err(sidecar_settings::OutOfRange { name: "retention.keep_days", low, high }.into());
        }
        self.models().settings_owner().change(sidecar_settings::Change::KeepDays(days))?;
        Ok(())
    }

    /// The daily tidy, first a few minutes after start (not to slow it).
    pub(crate) async fn run_daily_tidy(self: Arc<Self>) {
        tokio::time::sleep(std::time::Duration::from_secs(300)).await;
        loop {
            if let Err(error) = self.tidy().await {
                tracing::warn!(%error, "the daily tidy failed; it is tried again tomorrow");
            }
            tokio::time::sleep(std::time::Duration::from_secs(24 * 3600)).await;
        }
    }

    pub fn knowledge(&self) -> &Arc<KnowledgeStore> {
        &self.knowledge
    }

    /// A task (for the caller's runtime) that picks up edits to the knowledge files
    /// made outside Sidecar, checking every `interval`.
    pub fn watch_knowledge(&self, interval: std::time::Duration) -> impl std::future::Future<Output = ()> + Send + 'static {
        sidecar_memory::watch(self.knowledge.clone(), self.events.emitter(crate::events::CoreEvent::Memory), interval)
    }
}

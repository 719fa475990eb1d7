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

    /// Tidies what is kept under the user's `[retention]` (by default everything is
    /// kept): Settings → Your data → Tidy now, and the tidy loop. The current chat left
    /// idle past `close_idle_hours` is closed first, so the limits see it as an old one.
    pub async fn tidy(&self) -> Result<sidecar_data::TidyReport, CompanionError> {
        let retention = self.models().settings().retention.clone();
        if let Some(hours) = retention.close_idle_hours {
            self.context().close_idle(hours).await?;
        }
        Ok(self.data.tidy(&retention).await?)
    }

    /// Sets what is kept and how often Sidecar tidies; a limit outside what Settings
    /// offers is refused, naming it.
    pub fn set_retention(&self, retention: sidecar_settings::RetentionSettings) -> Result<(), CompanionError> {
        retention.check()?;
        self.models().settings_owner().change(sidecar_settings::Change::Retention(retention))?;
        Ok(())
    }

    /// The tidy, first a few minutes after start (not to slow it), then every 30 minutes
    /// while Sidecar runs, or once a day when the user chose so (read again each time).
    pub(crate) async fn run_tidy(self: Arc<Self>) {
        tokio::time::sleep(std::time::Duration::from_secs(300)).await;
        loop {
            if let Err(error) = self.tidy().await {
                tracing::warn!(%error, "the tidy failed; it is tried again at the next one");
            }
            tokio::time::sleep(sidecar_data::tidy_every(&self.models().settings().retention)).await;
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

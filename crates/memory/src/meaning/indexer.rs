//! The meaning index: owns the embedder, the in-memory vectors and the background
//! work that keeps them complete.
//!
//! - Nothing waits for it: a turn stores its messages and returns; the indexer embeds
//!   them afterwards, in batches, newest first.
//! - Work is "whatever has no vector under the current model", so a crash or a quit
//!   loses at most one batch, and the next start resumes.
//! - A new model (Settings) re-embeds everything in the background, publishing its
//!   progress; the old model's vectors stay until it is done (an interrupted or undone
//!   switch loses nothing), and recall uses words alone meanwhile: half an index would
//!   rank only what happened to be embedded first.
//! - When the embedder cannot run, [`MeaningIndex::nearest`] says why and recall falls
//!   back to keywords; nothing fails because of it.
//!
//! Over 400 lines: the embedder's life, the vectors and the background work share one
//! lock and one "current model"; apart they would each need the other's state.

use crate::meaning::rows::EmbeddingsStore;
use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use serde::Serialize;

use super::choice::EmbedderChoice;
use super::density;
use super::e5::LocalE5;
use super::gemma::{GemmaEmbedder, GemmaFiles};
use super::remote::RemoteEmbedder;
use super::vectors::{ItemKind, Key, Quantized, VectorIndex};
use super::{EmbedError, Embedder, TextKind};
use crate::knowledge::events::MemoryEvent;
use crate::knowledge::meaning::Thresholds;
use crate::knowledge::store::KnowledgeStore;
use crate::meaning::rows::PendingText;
use sidecar_domain::Emitter;
use sidecar_domain::Memo;
use sidecar_domain::Subscriber;
use sidecar_store::Store;

/// Texts embedded per call: large enough to use every core, small enough that a quit
/// loses little and progress moves visibly.
const BATCH: u32 = 16;
/// How often the loop looks for work nobody announced (imports by another process).
const IDLE_LOOK: Duration = Duration::from_secs(30);
/// Questions whose vectors are kept (768 bytes each with EmbeddingGemma): the same
/// question comes back (a reply regenerated, the model's `recall` after the prompt's,
/// a second hop's names), and its embedding is most of a recall.
const QUERIES_KEPT: usize = 512;

/// Where the index stands, for Settings and `sidecar memory status`.
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum MeaningState {
    /// Not loaded yet (it loads on first need or when the background loop starts).
    Idle,
    Ready {
        model: String,
    },
    /// Recall uses keywords only; `reason` says why and what to do.
    Unavailable {
        reason: String,
    },
    Off,
}

#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
pub struct MeaningStatus {
    #[serde(flatten)]
    pub state: MeaningState,
    /// Items with a vector, and items that should have one.
    pub embedded: u64,
    pub total: u64,
}

pub struct MeaningIndex {
    store: Store,
    knowledge: Arc<KnowledgeStore>,
    events: Emitter<MemoryEvent>,
    /// Told when messages or facts were stored: there may be more to embed.
    stored: Subscriber<()>,
    http: reqwest::Client,
    choice: Mutex<EmbedderChoice>,
    /// The loaded embedder, or why there is none.
    loaded: tokio::sync::Mutex<Option<Result<Arc<dyn Embedder>, EmbedError>>>,
    /// The loaded embedder's (e5-small's until one is loaded).
    thresholds: Mutex<Thresholds>,
    /// Where a server the embedder runs as (EmbeddingGemma) writes its log.
    log_dir: PathBuf,
    vectors: RwLock<VectorIndex>,
    state: Mutex<MeaningState>,
    /// The knowledge version whose facts have vectors.
    facts_version: Mutex<Option<u64>>,
    /// How many vectors there were when every density was last measured: each new
    /// vector gets one against the index as it is, and when the index has grown by a
    /// quarter they are all measured again.
    measured_at: Mutex<usize>,
    /// The embedder changed and has not embedded everything yet.
    reindexing: AtomicBool,
    wake: tokio::sync::Notify,
    /// Questions already embedded, by model and text ([`MeaningIndex::query`]).
    asked: Memo<(String, String), Quantized>,
    /// The computer, once the assembly gives it: on a low battery the background
    /// indexing waits (DT-3).
    computer: std::sync::OnceLock<Arc<dyn sidecar_computer::Computer>>,
}

impl MeaningIndex {
    pub fn new(
        store: Store,
        knowledge: Arc<KnowledgeStore>,
        events: Emitter<MemoryEvent>,
        stored: Subscriber<()>,
        http: reqwest::Client,
        choice: EmbedderChoice,
        log_dir: PathBuf,
    ) -> Self {
        Self {
            store,
            knowledge,
            events,
            stored,
            http,
            choice: Mutex::new(choice),
            loaded: tokio::sync::Mutex::new(None),
            thresholds: Mutex::new(Thresholds::default()),
            log_dir,
            vectors: RwLock::new(VectorIndex::default()),
            state: Mutex::new(MeaningState::Idle),
            facts_version: Mutex::new(None),
            measured_at: Mutex::new(0),
            reindexing: AtomicBool::new(false),
            wake: tokio::sync::Notify::new(),
            asked: Memo::new(QUERIES_KEPT),
            computer: std::sync::OnceLock::new(),
        }
    }

    /// Where the battery is read from: a local embedder waits while it is low.
    pub fn save_power_with(&self, computer: Arc<dyn sidecar_computer::Computer>) {
        let _ = self.computer.set(computer);
    }

    /// A local model would embed on a low battery: the background pass waits. A remote
    /// endpoint costs the battery nothing much, and a question asked now is embedded
    /// whatever the battery (the user is waiting for it).
    async fn waits_for_power(&self) -> bool {
        let Some(computer) = self.computer.get() else { return false };
        let local = !matches!(*self.choice.lock().expect("choice lock"), EmbedderChoice::Remote { .. } | EmbedderChoice::Off);
        local && computer.state().await.saving_power()
    }

    /// Switches embedder: the next use loads it, drops other models' vectors and
    /// re-embeds in the background.
    pub async fn configure(&self, choice: EmbedderChoice) {
        *self.choice.lock().expect("choice lock") = choice;
        *self.loaded.lock().await = None;
        *self.vectors.write().expect("vectors lock") = VectorIndex::default();
        *self.facts_version.lock().expect("facts lock") = None;
        *self.measured_at.lock().expect("measured lock") = 0;
        self.set_state(MeaningState::Idle);
        self.wake.notify_one();
    }

    /// Asks the background loop to look for new work now.
    pub fn wake(&self) {
        self.wake.notify_one();
    }

    pub fn state(&self) -> MeaningState {
        self.state.lock().expect("state lock").clone()
    }

    pub async fn status(&self) -> MeaningStatus {
        let embedded = self.vectors.read().expect("vectors lock").len() as u64;
        let total = self.store.embeddings().searchable_count().await.unwrap_or(0) + self.knowledge.facts().len() as u64;
        MeaningStatus { state: self.state(), embedded, total: total.max(embedded) }
    }

    /// Bytes the vectors hold in memory.
    pub fn memory_bytes(&self) -> usize {
        self.vectors.read().expect("vectors lock").memory_bytes()
    }

    /// Where the embedder in use puts "the same fact" and "surely about this".
    pub fn thresholds(&self) -> Thresholds {
        *self.thresholds.lock().expect("thresholds lock")
    }

    fn set_state(&self, state: MeaningState) {
        *self.state.lock().expect("state lock") = state;
    }

    /// The embedder, loading it (and the stored vectors) on first use.
    async fn embedder(&self) -> Result<Arc<dyn Embedder>, EmbedError> {
        let mut loaded = self.loaded.lock().await;
        if let Some(result) = loaded.as_ref() {
            return result.clone();
        }
        let choice = self.choice.lock().expect("choice lock").clone();
        let result = self.load(choice).await;
        self.set_state(match &result {
            Ok(embedder) => MeaningState::Ready { model: embedder.model().to_string() },
            Err(EmbedError::Off) => MeaningState::Off,
            Err(e) => MeaningState::Unavailable { reason: e.to_string() },
        });
        *loaded = Some(result.clone());
        // Settings reads the state again on this event: a choice just saved says at once
        // that it is ready or why not, even with nothing to embed.
        let MeaningStatus { embedded, total, .. } = self.status().await;
        self.events.publish(MemoryEvent::MemoryIndexing { embedded, total });
        result
    }

    async fn load(&self, choice: EmbedderChoice) -> Result<Arc<dyn Embedder>, EmbedError> {
        let embedder: Arc<dyn Embedder> = match choice {
            EmbedderChoice::Off => return Err(EmbedError::Off),
            EmbedderChoice::Local(Err(e)) => return Err(EmbedError::Unavailable(e.to_string())),
            EmbedderChoice::Local(Ok(path)) => Arc::new(load_e5(path).await?),
            EmbedderChoice::Gemma(files) => Arc::new(self.start_gemma(files?).await?),
            EmbedderChoice::GemmaOrLight { gemma, light } => match self.start_gemma(gemma).await {
                Ok(gemma) => Arc::new(gemma),
                Err(error) => {
                    tracing::warn!(%error, "EmbeddingGemma did not start: the light embedder is used instead");
                    Arc::new(load_e5(light.map_err(|e| EmbedError::Unavailable(e.to_string()))?).await?)
                }
            },
            EmbedderChoice::Remote { url, model, api_key } => Arc::new(RemoteEmbedder::new(self.http.clone(), &url, &model, api_key)),
        };
        *self.thresholds.lock().expect("thresholds lock") = embedder.thresholds();
        let store_error = |e: sidecar_store::StoreError| EmbedError::Unavailable(e.to_string());
        let switching = self.store.embeddings().other_models_remain(embedder.model()).await.map_err(store_error)?;
        if switching {
            tracing::info!(model = embedder.model(), "the embedding model changed: everything is embedded again, words alone until then");
        }
        self.reindexing.store(switching, Ordering::SeqCst);
        let rows = self.store.embeddings().load(embedder.model()).await.map_err(store_error)?;
        let mut vectors = VectorIndex::default();
        for (key, vector, _) in &rows {
            vectors.insert(*key, vector);
        }
        let densities: Vec<(Key, f32)> = rows.iter().filter_map(|(key, _, density)| Some((*key, (*density)?))).collect();
        vectors.set_densities(&densities);
        *self.measured_at.lock().expect("measured lock") = if vectors.unmeasured() == 0 { vectors.len() } else { 0 };
        *self.vectors.write().expect("vectors lock") = vectors;
        Ok(embedder)
    }

    async fn start_gemma(&self, files: GemmaFiles) -> Result<GemmaEmbedder, EmbedError> {
        GemmaEmbedder::new(files, self.log_dir.join("embedder.log"), self.http.clone()).started().await
    }

    /// Unit vectors of `texts`, as the embedder in use makes them (tool descriptions,
    /// the turns that choose among them).
    pub async fn embed(&self, texts: &[String], kind: super::TextKind) -> Result<Vec<Vec<f32>>, EmbedError> {
        self.embedder().await?.embed(texts, kind).await
    }

    /// `query` embedded for searching; an error says why meaning cannot be used now.
    pub async fn query(&self, query: &str) -> Result<Quantized, EmbedError> {
        let embedder = self.embedder().await?;
        if self.reindexing.load(Ordering::SeqCst) {
            let status = self.status().await;
            return Err(EmbedError::Reindexing { embedded: status.embedded, total: status.total });
        }
        let key = (embedder.model().to_string(), query.to_string());
        if let Some(vector) = self.asked.get(&key) {
            return Ok(vector);
        }
        let asked = [query.to_string()];
        let embedded = match embedder.embed(&asked, TextKind::Query).await {
            // A server busy with a batch of the indexer's, on a loaded machine, may miss
            // one limit: a second try before recall falls back to words (issue 68).
            Err(EmbedError::Slow(why)) => {
                tracing::info!(%why, "the question's embedding took too long; asking once more");
                embedder.embed(&asked, TextKind::Query).await
            }
            other => other,
        };
        let vector = Quantized::from_f32(&embedded?.pop().unwrap_or_default());
        self.asked.insert(key, vector.clone());
        Ok(vector)
    }

    /// The `k` items closest in meaning to `query` (best first), among those `keep` accepts.
    pub(crate) fn nearest(&self, query: &Quantized, k: usize, keep: impl Fn(Key) -> bool) -> Vec<(Key, f32)> {
        self.vectors.read().expect("vectors lock").nearest(query, k, keep)
    }

    /// `keys` that have a vector, most relevant to `query` first (scored as by
    /// [`MeaningIndex::nearest`]).
    pub fn rank(&self, query: &Quantized, keys: &[Key]) -> Vec<(Key, f32)> {
        let index = self.vectors.read().expect("vectors lock");
        let mut ranked: Vec<(Key, f32)> = keys.iter().filter_map(|k| Some((*k, index.relevance(query, *k)?))).collect();
        ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
        ranked
    }

    /// The relevance to `query` of two items read together (an exchange: a turn and the
    /// one beside it), as if their mean vector were searched: the sum of their
    /// relevances over the length of the sum of their vectors.
    pub(crate) fn pair_relevance(&self, query: &Quantized, a: Key, b: Key) -> Option<f32> {
        self.vectors.read().expect("vectors lock").pair_relevance(query, a, b)
    }

    /// The plain cosine of `query` with `key`'s vector.
    pub fn similarity(&self, query: &Quantized, key: Key) -> Option<f32> {
        self.vectors.read().expect("vectors lock").similarity(query, key)
    }

    /// `ranked` with every item whose cosine with one of the first `window` kept items
    /// exceeds `threshold` moved behind the rest (in order), under one lock.
    pub(crate) fn repeats_last<T: Copy>(&self, ranked: Vec<(Key, T)>, window: usize, threshold: f32) -> Vec<(Key, T)> {
        let groups = self.repeat_groups(&ranked, window, threshold);
        let (kept, repeats): (Vec<_>, Vec<_>) = ranked.into_iter().zip(groups).partition(|(_, (_, repeat))| !repeat);
        kept.into_iter().chain(repeats).map(|(item, _)| item).collect()
    }

    /// `ranked` with every such repeat moved to just after the first item it repeats (in
    /// order): the same thing said twice is read together.
    pub(crate) fn repeats_beside<T: Copy>(&self, ranked: Vec<(Key, T)>, window: usize, threshold: f32) -> Vec<(Key, T)> {
        let groups = self.repeat_groups(&ranked, window, threshold);
        let mut placed: Vec<_> = ranked.into_iter().zip(groups).collect();
        placed.sort_by_key(|(_, (group, _))| *group); // stable: each group keeps its order
        placed.into_iter().map(|(item, _)| item).collect()
    }

    /// For each of `ranked`, in order: the place among the kept items of the one it
    /// repeats (cosine above `threshold` with one of the first `window` kept), and
    /// whether it is a repeat; a kept item is its own group.
    fn repeat_groups<T>(&self, ranked: &[(Key, T)], window: usize, threshold: f32) -> Vec<(usize, bool)> {
        let index = self.vectors.read().expect("vectors lock");
        let mut kept: Vec<Key> = Vec::new();
        ranked
            .iter()
            .map(|(key, _)| match kept.iter().take(window).position(|k| index.cosine(*k, *key).is_some_and(|c| c > threshold)) {
                Some(group) => (group, true),
                None => {
                    kept.push(*key);
                    (kept.len() - 1, false)
                }
            })
            .collect()
    }

    /// Embeds what has no vector yet, at most `limit` items (all when `None`),
    /// publishing progress after each batch. Returns how many it embedded.
    pub async fn catch_up(&self, limit: Option<usize>) -> Result<usize, EmbedError> {
        let embedder = self.embedder().await?;
        let mut done = self.sync_facts(embedder.as_ref()).await?;
        if done > 0 {
            self.merge_repeated_facts();
        }
        let mut total: Option<u64> = None;
        loop {
            let room = limit.map_or(BATCH as usize, |l| l.saturating_sub(done).min(BATCH as usize));
            if room == 0 {
                break;
            }
            let pending = self.store.embeddings().pending(embedder.model(), room as u32).await.map_err(|e| EmbedError::Failed(e.to_string()))?;
            if pending.is_empty() {
                self.finish_switch(embedder.model()).await?;
                break;
            }
            // Counted once per pass, not per batch: the count scans every message.
            let total = match total {
                Some(total) => total,
                None => *total.insert(self.status().await.total),
            };
            done += self.embed_and_keep(embedder.as_ref(), pending).await?;
            let embedded = self.vectors.read().expect("vectors lock").len() as u64;
            self.events.publish(MemoryEvent::MemoryIndexing { embedded, total: total.max(embedded) });
        }
        self.measure_densities(embedder.model()).await?;
        Ok(done)
    }

    /// Once a new model has embedded everything: drops the old model's vectors and lets
    /// recall use meaning again.
    async fn finish_switch(&self, model: &str) -> Result<(), EmbedError> {
        if !self.reindexing.load(Ordering::SeqCst) {
            return Ok(());
        }
        let dropped = self.store.embeddings().forget_other_models(model).await.map_err(|e| EmbedError::Failed(e.to_string()))?;
        self.reindexing.store(false, Ordering::SeqCst);
        tracing::info!(dropped, model, "the new embedding model has embedded everything; the old vectors are dropped");
        Ok(())
    }

    /// Measures every density again when the index has grown by a quarter since they
    /// were (away from the lock and off the async threads); otherwise only those
    /// missing.
    async fn measure_densities(&self, model: &str) -> Result<(), EmbedError> {
        let work = {
            let mut index = self.vectors.write().expect("vectors lock");
            let measured_at = *self.measured_at.lock().expect("measured lock");
            if index.len() < density::MIN_ITEMS {
                return Ok(());
            }
            if index.len() * 4 <= measured_at * 5 {
                DensityWork::Missing(index.measure_missing())
            } else {
                DensityWork::All(index.density_job())
            }
        };
        let job = match work {
            DensityWork::Missing(missing) if missing.is_empty() => return Ok(()),
            DensityWork::Missing(missing) => {
                return self.store.embeddings().save_densities(model, &missing).await.map_err(|e| EmbedError::Failed(e.to_string()));
            }
            DensityWork::All(job) => job,
        };
        let count = job.len();
        let densities = tokio::task::spawn_blocking(move || job.run()).await.map_err(|e| EmbedError::Failed(e.to_string()))?;
        self.store.embeddings().save_densities(model, &densities).await.map_err(|e| EmbedError::Failed(e.to_string()))?;
        self.vectors.write().expect("vectors lock").set_densities(&densities);
        *self.measured_at.lock().expect("measured lock") = count;
        tracing::debug!(count, "densities measured");
        Ok(())
    }

    async fn embed_and_keep(&self, embedder: &dyn Embedder, pending: Vec<PendingText>) -> Result<usize, EmbedError> {
        let texts: Vec<String> = pending.iter().map(|p| p.text.clone()).collect();
        let vectors = super::batches::in_calls_that_answer(&texts, |chunk| async move { embedder.embed(&chunk, TextKind::Passage).await }).await?;
        let quantized: Vec<(Key, Quantized, Option<f32>)> = {
            let index = self.vectors.read().expect("vectors lock");
            pending
                .iter()
                .zip(&vectors)
                .map(|(p, v)| {
                    let vector = Quantized::from_f32(v);
                    let density = index.density_of(&vector, Some(p.key));
                    (p.key, vector, density)
                })
                .collect()
        };
        self.store.embeddings().save(embedder.model(), &quantized).await.map_err(|e| EmbedError::Failed(e.to_string()))?;
        let mut index = self.vectors.write().expect("vectors lock");
        for (key, vector, _) in &quantized {
            index.insert(*key, vector);
        }
        let measured: Vec<(Key, f32)> = quantized.iter().filter_map(|(key, _, density)| Some((*key, (*density)?))).collect();
        index.set_densities(&measured);
        Ok(quantized.len())
    }

    /// The cosine of two stored items' vectors.
    pub(super) fn cosine_of(&self, a: Key, b: Key) -> Option<f32> {
        self.vectors.read().expect("vectors lock").cosine(a, b)
    }

    pub(super) fn events(&self) -> &Emitter<MemoryEvent> {
        &self.events
    }

    /// The facts the index follows.
    pub(super) fn knowledge(&self) -> &KnowledgeStore {
        &self.knowledge
    }

    /// Brings the facts' vectors up to date (those of new facts made, those of facts
    /// gone dropped), loading the embedder if needed.
    pub(crate) async fn facts_with_vectors(&self) -> Result<(), EmbedError> {
        let embedder = self.embedder().await?;
        self.sync_facts(embedder.as_ref()).await.map(|_| ())
    }

    /// Gives every fact in learnings.md a vector and drops those of facts gone.
    async fn sync_facts(&self, embedder: &dyn Embedder) -> Result<usize, EmbedError> {
        let version = self.knowledge.version();
        if *self.facts_version.lock().expect("facts lock") == Some(version) {
            return Ok(0);
        }
        let facts = self.knowledge.facts();
        let current: HashSet<Key> = facts.iter().map(|f| Key::fact(&f.fact.text)).collect();
        let (missing, gone): (Vec<PendingText>, Vec<Key>) = {
            let index = self.vectors.read().expect("vectors lock");
            let missing = facts
                .iter()
                .filter(|f| !index.contains(Key::fact(&f.fact.text)))
                .map(|f| PendingText { key: Key::fact(&f.fact.text), text: f.fact.text.clone() })
                .collect();
            let gone = index.keys().filter(|k| k.kind == ItemKind::Fact && !current.contains(k)).collect();
            (missing, gone)
        };
        let mut done = 0;
        for chunk in missing.chunks(BATCH as usize) {
            done += self.embed_and_keep(embedder, chunk.to_vec()).await?;
        }
        if !gone.is_empty() {
            self.store.embeddings().remove(&gone).await.map_err(|e| EmbedError::Failed(e.to_string()))?;
            let mut index = self.vectors.write().expect("vectors lock");
            gone.iter().for_each(|k| index.remove(*k));
        }
        *self.facts_version.lock().expect("facts lock") = Some(version);
        Ok(done)
    }

    /// Forgets the vectors of items no longer stored (Settings → Your data → Tidy now,
    /// and the daily tidy); how many items lost theirs.
    pub async fn forget_orphans(&self) -> Result<usize, sidecar_store::StoreError> {
        let gone = self.store.embeddings().forget_orphans().await?;
        let mut index = self.vectors.write().expect("vectors lock");
        gone.iter().for_each(|k| index.remove(*k));
        Ok(gone.len())
    }

    /// The background loop: catches up at start, after every finished turn or new
    /// message, and every half minute; stops when the event bus closes.
    pub async fn run(self: Arc<Self>) {
        let mut stored = self.stored.subscribe();
        let mut waited = false;
        loop {
            let waits = self.waits_for_power().await;
            if waits != waited {
                tracing::info!(waits, "memory indexing and the battery: a local embedder waits while it is low and not charging");
                waited = waits;
            }
            match if waits { Ok(0) } else { self.catch_up(None).await } {
                Ok(0) | Err(EmbedError::Unavailable(_) | EmbedError::Off) => {}
                Ok(embedded) => tracing::debug!(embedded, "memory embedded"),
                Err(e) => tracing::warn!(error = %e, "embedding failed; it is tried again later"),
            }
            tokio::select! {
                _ = self.wake.notified() => {}
                _ = tokio::time::sleep(IDLE_LOOK) => {}
                closed = new_messages(&mut stored) => if closed { return },
            }
        }
    }
}

/// What a pass over the densities has to do once the index's lock is let go.
enum DensityWork {
    /// Record the densities just measured for vectors stored again.
    Missing(Vec<(Key, f32)>),
    /// Measure every density anew (the index grew by a quarter).
    All(super::vectors::DensityJob),
}

/// Waits for a turn, a spontaneous message or a fact to be stored; true when the bus closed.
async fn new_messages(stored: &mut tokio::sync::broadcast::Receiver<()>) -> bool {
    use tokio::sync::broadcast::error::RecvError;
    match stored.recv().await {
        Ok(()) | Err(RecvError::Lagged(_)) => false,
        Err(RecvError::Closed) => true,
    }
}

/// e5-small's weights checked and loaded, off the async threads.
async fn load_e5(path: PathBuf) -> Result<LocalE5, EmbedError> {
    tokio::task::spawn_blocking(move || LocalE5::load(&path)).await.map_err(|e| EmbedError::Unavailable(e.to_string()))?
}

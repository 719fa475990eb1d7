//! `recall`: searching everything Sidecar was ever told or saved, for the model (a
//! tool), the CLI and the Memory view.
//!
//! Hybrid retrieval, in order:
//! 1. matches by words (FTS5, bm25) and by meaning (the [`MeaningIndex`]), fused by
//!    reciprocal rank;
//! 2. a second hop when the first is weak: the names found in the best results are
//!    searched too ("who gave me the guitar" → "uncle Tomás" → "Tomás lives in Sevilla");
//! 3. time: what was said in the stretch the query names ("last week") ranks higher;
//! 4. packing into the token budget, best first, each hit with its source, id and date,
//!    and the best message hits with the turn beside them (the question a reply answers,
//!    the reply a statement got).
//!
//! When the embedder is down, recall uses words alone and says so; it never fails for it.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use serde::Serialize;

use crate::clock::Clock;
use crate::knowledge::store::KnowledgeStore;
use crate::meaning::indexer::MeaningIndex;
use crate::meaning::vectors::{ItemKind, Key};
use crate::meaning::EmbedError;
use crate::store::{FoundText, Store, StoreError};

pub mod excerpt;
pub mod fuse;
mod hop;
mod tool;
pub mod when;

pub use tool::RecallTool;

/// Candidates taken from each list before fusing.
const CANDIDATES: u32 = 50;
/// Message hits (best first) that bring the turns beside them.
const WITH_NEIGHBOURS: usize = 3;
/// Per-hit overhead in tokens: source, id, date, label.
const HIT_OVERHEAD: usize = 12;
/// What a second hop's votes weigh against the first pass.
const HOP_WEIGHT: f64 = 0.6;
/// What being in the stretch of time the query names multiplies a score by.
const IN_SPAN_BOOST: f64 = 2.0;

/// One search result.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RecallHit {
    /// `message`, `fact`, `summary` or `checkpoint`.
    pub source: String,
    /// The message, summary or checkpoint id, or the fact's line in learnings.md.
    pub id: i64,
    /// For messages: who said it; for facts: the category.
    pub label: String,
    /// The text, cut around the first match, with the query's words in [brackets].
    pub snippet: String,
    /// When it was said, or when the fact was last confirmed.
    pub timestamp: String,
    /// The id a message had where it was imported from.
    pub external_id: Option<String>,
    /// Fused score: higher is better. Turns shown beside a hit carry the hit's score.
    pub score: f64,
    /// A turn shown for context beside a hit rather than found itself.
    pub beside: bool,
}

/// Hits that fit a token budget.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RecallResults {
    pub hits: Vec<RecallHit>,
    /// Matches left out for the budget.
    pub omitted: usize,
    pub tokens: usize,
    /// Set when only words were searched: why meaning could not be used.
    pub words_only: Option<String>,
}

/// Which lists recall fuses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecallMode {
    /// Words and meaning (meaning is skipped, and said to be, when unavailable).
    Hybrid,
    /// Words only: the baseline the evaluation compares with.
    Words,
}

pub struct Recall {
    store: Store,
    knowledge: Arc<KnowledgeStore>,
    meaning: Arc<MeaningIndex>,
    clock: Clock,
    /// The knowledge version last copied into the facts index.
    indexed: AtomicU64,
}

impl Recall {
    pub fn new(store: Store, knowledge: Arc<KnowledgeStore>, meaning: Arc<MeaningIndex>, clock: Clock) -> Self {
        Self { store, knowledge, meaning, clock, indexed: AtomicU64::new(0) }
    }

    pub fn meaning(&self) -> &Arc<MeaningIndex> {
        &self.meaning
    }

    /// Searches by words and meaning, packed into `budget_tokens`.
    pub async fn search(&self, query: &str, budget_tokens: usize) -> Result<RecallResults, StoreError> {
        self.search_in(query, budget_tokens, RecallMode::Hybrid).await
    }

    pub async fn search_in(&self, query: &str, budget_tokens: usize, mode: RecallMode) -> Result<RecallResults, StoreError> {
        let version = self.knowledge.version();
        if self.indexed.load(Ordering::Relaxed) != version {
            self.store.recall_index().index_facts(&self.knowledge.facts()).await?;
            self.indexed.store(version, Ordering::Relaxed);
        }
        let (mut lists, words_only) = self.lists(query, mode).await?;
        let mut found = self.found(&lists.iter().flatten().map(|(k, _)| *k).collect::<Vec<_>>()).await?;
        let confidence = |list: &[(Key, f64)]| list.first().map(|(_, c)| *c);
        if mode == RecallMode::Hybrid && hop::is_weak(lists[0].len(), lists.get(1).and_then(|l| confidence(l))) {
            let fused = fuse::fuse(&self.votes(query, &lists, &found));
            let best: Vec<&str> = fused.iter().take(3).filter_map(|(k, _)| found.get(k)).map(|f| f.text.as_str()).collect();
            if let Some(names) = hop::names(&best, query) {
                let (second, _) = self.lists(&names, mode).await?;
                found.extend(self.found(&second.iter().flatten().map(|(k, _)| *k).collect::<Vec<_>>()).await?);
                let hop_votes = self.votes(&names, &second, &found);
                lists = self.votes(query, &lists, &found);
                lists.extend(hop_votes.into_iter().map(|l| l.into_iter().map(|(k, w)| (k, w * HOP_WEIGHT)).collect()));
            } else {
                lists = self.votes(query, &lists, &found);
            }
        } else if mode == RecallMode::Hybrid {
            lists = self.votes(query, &lists, &found);
        }
        // Words alone keep bm25's order (the baseline); fused lists are weighed.
        let mut ranked: Vec<(Key, f64)> = fuse::fuse(&lists).into_iter().filter(|(k, _)| found.contains_key(k)).collect();
        if let Some(span) = when::span_in(query, self.clock.now(), self.clock.zone()) {
            for (key, score) in ranked.iter_mut() {
                if found[key].timestamp.parse::<chrono::DateTime<chrono::Utc>>().is_ok_and(|at| span.contains(at)) {
                    *score *= IN_SPAN_BOOST;
                }
            }
            ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
        }
        let mut results = self.pack(query, &ranked, &found, budget_tokens).await?;
        results.words_only = words_only;
        Ok(results)
    }

    /// Each ranked list's entries with the weight of their vote: a match by words
    /// counts for the share of the query's words it contains; one by meaning counts whole.
    fn votes(&self, query: &str, lists: &[Vec<(Key, f64)>], found: &HashMap<Key, FoundText>) -> Vec<Vec<(Key, f64)>> {
        let asked = excerpt::marks(query);
        lists
            .iter()
            .enumerate()
            .map(|(i, list)| {
                list.iter()
                    .filter_map(|(key, _)| {
                        let item = found.get(key)?;
                        Some((*key, if i == 0 { excerpt::coverage(&item.text, &asked) } else { 1.0 }))
                    })
                    .collect()
            })
            .collect()
    }

    /// The ranked lists for `query`: by words, and by meaning unless unavailable (then
    /// the reason).
    async fn lists(&self, query: &str, mode: RecallMode) -> Result<(Vec<Vec<(Key, f64)>>, Option<String>), StoreError> {
        let words = self.store.recall_index().word_matches(query, CANDIDATES).await?;
        if mode == RecallMode::Words {
            return Ok((vec![words], None));
        }
        match self.meaning.nearest(query, CANDIDATES as usize, |_| true).await {
            Ok(meaning) => Ok((vec![words, meaning.into_iter().map(|(k, s)| (k, f64::from(s))).collect()], None)),
            Err(EmbedError::Off) => Ok((vec![words], None)),
            Err(e) => {
                tracing::warn!(error = %e, "recall by meaning unavailable; searching by words");
                Ok((vec![words], Some(e.to_string())))
            }
        }
    }

    /// The items behind `keys` that may be shown (facts from learnings.md, the rest from
    /// the store), by key.
    async fn found(&self, keys: &[Key]) -> Result<HashMap<Key, FoundText>, StoreError> {
        let unique: HashSet<Key> = keys.iter().copied().collect();
        let messages: Vec<i64> = unique.iter().filter(|k| k.kind == ItemKind::Message).map(|k| k.id).collect();
        let mut found: HashMap<Key, FoundText> = HashMap::new();
        let recall_index = self.store.recall_index();
        for item in recall_index.messages(&messages).await?.into_iter().chain(recall_index.notes(&unique.iter().copied().collect::<Vec<_>>()).await?) {
            found.insert(item.key, item);
        }
        if unique.iter().any(|k| k.kind == ItemKind::Fact) {
            for listed in self.knowledge.facts() {
                let key = Key::fact(&listed.fact.text);
                if unique.contains(&key) {
                    found.insert(key, FoundText {
                        key: Key { kind: ItemKind::Fact, id: listed.line as i64 },
                        conversation_id: None,
                        label: listed.category.name().to_string(),
                        text: listed.fact.text.clone(),
                        timestamp: listed.fact.confirmed.to_string(),
                        external_id: None,
                    });
                }
            }
        }
        Ok(found)
    }

    /// Fills the budget best first; the best message hits bring the turns beside them.
    async fn pack(&self, query: &str, ranked: &[(Key, f64)], found: &HashMap<Key, FoundText>, budget: usize) -> Result<RecallResults, StoreError> {
        let marks = excerpt::marks(query);
        let mut results = RecallResults { hits: Vec::new(), omitted: 0, tokens: 0, words_only: None };
        let mut shown: HashSet<Key> = HashSet::new();
        let mut messages_seen = 0;
        for (key, score) in ranked {
            if shown.contains(key) {
                continue;
            }
            let item = &found[key];
            let mut block = vec![(item.clone(), false)];
            if key.kind == ItemKind::Message {
                messages_seen += 1;
                if messages_seen <= WITH_NEIGHBOURS {
                    let beside = self.store.recall_index().beside(key.id).await?;
                    block.extend(beside.into_iter().filter(|b| !shown.contains(&b.key)).map(|b| (b, true)));
                }
            }
            // A hit that does not fit is left out; a neighbour that does not fit is dropped.
            let hit = to_hit(&block[0].0, *score, false, &marks);
            let cost = crate::tokens::count(&hit.snippet) + HIT_OVERHEAD;
            if results.tokens + cost > budget {
                results.omitted += 1;
                continue;
            }
            results.tokens += cost;
            shown.insert(*key);
            results.hits.push(hit);
            for (neighbour, _) in &block[1..] {
                let hit = to_hit(neighbour, *score, true, &marks);
                let cost = crate::tokens::count(&hit.snippet) + HIT_OVERHEAD;
                if results.tokens + cost <= budget {
                    results.tokens += cost;
                    shown.insert(neighbour.key);
                    results.hits.push(hit);
                }
            }
        }
        Ok(results)
    }
}

fn to_hit(item: &FoundText, score: f64, beside: bool, marks: &[String]) -> RecallHit {
    RecallHit {
        source: item.key.kind.as_str().to_string(),
        id: item.key.id,
        label: item.label.clone(),
        snippet: excerpt::excerpt(&item.text, marks),
        timestamp: item.timestamp.clone(),
        external_id: item.external_id.clone(),
        score,
        beside,
    }
}

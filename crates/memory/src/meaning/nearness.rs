//! The meaning index as the facts engine's judge of closeness: a new fact is embedded
//! (as facts are, as a passage) and compared with every current fact's vector, after
//! the facts' vectors are brought up to date. And when facts change, current facts
//! that are one fact (said twice before facts were compared by meaning, or written
//! twice by hand) are merged, when the user lets the tidy do so alone, or proposed.

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Weak};

use super::indexer::MeaningIndex;
use super::vectors::{Key, Quantized};
use super::TextKind;
use crate::knowledge::events::MemoryEvent;
use crate::knowledge::meaning::{tells_a_change, FactNearness, Nearness};

/// The index as the knowledge store holds it: weakly, as the index holds the store.
pub struct ByMeaning(Weak<MeaningIndex>);

impl ByMeaning {
    pub fn new(index: &Arc<MeaningIndex>) -> Self {
        Self(Arc::downgrade(index))
    }
}

impl FactNearness for ByMeaning {
    fn nearness<'a>(&'a self, text: &'a str) -> Pin<Box<dyn Future<Output = Nearness> + Send + 'a>> {
        Box::pin(async move {
            match self.0.upgrade() {
                Some(index) => index.nearness_of(text).await,
                None => Nearness::none(),
            }
        })
    }

    fn repeats(&self) -> Vec<(String, String)> {
        self.0.upgrade().map(|index| index.repeated_pairs()).unwrap_or_default()
    }
}

impl MeaningIndex {
    async fn nearness_of(&self, text: &str) -> Nearness {
        let vector = match self.facts_with_vectors().await {
            Ok(()) => self.embed(&[text.to_string()], TextKind::Passage).await.map(|mut v| v.pop().unwrap_or_default()),
            Err(e) => Err(e),
        };
        let vector = match vector {
            Ok(vector) => Quantized::from_f32(&vector),
            Err(error) => {
                tracing::debug!(%error, "facts compared by words only");
                return Nearness::none();
            }
        };
        let facts = self.knowledge().facts();
        let pairs = facts.into_iter().filter(|f| f.fact.superseded.is_none()).filter_map(|f| {
            let cosine = self.similarity(&vector, Key::fact(&f.fact.text))?;
            Some((f.fact.text, cosine))
        });
        Nearness::from_pairs(pairs, self.thresholds())
    }

    /// Every pair of current facts that is one fact by the rule a new fact meets,
    /// closest pairs first, each fact once.
    fn repeated_pairs(&self) -> Vec<(String, String)> {
        let facts: Vec<_> = self.knowledge().facts().into_iter().filter(|f| f.fact.superseded.is_none()).collect();
        let thresholds = self.thresholds();
        let mut pairs: Vec<(f32, usize, usize)> = Vec::new();
        for (i, a) in facts.iter().enumerate() {
            for (j, b) in facts.iter().enumerate().skip(i + 1) {
                // The cosine first: most pairs are far apart, and the word rules are not free.
                let Some(cosine) = self.cosine_of(Key::fact(&a.fact.text), Key::fact(&b.fact.text)).filter(|c| *c >= thresholds.duplicate) else { continue };
                let change = tells_a_change(&a.fact.text, &b.fact.text) || tells_a_change(&b.fact.text, &a.fact.text);
                if !change && thresholds.confirmed(&a.fact.text, &b.fact.text, cosine) {
                    pairs.push((cosine, i, j));
                }
            }
        }
        pairs.sort_by(|x, y| y.0.total_cmp(&x.0));
        let mut used = std::collections::HashSet::new();
        pairs
            .into_iter()
            .filter(|(_, i, j)| !used.contains(i) && !used.contains(j) && used.insert(*i) && used.insert(*j))
            .map(|(_, i, j)| (facts[i].fact.text.clone(), facts[j].fact.text.clone()))
            .collect()
    }

    /// Merges the facts that are one fact (a Health fact stays in Health) when the user
    /// lets the tidy do so alone, and says the knowledge changed; otherwise Memory's
    /// review proposes them (`KnowledgeStore::review`).
    pub(super) fn merge_repeated_facts(&self) {
        if !self.knowledge().tidies_alone() {
            return;
        }
        let chosen = self.repeated_pairs();
        if chosen.is_empty() {
            return;
        }
        match self.knowledge().merge_repeats(&chosen) {
            Ok(merged) => {
                tracing::info!(merged, "facts that were one fact merged");
                self.events().publish(MemoryEvent::KnowledgeChanged { problems: self.knowledge().malformed(), error: None });
            }
            Err(error) => tracing::warn!(%error, "repeated facts could not be merged"),
        }
    }
}

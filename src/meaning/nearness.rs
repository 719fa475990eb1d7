//! The meaning index as the facts engine's judge of closeness: a new fact is embedded
//! (as facts are, as a passage) and compared with every current fact's vector, after
//! the facts' vectors are brought up to date.

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Weak};

use super::indexer::MeaningIndex;
use super::vectors::{Key, Quantized};
use super::TextKind;
use crate::knowledge::meaning::{FactNearness, Nearness};

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
        Nearness::from_pairs(facts.into_iter().filter(|f| f.fact.superseded.is_none()).filter_map(|f| {
            let cosine = self.similarity(&vector, Key::fact(&f.fact.text))?;
            Some((f.fact.text, cosine))
        }))
    }
}

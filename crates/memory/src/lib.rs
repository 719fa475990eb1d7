//! What Sidecar remembers: the knowledge files and the facts engine that keeps them
//! (`knowledge`), the judge that reads facts out of a turn (`facts_judge`), meaning
//! (the embedder, its index and the indexer that catches up), recall (words and meaning
//! fused, with the neighbours of each hit), attachments, and the `remember_fact` tool.

mod attachments;
mod facts_judge;
mod knowledge;
mod meaning;
mod recall;
mod remember;

// The face: what the crates above, the faces and the tests name.
pub use attachments::images::{fill, FOLDER, IMAGE_TOKENS};
pub use attachments::{blocks, compose, open, split, AttachError, Attachment, Unreadable};
pub use facts_judge::ModelJudge;
pub use knowledge::brought::{read_brought, BroughtFact, BroughtSaved, KeptFact, MOST_BROUGHT};
pub use knowledge::events::MemoryEvent;
pub use knowledge::facts::{for_prompt, knowledge_block, potential_facts, recency_factor, remember, same_fact, score, SaveOutcome, TurnSaves, MAX_WEIGHT};
pub use knowledge::learnings::{Category, Fact, Learnings, Malformed};
pub use knowledge::meaning::{adds_nothing, tells_a_change, words_confirm, Thresholds};
pub use knowledge::profile_form::ProfileFields;
pub use knowledge::review::{Proposal, Review, REPLACED_SHOWN_DAYS};
pub use knowledge::screen::{reads_as_instructions, Injection};
pub use knowledge::slots::slot_of;
pub use knowledge::store::{FactConflict, FactOrigin, KnowledgeError, KnowledgeStore, ListedFact, ProfileFile, ProfileView};
pub use knowledge::suggest::{category_of, Noticing, Suggestion};
pub use knowledge::suspect::{KnowledgeFile, SuspectLine};
pub use knowledge::unsaved::unsaved_facts;
pub use knowledge::watch::{watch, POLL_INTERVAL};
pub use knowledge::words;
pub use meaning::choice::{suited, EmbedderChoice, AUTOMATIC_ENV};
pub use meaning::e5::LocalE5;
pub use meaning::gemma::{GemmaEmbedder, GemmaFiles, GEMMA_MODEL};
pub use meaning::indexer::{MeaningIndex, MeaningState};
pub use meaning::nearness::ByMeaning;
pub use meaning::setup::{MeaningInput, MeaningSetup, MeaningSetupError, MeaningView};
pub use meaning::vectors::{Key, Quantized, VectorIndex};
pub use meaning::weights::{locate, LOCAL_MODEL};
pub use meaning::{normalize, EmbedError, Embedder, TextKind};
pub use recall::excerpt::{excerpt_within, marks};
pub use recall::line::lines;
pub use recall::{MemoryPage, Recall, RecallHit, RecallMode, RecallResults, RecallTool, PAGE};
pub use remember::RememberFact;

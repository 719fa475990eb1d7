//! What memory says happened: the knowledge files changed on disk, or recall by meaning
//! embedded more.

use serde::Serialize;

#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum MemoryEvent {
    /// learnings.md, user.md or SOUL.md changed on disk; `problems` are the lines of
    /// learnings.md that could not be read (empty when all is well).
    KnowledgeChanged { problems: Vec<crate::knowledge::learnings::Malformed>, error: Option<String> },
    /// Lines of the knowledge files read as instructions from somewhere else and are
    /// held out of the prompt until the user looks (Bug 6): said when they change.
    KnowledgeSuspect { lines: Vec<crate::knowledge::suspect::SuspectLine> },
    /// Recall by meaning embedded another batch: `embedded` of `total` items have vectors.
    MemoryIndexing { embedded: u64, total: u64 },
}

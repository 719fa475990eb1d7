//! `recall`: searching everything Sidecar was ever told or saved, for the model (a
//! tool), the CLI and the Memory view. Results are packed into a token budget, each
//! with its source, id and time.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::knowledge::store::KnowledgeStore;
use crate::store::{RecallHit, Store, StoreError};
use crate::tools::{parse_arguments, schema_of, Tool, ToolError, ToolFuture};

pub struct Recall {
    store: Store,
    knowledge: Arc<KnowledgeStore>,
    /// The knowledge version last copied into the facts index.
    indexed: AtomicU64,
}

/// Hits that fit a token budget.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RecallResults {
    pub hits: Vec<RecallHit>,
    /// Matches left out for the budget.
    pub omitted: usize,
    pub tokens: usize,
}

impl Recall {
    pub fn new(store: Store, knowledge: Arc<KnowledgeStore>) -> Self {
        Self { store, knowledge, indexed: AtomicU64::new(0) }
    }

    /// Searches, refreshing the facts index first if the facts changed.
    pub async fn search(&self, query: &str, budget_tokens: usize) -> Result<RecallResults, StoreError> {
        let version = self.knowledge.version();
        if self.indexed.load(Ordering::Relaxed) != version {
            self.store.recall_index().index_facts(&self.knowledge.facts()).await?;
            self.indexed.store(version, Ordering::Relaxed);
        }
        let found = self.store.recall_index().recall(query, 50).await?;
        let mut hits = Vec::new();
        let mut tokens = 0;
        let total = found.len();
        for hit in found {
            let cost = crate::tokens::count(&hit.snippet) + 12;
            if tokens + cost > budget_tokens {
                break;
            }
            tokens += cost;
            hits.push(hit);
        }
        Ok(RecallResults { omitted: total - hits.len(), hits, tokens })
    }
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Args {
    /// Words to look for in past conversations and saved facts.
    query: String,
}

/// The tool: the model looks up what the user said long ago.
pub struct RecallTool(pub Arc<Recall>);

impl Tool for RecallTool {
    fn name(&self) -> &'static str {
        "recall"
    }

    fn description(&self) -> &'static str {
        "Search everything the user ever said, every saved fact, and the summaries and checkpoints of earlier work, including what is no longer in this conversation. Returns snippets with their source and date."
    }

    fn parameters(&self) -> Value {
        schema_of::<Args>()
    }

    fn run(&self, arguments: Value) -> ToolFuture<'_> {
        Box::pin(async move {
            let args: Args = parse_arguments(arguments)?;
            let results = self.0.search(&args.query, 1500).await.map_err(|e| ToolError::Failed(e.to_string()))?;
            if results.hits.is_empty() {
                return Ok(format!("Nothing found for \"{}\".", args.query));
            }
            let mut out = String::new();
            for hit in &results.hits {
                let reference = hit.external_id.as_deref().map(|e| format!(" (ref {e})")).unwrap_or_default();
                out.push_str(&format!("- [{} {} {}{reference}] {}: {}\n", hit.source, hit.id, hit.timestamp, hit.label, hit.snippet));
            }
            if results.omitted > 0 {
                out.push_str(&format!("({} more matches not shown; search with more specific words.)\n", results.omitted));
            }
            Ok(out)
        })
    }
}

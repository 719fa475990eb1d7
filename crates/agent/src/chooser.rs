//! Chooses, at the start of each turn, the tools it carries (see `selection`), ranking
//! MCP tools by meaning with the embedder recall already uses, and offers `find_tools`
//! for the ones left out. The set stays fixed for the turn: what `find_tools` finds
//! comes with the next message. The tools a conversation used and the ones found for it
//! stay with it (`conversation_tools`), after a restart too: a chat about a spreadsheet
//! keeps its spreadsheet tools when its latest message does not name them.

use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex};

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;

use sidecar_memory::MeaningIndex;
use sidecar_memory::TextKind;
use sidecar_store::Message;
use sidecar_store::Store;
use sidecar_tools::parse_arguments;
use sidecar_tools::schema_of;
use sidecar_tools::Candidate;
use sidecar_tools::Tool;
use sidecar_tools::ToolError;
use sidecar_tools::ToolFuture;
use sidecar_tools::ToolRegistry;
use sidecar_tools::{choose_tools, faded, tool_text, word_overlap, Kept, TOTAL_BUDGET_TOKENS, WORDS_FLOOR};

/// How many tools `find_tools` returns.
const FOUND: usize = 5;
/// How many of a conversation's tools stay with it, the latest used or found first.
const STICKY: u32 = 8;

pub struct ToolChooser {
    meaning: Option<Arc<MeaningIndex>>,
    /// Where each conversation's tools are kept.
    store: Store,
    /// Each extra tool's vector, by its name and description.
    vectors: Mutex<HashMap<String, Vec<f32>>>,
    /// The conversation of the turn being chosen for (one turn runs at a time): what
    /// `find_tools` finds is kept with it.
    current: Mutex<Option<i64>>,
    /// Every tool there was at the last choice, for `find_tools`.
    everything: Mutex<ToolRegistry>,
}

fn text_of(tool: &dyn Tool) -> String {
    let (server, own) = tool.action().map(|a| (a.server, a.definition.name)).unwrap_or_else(|| (String::new(), tool.name().to_string()));
    tool_text(&own, &server, tool.description())
}

/// Tokens a tool's schema costs in a request, as the OpenAI wire format wraps it.
fn tokens_of(tool: &dyn Tool) -> usize {
    let spec =
        serde_json::json!({ "type": "function", "function": { "name": tool.name(), "description": tool.description(), "parameters": tool.parameters() } });
    sidecar_llm::tokens::count_cached(&spec.to_string())
}

/// A tool a turn carries only when it seems wanted: one that acts, from an MCP server or
/// the notes folder (Sidecar's own go with every turn).
fn comes_and_goes(tool: &dyn Tool) -> bool {
    tool.action().is_some_and(|a| a.server != sidecar_tools::SIDECAR)
}

fn server_of(tool: &dyn Tool) -> String {
    tool.action().map(|a| a.server).unwrap_or_default()
}

impl ToolChooser {
    pub fn new(meaning: Option<Arc<MeaningIndex>>, store: Store) -> Self {
        Self { meaning, store, vectors: Mutex::default(), current: Mutex::default(), everything: Mutex::default() }
    }

    /// The tools a turn of `conversation_id` carries, given every tool and the
    /// conversation's recent messages.
    pub(crate) async fn choose(&self, all: &ToolRegistry, conversation_id: i64, recent: &[Message]) -> ToolRegistry {
        *self.everything.lock().expect("everything lock") = all.clone();
        *self.current.lock().expect("current lock") = Some(conversation_id);
        // The tools the last reply used come first, and join the conversation's own.
        let last_turn: BTreeSet<String> = match recent.iter().rev().find(|m| m.role == sidecar_llm::Role::Assistant && m.tool_calls.is_some()) {
            Some(last) => last.tool_calls.iter().flat_map(|c| c.0.iter().map(|call| call.name.clone())).collect(),
            None => BTreeSet::new(),
        };
        let extras: Vec<&Arc<dyn Tool>> = all.tools().filter(|t| comes_and_goes(t.as_ref())).collect();
        // Sidecar's own go with every turn: only the others are worth keeping.
        let used: Vec<String> = last_turn.iter().filter(|name| extras.iter().any(|t| t.name() == name.as_str())).cloned().collect();
        self.keep(conversation_id, &used).await;
        if extras.is_empty() {
            return all.offering(|name| name != FIND_TOOLS);
        }
        // Latest first.
        let turns: Vec<&str> = recent.iter().rev().filter(|m| m.role == sidecar_llm::Role::User).take(3).map(|m| m.content.as_str()).collect();
        let kept = Kept { conversation: self.kept(conversation_id).await, last_turn };
        let candidates: Vec<Candidate> = extras
            .iter()
            .map(|t| Candidate {
                name: t.name().to_string(),
                server: server_of(t.as_ref()),
                tokens: tokens_of(t.as_ref()),
                read_only: t.action().is_some_and(|a| a.definition.read_only),
            })
            .collect();
        let (scores, floor) = match self.meaning_scores(&extras, &turns).await {
            Some(scored) => scored,
            None => {
                let words = |t: &Arc<dyn Tool>| faded(turns.iter().map(|turn| word_overlap(turn, &text_of(t.as_ref()))));
                (extras.iter().map(|t| (t.name().to_string(), words(t))).collect(), WORDS_FLOOR)
            }
        };
        let own: usize = all.tools().filter(|t| !comes_and_goes(t.as_ref())).map(|t| tokens_of(t.as_ref())).sum();
        let chosen = choose_tools(&candidates, &turns, &kept, &scores, floor, TOTAL_BUDGET_TOKENS.saturating_sub(own));
        tracing::debug!(offered = chosen.len(), of = candidates.len(), "extra tools chosen");
        all.offering(|name| chosen.contains(name) || !extras.iter().any(|t| t.name() == name))
    }

    /// Cosine of each extra tool with each recent turn, faded by the turn's age, and the
    /// embedder's own floor for them; `None` when meaning is off or not ready, or the
    /// embedder's scale is unknown (words stand in).
    async fn meaning_scores(&self, extras: &[&Arc<dyn Tool>], turns: &[&str]) -> Option<(HashMap<String, f32>, f32)> {
        let meaning = self.meaning.as_ref()?;
        if turns.iter().all(|turn| turn.trim().is_empty()) {
            return None;
        }
        let missing: Vec<String> = {
            let known = self.vectors.lock().expect("vectors lock");
            extras.iter().map(|t| text_of(t.as_ref())).filter(|text| !known.contains_key(text)).collect()
        };
        if !missing.is_empty() {
            let vectors = meaning.embed(&missing, TextKind::Passage).await.ok()?;
            self.vectors.lock().expect("vectors lock").extend(missing.into_iter().zip(vectors));
        }
        let queries = meaning.embed(&turns.iter().map(|t| t.to_string()).collect::<Vec<_>>(), TextKind::Query).await.ok()?;
        // Read once the embedder is loaded (the embeddings above load it).
        let floor = meaning.thresholds().tool_floor?;
        let known = self.vectors.lock().expect("vectors lock");
        let score = |vector: &Vec<f32>| faded(queries.iter().map(|query| dot(query, vector)));
        Some((extras.iter().filter_map(|t| Some((t.name().to_string(), score(known.get(&text_of(t.as_ref()))?)))).collect(), floor))
    }

    /// Keeps `names` with the conversation (their time refreshed when already kept).
    async fn keep(&self, conversation_id: i64, names: &[String]) {
        for name in names.iter().filter(|name| name.as_str() != FIND_TOOLS) {
            let kept = sqlx::query(
                "INSERT INTO conversation_tools (conversation_id, name, last_at) VALUES (?, ?, ?) \
                 ON CONFLICT (conversation_id, name) DO UPDATE SET last_at = excluded.last_at",
            )
            .bind(conversation_id)
            .bind(name)
            .bind(self.store.now())
            .execute(self.store.pool())
            .await;
            if let Err(error) = kept {
                tracing::warn!(%error, conversation_id, "a conversation's tool could not be kept with it");
            }
        }
    }

    /// The conversation's tools, the latest used or found first.
    async fn kept(&self, conversation_id: i64) -> BTreeSet<String> {
        let kept = sqlx::query_scalar::<_, String>("SELECT name FROM conversation_tools WHERE conversation_id = ? ORDER BY last_at DESC, name LIMIT ?")
            .bind(conversation_id)
            .bind(STICKY)
            .fetch_all(self.store.pool())
            .await;
        kept.unwrap_or_else(|error| {
            tracing::warn!(%error, conversation_id, "a conversation's tools could not be read");
            Vec::new()
        })
        .into_iter()
        .collect()
    }

    async fn find(&self, query: &str) -> Vec<(String, String)> {
        let mut ranked: Vec<(f32, String, String)> = self
            .everything
            .lock()
            .expect("everything lock")
            .tools()
            .filter(|t| comes_and_goes(t.as_ref()))
            .map(|t| (word_overlap(query, &text_of(t.as_ref())) + word_overlap(&text_of(t.as_ref()), query), t.name().to_string(), t.description().to_string()))
            .filter(|(score, ..)| *score > 0.0)
            .collect();
        ranked.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
        let found: Vec<(String, String)> = ranked.into_iter().take(FOUND).map(|(_, name, description)| (name, description)).collect();
        let current = *self.current.lock().expect("current lock");
        if let Some(conversation_id) = current {
            self.keep(conversation_id, &found.iter().map(|(name, _)| name.clone()).collect::<Vec<_>>()).await;
        }
        found
    }
}

fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

pub(crate) const FIND_TOOLS: &str = "find_tools";

#[derive(Deserialize, JsonSchema)]
struct Wanted {
    /// What the tool should do, in a few words ("convert time zones", "write a file").
    query: String,
}

/// Lets the model ask for a tool it was not given this turn.
pub struct FindTools(pub Arc<ToolChooser>);

impl Tool for FindTools {
    fn name(&self) -> &str {
        FIND_TOOLS
    }
    fn local_read(&self) -> bool {
        true
    }

    fn description(&self) -> &str {
        "Find more tools (from the user's MCP servers and notes folder) than the ones you were given. The tools found become available from the user's next message."
    }

    fn parameters(&self) -> Value {
        schema_of::<Wanted>()
    }

    fn run(&self, arguments: Value) -> ToolFuture<'_> {
        Box::pin(async move {
            let wanted: Wanted = parse_arguments(arguments)?;
            let found = self.0.find(&wanted.query).await;
            if found.is_empty() {
                return Err(ToolError::Failed(format!("no tool matches \"{}\"", wanted.query)));
            }
            let tools: Vec<Value> = found.into_iter().map(|(name, description)| serde_json::json!({ "name": name, "description": description })).collect();
            Ok(serde_json::json!({ "found": tools, "available": "from the user's next message; tell the user you can do it then" }).to_string())
        })
    }
}

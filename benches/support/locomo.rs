//! LoCoMo as the benches read it (the set `scripts/locomo.py` writes), and one
//! conversation's store: imported, embedded, with the stored ids of its messages.

#![allow(dead_code)] // each bench reads its own fields

use std::sync::Arc;

use serde::Deserialize;
use sidecar::{Companion, CompanionOptions};
use sidecar_domain::Clock;
use sidecar_llm::Role;
use sidecar_store::ImportedTurn;

#[path = "../../tests/it/support/runtime.rs"]
pub(crate) mod runtime;

#[derive(Deserialize)]
pub(crate) struct Set {
    pub conversations: Vec<Conversation>,
}

#[derive(Deserialize)]
pub(crate) struct Conversation {
    pub name: String,
    pub part: String,
    pub messages: Vec<Message>,
    pub questions: Vec<Question>,
}

#[derive(Deserialize)]
pub(crate) struct Message {
    pub role: Role,
    pub content: String,
    pub timestamp: String,
}

#[derive(Deserialize)]
pub(crate) struct Question {
    pub question: String,
    /// LoCoMo's kind: 1 multi-hop, 2 time, 3 inference, 4 single fact.
    #[serde(default)]
    pub category: u8,
    pub evidence: Vec<usize>,
}

/// The set at `$LOCOMO`, or exits saying what to set.
pub(crate) fn load() -> Set {
    let Some(path) = std::env::var_os("LOCOMO") else {
        eprintln!("set LOCOMO to the set scripts/locomo.py wrote");
        std::process::exit(2);
    };
    serde_json::from_slice(&std::fs::read(path).expect("the LoCoMo set")).expect("it parses")
}

/// A companion holding `conversation` alone, embedded, a month after it ended, and the
/// stored id of each of its messages (in order). `LOCOMO_DIR` keeps the stores between
/// runs; `temporary` holds it otherwise.
pub(crate) async fn open(conversation: &Conversation, temporary: &tempfile::TempDir) -> (Arc<Companion>, Vec<i64>) {
    let dir = std::env::var_os("LOCOMO_DIR").map_or_else(|| temporary.path().to_path_buf(), |d| std::path::PathBuf::from(d).join(&conversation.name));
    open_in(conversation, dir).await
}

/// The settings the stores are embedded with: multilingual-e5-small, EmbeddingGemma with
/// `LOCOMO_BACKEND=gemma`, or with `LOCOMO_EMBEDDINGS=http://127.0.0.1:PORT/v1|MODEL`
/// an OpenAI-compatible embedder in its place (keep each one's stores apart with their
/// own `LOCOMO_DIR`).
pub(crate) fn settings() -> sidecar_settings::Settings {
    use sidecar_settings::EmbeddingsBackend;
    let mut settings = sidecar_settings::Settings::default();
    settings.local_model.runtime = Some(runtime::runtime());
    // Not "automatic", which depends on the machine.
    settings.memory.embeddings.backend = EmbeddingsBackend::Local;
    if std::env::var("LOCOMO_BACKEND").as_deref() == Ok("gemma") {
        settings.memory.embeddings.backend = EmbeddingsBackend::Gemma;
    }
    if let Some((url, model)) = std::env::var("LOCOMO_EMBEDDINGS").ok().as_deref().and_then(|v| v.split_once('|')) {
        settings.memory.embeddings.backend = EmbeddingsBackend::Openai;
        settings.memory.embeddings.url = Some(url.to_string());
        settings.memory.embeddings.model = Some(model.to_string());
    }
    settings
}

/// The conversation's store in `dir` (imported and embedded when it is not there yet).
pub(crate) async fn open_in(conversation: &Conversation, dir: std::path::PathBuf) -> (Arc<Companion>, Vec<i64>) {
    let reuse = dir.join("sidecar.db").exists();
    let mut options = CompanionOptions::new(dir, settings());
    let last = conversation.messages.last().unwrap().timestamp.parse::<chrono::DateTime<chrono::Utc>>().unwrap();
    options.clock = Clock::fixed(last + chrono::Duration::days(30), chrono_tz::UTC);
    let core = Companion::open(options).await.unwrap();
    if !reuse {
        let turns: Vec<ImportedTurn> = conversation
            .messages
            .iter()
            .map(|m| ImportedTurn { role: m.role, content: &m.content, timestamp: Some(&m.timestamp), external_id: None })
            .collect();
        core.store().archives().archive(None, &turns).await.unwrap();
    }
    let stored: Vec<(i64,)> = sqlx::query_as("SELECT id FROM messages ORDER BY id").fetch_all(core.store().pool()).await.unwrap();
    core.meaning().catch_up(None).await.expect("the local embedder runs");
    (core, stored.into_iter().map(|(id,)| id).collect())
}

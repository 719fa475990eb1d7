//! `[memory]`: how Sidecar remembers — the embedder behind recall by meaning, and
//! whether facts it notices are saved without asking.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Which embedder recall by meaning uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema, ts_rs::TS)]
#[serde(rename_all = "lowercase")]
pub enum EmbeddingsBackend {
    /// The built-in embedder that suits this computer: EmbeddingGemma where there is
    /// memory for it, multilingual-e5-small otherwise (the memory crate decides).
    #[default]
    Auto,
    /// multilingual-e5-small on this computer (no network): light and quick.
    Local,
    /// EmbeddingGemma-300M on this computer (no network), through llama.cpp's server:
    /// finds more, in 100+ languages, for more memory and time.
    Gemma,
    /// An OpenAI-compatible `/v1/embeddings` endpoint (`url`, `model`).
    Openai,
    /// Keywords only.
    Off,
}

impl EmbeddingsBackend {
    /// As settings.toml spells it.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            EmbeddingsBackend::Auto => "auto",
            EmbeddingsBackend::Local => "local",
            EmbeddingsBackend::Gemma => "gemma",
            EmbeddingsBackend::Openai => "openai",
            EmbeddingsBackend::Off => "off",
        }
    }
}

/// `[memory.embeddings]`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct EmbeddingsSettings {
    pub backend: EmbeddingsBackend,
    /// For `openai`: the base URL ending in `/v1` (Ollama: `http://localhost:11434/v1`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// For `openai`: the embedding model's name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// Environment variable holding the key; otherwise the system keychain's
    /// [`EMBEDDINGS_KEY_ID`] entry, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub api_key_env: Option<String>,
}

/// The keychain entry of an embeddings endpoint's key.
pub const EMBEDDINGS_KEY_ID: &str = "embeddings";

/// `[memory]`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct MemorySettings {
    pub embeddings: EmbeddingsSettings,
    /// Save the personal facts noticed after a reply without asking ("Remember this?").
    pub auto_remember: bool,
    /// Let the background tidy apply the safe kinds alone (merging facts said twice,
    /// repairing a line's format); otherwise it proposes them in Memory.
    pub tidy_alone: bool,
}

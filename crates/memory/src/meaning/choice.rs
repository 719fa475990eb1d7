//! Which embedder settings ask for, resolved to something that can be loaded.

use std::path::PathBuf;

use super::gemma::GemmaFiles;
use super::weights::{self, WeightsError, WEIGHTS_ENV};
use super::EmbedError;
use sidecar_domain::secrets::Secrets;
use sidecar_settings::memory::{EmbeddingsBackend, EMBEDDINGS_KEY_ID};
use sidecar_settings::Settings;

#[derive(Debug, Clone, PartialEq)]
pub enum EmbedderChoice {
    /// The bundled multilingual-e5-small; `Err` when its weights were not found.
    Local(Result<PathBuf, WeightsError>),
    /// The bundled EmbeddingGemma; `Err` says what is missing.
    Gemma(Result<GemmaFiles, EmbedError>),
    /// An OpenAI-compatible endpoint.
    Remote { url: String, model: String, api_key: Option<String> },
    /// Recall by keywords only.
    Off,
}

impl EmbedderChoice {
    /// From `[memory.embeddings]`; the local weights are looked for in the runtime
    /// folder unless `SIDECAR_EMBEDDER_WEIGHTS` names them.
    pub fn from_settings(settings: &Settings, secrets: &Secrets) -> Self {
        let embeddings = &settings.memory.embeddings;
        match embeddings.backend {
            EmbeddingsBackend::Off => Self::Off,
            EmbeddingsBackend::Local => {
                let explicit = std::env::var_os(WEIGHTS_ENV).filter(|v| !v.is_empty()).map(PathBuf::from);
                Self::Local(weights::locate(explicit.as_deref(), settings.local_model.runtime.as_deref()))
            }
            EmbeddingsBackend::Gemma => Self::Gemma(GemmaFiles::locate(settings.local_model.runtime.as_deref())),
            EmbeddingsBackend::Openai => Self::Remote {
                url: embeddings.url.clone().unwrap_or_default(),
                model: embeddings.model.clone().unwrap_or_default(),
                api_key: embeddings
                    .api_key_env
                    .as_deref()
                    .and_then(|name| std::env::var(name).ok())
                    .filter(|k| !k.is_empty())
                    .inspect(|key| secrets.redactor().register(key))
                    .or_else(|| secrets.get(EMBEDDINGS_KEY_ID)),
            },
        }
    }
}

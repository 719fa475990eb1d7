//! Which embedder settings ask for, resolved to something that can be loaded.
//!
//! "Automatic", the default, is EmbeddingGemma on a computer with memory for it
//! (from [`GEMMA_FROM_GIB`]) where it is installed, and multilingual-e5-small
//! otherwise; should EmbeddingGemma not start, e5-small is used instead.
//! `SIDECAR_EMBEDDINGS` (`local` or `gemma`) says what "automatic" stands for on a
//! machine where the memory rule is not wanted (tests, a shared server).

use std::path::{Path, PathBuf};

use super::gemma::GemmaFiles;
use super::weights::{self, WeightsError, WEIGHTS_ENV};
use super::EmbedError;
use sidecar_domain::Secrets;
use sidecar_settings::EmbeddingsBackend;
use sidecar_settings::Settings;
use sidecar_settings::EMBEDDINGS_KEY_ID;

/// Names the built-in embedder "automatic" stands for, overriding the memory rule.
pub const AUTOMATIC_ENV: &str = "SIDECAR_EMBEDDINGS";

/// Below this much memory EmbeddingGemma's server (up to 1.1 GB) would crowd a chat
/// model and the desktop; e5-small is the one to use there.
pub(crate) const GEMMA_FROM_GIB: u64 = 8;

#[derive(Debug, Clone, PartialEq)]
pub enum EmbedderChoice {
    /// The bundled multilingual-e5-small; `Err` when its weights were not found.
    Local(Result<PathBuf, WeightsError>),
    /// The bundled EmbeddingGemma; `Err` says what is missing.
    Gemma(Result<GemmaFiles, EmbedError>),
    /// "Automatic" on a computer that suits EmbeddingGemma: it, or e5-small (`light`)
    /// should it not start.
    GemmaOrLight { gemma: GemmaFiles, light: Result<PathBuf, WeightsError> },
    /// An OpenAI-compatible endpoint.
    Remote { url: String, model: String, api_key: Option<String> },
    /// Recall by keywords only.
    Off,
}

/// Which built-in embedder suits a computer with `memory_bytes` (0: unknown, the light one).
pub fn suited(memory_bytes: u64) -> EmbeddingsBackend {
    if memory_bytes >= GEMMA_FROM_GIB << 30 {
        EmbeddingsBackend::Gemma
    } else {
        EmbeddingsBackend::Local
    }
}

/// The built-in embedder "automatic" asks for: [`AUTOMATIC_ENV`] when set, else the one
/// that suits a computer with `memory_bytes`.
fn wanted(memory_bytes: u64) -> EmbeddingsBackend {
    match std::env::var(AUTOMATIC_ENV).as_deref() {
        Ok("local") => EmbeddingsBackend::Local,
        Ok("gemma") => EmbeddingsBackend::Gemma,
        _ => suited(memory_bytes),
    }
}

/// What "automatic" stands for here: [`wanted`], and e5-small when EmbeddingGemma is not
/// installed in `runtime`.
pub(crate) fn automatic(runtime: Option<&Path>, memory_bytes: u64) -> EmbeddingsBackend {
    match wanted(memory_bytes) {
        EmbeddingsBackend::Gemma if GemmaFiles::locate(runtime).is_ok() => EmbeddingsBackend::Gemma,
        _ => EmbeddingsBackend::Local,
    }
}

impl EmbedderChoice {
    /// From `[memory.embeddings]`; the local weights are looked for in the runtime
    /// folder unless `SIDECAR_EMBEDDER_WEIGHTS` names them.
    pub fn from_settings(settings: &Settings, secrets: &Secrets) -> Self {
        let embeddings = &settings.memory.embeddings;
        let runtime = settings.local_model.runtime.as_deref();
        let light = || {
            let explicit = std::env::var_os(WEIGHTS_ENV).filter(|v| !v.is_empty()).map(PathBuf::from);
            weights::locate(explicit.as_deref(), runtime)
        };
        match embeddings.backend {
            EmbeddingsBackend::Off => Self::Off,
            EmbeddingsBackend::Local => Self::Local(light()),
            EmbeddingsBackend::Gemma => Self::Gemma(GemmaFiles::locate(runtime)),
            EmbeddingsBackend::Auto => match (wanted(sidecar_llm::total_memory()), GemmaFiles::locate(runtime)) {
                (EmbeddingsBackend::Gemma, Ok(gemma)) => Self::GemmaOrLight { gemma, light: light() },
                _ => Self::Local(light()),
            },
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embeddinggemma_suits_a_computer_from_8_gib() {
        assert_eq!(suited(16 << 30), EmbeddingsBackend::Gemma);
        assert_eq!(suited(8 << 30), EmbeddingsBackend::Gemma);
        assert_eq!(suited(4 << 30), EmbeddingsBackend::Local);
        assert_eq!(suited(0), EmbeddingsBackend::Local, "memory unknown: the light one");
    }

    #[test]
    fn automatic_is_the_light_one_where_embeddinggemma_is_not_installed() {
        let runtime = tempfile::tempdir().unwrap();
        assert_eq!(automatic(Some(runtime.path()), 16 << 30), EmbeddingsBackend::Local);
        assert_eq!(automatic(None, 16 << 30), EmbeddingsBackend::Local);
    }
}

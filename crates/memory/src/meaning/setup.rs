//! Recall by meaning as Settings shows and changes it: the embedder (this computer,
//! an OpenAI-compatible endpoint, or off), and how far embedding has got. Saved under
//! `[memory.embeddings]`; an endpoint's key goes to the system keychain. A change
//! re-embeds everything in the background.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::choice::EmbedderChoice;
use super::indexer::{MeaningIndex, MeaningState, MeaningStatus};
use sidecar_domain::AddressRefusal;
use sidecar_domain::Secrets;
use sidecar_domain::Worded;
use sidecar_settings::Change;
use sidecar_settings::EmbeddingsBackend;
use sidecar_settings::EmbeddingsSettings;
use sidecar_settings::SettingsFileError;
use sidecar_settings::SettingsOwner;
use sidecar_settings::EMBEDDINGS_KEY_ID;

/// Memory each built-in embedder holds while it runs, in MiB, as the
/// `embedder_footprint` bench measured it on long paragraphs (e5-small: the app's
/// growth; EmbeddingGemma: its server at its peak, which it keeps once reached).
const E5_MEMORY_MIB: u32 = 120;
const GEMMA_MEMORY_MIB: u32 = 1140;

/// An embedder setup Settings turns down, worded in both languages.
#[derive(Debug, thiserror::Error)]
pub enum MeaningSetupError {
    #[error("Write the endpoint's address, like http://localhost:11434/v1")]
    NeedsAddress,
    #[error("Name the embedding model, like nomic-embed-text")]
    NoModel,
    #[error(transparent)]
    Address(#[from] AddressRefusal),
    #[error(transparent)]
    SettingsFile(#[from] SettingsFileError),
}

impl Worded for MeaningSetupError {
    fn spanish(&self) -> String {
        match self {
            MeaningSetupError::NeedsAddress => "Escribe la dirección del servicio, como http://localhost:11434/v1".into(),
            MeaningSetupError::NoModel => "Indica el modelo de embeddings, como nomic-embed-text".into(),
            MeaningSetupError::Address(e) => e.spanish(),
            MeaningSetupError::SettingsFile(e) => e.spanish(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
pub struct MeaningView {
    pub backend: EmbeddingsBackend,
    pub url: Option<String>,
    pub model: Option<String>,
    /// A key is saved for the endpoint; never the key itself.
    pub has_key: bool,
    pub status: MeaningStatus,
    /// The embedders that run on this computer, as installed here.
    pub built_in: Vec<BuiltInEmbedder>,
    /// The built-in embedder "automatic" stands for here (`local` or `gemma`): the one
    /// running when automatic is in use and loaded, else the one it would choose.
    pub automatic: EmbeddingsBackend,
    /// Automatic runs the light embedder because EmbeddingGemma, which suits this
    /// computer, did not start.
    pub automatic_stands_in: bool,
}

/// An embedder that ships with Sidecar, for Settings to describe.
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
pub struct BuiltInEmbedder {
    pub backend: EmbeddingsBackend,
    /// What its vectors are stored under, as the index's state names it.
    pub model: &'static str,
    pub name: &'static str,
    pub licence: &'static str,
    /// Its weights' size; `None` when they are not installed.
    pub size_bytes: Option<u64>,
    /// Memory it takes while it runs, as measured (`embedder_footprint` bench).
    pub memory_mib: u32,
    /// The one that suits this computer's memory ([`super::choice::suited`]).
    pub recommended: bool,
}

/// Both built-in embedders, with the size of their files in `runtime`, for a computer
/// with `memory_bytes`.
fn built_in(runtime: Option<&std::path::Path>, memory_bytes: u64) -> Vec<BuiltInEmbedder> {
    use sidecar_domain::runtime_files;
    let suits = super::choice::suited(memory_bytes);
    let size = |path: Option<std::path::PathBuf>| path.and_then(|p| std::fs::metadata(p).ok()).filter(|m| m.is_file()).map(|m| m.len());
    type File = fn(&std::path::Path) -> std::path::PathBuf;
    let known: [(EmbeddingsBackend, &'static str, &'static str, &'static str, File, u32); 2] = [
        (EmbeddingsBackend::Local, super::weights::LOCAL_MODEL, "multilingual-e5-small", "MIT", runtime_files::embedder, E5_MEMORY_MIB),
        (EmbeddingsBackend::Gemma, super::gemma::GEMMA_MODEL, "EmbeddingGemma-300M", "Gemma Terms of Use", runtime_files::gemma_embedder, GEMMA_MEMORY_MIB),
    ];
    known
        .into_iter()
        .map(|(backend, model, name, licence, file, memory_mib)| BuiltInEmbedder {
            backend,
            model,
            name,
            licence,
            size_bytes: size(runtime.map(file)),
            memory_mib,
            recommended: suits == backend,
        })
        .collect()
}

/// What automatic stands for here, and whether it stands in for the one that suits the
/// computer: once automatic is in use and loaded, the embedder running (the light one
/// when EmbeddingGemma did not start), else `wanted`, the one it would choose.
fn automatic_here(backend: EmbeddingsBackend, state: &MeaningState, built_in: &[BuiltInEmbedder], wanted: EmbeddingsBackend) -> (EmbeddingsBackend, bool) {
    let running = match state {
        MeaningState::Ready { model } if backend == EmbeddingsBackend::Auto => built_in.iter().find(|b| b.model == model).map(|b| b.backend),
        _ => None,
    };
    (running.unwrap_or(wanted), running.is_some_and(|running| running != wanted))
}

/// A change from Settings.
#[derive(Debug, Clone, Deserialize, ts_rs::TS)]
pub struct MeaningInput {
    pub backend: EmbeddingsBackend,
    #[serde(default)]
    pub url: Option<String>,
    #[serde(default)]
    pub model: Option<String>,
    /// A new key; empty keeps the saved one.
    #[serde(default)]
    pub api_key: Option<String>,
}

/// The embeddings' section (and the runtime folder) is read from the settings' owner
/// each time, never copied.
pub struct MeaningSetup {
    secrets: Arc<Secrets>,
    owner: Arc<SettingsOwner>,
    index: Arc<MeaningIndex>,
}

impl MeaningSetup {
    pub fn new(secrets: Arc<Secrets>, owner: Arc<SettingsOwner>, index: Arc<MeaningIndex>) -> Self {
        Self { secrets, owner, index }
    }

    fn embeddings(&self) -> EmbeddingsSettings {
        self.owner.current().memory.embeddings.clone()
    }

    pub async fn view(&self) -> MeaningView {
        let embeddings = self.embeddings();
        let runtime = self.owner.current().local_model.runtime.clone();
        let memory = sidecar_llm::total_memory();
        let built_in = built_in(runtime.as_deref(), memory);
        let status = self.index.status().await;
        let (automatic, automatic_stands_in) =
            automatic_here(embeddings.backend, &status.state, &built_in, super::choice::automatic(runtime.as_deref(), memory));
        MeaningView {
            automatic,
            automatic_stands_in,
            built_in,
            backend: embeddings.backend,
            url: embeddings.url,
            model: embeddings.model,
            has_key: self.secrets.get(EMBEDDINGS_KEY_ID).is_some(),
            status,
        }
    }

    pub async fn save(&self, input: MeaningInput) -> Result<MeaningView, MeaningSetupError> {
        let trimmed = |v: Option<String>| v.map(|u| u.trim().trim_end_matches('/').to_string()).filter(|u| !u.is_empty());
        let (mut url, mut model) = (trimmed(input.url), trimmed(input.model));
        if input.backend == EmbeddingsBackend::Openai {
            let address = url.as_deref().ok_or(MeaningSetupError::NeedsAddress)?;
            AddressRefusal::check_web(address, "http://localhost:11434/v1")?;
            if model.is_none() {
                return Err(MeaningSetupError::NoModel);
            }
        } else {
            (url, model) = (None, None);
        }
        if let Some(key) = input.api_key.map(|k| k.trim().to_string()).filter(|k| !k.is_empty()) {
            self.secrets.store(EMBEDDINGS_KEY_ID, &key);
        }
        let settings = self.owner.change(Change::Embeddings { backend: input.backend, url, model })?;
        self.index.configure(EmbedderChoice::from_settings(&settings, &self.secrets)).await;
        Ok(self.view().await)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn automatic_names_the_embedder_running_and_says_when_it_stands_in() {
        use EmbeddingsBackend::{Auto, Gemma, Local};
        let known = built_in(None, 16 << 30);
        let ready = |model: &str| MeaningState::Ready { model: model.into() };
        let light = super::super::weights::LOCAL_MODEL;
        assert_eq!(automatic_here(Auto, &MeaningState::Idle, &known, Gemma), (Gemma, false), "not loaded yet: what it would choose");
        assert_eq!(automatic_here(Auto, &ready(super::super::gemma::GEMMA_MODEL), &known, Gemma), (Gemma, false));
        assert_eq!(automatic_here(Auto, &ready(light), &known, Gemma), (Local, true), "EmbeddingGemma did not start");
        assert_eq!(automatic_here(Auto, &ready(light), &known, Local), (Local, false));
        assert_eq!(automatic_here(Local, &ready(light), &known, Gemma), (Gemma, false), "the light one chosen by name");
    }

    #[test]
    fn embeddinggemma_is_recommended_from_8_gib_and_its_size_is_the_installed_files() {
        let runtime = tempfile::tempdir().unwrap();
        std::fs::write(sidecar_domain::runtime_files::gemma_embedder(runtime.path()), vec![0u8; 1234]).unwrap();
        let small = built_in(Some(runtime.path()), 4 << 30);
        assert!(small[0].recommended && !small[1].recommended, "{small:?}");
        assert_eq!((small[0].size_bytes, small[1].size_bytes), (None, Some(1234)));
        let large = built_in(Some(runtime.path()), 16 << 30);
        assert!(!large[0].recommended && large[1].recommended, "{large:?}");
        assert!(built_in(None, 0)[0].recommended, "memory unknown: the light one");
    }
}

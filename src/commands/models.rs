//! The window's models commands (`commands` says how the table serves them).

use crate::commands::{blocking, commands, CommandError, SaidBy};
use crate::CompanionError;
use sidecar_llm::FoundServer;
use sidecar_llm::TuningInput;
use sidecar_llm::TuningView;
use sidecar_llm::HubView;
use sidecar_llm::Switched;
use sidecar_llm::Preset;
use sidecar_llm::PRESETS;
use sidecar_llm::ProviderInput;

commands! {
    async fn welcome_needed(core) -> Result<bool, CommandError> {
        Ok(core.welcome_needed())
    }

    async fn finish_welcome(core) -> Result<(), CommandError> {
        core.finish_welcome().said(&core)
    }

    async fn provider_presets(_core) -> Result<&'static [Preset], CommandError> {
        Ok(PRESETS)
    }

    /// The models the server in the provider form offers.
    async fn list_provider_models(core, input: ProviderInput) -> Result<Vec<String>, CommandError> {
        core.provider_admin().list_models(input).await.said(&core)
    }

    /// Ollama, LM Studio or llama.cpp found running here, with their models.
    async fn local_servers(core) -> Result<Vec<FoundServer>, CommandError> {
        Ok(core.provider_admin().local_servers().await)
    }

    async fn model_hub(core) -> Result<HubView, CommandError> {
        Ok(blocking(&core, |c| c.model_hub().view()).await)
    }

    /// Starts (or resumes) a download of a catalogue id or a link; progress arrives as
    /// `model_download` events. Async: the download is spawned on the runtime.
    async fn pull_model(core, what: String, sha256: Option<String>) -> Result<String, CommandError> {
        let hub = core.model_hub();
        hub.start_pull(hub.request(&what, sha256.filter(|h| !h.trim().is_empty()))).said(&core)
    }

    async fn pause_download(core, file: String) -> Result<bool, CommandError> {
        Ok(core.model_hub().pause(&file))
    }

    async fn discard_download(core, file: String) -> Result<HubView, CommandError> {
        blocking(&core, move |c| c.model_hub().discard(&file).map_err(CompanionError::from)).await.said(&core)?;
        Ok(core.model_hub().view())
    }

    async fn import_model(core, path: String) -> Result<HubView, CommandError> {
        blocking(&core, move |c| c.model_hub().import(std::path::Path::new(path.trim())).map_err(CompanionError::from)).await.said(&core)?;
        Ok(core.model_hub().view())
    }

    /// Makes `name` the local model (`None`: the built-in one) and restarts the server on it.
    async fn use_local_model(core, name: Option<String>) -> Result<Switched, CommandError> {
        core.model_hub().use_model(name.as_deref()).await.said(&core)
    }

    async fn remove_local_model(core, name: String) -> Result<HubView, CommandError> {
        core.model_hub().remove(&name).await.said(&core)?;
        Ok(core.model_hub().view())
    }

    async fn local_tuning(core) -> Result<TuningView, CommandError> {
        Ok(core.model_hub().tuning())
    }

    /// Saves the local model's sampling and window; the server restarts on them.
    async fn set_local_tuning(core, input: TuningInput) -> Result<TuningView, CommandError> {
        core.model_hub().set_tuning(input).await.said(&core)
    }
}

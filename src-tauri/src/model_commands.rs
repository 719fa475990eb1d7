//! IPC commands for the welcome and the model manager: each a few lines calling the core.

use sidecar::llm::discover::FoundServer;
use sidecar::llm::presets::{Preset, PRESETS};
use sidecar::local_models::tuning::{TuningInput, TuningView};
use sidecar::local_models::{HubView, Switched};
use sidecar::provider_admin::ProviderInput;
use sidecar::CompanionError;

use crate::commands::{blocking, CommandError, Core, SaidBy};

#[tauri::command]
pub fn welcome_needed(core: Core<'_>) -> bool {
    core.welcome_needed()
}

#[tauri::command]
pub fn finish_welcome(core: Core<'_>) -> Result<(), CommandError> {
    core.finish_welcome().said(&core)
}

#[tauri::command]
pub fn provider_presets() -> &'static [Preset] {
    PRESETS
}

/// The models the server in the provider form offers.
#[tauri::command]
pub async fn list_provider_models(core: Core<'_>, input: ProviderInput) -> Result<Vec<String>, CommandError> {
    core.provider_admin().list_models(input).await.said(&core)
}

/// Ollama, LM Studio or llama.cpp found running here, with their models.
#[tauri::command]
pub async fn local_servers(core: Core<'_>) -> Result<Vec<FoundServer>, CommandError> {
    Ok(core.provider_admin().local_servers().await)
}

#[tauri::command]
pub async fn model_hub(core: Core<'_>) -> Result<HubView, CommandError> {
    Ok(blocking(&core, |c| c.model_hub().view()).await)
}

/// Starts (or resumes) a download of a catalogue id or a link; progress arrives as
/// `model_download` events. Async: the download is spawned on the runtime.
#[tauri::command]
pub async fn pull_model(core: Core<'_>, what: String, sha256: Option<String>) -> Result<String, CommandError> {
    let hub = core.model_hub();
    hub.start_pull(hub.request(&what, sha256.filter(|h| !h.trim().is_empty()))).said(&core)
}

#[tauri::command]
pub fn pause_download(core: Core<'_>, file: String) -> bool {
    core.model_hub().pause(&file)
}

#[tauri::command]
pub async fn discard_download(core: Core<'_>, file: String) -> Result<HubView, CommandError> {
    blocking(&core, move |c| c.model_hub().discard(&file).map_err(CompanionError::from)).await.said(&core)?;
    Ok(core.model_hub().view())
}

#[tauri::command]
pub async fn import_model(core: Core<'_>, path: String) -> Result<HubView, CommandError> {
    blocking(&core, move |c| c.model_hub().import(std::path::Path::new(path.trim())).map_err(CompanionError::from)).await.said(&core)?;
    Ok(core.model_hub().view())
}

/// Makes `name` the local model (`None`: the built-in one) and restarts the server on it.
#[tauri::command]
pub async fn use_local_model(core: Core<'_>, name: Option<String>) -> Result<Switched, CommandError> {
    core.model_hub().use_model(name.as_deref()).await.said(&core)
}

#[tauri::command]
pub async fn remove_local_model(core: Core<'_>, name: String) -> Result<HubView, CommandError> {
    core.model_hub().remove(&name).await.said(&core)?;
    Ok(core.model_hub().view())
}

#[tauri::command]
pub fn local_tuning(core: Core<'_>) -> TuningView {
    core.model_hub().tuning()
}

/// Saves the local model's sampling and window; the server restarts on them.
#[tauri::command]
pub async fn set_local_tuning(core: Core<'_>, input: TuningInput) -> Result<TuningView, CommandError> {
    core.model_hub().set_tuning(input).await.said(&core)
}

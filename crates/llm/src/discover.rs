//! Finds the model servers already running on this machine (Ollama, LM Studio,
//! llama.cpp) by asking each default loopback port for its model list.

use std::time::Duration;

use serde::Serialize;

use super::presets::{Preset, PRESETS};

/// A local server that answered, with the models it offers.
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
pub struct FoundServer {
    /// The preset it matches (`ollama`, `lmstudio`, `llamacpp`).
    pub id: String,
    pub label: String,
    pub base_url: String,
    pub models: Vec<String>,
    pub context_window: u32,
}

/// A closed port refuses at once; this only bounds a port that accepts and stalls.
const PROBE: Duration = Duration::from_millis(1500);

/// Asks every local preset's port at once; those that answer with a model list.
pub(crate) async fn local_servers(http: &reqwest::Client) -> Vec<FoundServer> {
    servers_among(http, PRESETS.iter().filter(|p| p.local)).await
}

/// Those of `candidates` that answer with a model list, asked all at once.
pub async fn servers_among(http: &reqwest::Client, candidates: impl Iterator<Item = &Preset>) -> Vec<FoundServer> {
    let probes = candidates.map(|preset| probe(http, preset));
    futures_util::future::join_all(probes).await.into_iter().flatten().collect()
}

async fn probe(http: &reqwest::Client, preset: &Preset) -> Option<FoundServer> {
    let endpoint =
        super::endpoint::Endpoint::new(http.clone(), preset.base_url, preset.model, None, super::sse::Timeouts { connect: PROBE, respond: PROBE, idle: PROBE });
    let models = tokio::time::timeout(PROBE, endpoint.list_models()).await.ok()?.ok()?;
    Some(FoundServer {
        id: preset.id.to_string(),
        label: preset.label.to_string(),
        base_url: preset.base_url.to_string(),
        models,
        context_window: preset.context_window,
    })
}

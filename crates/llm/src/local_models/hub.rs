//! `ModelHub`: the model manager as a service. It owns the models folder and the
//! downloads under way; choosing a model saves it in the settings and restarts the
//! local server on it.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::Serialize;
use tokio_util::sync::CancellationToken;

use super::catalogue::{self, CatalogueEntry};
use super::download::{Downloader, Progress, PullError, PullRequest, Pulled};
use super::download_state::{DownloadPhase, DownloadState};
use super::error::HubError;
use super::library::{InstalledModel, LibraryError, ModelLibrary, PartialModel};
use crate::local_models::events::LocalModelEvent;
use crate::model::Models;
use sidecar_domain::Emitter;
use sidecar_settings::Change;

/// A catalogue entry as the model manager shows it.
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
pub struct CatalogueView {
    #[serde(flatten)]
    pub entry: CatalogueEntry,
    /// This machine has the memory the model wants.
    pub fits: bool,
    pub installed: bool,
    /// Bytes of an unfinished download, which Download resumes.
    pub partial_bytes: Option<u64>,
    pub downloading: bool,
}

/// Everything the model manager shows.
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
pub struct HubView {
    pub catalogue: Vec<CatalogueView>,
    pub installed: Vec<InstalledModel>,
    /// Unfinished downloads that are not in the catalogue (a pasted link).
    pub partials: Vec<PartialModel>,
    /// The model the local server runs; `None`: the built-in demo model.
    pub active: Option<String>,
    pub memory_bytes: u64,
    /// The catalogue entry this machine runs best.
    pub recommended: Option<String>,
    pub folder: PathBuf,
}

/// What choosing a model did.
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
pub struct Switched {
    /// `None`: back to the built-in demo model.
    pub active: Option<String>,
    pub context_tokens: u32,
    /// How long the local server took to come back on the new model; `None` when it
    /// was not running (it starts on the next message).
    pub restart_ms: Option<u64>,
    /// Set when the settings file could not be written (the choice holds for this run).
    pub warning: Option<String>,
}

pub struct ModelHub {
    library: ModelLibrary,
    downloader: Downloader,
    models: Arc<Models>,
    events: Emitter<LocalModelEvent>,
    memory_bytes: u64,
    running: Mutex<HashMap<String, CancellationToken>>,
    /// The language a failed download is said in.
    lang: sidecar_domain::Lang,
}

impl ModelHub {
    pub fn new(data_dir: &Path, models: Arc<Models>, events: Emitter<LocalModelEvent>, lang: sidecar_domain::Lang) -> Self {
        let memory_bytes = super::machine::total_memory();
        Self { library: ModelLibrary::new(data_dir), downloader: Downloader::new(memory_bytes), models, events, memory_bytes, lang, running: Mutex::default() }
    }

    pub(super) fn models(&self) -> &Models {
        &self.models
    }

    pub fn view(&self) -> HubView {
        let installed = self.library.installed();
        let partials = self.library.partials();
        let running = self.running.lock().expect("downloads lock").clone();
        let catalogue = catalogue::CATALOGUE
            .iter()
            .map(|entry| CatalogueView {
                entry: entry.clone(),
                fits: self.memory_bytes == 0 || u64::from(entry.min_ram_gb) <= self.memory_bytes / (1 << 30) + 1,
                installed: installed.iter().any(|m| m.path.file_name().is_some_and(|f| f == entry.file)),
                partial_bytes: partials.iter().find(|p| p.file == entry.file).map(|p| p.received_bytes),
                downloading: running.contains_key(entry.file),
            })
            .collect();
        let in_catalogue = |file: &str| catalogue::CATALOGUE.iter().any(|e| e.file == file);
        HubView {
            catalogue,
            partials: partials.into_iter().filter(|p| !in_catalogue(&p.file)).collect(),
            active: self.active(&installed),
            installed,
            memory_bytes: self.memory_bytes,
            recommended: catalogue::recommended(self.memory_bytes).map(|e| e.id.to_string()),
            folder: self.library.dir().to_path_buf(),
        }
    }

    fn active(&self, installed: &[InstalledModel]) -> Option<String> {
        let chosen = self.models.settings().local_model.model.clone()?;
        installed.iter().find(|m| m.path == chosen).map(|m| m.name.clone()).or_else(|| chosen.file_stem().map(|s| s.to_string_lossy().into_owned()))
    }

    /// What a catalogue id or a link downloads, with the catalogue's pinned digest
    /// unless `sha256` is given.
    pub fn request(&self, id_or_url: &str, sha256: Option<String>) -> PullRequest {
        let entry = catalogue::find(id_or_url);
        PullRequest {
            url: entry.map(|e| e.url.to_string()).unwrap_or_else(|| id_or_url.trim().to_string()),
            sha256: sha256.or_else(|| entry.and_then(|e| e.sha256).map(str::to_string)),
            allow_large: false,
        }
    }

    /// Downloads and waits (the CLI), reporting progress to `progress`. A cut
    /// connection is resumed a few times before giving up.
    pub async fn pull(&self, request: &PullRequest, mut progress: impl FnMut(&Progress), cancel: &CancellationToken) -> Result<Pulled, PullError> {
        let mut attempts = 0;
        loop {
            match self.downloader.pull(&self.library, request, &mut progress, cancel).await {
                Err(PullError::Interrupted { received, reason }) if attempts < 4 => {
                    attempts += 1;
                    tracing::info!(received, %reason, attempts, "download cut: resuming");
                    tokio::time::sleep(Duration::from_millis(500 * attempts)).await;
                }
                other => return other,
            }
        }
    }

    /// Starts a download in the background (the window); its progress arrives as
    /// `ModelDownload` events. Pulling what is already under way does nothing.
    pub fn start_pull(self: &Arc<Self>, request: PullRequest) -> Result<String, HubError> {
        let file = super::download::file_name(&request.url)?;
        let cancel = CancellationToken::new();
        {
            let mut running = self.running.lock().expect("downloads lock");
            if running.contains_key(&file) {
                return Ok(file);
            }
            running.insert(file.clone(), cancel.clone());
        }
        let hub = self.clone();
        let name = file.clone();
        tokio::spawn(async move {
            let mut last = std::time::Instant::now() - Duration::from_secs(1);
            let events = hub.events.clone();
            let result = hub
                .pull(
                    &request,
                    |p| {
                        // At most a few events a second: the window redraws on each.
                        if last.elapsed() >= Duration::from_millis(200) {
                            last = std::time::Instant::now();
                            events.publish(LocalModelEvent::ModelDownload(state(p, DownloadPhase::Running, None)));
                        }
                    },
                    &cancel,
                )
                .await;
            hub.running.lock().expect("downloads lock").remove(&name);
            let end = match result {
                Ok(pulled) => DownloadState {
                    file: name,
                    received_bytes: pulled.total_bytes,
                    total_bytes: Some(pulled.total_bytes),
                    phase: DownloadPhase::Done,
                    message: None,
                },
                Err(PullError::Paused { received }) => {
                    DownloadState { file: name, received_bytes: received, total_bytes: None, phase: DownloadPhase::Paused, message: None }
                }
                Err(error) => {
                    tracing::warn!(%error, "model download failed");
                    let received = hub.library.partials().into_iter().find(|p| p.file == name).map(|p| p.received_bytes).unwrap_or(0);
                    DownloadState {
                        file: name,
                        received_bytes: received,
                        total_bytes: None,
                        phase: DownloadPhase::Failed,
                        message: Some(sidecar_domain::Worded::said_in(&error, hub.lang)),
                    }
                }
            };
            hub.events.publish(LocalModelEvent::ModelDownload(end));
        });
        Ok(file)
    }

    /// Pauses the download of `file`; what arrived stays for a resume.
    pub fn pause(&self, file: &str) -> bool {
        match self.running.lock().expect("downloads lock").get(file) {
            Some(cancel) => {
                cancel.cancel();
                true
            }
            None => false,
        }
    }

    /// Drops an unfinished download (pausing it first if it runs).
    pub fn discard(&self, file: &str) -> Result<(), LibraryError> {
        self.pause(file);
        self.library.discard_partial(file)
    }

    pub fn import(&self, source: &Path) -> Result<InstalledModel, LibraryError> {
        self.library.import(source)
    }

    /// Deletes a model; deleting the one in use goes back to the built-in model.
    pub async fn remove(&self, name: &str) -> Result<InstalledModel, HubError> {
        let model = self.library.find(name)?;
        if self.models.settings().local_model.model.as_deref() == Some(model.path.as_path()) {
            self.use_model(None).await?;
        }
        Ok(self.library.remove(name)?)
    }

    /// Makes `name` the model the local server runs (`None`: the built-in one),
    /// saves the choice, and restarts the server if it was running.
    pub async fn use_model(&self, name: Option<&str>) -> Result<Switched, HubError> {
        let path = match name {
            Some(name) => Some(self.library.find(name)?.path),
            None => None,
        };
        let (_, unsaved) = self.models.settings_owner().change_or_hold(Change::LocalModel(path.clone()));
        let warning = unsaved.map(|e| e.to_string());
        self.models.providers_changed();
        let choice = self.models.local_choice();
        let restart = self.models.restart_local().await?;
        Ok(Switched {
            active: path.is_some().then(|| choice.name.clone()),
            context_tokens: choice.context_tokens,
            restart_ms: restart.map(|d| d.as_millis() as u64),
            warning,
        })
    }
}

fn state(p: &Progress, phase: DownloadPhase, message: Option<String>) -> DownloadState {
    DownloadState { file: p.file.clone(), received_bytes: p.received_bytes, total_bytes: p.total_bytes, phase, message }
}

//! EmbeddingGemma-300M on this computer: llama.cpp's server from the runtime folder,
//! run as a process of its own in embedding mode (a crash of it never takes the app
//! down), started on first use and again if it stopped, and asked as any
//! OpenAI-compatible endpoint is, with the model's retrieval prompts.
//!
//! Its vectors are stored under a name of their own ([`GEMMA_MODEL`]), not the
//! server's address: the server picks a new port at each start, and the vectors stay
//! the same model's.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use sidecar_domain::runtime_files;
use sidecar_llm::LocalServer;
use sidecar_llm::LocalServerError;

use super::remote::RemoteEmbedder;
use super::{EmbedError, EmbedFuture, Embedder, TextKind};
use crate::knowledge::meaning::Thresholds;

/// The name EmbeddingGemma's vectors are stored under (with its retrieval prompts).
pub const GEMMA_MODEL: &str = "embeddinggemma-300m-q8_0|prompted";
/// The model's name as the server is asked for it; the name is what gives the prompts.
const SERVED_NAME: &str = "embeddinggemma-300m";
/// The server reads at most 2,048 tokens of a text (its slot); passages are cut well
/// before, as the other embedder cuts them: a long paste's gist is in its first pages.
const MAX_PASSAGE_CHARS: usize = 2_000;
/// Mapping 334 MB takes a second or two; a busy disk can take much longer.
const READY_WITHIN: Duration = Duration::from_secs(120);

/// The files EmbeddingGemma runs from.
#[derive(Debug, Clone, PartialEq)]
pub struct GemmaFiles {
    pub runtime: PathBuf,
    pub model: PathBuf,
}

impl GemmaFiles {
    /// The runtime folder's server and GGUF; an error says what to do when either is missing.
    pub fn locate(runtime: Option<&Path>) -> Result<Self, EmbedError> {
        let missing = || {
            EmbedError::Unavailable("EmbeddingGemma is not installed: reinstall Sidecar, run `make run` in a source checkout, or choose the light embedder (multilingual-e5-small) in Settings → Memory search".into())
        };
        let runtime = runtime.ok_or_else(missing)?;
        let model = runtime_files::gemma_embedder(runtime);
        if !model.is_file() || !runtime_files::server(runtime).is_file() {
            return Err(missing());
        }
        Ok(Self { runtime: runtime.to_path_buf(), model })
    }
}

struct Running {
    server: Arc<LocalServer>,
    endpoint: Arc<RemoteEmbedder>,
}

pub struct GemmaEmbedder {
    files: GemmaFiles,
    log_file: PathBuf,
    http: reqwest::Client,
    running: tokio::sync::Mutex<Option<Running>>,
}

impl GemmaEmbedder {
    /// Nothing starts until the first text is embedded.
    pub fn new(files: GemmaFiles, log_file: PathBuf, http: reqwest::Client) -> Self {
        Self { files, log_file, http, running: tokio::sync::Mutex::new(None) }
    }

    /// The server's endpoint, starting the server when it is not running (first use, or
    /// it stopped: a crash or a kill from outside).
    async fn endpoint(&self) -> Result<(Arc<LocalServer>, Arc<RemoteEmbedder>), EmbedError> {
        let mut running = self.running.lock().await;
        if let Some(run) = running.as_ref() {
            match run.server.exited() {
                None => return Ok((run.server.clone(), run.endpoint.clone())),
                Some(status) => tracing::warn!(%status, "EmbeddingGemma's server stopped; starting it again"),
            }
        }
        let server = LocalServer::start_embedder(&self.files.runtime, &self.files.model, &self.log_file, READY_WITHIN).await.map_err(|e| match e {
            // llama.cpp checks the GGUF as it loads it: a damaged file ends the server.
            LocalServerError::Exited { status, log } => EmbedError::Unavailable(format!(
                "EmbeddingGemma's server stopped as it started ({status}), its file may be damaged: reinstall Sidecar, or choose the light embedder in Settings → Memory search; see {}",
                log.display()
            )),
            other => EmbedError::Unavailable(format!("EmbeddingGemma could not start: {other}")),
        })?;
        let server = Arc::new(server);
        let endpoint = Arc::new(RemoteEmbedder::new(self.http.clone(), server.base_url(), SERVED_NAME, Some(server.api_key().to_string())));
        *running = Some(Running { server: server.clone(), endpoint: endpoint.clone() });
        Ok((server, endpoint))
    }

    /// Starts its server now: a failure is known (and shown) when the embedder is
    /// chosen, not at the first search.
    pub async fn started(self) -> Result<Self, EmbedError> {
        self.endpoint().await?;
        Ok(self)
    }

    /// The server's process id while it runs, for measuring its footprint.
    pub async fn pid(&self) -> Option<u32> {
        self.running.lock().await.as_ref().and_then(|run| run.server.pid())
    }
}

impl Embedder for GemmaEmbedder {
    fn model(&self) -> &str {
        GEMMA_MODEL
    }

    fn thresholds(&self) -> Thresholds {
        Thresholds::EMBEDDING_GEMMA
    }

    fn embed<'a>(&'a self, texts: &'a [String], kind: TextKind) -> EmbedFuture<'a> {
        Box::pin(async move {
            let (_server, endpoint) = self.endpoint().await?;
            let cut: Vec<String> = texts.iter().map(|text| cut(text)).collect();
            endpoint.embed(&cut, kind).await
        })
    }
}

/// `text` up to [`MAX_PASSAGE_CHARS`] characters.
fn cut(text: &str) -> String {
    match text.char_indices().nth(MAX_PASSAGE_CHARS) {
        Some((end, _)) => text[..end].to_string(),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_text_is_cut_at_a_character_boundary() {
        let long = "ñ".repeat(MAX_PASSAGE_CHARS + 10);
        assert_eq!(cut(&long).chars().count(), MAX_PASSAGE_CHARS);
        assert_eq!(cut("corto"), "corto");
    }

    #[test]
    fn without_its_files_it_says_what_to_do() {
        let empty = tempfile::tempdir().unwrap();
        let error = GemmaFiles::locate(Some(empty.path())).unwrap_err().to_string();
        assert!(error.contains("not installed") && error.contains("Settings"), "{error}");
        assert!(GemmaFiles::locate(None).is_err());
    }
}

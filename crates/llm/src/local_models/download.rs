//! Downloads a model file over HTTP into the models folder: resumable with HTTP
//! Range (a cut or a pause leaves a `.part` that the next pull continues), checked
//! against SHA-256, and refused up front when the disk or the memory is too small.

use std::path::PathBuf;
use std::time::Duration;

use futures_util::StreamExt;
use serde::Serialize;
use sha2::{Digest, Sha256};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_util::sync::CancellationToken;

use super::gguf::{read_info, GgufError};
use super::library::ModelLibrary;

/// What to download, and how it must check out.
#[derive(Debug, Clone, Default)]
pub struct PullRequest {
    pub url: String,
    /// The expected SHA-256 (given by the user or pinned in the catalogue); without
    /// one, the digest the server announces (`X-Linked-Etag`) is used.
    pub sha256: Option<String>,
    /// Download even when the model looks too large for this machine's memory.
    pub allow_large: bool,
}

/// How far a download has got.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Progress {
    pub file: String,
    pub received_bytes: u64,
    pub total_bytes: Option<u64>,
}

/// How the finished file was checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verified {
    /// Against the SHA-256 given or pinned.
    Pinned,
    /// Against the digest the server announced for the file.
    Announced,
    /// No digest was known: only the GGUF header was checked.
    HeaderOnly,
}

/// A finished download.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Pulled {
    pub path: PathBuf,
    pub total_bytes: u64,
    /// Bytes already there from an earlier, cut or paused attempt.
    pub resumed_from: u64,
    pub sha256: String,
    pub verified: Verified,
}

#[derive(Debug, thiserror::Error)]
pub enum PullError {
    #[error("{0} does not name a .gguf file; give the file's download link (on Hugging Face: the file's \"download\" link, with /resolve/)")]
    NotGgufUrl(String),
    #[error("{0} is already downloaded")]
    AlreadyInstalled(String),
    #[error("the server answered {status} for {url}")]
    Http { status: u16, url: String },
    #[error("the download stopped after {received} bytes ({reason}); pull again to resume where it stopped")]
    Interrupted { received: u64, reason: String },
    #[error("could not start the download: {0}. Connect to the network, then pull again")]
    Offline(String),
    #[error("paused after {received} bytes; pull again to resume")]
    Paused { received: u64 },
    #[error("not enough disk space: the model needs {need_mb} MB more and {free_mb} MB are free in {dir}")]
    NoSpace { need_mb: u64, free_mb: u64, dir: String },
    #[error("the model is {size_mb} MB and this machine has {ram_mb} MB of memory: it would not run well; choose a smaller model (or pass --allow-large)")]
    TooLarge { size_mb: u64, ram_mb: u64 },
    #[error(
        "the server sent {received} bytes, more than it announced or than this machine could use ({limit} bytes), so the download was stopped and deleted"
    )]
    NoEnd { received: u64, limit: u64 },
    #[error("the download does not match its SHA-256 (expected {expected}, got {actual}); it was deleted")]
    Checksum { expected: String, actual: String },
    #[error("the downloaded file is not a model llama.cpp can load, so it was deleted: {0}")]
    NotAModel(GgufError),
    #[error("cannot write the download in {path}: {source}")]
    Io { path: String, source: std::io::Error },
}

impl PullError {
    /// A later pull continues from what is on disk.
    pub fn resumable(&self) -> bool {
        matches!(self, Self::Interrupted { .. } | Self::Paused { .. } | Self::Offline(_))
    }
}

/// Free space kept beyond the file itself.
const DISK_MARGIN: u64 = 200 << 20;
/// A model needs about its size in memory plus its context; this share of the
/// machine's memory is the most a download may take.
const RAM_SHARE: f64 = 0.8;
/// No byte for this long means the connection is gone.
const STALL: Duration = Duration::from_secs(30);
/// After this long, a download slower than `MIN_RATE` bytes a second is a drip-feed:
/// stopped (what arrived is kept, a later pull resumes).
const SLOW_AFTER: Duration = Duration::from_secs(120);
const MIN_RATE: u64 = 4 << 10;
/// Progress is reported at most once per this many bytes.
const REPORT_EVERY: u64 = 1 << 20;

pub struct Downloader {
    http: reqwest::Client,
    /// Does not follow redirects: Hugging Face announces the file's digest and size
    /// on its own answer, before redirecting to the storage that serves the bytes.
    head: reqwest::Client,
    memory_bytes: u64,
}

impl Downloader {
    pub fn new(memory_bytes: u64) -> Self {
        let builder = || reqwest::Client::builder().connect_timeout(Duration::from_secs(15)).user_agent(concat!("sidecar/", env!("CARGO_PKG_VERSION")));
        Self {
            http: builder().build().expect("a TLS backend is compiled in"),
            head: builder().redirect(reqwest::redirect::Policy::none()).timeout(Duration::from_secs(15)).build().expect("a TLS backend is compiled in"),
            memory_bytes,
        }
    }

    /// Downloads `request.url` into `library`, resuming a `.part` left by an
    /// earlier attempt. `progress` hears how far it got; `cancel` pauses it.
    pub async fn pull(
        &self,
        library: &ModelLibrary,
        request: &PullRequest,
        mut progress: impl FnMut(&Progress),
        cancel: &CancellationToken,
    ) -> Result<Pulled, PullError> {
        let file = file_name(&request.url)?;
        let (target, part) = library.destination(&file);
        if target.exists() {
            return Err(PullError::AlreadyInstalled(file));
        }
        let io = |source| PullError::Io { path: library.dir().display().to_string(), source };
        tokio::fs::create_dir_all(library.dir()).await.map_err(io)?;
        let announced = self.announced(&request.url).await;
        let expected = request.sha256.clone().map(|h| h.to_ascii_lowercase()).or_else(|| announced.sha256.clone());
        let verified = match (&request.sha256, &announced.sha256) {
            (Some(_), _) => Verified::Pinned,
            (None, Some(_)) => Verified::Announced,
            (None, None) => Verified::HeaderOnly,
        };

        let (mut hasher, mut received) = hash_existing(&part).await.map_err(io)?;
        let mut call = self.http.get(&request.url);
        if received > 0 {
            call = call.header(reqwest::header::RANGE, format!("bytes={received}-"));
        }
        let response = call.send().await.map_err(|e| match crate::offline::ConnectFailure::read(&request.url, &e) {
            crate::offline::ConnectFailure::Offline(said) => PullError::Offline(said),
            crate::offline::ConnectFailure::Other(reason) => PullError::Interrupted { received, reason },
        })?;
        let status = response.status();
        if status == reqwest::StatusCode::RANGE_NOT_SATISFIABLE {
            // The part is already whole (or longer than the file): start again clean.
            tokio::fs::remove_file(&part).await.map_err(io)?;
            return Err(PullError::Interrupted { received: 0, reason: "the partial file did not match the server's; it was discarded".into() });
        }
        if !status.is_success() {
            return Err(PullError::Http { status: status.as_u16(), url: request.url.clone() });
        }
        if status != reqwest::StatusCode::PARTIAL_CONTENT && received > 0 {
            tracing::info!(received, "the server ignored the range: downloading from the start");
            (hasher, received) = (Sha256::new(), 0);
        }
        let resumed_from = received;
        let total = response.content_length().map(|rest| rest + received).or(announced.size);
        if let Some(total) = total {
            self.check_room(library, total, received)?;
        }
        // Never more than was announced; with no size said, no more than this machine
        // could run or the disk could hold.
        let limit = total.unwrap_or_else(|| self.unannounced_limit(library));

        let mut out = tokio::fs::OpenOptions::new().create(true).write(true).append(received > 0).truncate(received == 0).open(&part).await.map_err(io)?;
        let mut stream = response.bytes_stream();
        let mut reported = received;
        let mut report = Progress { file: file.clone(), received_bytes: received, total_bytes: total };
        progress(&report);
        let started = tokio::time::Instant::now();
        let stopped = loop {
            let next = tokio::select! {
                biased;
                _ = cancel.cancelled() => break Some(PullError::Paused { received }),
                next = tokio::time::timeout(STALL, stream.next()) => next,
            };
            match next {
                Err(_) => break Some(PullError::Interrupted { received, reason: format!("no data for {} s", STALL.as_secs()) }),
                Ok(None) => break None,
                Ok(Some(Err(error))) => break Some(PullError::Interrupted { received, reason: error.to_string() }),
                Ok(Some(Ok(chunk))) => {
                    if received + chunk.len() as u64 > limit {
                        drop(out);
                        let _ = tokio::fs::remove_file(&part).await;
                        return Err(PullError::NoEnd { received: received + chunk.len() as u64, limit });
                    }
                    out.write_all(&chunk).await.map_err(io)?;
                    hasher.update(&chunk);
                    received += chunk.len() as u64;
                    let elapsed = started.elapsed();
                    if elapsed > SLOW_AFTER && (received - resumed_from) < MIN_RATE * elapsed.as_secs() {
                        break Some(PullError::Interrupted { received, reason: format!("slower than {} kB/s for {} s", MIN_RATE >> 10, elapsed.as_secs()) });
                    }
                    if received - reported >= REPORT_EVERY {
                        reported = received;
                        report.received_bytes = received;
                        progress(&report);
                    }
                }
            }
        };
        out.flush().await.map_err(io)?;
        drop(out);
        if let Some(stopped) = stopped {
            return Err(stopped);
        }
        if total.is_some_and(|t| received < t) {
            return Err(PullError::Interrupted { received, reason: "the server closed the connection early".into() });
        }
        report.received_bytes = received;
        progress(&report);

        let actual = hex::encode(hasher.finalize());
        if let Some(expected) = expected.filter(|e| *e != actual) {
            let _ = tokio::fs::remove_file(&part).await;
            return Err(PullError::Checksum { expected, actual });
        }
        if let Err(error) = read_info(&part) {
            let _ = tokio::fs::remove_file(&part).await;
            return Err(PullError::NotAModel(error));
        }
        tokio::fs::rename(&part, &target).await.map_err(io)?;
        Ok(Pulled { path: target, total_bytes: received, resumed_from, sha256: actual, verified })
    }

    /// The most a download of unannounced size may write: what this machine could run,
    /// and what the disk holds beyond its margin.
    fn unannounced_limit(&self, library: &ModelLibrary) -> u64 {
        let memory = if self.memory_bytes > 0 { (self.memory_bytes as f64 * RAM_SHARE) as u64 } else { u64::MAX };
        let disk = super::machine::free_disk(library.dir()).map_or(u64::MAX, |free| free.saturating_sub(DISK_MARGIN));
        memory.min(disk)
    }

    fn check_room(&self, library: &ModelLibrary, total: u64, received: u64) -> Result<(), PullError> {
        if self.memory_bytes > 0 && total as f64 > self.memory_bytes as f64 * RAM_SHARE {
            return Err(PullError::TooLarge { size_mb: total >> 20, ram_mb: self.memory_bytes >> 20 });
        }
        let need = total.saturating_sub(received);
        match super::machine::free_disk(library.dir()) {
            Ok(free) if free < need + DISK_MARGIN => {
                Err(PullError::NoSpace { need_mb: need >> 20, free_mb: free >> 20, dir: library.dir().display().to_string() })
            }
            _ => Ok(()),
        }
    }

    /// Whatever the server says about the file before sending it: Hugging Face's
    /// `X-Linked-Etag` (the file's SHA-256) and `X-Linked-Size`, else its length.
    async fn announced(&self, url: &str) -> Announced {
        let Ok(response) = self.head.head(url).send().await else { return Announced::default() };
        let header = |name: &str| response.headers().get(name).and_then(|v| v.to_str().ok()).map(|v| v.trim_matches('"').to_string());
        let sha256 = header("x-linked-etag").filter(|h| h.len() == 64 && h.bytes().all(|b| b.is_ascii_hexdigit())).map(|h| h.to_ascii_lowercase());
        let size = header("x-linked-size").and_then(|s| s.parse().ok()).or_else(|| response.status().is_success().then(|| response.content_length()).flatten());
        Announced { sha256, size }
    }
}

#[derive(Default)]
struct Announced {
    sha256: Option<String>,
    size: Option<u64>,
}

/// The file name a URL downloads to: its last path segment, a `.gguf`.
pub(crate) fn file_name(url: &str) -> Result<String, PullError> {
    let parsed = url::Url::parse(url).map_err(|_| PullError::NotGgufUrl(url.to_string()))?;
    let last = parsed.path_segments().and_then(|mut s| s.next_back()).unwrap_or_default();
    let safe = !last.is_empty() && !last.starts_with('.') && !last.contains(['/', '\\']);
    if !safe || !last.to_ascii_lowercase().ends_with(".gguf") || !matches!(parsed.scheme(), "http" | "https") {
        return Err(PullError::NotGgufUrl(url.to_string()));
    }
    Ok(last.to_string())
}

/// The SHA-256 state and length of what an earlier attempt left.
async fn hash_existing(part: &std::path::Path) -> std::io::Result<(Sha256, u64)> {
    let mut hasher = Sha256::new();
    let mut file = match tokio::fs::File::open(part).await {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((hasher, 0)),
        Err(e) => return Err(e),
    };
    let mut buf = vec![0u8; 1 << 20];
    let mut len = 0u64;
    loop {
        let n = file.read(&mut buf).await?;
        if n == 0 {
            return Ok((hasher, len));
        }
        hasher.update(&buf[..n]);
        len += n as u64;
    }
}

impl sidecar_domain::Worded for PullError {
    fn spanish(&self) -> String {
        match self {
            PullError::NotGgufUrl(url) => {
                format!("{url} no apunta a un archivo .gguf; da el enlace de descarga del archivo (en Hugging Face: el enlace «download» del archivo, con /resolve/)")
            }
            PullError::AlreadyInstalled(name) => format!("{name} ya está descargado"),
            PullError::Http { status, url } => format!("el servidor respondió {status} para {url}"),
            PullError::Interrupted { received, reason } => {
                format!("la descarga se detuvo tras {received} bytes ({reason}); descarga otra vez para seguir donde se quedó")
            }
            PullError::Offline(_) => "no se pudo empezar la descarga: este ordenador parece no tener conexión. Conéctate a la red y vuelve a descargar".into(),
            PullError::Paused { received } => format!("en pausa tras {received} bytes; descarga otra vez para seguir"),
            PullError::NoSpace { need_mb, free_mb, dir } => {
                format!("no hay espacio suficiente: el modelo necesita {need_mb} MB más y quedan {free_mb} MB libres en {dir}")
            }
            PullError::TooLarge { size_mb, ram_mb } => format!(
                "el modelo ocupa {size_mb} MB y este equipo tiene {ram_mb} MB de memoria: no funcionaría bien; elige un modelo más pequeño (o usa --allow-large)"
            ),
            PullError::NoEnd { received, limit } => format!(
                "el servidor envió {received} bytes, más de lo anunciado o de lo que este equipo podría usar ({limit} bytes), así que la descarga se detuvo y se borró"
            ),
            PullError::Checksum { expected, actual } => format!("la descarga no coincide con su SHA-256 (se esperaba {expected}, llegó {actual}); se ha borrado"),
            PullError::NotAModel(e) => format!("el archivo descargado no es un modelo que llama.cpp pueda cargar, así que se ha borrado: {}", e.spanish()),
            PullError::Io { path, source } => format!("no se puede escribir la descarga en {path}: {source}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_come_from_gguf_links_only() {
        assert_eq!(file_name("https://huggingface.co/a/b/resolve/main/M-Q4.gguf?download=true").unwrap(), "M-Q4.gguf");
        for bad in ["https://example.com/model.bin", "file:///etc/x.gguf", "not a url", "https://h/.gguf"] {
            assert!(file_name(bad).is_err(), "{bad}");
        }
    }
}

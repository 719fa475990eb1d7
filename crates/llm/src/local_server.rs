//! The offline model: llama.cpp's own server (`llama-server`, shipped in the runtime
//! folder, see [`sidecar_domain::runtime_files`]) serving a GGUF from the models folder, or the
//! SmolLM2-135M demo model when none is chosen. It runs as its own process, so a crash
//! of the model never takes the app down, on a loopback port the server picks itself
//! (port 0) and names in its log: picking one here and handing it over left a moment in
//! which another server could take it, and two servers sharing a port answer each
//! other's requests. It dies with the app, even a killed one ([`super::lasting_spawn`]).
//!
//! Loopback is not private: any program of any user on the computer, and any web page
//! the browser opens (llama.cpp echoes every Origin by default), could reach the port.
//! So each server is started with a key of its own, made fresh at each start and given
//! through its environment (a command line is readable by every user), answers no
//! web page, and keeps its slots endpoint (which shows the prompts) closed.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use tokio::process::{Child, Command};

use sidecar_domain::runtime_files;

/// The model's name as the server reports it; any name works with llama.cpp.
pub const LOCAL_MODEL_NAME: &str = "SmolLM2-135M-Instruct";
/// llama.cpp's prompt cache kept in RAM, in MiB: when another conversation (or a summary)
/// takes the one slot, the state it replaces is kept and restored when that conversation
/// speaks again, so each keeps its cached prefix. Capped for a desktop app.
const PROMPT_CACHE_MIB: u32 = 2048;

#[derive(Debug, thiserror::Error)]
pub enum LocalServerError {
    #[error("no offline model is installed: Sidecar looks for its runtime folder (llama-server and the demo model) in ../lib/sidecar beside the program; reinstall Sidecar, run `make run` in a source checkout, set SIDECAR_RUNTIME, or add a provider in settings.toml")]
    NotConfigured,
    #[error("the offline model's server is missing from {0}: reinstall Sidecar, or run `make run` in a source checkout to build it")]
    Missing(PathBuf),
    #[error("cannot start the offline model ({server}): {source}")]
    Spawn { server: PathBuf, source: std::io::Error },
    #[error("the offline model exited before it was ready ({status}); see {log}")]
    Exited { status: String, log: PathBuf },
    #[error("the offline model was not ready after {0:?}; see the log in the data directory")]
    NotReady(Duration),
}

/// A running local model server. Dropping it stops the server.
#[derive(Debug)]
pub struct LocalServer {
    base_url: String,
    api_key: String,
    // Locked only to ask whether it still runs; shared by every clone of the provider.
    child: std::sync::Mutex<Child>,
}

impl LocalServer {
    /// Starts llama.cpp's server from `runtime` on `model` (the demo model when `None`)
    /// and waits until it answers `/health` with 200.
    pub async fn start(runtime: &Path, model: Option<&Path>, context_tokens: u32, log_file: &Path, ready_within: Duration) -> Result<Self, LocalServerError> {
        Self::spawn(runtime, server_args(runtime, model, context_tokens, threads()), log_file, ready_within).await
    }

    /// Starts llama.cpp's server from `runtime` as an embedder of `model` (a GGUF with
    /// its own pooling, such as EmbeddingGemma) and waits until it is ready.
    pub async fn start_embedder(runtime: &Path, model: &Path, log_file: &Path, ready_within: Duration) -> Result<Self, LocalServerError> {
        Self::spawn(runtime, embedder_args(model, threads()), log_file, ready_within).await
    }

    async fn spawn(runtime: &Path, args: Vec<std::ffi::OsString>, log_file: &Path, ready_within: Duration) -> Result<Self, LocalServerError> {
        let server = runtime_files::server(runtime);
        if !server.is_file() {
            return Err(LocalServerError::Missing(runtime.to_path_buf()));
        }
        if let Some(dir) = log_file.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let spawn_error = |source| LocalServerError::Spawn { server: server.clone(), source };
        // A new file, not the old one emptied: a server being replaced may still write to
        // the old one at its own offset, and its lines would land in the new server's log.
        let _ = std::fs::remove_file(log_file);
        let log = std::fs::File::create(log_file).map_err(spawn_error)?;
        let log_err = log.try_clone().map_err(spawn_error)?;
        let api_key = fresh_key();
        let mut command = Command::new(&server);
        command.args(args).args(CLOSED);
        command.env("LLAMA_API_KEY", &api_key);
        command.stdin(Stdio::null()).stdout(log).stderr(log_err);
        let child = super::lasting_spawn::spawn(command).await.map_err(spawn_error)?;
        let mut server = Self { base_url: String::new(), api_key, child: std::sync::Mutex::new(child) };
        let address = server.wait_ready(log_file, ready_within).await?;
        tracing::info!(%address, log = %log_file.display(), "llama.cpp's server ready");
        server.base_url = format!("http://{address}/v1");
        Ok(server)
    }

    /// The OpenAI-compatible base URL, ending in `/v1`.
    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    /// The key the server asks of every request but its health check.
    pub fn api_key(&self) -> &str {
        &self.api_key
    }

    /// The server's process id, for measuring its footprint.
    pub fn pid(&self) -> Option<u32> {
        self.child.lock().expect("child lock").id()
    }

    /// How the server ended, if it did (a crash, or killed from outside).
    pub fn exited(&self) -> Option<String> {
        self.child.lock().expect("child lock").try_wait().ok().flatten().map(|status| status.to_string())
    }

    /// Waits for the server to name its address in the log, then for `/health` to
    /// answer 200 there (it answers 503 while the model loads).
    async fn wait_ready(&self, log_file: &Path, within: Duration) -> Result<String, LocalServerError> {
        let http = reqwest::Client::builder().timeout(Duration::from_secs(2)).build().expect("a TLS backend is compiled in");
        let started = Instant::now();
        let mut address = None;
        loop {
            if let Some(status) = self.exited() {
                return Err(LocalServerError::Exited { status, log: log_file.to_path_buf() });
            }
            if address.is_none() {
                address = std::fs::read_to_string(log_file).ok().and_then(|text| listening_address(&text));
            }
            if let Some(address) = &address {
                if let Ok(response) = http.get(format!("http://{address}/health")).send().await {
                    if response.status().is_success() {
                        return Ok(address.clone());
                    }
                }
            }
            if started.elapsed() > within {
                return Err(LocalServerError::NotReady(within));
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}

/// What every server is started with: no slots endpoint, and an origin no web page can
/// have (`.invalid` is reserved), so no page may read an answer even by guessing a key.
const CLOSED: [&str; 3] = ["--no-slots", "--cors-origins", "http://sidecar.invalid"];

/// 32 random bytes from the system's source, in hex.
fn fresh_key() -> String {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).expect("the system's random source");
    hex::encode(bytes)
}

/// llama-server's arguments: loopback, a port of its own choosing, one slot, the
/// model's own chat template (jinja, which is what makes tool calling work).
fn server_args(runtime: &Path, model: Option<&Path>, context_tokens: u32, threads: usize) -> Vec<std::ffi::OsString> {
    let demo = model.is_none();
    let model = model.map(Path::to_path_buf).unwrap_or_else(|| runtime_files::demo_model(runtime));
    let mut args: Vec<std::ffi::OsString> = vec!["--model".into(), model.into_os_string()];
    for (flag, value) in [
        ("--host", "127.0.0.1".to_string()),
        ("--port", "0".to_string()),
        ("--ctx-size", context_tokens.to_string()),
        ("--parallel", "1".to_string()),
        ("--cache-ram", PROMPT_CACHE_MIB.to_string()),
        ("--threads", threads.to_string()),
    ] {
        args.extend([flag.into(), value.into()]);
    }
    args.push("--jinja".into());
    if demo {
        // The 135M demo model loops easily ("- In", "- The", ...): penalise repeats
        // (llama.cpp's repeat penalty and DRY sampling) and cap every reply server-side too.
        for (flag, value) in [("--repeat-penalty", "1.15"), ("--dry-multiplier", "0.8"), ("--n-predict", "256")] {
            args.extend([flag.into(), value.into()]);
        }
    }
    args
}

/// llama-server's arguments as an embedder: loopback, a port of its own choosing, the
/// model's own pooling (mean for EmbeddingGemma), a physical batch of 2,048 tokens (a
/// text must fit in one: EmbeddingGemma reads at most 2,048), and two slots, so a search
/// is answered while the index is being built. Measured on two cores, a batch of 16
/// long paragraphs: one slot peaked at 716 MB, two at 917 MB, four at 1,197 MB, all in
/// the same time (the cores, not the slots, are the limit).
fn embedder_args(model: &Path, threads: usize) -> Vec<std::ffi::OsString> {
    let mut args: Vec<std::ffi::OsString> = vec!["--model".into(), model.as_os_str().to_owned(), "--embedding".into()];
    for (flag, value) in [
        ("--host", "127.0.0.1".to_string()),
        ("--port", "0".to_string()),
        ("--pooling", "mean".to_string()),
        ("--ctx-size", "4096".to_string()),
        ("--parallel", "2".to_string()),
        ("--batch-size", "2048".to_string()),
        ("--ubatch-size", "2048".to_string()),
        ("--threads", threads.to_string()),
    ] {
        args.extend([flag.into(), value.into()]);
    }
    args
}

/// Up to four threads: more starve the app on a small machine and gain little.
fn threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get()).clamp(1, 4)
}

/// The `host:port` of the server's "listening on http://…" line, read only once the
/// line is whole: a log read while the server writes it can end in "…:376" of ":37609".
pub fn listening_address(log: &str) -> Option<String> {
    let whole = &log[..log.rfind('\n').map_or(0, |end| end + 1)];
    whole.lines().find_map(|line| {
        let rest = &line[line.find("listening on http://")? + "listening on http://".len()..];
        let address = rest.split_whitespace().next()?;
        let (host, port) = address.rsplit_once(':')?;
        (!host.is_empty() && port.parse::<u16>().is_ok()).then(|| address.to_string())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_address_comes_from_the_listening_line() {
        let log = "main: loading model\n0.00.295.296 I srv  llama_server: listening on http://127.0.0.1:39735\nsrv  load_model: ...";
        assert_eq!(listening_address("llama_server: listening on http://127.0.0.1:376"), None, "half a line");
        assert_eq!(listening_address(log).as_deref(), Some("127.0.0.1:39735"));
        assert_eq!(listening_address("main: loading model\n"), None);
        assert_eq!(listening_address("llama_server: listening on http://127.0.0.1:"), None);
        assert_eq!(listening_address("llama_server: listening on http://127.0.0.1:3619x"), None);
    }

    #[test]
    fn the_demo_model_is_run_from_the_runtime_and_held_back_from_looping() {
        let runtime = Path::new("/usr/lib/sidecar");
        let args = server_args(runtime, None, 4096, 2);
        let joined = args.iter().map(|a| a.to_string_lossy().into_owned()).collect::<Vec<_>>().join(" ");
        assert!(joined.starts_with("--model /usr/lib/sidecar/SmolLM2-135M-Instruct.Q4_1.gguf --host 127.0.0.1 --port 0 --ctx-size 4096"), "{joined}");
        assert!(joined.contains("--jinja") && joined.contains("--repeat-penalty 1.15"), "{joined}");
        let chosen = server_args(runtime, Some(Path::new("/models/qwen.gguf")), 8192, 2);
        let joined = chosen.iter().map(|a| a.to_string_lossy().into_owned()).collect::<Vec<_>>().join(" ");
        assert!(joined.starts_with("--model /models/qwen.gguf") && !joined.contains("--repeat-penalty"), "{joined}");
    }

    #[test]
    fn an_embedder_is_served_with_its_pooling_and_a_batch_as_large_as_its_context() {
        let args = embedder_args(Path::new("/usr/lib/sidecar/embeddinggemma-300m-q8_0.gguf"), 2);
        let joined = args.iter().map(|a| a.to_string_lossy().into_owned()).collect::<Vec<_>>().join(" ");
        assert!(joined.starts_with("--model /usr/lib/sidecar/embeddinggemma-300m-q8_0.gguf --embedding --host 127.0.0.1 --port 0 --pooling mean"), "{joined}");
        assert!(joined.contains("--ctx-size 4096 --parallel 2 --batch-size 2048 --ubatch-size 2048"), "{joined}");
        assert!(!joined.contains("--jinja"), "{joined}");
    }

    #[test]
    fn each_start_has_a_key_of_its_own() {
        let (one, two) = (fresh_key(), fresh_key());
        assert_eq!(one.len(), 64);
        assert_ne!(one, two);
    }
}

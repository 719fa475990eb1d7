//! One live connection to an MCP server, started as a command (stdio) or reached at an
//! address (streamable HTTP). With `http`, the only module that knows `rmcp`: the rest of
//! Sidecar sees [`ToolDefinition`]s, calls, and errors in its own words.

use std::time::Duration;

use http::{HeaderName, HeaderValue};
use rmcp::model::{CallToolRequestParams, ClientCapabilities, ClientConfig, ContentBlock, Implementation, ProtocolVersion};
use rmcp::service::{NotificationContext, RunningService, ServiceError};
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::{StreamableHttpClientTransport, TokioChildProcess};
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use serde_json::{Map, Value};
use sidecar_domain::Redactor;
use std::collections::HashMap;
use tokio::sync::watch;

use super::config::Transport;
use super::http::McpHttp;
use super::launch;
use super::stderr_tail::StderrTail;
use sidecar_tools::ToolDefinition;

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SessionError {
    #[error("the command \"{0}\" was not found; install it (npx and node come with Node.js, uvx with uv) or give its full path")]
    MissingCommand(String),
    #[error("the server could not be started: {0}")]
    Spawn(String),
    #[error("the server did not answer {what} within {seconds} s{}", stderr_suffix(.stderr))]
    Timeout { what: &'static str, seconds: u64, stderr: Vec<String> },
    #[error("the server stopped or refused to start ({reason}){}", stderr_suffix(.stderr))]
    Closed { reason: String, stderr: Vec<String> },
    #[error("the server answered with an error: {0}")]
    Protocol(String),
}

fn stderr_suffix(stderr: &[String]) -> String {
    match stderr.last() {
        Some(last) => format!("; it said: {last}"),
        None => String::new(),
    }
}

/// What a tool call returned: its text, and whether the server marked it an error.
#[derive(Debug, Clone, PartialEq)]
pub struct CallResult {
    pub text: String,
    pub is_error: bool,
}

/// Hears the server's "my tools changed" and passes it on.
struct Listener {
    tools_changed: watch::Sender<u64>,
}

impl ClientHandler for Listener {
    async fn on_tool_list_changed(&self, _context: NotificationContext<RoleClient>) {
        self.tools_changed.send_modify(|generation| *generation += 1);
    }

    fn get_info(&self) -> ClientConfig {
        ClientConfig::new(ClientCapabilities::default(), Implementation::new("sidecar", env!("CARGO_PKG_VERSION")))
            .with_protocol_version(ProtocolVersion::LATEST_WITH_INITIALIZE)
    }
}

pub struct Session {
    service: RunningService<RoleClient, Listener>,
    stderr: StderrTail,
    tools_changed: watch::Receiver<u64>,
    timeout: Duration,
}

impl Session {
    /// Starts the server and completes the handshake within `timeout`; what it writes
    /// on stderr is scrubbed with `redactor` before anyone sees it.
    #[tracing::instrument(skip_all, fields(timeout_secs = timeout.as_secs()))]
    pub async fn start(transport: &Transport, timeout: Duration, redactor: &Redactor) -> Result<Self, SessionError> {
        let stderr = StderrTail::new(redactor.clone());
        let (sender, tools_changed) = watch::channel(0);
        let listener = Listener { tools_changed: sender };
        let handshake = match transport {
            Transport::Stdio { command, args, env, cwd } => {
                let program = launch::resolve(command).ok_or_else(|| SessionError::MissingCommand(command.clone()))?;
                let mut process = tokio::process::Command::new(program);
                process.args(args).envs(env).env("PATH", launch::search_path()).kill_on_drop(true);
                if let Some(cwd) = cwd {
                    process.current_dir(cwd);
                }
                let (child, stderr_pipe) =
                    TokioChildProcess::builder(process).stderr(std::process::Stdio::piped()).spawn().map_err(|e| SessionError::Spawn(e.to_string()))?;
                if let Some(pipe) = stderr_pipe {
                    tokio::spawn(stderr.clone().keep(pipe));
                }
                tokio::time::timeout(timeout, listener.serve(child)).await
            }
            Transport::Http { url, headers } => {
                let headers = headers
                    .iter()
                    .map(|(name, value)| Ok((HeaderName::try_from(name.as_str())?, HeaderValue::try_from(value.as_str())?)))
                    .collect::<Result<HashMap<_, _>, Box<dyn std::error::Error>>>()
                    .map_err(|e| SessionError::Spawn(format!("a header is not valid: {e}")))?;
                let config = StreamableHttpClientTransportConfig::with_uri(url.as_str()).custom_headers(headers);
                let client =
                    reqwest::Client::builder().connect_timeout(timeout).user_agent("Sidecar").build().map_err(|e| SessionError::Spawn(e.to_string()))?;
                let http = StreamableHttpClientTransport::with_client(McpHttp(client), config);
                tokio::time::timeout(timeout, listener.serve(http)).await
            }
        };
        let service = match handshake {
            Ok(Ok(service)) => service,
            Ok(Err(error)) => {
                // Give the stderr reader a moment: a server that exits at once says why there.
                tokio::time::sleep(Duration::from_millis(200)).await;
                return Err(SessionError::Closed { reason: error.to_string(), stderr: stderr.lines() });
            }
            Err(_) => return Err(SessionError::Timeout { what: "the start-up handshake", seconds: timeout.as_secs(), stderr: stderr.lines() }),
        };
        Ok(Self { service, stderr, tools_changed, timeout })
    }

    pub async fn tools(&self) -> Result<Vec<ToolDefinition>, SessionError> {
        let tools = self.bounded("the tool list", self.service.peer().list_all_tools()).await?;
        let (listed, tools): (usize, Vec<_>) = (tools.len(), tools.into_iter().filter(|tool| plain_tool_name(&tool.name)).collect());
        if tools.len() < listed {
            tracing::warn!(
                left_out = listed - tools.len(),
                "an MCP server listed tools whose names are not plain (too long, or with control or other characters); they are left out"
            );
        }
        Ok(tools
            .into_iter()
            .map(|tool| ToolDefinition {
                name: tool.name.to_string(),
                description: tool.description.map(|d| plain_description(&d)).unwrap_or_default(),
                input_schema: Value::Object((*tool.input_schema).clone()),
                read_only: tool.annotations.and_then(|a| a.read_only_hint).unwrap_or(false),
            })
            .collect())
    }

    pub async fn call(&self, tool: &str, arguments: Map<String, Value>) -> Result<CallResult, SessionError> {
        let mut request = CallToolRequestParams::new(tool.to_string());
        request.arguments = Some(arguments);
        let result = self.bounded("the tool call", self.service.peer().call_tool(request)).await?;
        let mut parts: Vec<String> = result
            .content
            .iter()
            .map(|block| match block {
                ContentBlock::Text(text) => text.text.clone(),
                ContentBlock::Image(image) => format!("[image, {}]", image.mime_type),
                ContentBlock::Audio(audio) => format!("[audio, {}]", audio.mime_type),
                ContentBlock::Resource(_) => "[embedded resource]".to_string(),
                ContentBlock::ResourceLink(link) => format!("[resource {}]", link.uri),
                _ => "[content of a kind Sidecar does not show]".to_string(),
            })
            .collect();
        if parts.is_empty() {
            if let Some(structured) = result.structured_content {
                parts.push(structured.to_string());
            }
        }
        Ok(CallResult { text: parts.join("\n"), is_error: result.is_error.unwrap_or(false) })
    }

    /// Bumped each time the server says its tools changed.
    pub fn tools_changed(&self) -> watch::Receiver<u64> {
        self.tools_changed.clone()
    }

    /// True once the server has gone (exited, crashed, or was stopped).
    pub fn is_closed(&self) -> bool {
        self.service.is_closed() || self.service.peer().is_transport_closed()
    }

    /// The server's last lines on stderr, oldest first.
    pub(crate) fn stderr_tail(&self) -> Vec<String> {
        self.stderr.lines()
    }

    pub async fn stop(self) {
        let _ = tokio::time::timeout(Duration::from_secs(5), self.service.cancel()).await;
    }

    async fn bounded<T>(&self, what: &'static str, request: impl std::future::Future<Output = Result<T, ServiceError>>) -> Result<T, SessionError> {
        match tokio::time::timeout(self.timeout, request).await {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(ServiceError::TransportClosed | ServiceError::TransportSend(_))) => {
                // The reader may still hold the server's last words.
                tokio::time::sleep(Duration::from_millis(100)).await;
                Err(SessionError::Closed { reason: "it exited".into(), stderr: self.stderr_tail() })
            }
            Ok(Err(error)) => Err(SessionError::Protocol(error.to_string())),
            Err(_) => Err(SessionError::Timeout { what, seconds: self.timeout.as_secs(), stderr: self.stderr_tail() }),
        }
    }
}

/// A tool name as MCP asks servers to write them: 1 to 128 letters, digits, `_`, `-`,
/// `.` or `/`. Anything else (a NUL, a newline, ten thousand characters) is a server
/// misbehaving, and would reach the terminal, Settings and the model as it is.
fn plain_tool_name(name: &str) -> bool {
    (1..=128).contains(&name.len()) && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '/'))
}

/// The longest tool description kept, in characters.
const DESCRIPTION_CHARS: usize = 4_000;

/// A description without control characters (but line breaks and tabs), cut short.
fn plain_description(text: &str) -> String {
    text.chars().filter(|c| !c.is_control() || matches!(c, '\n' | '\t')).take(DESCRIPTION_CHARS).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tool_names_must_be_plain_and_descriptions_lose_control_characters() {
        assert!(plain_tool_name("get_current_time") && plain_tool_name("files/read.v2"));
        for bad in ["", "a\u{0}b", "two\nlines", "with space", "\u{1b}[31mred"] {
            assert!(!plain_tool_name(bad), "{bad:?}");
        }
        assert!(!plain_tool_name(&"x".repeat(129)));
        assert_eq!(plain_description("a\u{0}b\u{1b}[0m\nc"), "ab[0m\nc");
        assert_eq!(plain_description(&"y".repeat(10_000)).len(), DESCRIPTION_CHARS);
    }
}

//! IPC commands for Settings → Connections: the programs that use Sidecar as a server
//! (`sidecar mcp serve`, the local API), allowed, given a token or revoked here. Each a
//! few lines calling the core.

use std::sync::Arc;

use sidecar_serve::EndpointView;
use sidecar_serve::McpEndpoint;
use tauri::State;

use crate::commands::{CommandError, Core};

/// The `mcpServers` entry for a program that reaches the running endpoint with `token`;
/// `None` while the endpoint is off.
#[tauri::command]
pub(crate) fn connection_http_config(endpoint: State<'_, Arc<McpEndpoint>>, token: String) -> Option<String> {
    endpoint.view().url.map(|url| sidecar_serve::mcp_http_config(&url, &token))
}

/// Whether the MCP endpoint runs, and where.
#[tauri::command]
pub(crate) fn connection_endpoint(endpoint: State<'_, Arc<McpEndpoint>>) -> EndpointView {
    endpoint.view()
}

#[tauri::command]
pub(crate) async fn set_connection_endpoint(core: Core<'_>, endpoint: State<'_, Arc<McpEndpoint>>, on: bool) -> Result<EndpointView, CommandError> {
    core.switch_endpoint(&endpoint, on).await.map_err(failed)
}

fn failed(error: impl std::fmt::Display) -> CommandError {
    CommandError { message: error.to_string(), retryable: false, cancelled: false }
}

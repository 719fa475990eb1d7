//! IPC commands for Settings → Connections: the programs that use Sidecar as a server
//! (`sidecar mcp serve`, the local API), allowed, given a token or revoked here. Each a
//! few lines calling the core.

use std::sync::Arc;

use serde::Serialize;
use sidecar::connections::client::{Client, Logged};
use sidecar::connections::{Connections, Scope};
use sidecar::mcp::endpoint::{EndpointView, McpEndpoint};
use tauri::State;

use crate::commands::{CommandError, Core};

/// What a client card shows: the client and its latest calls.
#[derive(Serialize)]
pub struct ConnectionView {
    #[serde(flatten)]
    client: Client,
    activity: Vec<Logged>,
    /// It has a token for the local API.
    has_token: bool,
}

fn failed(error: impl std::fmt::Display) -> CommandError {
    CommandError { message: error.to_string(), retryable: false, cancelled: false }
}

fn connections<'a>(core: &'a Core<'_>) -> &'a Connections {
    &core.hosting().connections
}

#[tauri::command]
pub async fn list_connections(core: Core<'_>) -> Result<Vec<ConnectionView>, CommandError> {
    let connections = connections(&core);
    let mut views = Vec::new();
    for client in connections.clients().await.map_err(failed)? {
        let activity = connections.activity(&client.name, 5).await.map_err(failed)?;
        let has_token = core.hosting().tokens.has_token(&client.name).await.map_err(failed)?;
        views.push(ConnectionView { client, activity, has_token });
    }
    Ok(views)
}

/// Allows `name` with `scopes` and makes its local API token (replacing an older one).
#[tauri::command]
pub async fn make_api_token(core: Core<'_>, name: String, scopes: Vec<Scope>) -> Result<sidecar::connections::tokens::Issued, CommandError> {
    core.hosting().tokens.issue(&name, &scopes).await.map_err(failed)
}

/// The token as the keychain keeps it, to copy again.
#[tauri::command]
pub fn show_api_token(core: Core<'_>, name: String) -> Option<String> {
    core.hosting().tokens.shown(&name)
}

#[tauri::command]
pub async fn allow_connection(core: Core<'_>, name: String, scopes: Vec<Scope>) -> Result<Vec<ConnectionView>, CommandError> {
    connections(&core).allow(&name, &scopes).await.map_err(failed)?;
    list_connections(core).await
}

#[tauri::command]
pub async fn revoke_connection(core: Core<'_>, name: String) -> Result<Vec<ConnectionView>, CommandError> {
    connections(&core).revoke(&name).await.map_err(failed)?;
    core.hosting().tokens.forget(&name).await.map_err(failed)?;
    list_connections(core).await
}

/// The `mcpServers` entry another program needs, naming the `sidecar` CLI beside the app.
#[tauri::command]
pub fn connection_config() -> Result<String, CommandError> {
    let app = std::env::current_exe().map_err(failed)?;
    Ok(sidecar::connections::snippet::mcp_config(&app.with_file_name("sidecar")))
}

/// The `mcpServers` entry for a program that reaches the running endpoint with `token`;
/// `None` while the endpoint is off.
#[tauri::command]
pub fn connection_http_config(endpoint: State<'_, Arc<McpEndpoint>>, token: String) -> Option<String> {
    endpoint.view().url.map(|url| sidecar::connections::snippet::mcp_http_config(&url, &token))
}

/// Whether the MCP endpoint runs, and where.
#[tauri::command]
pub fn connection_endpoint(endpoint: State<'_, Arc<McpEndpoint>>) -> EndpointView {
    endpoint.view()
}

#[tauri::command]
pub async fn set_connection_endpoint(core: Core<'_>, endpoint: State<'_, Arc<McpEndpoint>>, on: bool) -> Result<EndpointView, CommandError> {
    core.switch_endpoint(&endpoint, on).await.map_err(failed)
}

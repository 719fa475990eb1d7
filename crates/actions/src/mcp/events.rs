//! What the MCP servers Sidecar uses say happened: their states or tools changed.

use serde::Serialize;

#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum McpEvent {
    /// The MCP servers' states or tools changed (Settings → Tools lists them).
    McpServers { servers: Vec<crate::mcp::status::ServerStatus> },
}

//! `[connections]`: Sidecar served to other programs over HTTP on this computer.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Where the MCP endpoint listens when it is on (loopback only).
pub(crate) const DEFAULT_HTTP_PORT: u16 = 47_100;
/// Requests a minute one program may make to the local API.
pub const DEFAULT_API_PER_MINUTE: u32 = 120;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct ConnectionsSettings {
    /// The MCP endpoint at `http://127.0.0.1:PORT/mcp` in the running app or daemon.
    pub serve_http: bool,
    pub http_port: u16,
    /// Requests a minute each program may make to the local API (a burst of a quarter
    /// of it at once).
    pub api_requests_per_minute: u32,
}

impl Default for ConnectionsSettings {
    fn default() -> Self {
        Self { serve_http: false, http_port: DEFAULT_HTTP_PORT, api_requests_per_minute: DEFAULT_API_PER_MINUTE }
    }
}

//! Sidecar served over MCP: `server` (facts, recall and tools as MCP tools), `endpoint`
//! (that server over HTTP on loopback, behind a token) and `listener` (the loopback
//! socket and its guard). Tools from servers the user plugs in are the other way round,
//! in `sidecar_actions` ([`sidecar_actions::McpHub`]).

pub(crate) mod endpoint;
pub(crate) mod listener;
pub(crate) mod server;

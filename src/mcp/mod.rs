//! MCP both ways. Tools from servers the user plugs in are crates/actions
//! (`sidecar_actions::mcp`, re-exported here whole); Sidecar served to other programs
//! stays in the core, above the features it serves: `server` (facts, recall and tools
//! over MCP), `endpoint` (over HTTP on loopback, behind a token) and `listener`.

pub use sidecar_actions::mcp::*;

pub mod endpoint;
pub mod listener;
pub mod server;

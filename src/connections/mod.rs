//! Sidecar as a server for other programs (an MCP client such as Claude Desktop): who
//! may connect, with which scopes, and what each did. `mcp::server` serves them.

pub mod client;
pub mod service;
pub mod snippet;
pub mod watch;

pub use client::{Client, ClientState, Scope};
pub use service::{Connections, Refused};

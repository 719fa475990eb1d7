//! Sidecar as a server for other programs (an MCP client such as Claude Desktop, or a
//! script over the local HTTP API): who may connect, with which scopes, with which
//! token, and what each did. `mcp::server` and `api` serve them.

pub mod client;
pub(crate) mod disclosure;
pub mod events;
pub mod hosting;
pub mod note;
pub mod rows;
pub(crate) mod service;
pub mod snippet;
pub mod tokens;
pub mod watch;

pub use client::Scope;
pub use service::{Connections, Refused};

//! Sidecar as a server for other programs (an MCP client such as Claude Desktop, or a
//! script over the local HTTP API): who may connect, with which scopes, with which
//! token, and what each did. `mcp::server` and `api` serve them.

pub(crate) mod client;
pub(crate) mod disclosure;
pub(crate) mod events;
pub(crate) mod hosting;
pub(crate) mod note;
pub(crate) mod rows;
pub(crate) mod service;
pub(crate) mod snippet;
pub(crate) mod tokens;
pub(crate) mod watch;

pub use client::Scope;
pub use service::{Connections, Refused};

//! MCP: tools from servers the user plugs in (the `mcpServers` of `mcp.json`).
//!
//! `config` reads and writes the file, `form` is a server as Settings edits it (its
//! secrets in the keychain), `session` is the one place that speaks the
//! protocol (through `rmcp`), `naming` gives the model-facing names, `launch` finds the
//! commands, `tool` offers a server's tool to the model behind the permission gate and
//! `hub` keeps the servers running. Sidecar served to other programs (the core's
//! `mcp::server`, `endpoint` and `listener`) is the other way round, and sits above.

pub(crate) mod config;
pub(crate) mod events;
pub(crate) mod form;
pub(crate) mod http;
pub(crate) mod hub;
pub(crate) mod import;
pub(crate) mod launch;
pub(crate) mod naming;
pub(crate) mod session;
pub(crate) mod status;
pub(crate) mod stderr_tail;
pub(crate) mod tool;

//! MCP: tools from servers the user plugs in (the `mcpServers` of `mcp.json`).
//!
//! `config` reads and writes the file, `session` is the one place that speaks the
//! protocol (through `rmcp`), `definition` pins what a tool was when it was granted,
//! `naming` gives the model-facing names and `launch` finds the commands.

pub mod config;
pub mod definition;
pub mod launch;
pub mod naming;
pub mod session;

//! What Sidecar may do in the user's world: tools from MCP servers the user plugs in
//! (`mcp`), the permission asked before every action (`permissions`, with its words),
//! and the notes folder (`notes`).

pub mod mcp;
pub mod notes;
pub mod permissions;

//! Sidecar as a server, for programs on this computer: the local API that speaks
//! OpenAI's chat wire (`api`), Sidecar's facts, recall and tools over MCP on loopback
//! (`mcp`), and the programs connected to either with their tokens, what they may see
//! and the notes they leave (`connections`). `words` is what these say, in both
//! languages. Every door here is behind a token the user issued.

pub mod api;
pub mod connections;
pub mod mcp;
pub mod words;

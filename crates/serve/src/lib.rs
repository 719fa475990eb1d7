//! Sidecar as a server, for programs on this computer: the local API that speaks
//! OpenAI's chat wire (`api`), Sidecar's facts, recall and tools over MCP on loopback
//! (`mcp`), and the programs connected to either with their tokens, what they may see
//! and the notes they leave (`connections`). `words` is what these say, in both
//! languages. Every door here is behind a token the user issued.

mod api;
mod connections;
mod mcp;
mod words;

// The face: what the crates above, the faces and the tests name.
pub use api::limit::RateLimit;
pub use api::{ApiParts, LocalApi, MAX_BODY_BYTES};
pub use connections::client::{Client, Logged};
pub use connections::events::ConnectionEvent;
pub use connections::hosting::Hosting;
pub use connections::note::ClientNotes;
pub use connections::rows::{ConnectionsStore, KEPT_PER_CLIENT};
pub use connections::snippet::{mcp_config, mcp_http_config};
pub use connections::tokens::{ApiTokens, Issued};
pub use connections::watch::{watch, LOOK_EVERY};
pub use connections::{Connections, Refused, Scope};
pub use mcp::endpoint::{EndpointView, McpEndpoint};
pub use mcp::listener::{HEADER_TIMEOUT, IDLE_TIMEOUT, MAX_CONNECTIONS};
pub use mcp::server::{SidecarServer, Sources};

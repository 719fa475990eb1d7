//! What Sidecar needs to serve other programs, made once by the assembly: consent, the
//! API's tokens, the notes programs leave, and the local API's own source of chat turns
//! (served through the inbox like every other source).

use std::sync::Arc;

use super::note::ClientNotes;
use super::service::Connections;
use super::tokens::ApiTokens;
use sidecar_channels::Caller;

pub struct Hosting {
    pub connections: Arc<Connections>,
    pub tokens: ApiTokens,
    pub notes: ClientNotes,
    /// Chat turns from the local API (channel `api`).
    pub chat: Caller,
    /// One API chat turn at a time, so the pieces a reply streams are told apart from
    /// another client's.
    pub chat_turn: tokio::sync::Mutex<()>,
}

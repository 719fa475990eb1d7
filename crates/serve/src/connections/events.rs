//! What connections to Sidecar as a server say happened: a program waits to be allowed.

use serde::Serialize;

#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ConnectionEvent {
    /// A program connected to Sidecar as a server and waits for the user to allow it
    /// (Settings → Connections); said once per program while Sidecar runs.
    ConnectionWaiting { name: String, title: String, body: String },
}

//! Tells the user when a program waits to be allowed: programs connect through another
//! process (`sidecar mcp serve`) or the endpoint, so the store is looked at now and then
//! and each waiting program is said once while Sidecar runs.

use std::collections::BTreeSet;
use std::time::Duration;

use super::client::ClientState;
use super::service::Connections;
use crate::connections::events::ConnectionEvent;
use sidecar_domain::Emitter;
use sidecar_domain::Lang;

/// How often the app looks for programs that connected.
pub const LOOK_EVERY: Duration = Duration::from_secs(5);

/// Runs until the app quits.
pub async fn watch(connections: std::sync::Arc<Connections>, events: Emitter<ConnectionEvent>, lang: Lang, every: Duration) {
    let mut said = BTreeSet::new();
    loop {
        match connections.clients().await {
            Ok(clients) => {
                for client in clients.into_iter().filter(|c| c.state == ClientState::Pending) {
                    if said.insert(client.name.clone()) {
                        let (title, body) = crate::words::waiting(&client.name, lang);
                        events.publish(ConnectionEvent::ConnectionWaiting { name: client.name, title, body });
                    }
                }
            }
            Err(error) => tracing::warn!(%error, "could not look for programs waiting to connect"),
        }
        tokio::time::sleep(every).await;
    }
}

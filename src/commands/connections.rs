//! The window's connections commands (`commands` says how the table serves them).

use crate::commands::{commands, CommandError};
use serde::Serialize;
use sidecar_serve::Client;
use sidecar_serve::Connections;
use sidecar_serve::Logged;
use sidecar_serve::Scope;

/// What a client card shows: the client and its latest calls.
#[derive(Serialize, ts_rs::TS)]
pub(super) struct ConnectionView {
    #[serde(flatten)]
    client: Client,
    activity: Vec<Logged>,
    /// It has a token for the local API.
    has_token: bool,
}

fn failed(error: impl std::fmt::Display) -> CommandError {
    CommandError { message: error.to_string(), retryable: false, cancelled: false }
}

fn connections(core: &crate::Companion) -> &Connections {
    &core.hosting().connections
}

commands! {
    async fn list_connections(core) -> Result<Vec<ConnectionView>, CommandError> {
        let connections = connections(&core);
        let mut views = Vec::new();
        for client in connections.clients().await.map_err(failed)? {
            let activity = connections.activity(&client.name, 5).await.map_err(failed)?;
            let has_token = core.hosting().tokens.has_token(&client.name).await.map_err(failed)?;
            views.push(ConnectionView { client, activity, has_token });
        }
        Ok(views)
    }

    /// Allows `name` with `scopes` and makes its local API token (replacing an older one).
    async fn make_api_token(core, name: String, scopes: Vec<Scope>) -> Result<sidecar_serve::Issued, CommandError> {
        core.hosting().tokens.issue(&name, &scopes).await.map_err(failed)
    }

    /// The token as the keychain keeps it, to copy again.
    async fn show_api_token(core, name: String) -> Result<Option<String>, CommandError> {
        Ok(core.hosting().tokens.shown(&name))
    }

    async fn allow_connection(core, name: String, scopes: Vec<Scope>) -> Result<Vec<ConnectionView>, CommandError> {
        connections(&core).allow(&name, &scopes).await.map_err(failed)?;
        list_connections(core).await
    }

    async fn revoke_connection(core, name: String) -> Result<Vec<ConnectionView>, CommandError> {
        connections(&core).revoke(&name).await.map_err(failed)?;
        core.hosting().tokens.forget(&name).await.map_err(failed)?;
        list_connections(core).await
    }

    /// The `mcpServers` entry another program needs, naming the `sidecar` CLI beside the app.
    async fn connection_config(_core) -> Result<String, CommandError> {
        let app = std::env::current_exe().map_err(failed)?;
        Ok(sidecar_serve::mcp_config(&app.with_file_name("sidecar")))
    }
}

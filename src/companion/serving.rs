//! Sidecar as a server, as the assembly builds it: the MCP server over the companion's
//! tools, recall, facts and profile, the local API, and the endpoint that carries both,
//! started at launch when settings.toml has it on and switched from Settings.

use std::sync::Arc;

use super::Companion;
use sidecar_serve::ApiParts;
use sidecar_serve::EndpointView;
use sidecar_serve::LocalApi;
use sidecar_serve::McpEndpoint;
use sidecar_serve::SidecarServer;
use sidecar_serve::Sources;
use sidecar_settings::SettingsFileError;

impl Companion {
    /// The MCP server over this companion's tools, recall, facts and profile.
    pub fn mcp_server(&self) -> SidecarServer {
        let (knowledge, profile) = (self.knowledge().clone(), self.knowledge().clone());
        SidecarServer::new(Sources {
            tools: self.tools(),
            recall: self.recall_service().clone(),
            facts: Arc::new(move || knowledge.facts()),
            profile: Arc::new(move || profile.profile(sidecar_memory::ProfileFile::User).map(|(text, _)| text).unwrap_or_default()),
            hosting: self.hosting().clone(),
        })
    }

    /// The local API over this companion.
    pub fn local_api(&self) -> LocalApi {
        LocalApi::new(ApiParts {
            hosting: self.hosting().clone(),
            recall: self.recall_service().clone(),
            knowledge: self.knowledge().clone(),
            reminders: self.reminders().clone(),
            chat_events: self.chat_events(),
            clock: self.clock().clone(),
            requests_per_minute: self.settings().connections.api_requests_per_minute,
        })
    }

    /// Starts the endpoint when settings.toml has it on (the app and the daemon, at start).
    pub(crate) async fn start_endpoint_if_on(&self, endpoint: &McpEndpoint) {
        let settings = self.settings().connections.clone();
        if settings.serve_http {
            if let Err(error) = endpoint.start(self.mcp_server(), self.local_api(), settings.http_port, self.lang()).await {
                tracing::warn!(%error, port = settings.http_port, "the MCP endpoint could not start");
            }
        }
    }

    /// Settings' switch: saved in settings.toml, then the endpoint starts or stops.
    pub async fn switch_endpoint(&self, endpoint: &McpEndpoint, on: bool) -> Result<EndpointView, SettingsFileError> {
        self.models().settings_owner().change(sidecar_settings::Change::ServeHttp(on))?;
        if on {
            // A port that cannot be used is said in the view, not as a failure of the switch.
            let _ = endpoint.start(self.mcp_server(), self.local_api(), self.settings().connections.http_port, self.lang()).await;
        } else {
            endpoint.stop();
        }
        Ok(endpoint.view())
    }
}

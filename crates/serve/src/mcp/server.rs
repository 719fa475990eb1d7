//! Sidecar as an MCP server (`sidecar mcp serve`): other programs recall what the user
//! said and saved, read or set reminders, and leave the user a note (`send_message`),
//! through Sidecar's own tools, and read the profile and the facts as resources. The client is known by the name it gives at the
//! handshake, and gets nothing until the user allows it with scopes (`connections`);
//! health facts stay out unless that scope is given.

use std::sync::Arc;

use rmcp::handler::server::ServerHandler;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation, ListResourcesResult, ListToolsResult, PaginatedRequestParams,
    ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, Resource, ResourceContents, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::ErrorData;
use serde_json::Value;
use tracing::Instrument;

use crate::connections::note::NoteError;
use crate::connections::{Connections, Refused, Scope};
use sidecar_memory::ListedFact;
use sidecar_memory::Recall;
use sidecar_tools::ToolRegistry;

/// What the server offers: its name, what Sidecar tool answers it, and the scope it needs.
const SERVED: &[(&str, Scope)] = &[
    ("recall", Scope::ReadMemory),
    ("list_facts", Scope::ReadMemory),
    ("remember_fact", Scope::WriteMemory),
    ("list_reminders", Scope::Reminders),
    ("set_reminder", Scope::Reminders),
    ("cancel_reminder", Scope::Reminders),
    ("send_message", Scope::Messages),
];

/// A request over HTTP that reached the server without a token's owner: nothing is
/// allowed for this name (`connections` refuses names it was not given).
const UNAUTHENTICATED: &str = "\u{0}unauthenticated";
const LIST_FACTS: &str = "list_facts";
const SEND_MESSAGE: &str = "send_message";

/// The facts as they are now, from the knowledge service.
pub(crate) type Facts = Arc<dyn Fn() -> Vec<ListedFact> + Send + Sync>;
/// The user's profile (user.md) as it is now.
pub(crate) type Profile = Arc<dyn Fn() -> String + Send + Sync>;

const PROFILE_URI: &str = "sidecar://profile";
const FACTS_URI: &str = "sidecar://facts";

/// What the server reads from: Sidecar's own tools, recall, the facts and the profile.
pub struct Sources {
    pub tools: Arc<ToolRegistry>,
    pub recall: Arc<Recall>,
    pub facts: Facts,
    pub profile: Profile,
    pub hosting: Arc<crate::connections::hosting::Hosting>,
}

/// What recall fills of a client's answer.
const RECALL_BUDGET_TOKENS: usize = 1500;

/// Why a client's read or call was not served; the client reads it (in English, as the
/// protocol's other words are).
#[derive(Debug, thiserror::Error)]
pub(crate) enum NotServed {
    #[error("Sidecar has no resource {0}")]
    NoResource(String),
    #[error("Sidecar serves no tool called {0}")]
    NoTool(String),
    #[error("{0} is not available in this Sidecar")]
    Unavailable(String),
    #[error("recall needs a \"query\"")]
    NoQuery,
    #[error(transparent)]
    Refused(#[from] Refused),
    #[error(transparent)]
    Store(#[from] sidecar_store::StoreError),
    #[error(transparent)]
    Note(#[from] NoteError),
    #[error(transparent)]
    Tool(#[from] sidecar_tools::ToolError),
}

#[derive(Clone)]
pub struct SidecarServer {
    tools: Arc<ToolRegistry>,
    recall: Arc<Recall>,
    facts: Facts,
    profile: Profile,
    connections: Arc<Connections>,
    hosting: Arc<crate::connections::hosting::Hosting>,
}

impl SidecarServer {
    pub fn new(sources: Sources) -> Self {
        let Sources { tools, recall, facts, profile, hosting } = sources;
        Self { tools, recall, facts, profile, connections: hosting.connections.clone(), hosting }
    }

    /// A resource for `client`, or why not: both need the read_memory scope.
    pub(crate) async fn read(&self, client: &str, uri: &str) -> Result<String, NotServed> {
        if uri != PROFILE_URI && uri != FACTS_URI {
            return Err(NotServed::NoResource(uri.to_string()));
        }
        let scopes = self.connections.check(client, Scope::ReadMemory, uri).await?;
        Ok(if uri == PROFILE_URI { (self.profile)() } else { self.facts_text(scopes.contains(&Scope::Health)) })
    }

    fn offered(&self) -> Vec<Tool> {
        let mut offered: Vec<Tool> = SERVED
            .iter()
            .filter_map(|(name, _)| self.tools.tools().find(|t| t.name() == *name))
            .map(|t| {
                let schema = t.parameters().as_object().cloned().unwrap_or_default();
                Tool::new(t.name().to_string(), t.description().to_string(), Arc::new(schema))
            })
            .collect();
        let empty = serde_json::json!({"type": "object", "properties": {}});
        offered.push(Tool::new(
            LIST_FACTS,
            "The facts Sidecar keeps about its user, by category, current ones only.",
            Arc::new(empty.as_object().cloned().unwrap_or_default()),
        ));
        let message = serde_json::json!({
            "type": "object",
            "properties": {"text": {"type": "string", "description": "What to tell the user (at most 2,000 characters)."}},
            "required": ["text"]
        });
        offered.push(Tool::new(
            SEND_MESSAGE,
            "Leaves the user a short note in Sidecar's chat, shown as coming from this program (with a notification). Sidecar's model does not read it.",
            Arc::new(message.as_object().cloned().unwrap_or_default()),
        ));
        offered
    }

    /// The current facts, health ones only with `health`.
    fn facts_text(&self, health: bool) -> String {
        let lines: Vec<String> = (self.facts)()
            .into_iter()
            .filter(|f| crate::connections::disclosure::fact_shown(f, health))
            .map(|f| format!("{:?}: {}", f.category, f.fact.text))
            .collect();
        if lines.is_empty() {
            "No facts are kept yet.".to_string()
        } else {
            lines.join("\n")
        }
    }

    /// The hybrid recall, as Sidecar's own tool answers it, less mail (always) and
    /// health facts unless `health`.
    async fn recall_text(&self, health: bool, arguments: &Value) -> Result<String, NotServed> {
        let query = arguments.get("query").and_then(Value::as_str).filter(|q| !q.trim().is_empty()).ok_or(NotServed::NoQuery)?;
        let results = self.recall.search_for_others(query, RECALL_BUDGET_TOKENS).await?;
        let shown: Vec<_> = results.hits.into_iter().filter(|hit| crate::connections::disclosure::hit_shown(hit, health)).collect();
        Ok(if shown.is_empty() { format!("Nothing found for \"{query}\".") } else { sidecar_memory::lines(&shown) })
    }

    /// Runs one call for `client`, or says why not.
    pub(crate) async fn call(&self, client: &str, name: &str, arguments: Value) -> Result<String, NotServed> {
        let scope = SERVED.iter().find(|(served, _)| *served == name).map(|(_, scope)| *scope).ok_or_else(|| NotServed::NoTool(name.to_string()))?;
        let health = self.connections.check(client, scope, name).await?.contains(&Scope::Health);
        match name {
            LIST_FACTS => return Ok(self.facts_text(health)),
            "recall" => return self.recall_text(health, &arguments).await,
            SEND_MESSAGE => {
                let text = arguments.get("text").and_then(Value::as_str).unwrap_or_default();
                self.hosting.notes.post(client, text).await?;
                return Ok("The note is in the user's chat.".to_string());
            }
            _ => {}
        }
        let tool = self.tools.tools().find(|t| t.name() == name).cloned().ok_or_else(|| NotServed::Unavailable(name.to_string()))?;
        Ok(tool.run(arguments).await?)
    }
}

/// Who the client is. Over HTTP, the owner of the token it presented (the endpoint
/// lets no request through without one): the name in its handshake is only a label.
/// Over stdio, which the user's own configuration starts, the name it gave at the
/// handshake ("unnamed" if none).
fn client_name(context: &RequestContext<RoleServer>) -> String {
    if let Some(parts) = context.extensions.get::<http::request::Parts>() {
        return match parts.extensions.get::<crate::api::guard::TokenHolder>() {
            Some(holder) => holder.0.clone(),
            None => UNAUTHENTICATED.to_string(),
        };
    }
    context.peer.peer_info().map(|info| info.client_info.name.clone()).filter(|n| !n.trim().is_empty()).unwrap_or_else(|| "unnamed".to_string())
}

impl ServerHandler for SidecarServer {
    fn get_info(&self) -> ServerConfig {
        let mut info = ServerConfig::new(ServerCapabilities::builder().enable_tools().enable_resources().build());
        info.server_info = Implementation::new("sidecar", env!("CARGO_PKG_VERSION"));
        info.instructions = Some("Sidecar, the user's desktop companion: recall what the user said and saved, and read or set their reminders. The user must allow this client first.".into());
        info
    }

    async fn list_tools(&self, _request: Option<PaginatedRequestParams>, context: RequestContext<RoleServer>) -> Result<ListToolsResult, ErrorData> {
        let client = client_name(&context);
        // The first visit is what the user is asked to allow.
        if let Err(error) = self.connections.arrived(&client).await {
            tracing::warn!(%error, %client, "could not record an MCP client");
        }
        Ok(ListToolsResult::with_all_items(self.offered()))
    }

    async fn list_resources(&self, _request: Option<PaginatedRequestParams>, context: RequestContext<RoleServer>) -> Result<ListResourcesResult, ErrorData> {
        let _ = self.connections.arrived(&client_name(&context)).await;
        let mut profile = Resource::new(PROFILE_URI, "profile");
        profile.description = Some("The user's profile (user.md), read-only.".into());
        profile.mime_type = Some("text/markdown".into());
        let mut facts = Resource::new(FACTS_URI, "facts");
        facts.description = Some("The facts Sidecar keeps about its user, current ones, read-only.".into());
        facts.mime_type = Some("text/plain".into());
        Ok(ListResourcesResult::with_all_items(vec![profile, facts]))
    }

    async fn read_resource(&self, request: ReadResourceRequestParams, context: RequestContext<RoleServer>) -> Result<ReadResourceResponse, ErrorData> {
        let client = client_name(&context);
        match self.read(&client, &request.uri).await {
            Ok(text) => Ok(ReadResourceResponse::Complete(ReadResourceResult::new(vec![ResourceContents::text(text, request.uri)]))),
            Err(why) => Err(ErrorData::invalid_request(why.to_string(), None)),
        }
    }

    async fn call_tool(&self, request: CallToolRequestParams, context: RequestContext<RoleServer>) -> Result<CallToolResponse, ErrorData> {
        let client = client_name(&context);
        let arguments = Value::Object(request.arguments.unwrap_or_default());
        let span = tracing::info_span!("served", %client, tool = %request.name);
        let result = match self.call(&client, &request.name, arguments).instrument(span).await {
            Ok(text) => CallToolResult::success(vec![ContentBlock::text(text)]),
            Err(why) => CallToolResult::error(vec![ContentBlock::text(why.to_string())]),
        };
        Ok(result.into())
    }
}

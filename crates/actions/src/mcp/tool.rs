//! A server's tool as the model sees it: `mcp__SERVER__TOOL`, behind the permission
//! gate, its result wrapped as untrusted text and capped.

use std::sync::{Arc, RwLock};

use serde_json::Value;

use super::session::Session;
use crate::permissions::Action;
use sidecar_tools::untrusted;
use sidecar_tools::Tool;
use sidecar_tools::ToolDefinition;
use sidecar_tools::ToolError;
use sidecar_tools::ToolFuture;

/// The longest result passed on; the context's fit compacts what is still large.
const RESULT_CHARS: usize = 60_000;

/// Where a server's live session is, if it is running, and why not when it is not.
#[derive(Default)]
pub(crate) struct Slot {
    pub session: RwLock<Option<Arc<Session>>>,
    /// The last failure, with the server's own last words.
    pub failure: RwLock<Option<String>>,
}

impl Slot {
    pub(crate) fn live(&self) -> Option<Arc<Session>> {
        self.session.read().expect("slot lock").clone().filter(|s| !s.is_closed())
    }
}

pub(crate) struct McpTool {
    pub server: String,
    pub identity: String,
    pub definition: ToolDefinition,
    called_as: String,
    description: String,
    parameters: Value,
    slot: Arc<Slot>,
}

impl McpTool {
    pub(crate) fn new(server: &str, identity: &str, definition: ToolDefinition, slot: Arc<Slot>) -> Self {
        let description = format!("[{server}] {}", definition.description.trim());
        let mut parameters = definition.input_schema.clone();
        // Both wire formats want an object schema with properties, which some servers omit.
        if let Some(object) = parameters.as_object_mut() {
            object.entry("type").or_insert_with(|| Value::String("object".into()));
            object.entry("properties").or_insert_with(|| Value::Object(Default::default()));
        } else {
            parameters = serde_json::json!({ "type": "object", "properties": {} });
        }
        Self {
            called_as: super::naming::tool_name(server, &definition.name),
            server: server.into(),
            identity: identity.into(),
            definition,
            description,
            parameters,
            slot,
        }
    }
}

impl Tool for McpTool {
    fn name(&self) -> &str {
        &self.called_as
    }

    fn description(&self) -> &str {
        &self.description
    }

    fn parameters(&self) -> Value {
        self.parameters.clone()
    }

    fn action(&self) -> Option<Action> {
        Some(Action {
            server: self.server.clone(),
            identity: self.identity.clone(),
            definition: self.definition.clone(),
            called_as: self.called_as.clone(),
            asking: None,
        })
    }

    fn run(&self, arguments: Value) -> ToolFuture<'_> {
        Box::pin(async move {
            let Some(session) = self.slot.live() else {
                let why = self.slot.failure.read().expect("slot lock").clone().unwrap_or_else(|| "it is starting".into());
                return Err(ToolError::Failed(format!("the MCP server \"{}\" is not running: {why}", self.server)));
            };
            // The registry passes objects only.
            let arguments = match arguments {
                Value::Object(map) => map,
                _ => Default::default(),
            };
            let result =
                session.call(&self.definition.name, arguments).await.map_err(|e| ToolError::Failed(format!("the MCP server \"{}\": {e}", self.server)))?;
            let text = cap(&result.text);
            if result.is_error {
                return Err(ToolError::Failed(format!("{} answered with an error: {text}", self.called_as)));
            }
            Ok(untrusted(&format!("mcp:{}", self.server), &text))
        })
    }
}

fn cap(text: &str) -> String {
    match text.char_indices().nth(RESULT_CHARS) {
        Some((cut, _)) => format!("{}\n[… cut: the result was longer than {RESULT_CHARS} characters]", &text[..cut]),
        None => text.to_string(),
    }
}

//! What a tool that acts is about to do, as the permission gate sees it.

use serde::Serialize;

use super::definition::ToolDefinition;

/// The `server` of the tools that act which are Sidecar's own (making a task, writing
/// the calendar): they go with every turn, as the tools that only read do; an MCP
/// server's or the notes folder's come and go.
pub const SIDECAR: &str = "sidecar";

/// How a question about one of Sidecar's own tools is titled ("Sidecar wants to schedule
/// a task"), in both languages; the feature that owns the tool owns its words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Asking {
    pub en: &'static str,
    pub es: &'static str,
}

impl Asking {
    pub fn said_in(&self, lang: sidecar_domain::Lang) -> &'static str {
        match lang {
            sidecar_domain::Lang::En => self.en,
            sidecar_domain::Lang::Es => self.es,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Action {
    /// The MCP server's name in `mcp.json`, or `notes` for the notes folder.
    pub server: String,
    /// What the server is (its command and arguments, its URL, or the notes folder):
    /// grants hold only while it stays the same.
    pub identity: String,
    pub definition: ToolDefinition,
    /// The name the model called it by (`mcp__server__tool`), which the chat's chip shows.
    pub called_as: String,
    /// Sidecar's own tools say what they do in their question's title; `None`: "Sidecar
    /// wants to run TOOL from SERVER".
    #[serde(skip)]
    pub asking: Option<Asking>,
}

impl Action {
    /// `server/tool`, as Settings and the CLI name a tool.
    pub fn display_name(&self) -> String {
        format!("{}/{}", self.server, self.definition.name)
    }

    /// What "Allow in this chat" remembers: this server, as it is, and this definition.
    pub fn chat_key(&self) -> String {
        format!("{}\n{}\n{}", self.server, self.identity, self.definition.pin())
    }
}

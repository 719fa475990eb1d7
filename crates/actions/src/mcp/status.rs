//! What Settings shows of each MCP server: whether it runs, its tools, and why not.

use serde::Serialize;

use sidecar_tools::ToolDefinition;

#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum ServerState {
    Off,
    Starting,
    Running,
    /// It failed; `retry_in_secs` until the next try.
    Failed {
        error: String,
        stderr: Vec<String>,
        retry_in_secs: u64,
    },
}

#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
pub struct ServerStatus {
    pub name: String,
    pub summary: String,
    pub enabled: bool,
    #[serde(flatten)]
    pub state: ServerState,
    pub tools: Vec<ToolDefinition>,
    /// What Settings' editor starts from (kept secrets without their value).
    pub form: super::form::ServerForm,
}

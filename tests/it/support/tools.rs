//! Tools for loop tests: ones that fail, hang, or prove they ran in parallel.

#![allow(dead_code)]

use std::sync::Arc;
use std::time::Duration;

use serde_json::{json, Value};
use sidecar_tools::Tool;
use sidecar_tools::ToolError;
use sidecar_tools::ToolFuture;
use tokio::sync::Barrier;

/// Passes only when `parties` calls are inside it at the same time; a call left
/// waiting alone gives up after a second and fails.
pub(crate) struct RendezvousTool {
    pub barrier: Arc<Barrier>,
}

impl RendezvousTool {
    pub(crate) fn new(parties: usize) -> Self {
        Self { barrier: Arc::new(Barrier::new(parties)) }
    }
}

impl Tool for RendezvousTool {
    fn name(&self) -> &'static str {
        "rendezvous"
    }
    fn description(&self) -> &'static str {
        "Meets the other calls of the same step."
    }
    fn parameters(&self) -> Value {
        json!({"type": "object", "properties": {"who": {"type": "string"}}, "required": ["who"]})
    }
    fn run(&self, arguments: Value) -> ToolFuture<'_> {
        Box::pin(async move {
            let who = arguments["who"].as_str().unwrap_or("?").to_string();
            match tokio::time::timeout(Duration::from_secs(1), self.barrier.wait()).await {
                Ok(_) => Ok(json!({ "met": who }).to_string()),
                Err(_) => Err(ToolError::Failed("waited alone: the calls did not run together".into())),
            }
        })
    }
}

/// Always fails with the same message.
pub(crate) struct FailingTool;

impl Tool for FailingTool {
    fn name(&self) -> &'static str {
        "flaky_service"
    }
    fn description(&self) -> &'static str {
        "Always fails."
    }
    fn parameters(&self) -> Value {
        json!({"type": "object", "properties": {}})
    }
    fn run(&self, _arguments: Value) -> ToolFuture<'_> {
        Box::pin(async { Err(ToolError::Failed("the service is down for maintenance".into())) })
    }
}

/// Never finishes (until the turn is stopped).
pub(crate) struct HangingTool;

impl Tool for HangingTool {
    fn name(&self) -> &'static str {
        "slow_job"
    }
    fn description(&self) -> &'static str {
        "Takes forever."
    }
    fn parameters(&self) -> Value {
        json!({"type": "object", "properties": {}})
    }
    fn run(&self, _arguments: Value) -> ToolFuture<'_> {
        Box::pin(async {
            tokio::time::sleep(Duration::from_secs(3600)).await;
            Ok("done".into())
        })
    }
}

//! `update_plan`: the model keeps a checklist for a multi-step request. The whole list
//! is sent each time (simpler for the model than editing single steps).

use std::sync::Arc;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;

use crate::context::plan::{render, PlanBoard, PlanItem};
use sidecar_tools::parse_arguments;
use sidecar_tools::schema_of;
use sidecar_tools::Tool;
use sidecar_tools::ToolError;
use sidecar_tools::ToolFuture;

pub struct UpdatePlan(pub Arc<PlanBoard>);

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Args {
    /// The full plan, in order. Mark one step in_progress while you work on it and
    /// steps done as you finish them.
    items: Vec<PlanItem>,
}

impl Tool for UpdatePlan {
    fn name(&self) -> &'static str {
        crate::context::plan_item::PLAN_TOOL
    }
    fn local_read(&self) -> bool {
        true
    }

    fn description(&self) -> &'static str {
        "For a request that takes several steps: write or update your plan as a checklist. The user sees it, and it stays in your context until done. Send the whole list each time."
    }

    fn parameters(&self) -> Value {
        schema_of::<Args>()
    }

    fn run(&self, arguments: Value) -> ToolFuture<'_> {
        Box::pin(async move {
            let args: Args = parse_arguments(arguments)?;
            self.0.replace(args.items.clone()).await.map_err(|refusal| ToolError::InvalidArguments(refusal.to_string()))?;
            let rendered = render(&args.items);
            Ok(if rendered.is_empty() { "Plan cleared.".to_string() } else { format!("Plan saved.\n{rendered}") })
        })
    }
}

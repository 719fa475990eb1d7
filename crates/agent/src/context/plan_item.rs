//! One step of a plan, as the model writes it with `update_plan`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The tool the model writes its plan with.
pub(crate) const PLAN_TOOL: &str = "update_plan";

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum ItemStatus {
    Pending,
    InProgress,
    Done,
    Failed,
}

impl ItemStatus {
    /// Done or failed: nothing more will be tried for this step.
    pub(crate) fn is_closed(self) -> bool {
        matches!(self, Self::Done | Self::Failed)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct PlanItem {
    /// One step, short.
    pub text: String,
    /// pending, in_progress, done or failed.
    pub status: ItemStatus,
    /// What the step produced (or why it failed), in a few words, once it is done or failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub result: Option<String>,
    /// The earlier steps (by number, from 1) this one waits for: it starts only once
    /// they are done.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(as = "Option<Vec<usize>>", optional)]
    pub after: Vec<usize>,
}

impl PlanItem {
    pub fn new(text: impl Into<String>, status: ItemStatus) -> Self {
        Self { text: text.into(), status, result: None, after: Vec::new() }
    }
}

/// Where a plan stands: how many steps are closed and how many in all.
pub fn progress(items: &[PlanItem]) -> (usize, usize) {
    (items.iter().filter(|i| i.status.is_closed()).count(), items.len())
}

/// A plan with steps still to do.
pub fn is_open(items: &[PlanItem]) -> bool {
    items.iter().any(|i| !i.status.is_closed())
}

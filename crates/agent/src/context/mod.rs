//! Context engineering: what of a long conversation the model sees on each call.
//!
//! Nothing here deletes a stored message. The guard changes what is *sent*: old tool
//! results are cleared, large JSON is compacted, and when the live history nears the
//! window the oldest turns are folded into a running summary (with a checkpoint and a
//! memory flush first). Everything stays searchable through `recall`.

pub(crate) mod checkpoint;
pub(crate) mod compact;
pub(crate) mod decision;
pub(crate) mod digest;
pub(crate) mod engine;
mod estimate;
pub(crate) mod fit;
pub(crate) mod idle;
pub(crate) mod meter;
pub(crate) mod plan;
pub(crate) mod plan_item;
pub(crate) mod planner;
pub(crate) mod resume;
pub(crate) mod rows;
pub(crate) mod scratchpad;
pub(crate) mod scratchpad_tool;
pub(crate) mod service;

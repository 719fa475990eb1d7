//! Context engineering: what of a long conversation the model sees on each call.
//!
//! Nothing here deletes a stored message. The guard changes what is *sent*: old tool
//! results are cleared, large JSON is compacted, and when the live history nears the
//! window the oldest turns are folded into a running summary (with a checkpoint and a
//! memory flush first). Everything stays searchable through `recall`.

pub mod checkpoint;
pub mod compact;
pub(crate) mod digest;
pub mod engine;
mod estimate;
pub mod guard;
pub(crate) mod meter;
pub mod plan;
pub(crate) mod plan_item;
pub(crate) mod resume;
pub mod rows;
pub mod service;

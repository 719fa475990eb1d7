//! The tools. The `Tool` trait, its registry and guard, and the tools that need nothing
//! above them (time, weather, the web) are crates/tools, re-exported here whole; the
//! tools that act on a feature live with the core until that feature is a crate of its
//! own: the plan and the per-turn choice (the agent). `remember_fact` is the memory's
//! (`sidecar_memory::remember`), the reminder tools the reminders' (`reminders::tool`).

pub use sidecar_tools::*;

pub mod chooser;
pub mod plan;

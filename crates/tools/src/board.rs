//! The tools the model is offered, put together from the parts that change while
//! Sidecar runs (the MCP servers' tools, the notes folder's) on top of the standard
//! ones. A part that changes replaces itself and the whole set is offered anew; a turn
//! keeps the set it started with.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use super::{Tool, ToolRegistry};

type Offer = Box<dyn Fn(ToolRegistry) + Send + Sync>;

pub struct ToolBoard {
    base: ToolRegistry,
    parts: Mutex<BTreeMap<&'static str, Vec<Arc<dyn Tool>>>>,
    offer: Offer,
}

impl ToolBoard {
    pub fn new(base: ToolRegistry, offer: Offer) -> Self {
        Self { base, parts: Mutex::default(), offer }
    }

    /// Replaces one part's tools (`mcp`, `notes`) and offers the new set.
    pub fn set(&self, part: &'static str, tools: Vec<Arc<dyn Tool>>) {
        let mut parts = self.parts.lock().expect("parts lock");
        parts.insert(part, tools);
        let mut all = self.base.clone();
        parts.values().flatten().for_each(|tool| all.register_shared(tool.clone()));
        (self.offer)(all);
    }
}

//! What a connected program is shown of Sidecar's memory: current facts only, and
//! health facts only with the `health` scope. One rule for MCP and the local API.

use sidecar_memory::Category;
use sidecar_memory::ListedFact;
use sidecar_memory::RecallHit;

/// A fact the program may see.
pub(crate) fn fact_shown(fact: &ListedFact, health: bool) -> bool {
    fact.fact.superseded.is_none() && (health || fact.category != Category::Health)
}

/// A recall hit the program may see.
pub(crate) fn hit_shown(hit: &RecallHit, health: bool) -> bool {
    health || !(hit.source == "fact" && hit.label == Category::Health.name())
}

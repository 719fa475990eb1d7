//! The core's words: what Sidecar itself says to the user (command replies, reminder
//! texts, notification buttons, tray labels), in English and Spanish, keyed by the one
//! `Lang` the assembly injects. Numbers in these texts come from the constants that
//! enforce them.

pub use sidecar_actions::permissions::words as permissions;
pub use sidecar_agent::words::{command_table, commands, intent, plans};
pub use sidecar_data::words as export;
pub use sidecar_llm::budget::words as budget;
pub use sidecar_llm::outcomes;
pub use sidecar_proactive::words::decision;
pub use sidecar_proactive::words::proactive;
pub mod tray;

pub use sidecar_domain::locale::Lang;

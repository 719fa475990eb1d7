//! The window's proactive commands (`commands` says how the table serves them).

use crate::commands::{commands, CommandError, SaidBy};
use sidecar_proactive::ProactiveConfig;
use sidecar_proactive::ProactiveStatus;

commands! {
    async fn proactive_status(core) -> Result<ProactiveStatus, CommandError> {
        core.proactive().status().await.said(&core)
    }

    async fn save_proactive_config(core, config: ProactiveConfig) -> Result<ProactiveConfig, CommandError> {
        core.proactive().set_config(config).await.said(&core)
    }

    /// A thumb under a spontaneous message, or its notification clicked or closed.
    async fn spontaneous_feedback(core, message_id: i64, signal: sidecar_proactive::Signal) -> Result<(), CommandError> {
        core.proactive().feedback(message_id, signal).await.said(&core)
    }

    /// Settings → Proactivity's Reset of what was learned.
    async fn forget_learned(core) -> Result<ProactiveStatus, CommandError> {
        core.proactive().forget_learned().await.said(&core)?;
        core.proactive().status().await.said(&core)
    }

    /// Quiet for `minutes`, or lifted with `None`.
    async fn set_quiet(core, minutes: Option<i64>) -> Result<ProactiveStatus, CommandError> {
        core.proactive().set_quiet(minutes, None).await.said(&core)?;
        core.proactive().status().await.said(&core)
    }
}

//! How full the context is, for the meter in the chat, and where it stands against the
//! fold rule.

use serde::Serialize;

use sidecar_settings::ContextSettings;

/// How full the context is, for the meter in the chat.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct ContextMeter {
    pub used: usize,
    pub budget: usize,
    pub window: usize,
    /// Older turns are summarised (and searchable with recall).
    pub summarized_turns: bool,
    pub level: MeterLevel,
}

/// Where the meter stands against the fold rule: `High` from the threshold at which
/// older turns are folded, `Mid` from the level a fold brings the history down to.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum MeterLevel {
    #[default]
    Low,
    Mid,
    High,
}

impl ContextMeter {
    pub(crate) fn new(used: usize, budget: usize, window: usize, summarized_turns: bool, settings: &ContextSettings) -> Self {
        let level = if used * 100 >= budget * usize::from(settings.threshold_percent) {
            MeterLevel::High
        } else if used * 100 >= budget * usize::from(settings.target_percent) {
            MeterLevel::Mid
        } else {
            MeterLevel::Low
        };
        Self { used, budget, window, summarized_turns, level }
    }
}

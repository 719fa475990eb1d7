//! How full the context is, for the meter in the chat, and where it stands against the
//! fold rule.

use serde::Serialize;

use super::fit::Limits;
use sidecar_settings::ContextSettings;

/// How full the context is, for the meter in the chat. Its whole is the window less the
/// reply's reserve, the same for every call to one model; the tool definitions sent
/// beside the prompt count as used, so the whole does not shrink when they go along.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, ts_rs::TS)]
pub struct ContextMeter {
    pub used: usize,
    pub budget: usize,
    pub window: usize,
    /// Of `used`, the tool definitions' share.
    pub tools: usize,
    /// Older turns are summarised (and searchable with recall).
    pub summarized_turns: bool,
    pub level: MeterLevel,
}

/// Where the meter stands against the fold rule: `High` from the threshold at which
/// older turns are folded, `Mid` from the level a fold brings the history down to.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(rename_all = "lowercase")]
pub enum MeterLevel {
    #[default]
    Low,
    Mid,
    High,
}

impl ContextMeter {
    /// `prompt` tokens against `limits`, whose budget is what is left beside the tools.
    pub(crate) fn new(prompt: usize, limits: &Limits, window: usize, summarized_turns: bool, settings: &ContextSettings) -> Self {
        let budget = limits.budget;
        // The fold rule reads the prompt against what is left for it.
        let level = if prompt * 100 >= budget * usize::from(settings.threshold_percent) {
            MeterLevel::High
        } else if prompt * 100 >= budget * usize::from(settings.target_percent) {
            MeterLevel::Mid
        } else {
            MeterLevel::Low
        };
        Self { used: prompt + limits.tools, budget: budget + limits.tools, window, tools: limits.tools, summarized_turns, level }
    }

    /// The prompt's own tokens and the budget left for it beside the tool definitions.
    pub(crate) fn prompt_share(&self) -> (usize, usize) {
        (self.used - self.tools, self.budget - self.tools)
    }
}

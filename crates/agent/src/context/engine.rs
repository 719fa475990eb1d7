//! The context rules applied to the companion's conversations: which stored messages
//! are still sent, folding the oldest turns into the running summary (with a
//! checkpoint, a memory flush and Bug 12's check first), the shaper that guards every
//! model call, and the context meter.

use super::compact::Compactions;
use super::digest::SUMMARY_TOKENS;
use super::fit::{self, Limits};
use super::plan::PlanBoard;
use crate::context::rows::Summary;
use crate::driver::{ShapeMeasures, Shaper, WindowTooSmall};
use crate::events::ChatEvent;
use sidecar_domain::Emitter;
use sidecar_llm::tokens::count_cached as count;
use sidecar_llm::Chain;
use sidecar_llm::ChatMessage;
use sidecar_llm::Room;
use sidecar_llm::ToolSpec;
use sidecar_settings::ContextSettings;
use sidecar_settings::Settings;
use sidecar_store::Message;
use sidecar_tools::ToolRegistry;

/// The part of a conversation still sent verbatim, after the running summary.
pub(crate) struct LiveHistory {
    pub summary: Option<Summary>,
    pub messages: Vec<Message>,
    /// The checkpoint a fold just wrote.
    pub checkpoint: Option<i64>,
}

pub use super::meter::{ContextMeter, MeterLevel};

/// The budget for a chain under the current settings.
pub(crate) fn limits_for(chain: &Chain, settings: &Settings) -> Limits {
    Limits::new(chain.context_window(), settings.llm.max_tokens.unwrap_or(1024), &settings.context)
}

/// The tool definitions the model that answers is sent (none to one that takes none,
/// such as the offline model standing in), and the budget left beside them.
pub(crate) fn limits_with_tools(chain: &Chain, settings: &Settings, tools: &ToolRegistry) -> (Vec<ToolSpec>, Limits) {
    let specs = if chain.sends_tools() { tools.specs() } else { Vec::new() };
    let limits = limits_for(chain, settings).less(tool_tokens(&specs));
    (specs, limits)
}

/// The same limits for the chain the next call would use, before it is resolved (the
/// meter's estimate), so the estimate and the call share one budget.
pub(crate) fn limits_for_room(room: Room, settings: &Settings, tools: &ToolRegistry) -> Limits {
    let tool_tokens = if room.tools { tool_tokens(&tools.specs()) } else { 0 };
    Limits::new(room.window, settings.llm.max_tokens.unwrap_or(1024), &settings.context).less(tool_tokens)
}

/// What tool definitions take of the prompt: each wire format wraps a definition in a
/// few more tokens of its own.
fn tool_tokens(specs: &[ToolSpec]) -> usize {
    if specs.is_empty() {
        0
    } else {
        count(&serde_json::to_string(specs).unwrap_or_default()) + 16 * specs.len()
    }
}

/// Where the live history should be cut: the index of the first message kept, when
/// the prompt (`fixed` tokens plus the history, as the guard would send it) is past
/// the threshold. Cuts fall on turn starts and keep `min_turns_to_keep` turns.
pub(crate) fn eviction_point(history: &[Message], fixed: usize, limits: &Limits, compactions: &Compactions, settings: &ContextSettings) -> Option<usize> {
    let mut chats: Vec<ChatMessage> = history.iter().map(Message::to_chat).collect();
    fit::prepare(&mut chats, limits, compactions, &count);
    let tokens: Vec<usize> = chats.iter().map(|m| fit::message_tokens(m, &count)).collect();
    let total: usize = fixed + tokens.iter().sum::<usize>();
    if total * 100 <= limits.budget * usize::from(settings.threshold_percent) {
        return None;
    }
    let target = limits.budget * usize::from(settings.target_percent) / 100;
    let starts: Vec<usize> = history.iter().enumerate().filter(|(_, m)| m.role == sidecar_llm::Role::User).map(|(i, _)| i).collect();
    // The furthest cut that still keeps `min_turns_to_keep` turns.
    let last_cut = *starts.get(starts.len().checked_sub(limits.min_turns_to_keep)?)?;
    // Folding for a sliver would mean a digest call on every turn; the guard's own
    // trimming covers the rest until there is enough to fold.
    if tokens[..last_cut].iter().sum::<usize>() * 10 < limits.budget {
        return None;
    }
    let mut cut = last_cut;
    for &start in starts.iter().filter(|&&s| s > 0 && s < last_cut) {
        if fixed + tokens[start..].iter().sum::<usize>() <= target {
            cut = start;
            break;
        }
    }
    Some(cut)
}

/// The running summary's share: small windows cannot spare the full size.
pub(super) fn summary_budget(limits: &Limits) -> usize {
    SUMMARY_TOKENS.min(limits.budget / 8)
}

pub(super) fn summary_block(summary: &Summary) -> String {
    format!(
        "<conversation_summary>\nEarlier turns of this conversation, summarised (use recall for their exact words):\n{}\n</conversation_summary>",
        summary.text.trim()
    )
}

/// Fits every model call of a turn: the per-turn block (the time, corrections, a resumed
/// checkpoint and the current plan) goes on the newest user message, the guard brings
/// the prompt inside the budget, and the meter is updated.
pub(crate) struct TurnShaper<'a> {
    pub system: String,
    /// The per-turn block's parts fixed at the turn's start.
    pub late: String,
    pub plans: &'a PlanBoard,
    /// The context service's long tool outputs, compacted or summarised.
    pub compactions: &'a Compactions,
    pub limits: Limits,
    pub window: usize,
    pub summarized_turns: bool,
    pub conversation_id: i64,
    pub events: &'a Emitter<ChatEvent>,
    pub meter: &'a std::sync::Mutex<Option<(i64, ContextMeter)>>,
    pub context: ContextSettings,
    /// The per-turn block says the tool rules again.
    pub reinforced: bool,
    /// A call of this turn had turns dropped or messages cut.
    pub truncated: std::sync::atomic::AtomicBool,
    /// A checkpoint written on its own as the turn began.
    pub checkpoint: Option<i64>,
    /// Saves a checkpoint before a tool result that would force a fold.
    pub checkpoints: &'a dyn CheckpointWriter,
    /// The per-turn block fixed at the turn's first call, and the message it went on:
    /// every later call of the turn sends the same, so the server's cache holds.
    pub sent: std::sync::OnceLock<(usize, String)>,
}

/// Writes a checkpoint of a conversation's live history without a model call.
pub(crate) trait CheckpointWriter: Send + Sync {
    /// `None` when one was written moments ago (a quarter of the periodic interval).
    fn checkpoint_without_model(&self, conversation_id: i64) -> futures_util::future::BoxFuture<'_, Result<Option<i64>, crate::error::TurnError>>;
}

impl Shaper for TurnShaper<'_> {
    fn shape(&self, messages: Vec<ChatMessage>) -> Result<Vec<ChatMessage>, WindowTooSmall> {
        let (messages, report) = self.shape_with_report(messages);
        if report.overflows() {
            let system = messages.first().map_or(0, |m| fit::message_tokens(m, &count));
            tracing::warn!(conversation_id = self.conversation_id, system, window = self.window, "the system prompt does not fit the window");
            return Err(WindowTooSmall { system, room: self.limits.budget, window: self.window });
        }
        Ok(messages)
    }

    fn tool_result_limit(&self) -> usize {
        self.limits.max_tool_result_tokens
    }

    fn remember_summary(&self, original: &str, summary: &str) {
        self.compactions.remember_summary(original, summary);
    }

    fn measures(&self) -> ShapeMeasures {
        ShapeMeasures { truncated: self.truncated.load(std::sync::atomic::Ordering::Relaxed), reinforced: self.reinforced, checkpoint: self.checkpoint }
    }

    fn late_sent(&self) -> Option<String> {
        self.sent.get().map(|(_, block)| block.clone())
    }

    fn checkpoint_before(&self, added_tokens: usize) -> futures_util::future::BoxFuture<'_, Option<i64>> {
        Box::pin(async move {
            let meter = self.meter.lock().expect("meter lock").filter(|(id, _)| *id == self.conversation_id).map(|(_, m)| m)?;
            let (used, budget) = meter.prompt_share();
            let threshold = budget * usize::from(self.context.threshold_percent) / 100;
            // Only a result that itself takes the prompt past the fold threshold: once
            // past it, later rounds do not write one checkpoint each.
            if used > threshold || used + added_tokens <= threshold || added_tokens * 10 < budget {
                return None;
            }
            match self.checkpoints.checkpoint_without_model(self.conversation_id).await {
                Ok(id) => id,
                Err(error) => {
                    tracing::warn!(conversation_id = self.conversation_id, %error, "could not save a checkpoint before a large tool result");
                    None
                }
            }
        })
    }
}

impl TurnShaper<'_> {
    pub(crate) fn shape_with_report(&self, mut messages: Vec<ChatMessage>) -> (Vec<ChatMessage>, fit::Report) {
        if let Some(system) = messages.first_mut().filter(|m| m.role == sidecar_llm::Role::System) {
            system.content = self.system.clone();
        }
        // Later calls append to the transcript, so the turn's message keeps its index.
        let sent = self.sent.get_or_init(|| {
            let at = sidecar_llm::per_turn::newest_user(&messages).unwrap_or(0);
            (at, sidecar_llm::per_turn::block(&self.late, &self.plans.rendered()))
        });
        sidecar_llm::per_turn::attach_at(&mut messages, sent.0, &sent.1);
        let (messages, report) = fit::fit(messages, &self.limits, self.compactions, &count);
        if report.dropped_turns + report.truncated > 0 {
            self.truncated.store(true, std::sync::atomic::Ordering::Relaxed);
        }
        if report.dropped_turns > 0 {
            // The plans' sliding-window line: what was kept and what left, and why.
            tracing::info!(
                conversation_id = self.conversation_id,
                budget = report.budget,
                max_history_turns = ?self.limits.max_history_turns,
                total_turns = report.turns,
                kept_turns = report.kept_turns(),
                dropped_turns = report.dropped_turns,
                before = report.before,
                after = report.after,
                "sliding window applied: the oldest turns were left out"
            );
        }
        if report.truncated > 0 {
            tracing::warn!(conversation_id = self.conversation_id, ?report, "context fit cut the longest messages to fit");
        } else if report.dropped_turns == 0 && report.trimmed() {
            tracing::info!(
                conversation_id = self.conversation_id,
                before = report.before,
                after = report.after,
                cleared = report.cleared,
                compacted = report.compacted,
                "context fit trimmed tool results"
            );
        }
        let meter = ContextMeter::new(report.after, &self.limits, self.window, self.summarized_turns, &self.context);
        *self.meter.lock().expect("meter lock") = Some((self.conversation_id, meter));
        self.events.publish(ChatEvent::ContextUsage { conversation_id: self.conversation_id, meter });
        (messages, report)
    }
}

/// What a turn starts from: the system prompt (with summary and resumed checkpoint),
/// the live history after it, and the limits the guard keeps to.
pub(crate) struct TurnPrompt {
    pub system: String,
    /// The per-turn block's parts fixed at the turn's start ([`sidecar_llm::per_turn`]).
    pub late: String,
    pub prompt: Vec<ChatMessage>,
    pub limits: Limits,
    pub summarized_turns: bool,
    /// The per-turn block says the tool rules again.
    pub reinforced: bool,
    /// A checkpoint written on its own as this turn began (a fold, or 40 messages).
    pub checkpoint: Option<i64>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_meter_level_follows_the_fold_settings() {
        let defaults = ContextSettings::default();
        let limits = Limits::new(1200, 200, &ContextSettings::default());
        let level = |used, settings: &ContextSettings| ContextMeter::new(used, &limits, 1200, false, settings).level;
        assert_eq!([499, 500, 799, 800].map(|u| level(u, &defaults)), [MeterLevel::Low, MeterLevel::Mid, MeterLevel::Mid, MeterLevel::High]);
        let early = ContextSettings { threshold_percent: 60, target_percent: 30, ..defaults };
        assert_eq!([299, 300, 600].map(|u| level(u, &early)), [MeterLevel::Low, MeterLevel::Mid, MeterLevel::High]);
    }
}

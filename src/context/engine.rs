//! The context rules applied to the companion's conversations: which stored messages
//! are still sent, folding the oldest turns into the running summary (with a
//! checkpoint, a memory flush and Bug 12's check first), the shaper that guards every
//! model call, and the context meter.

use std::io::Write;
use std::time::Duration;

use serde::Serialize;

use super::digest::{self, Digest, MAX_FLUSHED_FACTS, SUMMARY_TOKENS};
use super::guard::{self, Limits};
use super::plan::PlanBoard;
use crate::agent::driver::Shaper;
use crate::agent::prompt;
use crate::companion::{Companion, CompanionError};
use crate::events::{CoreEvent, EventBus};
use crate::knowledge::learnings::Category;
use crate::llm::{ChatMessage, ChatRequest};
use crate::model::Chain;
use crate::settings::{ContextSettings, Settings};
use crate::store::{Message, Summary};
use crate::tokens::count_cached as count;

/// Bug 12's backup of fact-like text that left the context unsaved (append-only).
pub const TRUNCATED_LOG: &str = "truncated_messages.jsonl";
/// Tokens of facts in every prompt (Health facts always go in, beyond it if needed).
const FACT_BUDGET_TOKENS: usize = 600;
/// Longest reply of the digest call.
const DIGEST_MAX_TOKENS: u32 = 900;
/// The digest call gives up after this long and the fallback is used.
const DIGEST_TIMEOUT: Duration = Duration::from_secs(90);

/// The part of a conversation still sent verbatim, after the running summary.
pub struct LiveHistory {
    pub summary: Option<Summary>,
    pub messages: Vec<Message>,
}

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
    pub fn new(used: usize, budget: usize, window: usize, summarized_turns: bool, settings: &ContextSettings) -> Self {
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

/// The budget for a chain under the current settings.
pub fn limits_for(chain: &Chain, settings: &Settings) -> Limits {
    Limits::new(chain.context_window(), settings.llm.max_tokens.unwrap_or(1024), &settings.context)
}

/// Where the live history should be cut: the index of the first message kept, when
/// the prompt (`fixed` tokens plus the history, as the guard would send it) is past
/// the threshold. Cuts fall on turn starts and keep `min_turns_to_keep` turns.
pub fn eviction_point(history: &[Message], fixed: usize, limits: &Limits, settings: &ContextSettings) -> Option<usize> {
    let mut chats: Vec<ChatMessage> = history.iter().map(Message::to_chat).collect();
    guard::prepare(&mut chats, limits, &count);
    let tokens: Vec<usize> = chats.iter().map(|m| guard::message_tokens(m, &count)).collect();
    let total: usize = fixed + tokens.iter().sum::<usize>();
    if total * 100 <= limits.budget * usize::from(settings.threshold_percent) {
        return None;
    }
    let target = limits.budget * usize::from(settings.target_percent) / 100;
    let starts: Vec<usize> =
        history.iter().enumerate().filter(|(_, m)| m.role == crate::llm::Role::User).map(|(i, _)| i).collect();
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

fn summary_block(summary: &Summary) -> String {
    format!(
        "<conversation_summary>\nEarlier turns of this conversation, summarised (use recall for their exact words):\n{}\n</conversation_summary>",
        summary.text.trim()
    )
}

/// Fits every model call of a turn: the current plan goes into the system prompt, the
/// guard brings the prompt inside the budget, and the meter is updated.
pub struct TurnShaper<'a> {
    pub system: String,
    pub plans: &'a PlanBoard,
    pub limits: Limits,
    pub window: usize,
    pub summarized_turns: bool,
    pub conversation_id: i64,
    pub events: &'a EventBus,
    pub meter: &'a std::sync::Mutex<Option<(i64, ContextMeter)>>,
    pub context: ContextSettings,
}

impl Shaper for TurnShaper<'_> {
    fn shape(&self, messages: Vec<ChatMessage>) -> Vec<ChatMessage> {
        self.shape_with_report(messages).0
    }

    fn tool_result_limit(&self) -> usize {
        self.limits.max_tool_result_tokens
    }
}

impl TurnShaper<'_> {
    fn shape_with_report(&self, mut messages: Vec<ChatMessage>) -> (Vec<ChatMessage>, guard::Report) {
        if let Some(system) = messages.first_mut().filter(|m| m.role == crate::llm::Role::System) {
            let plan = self.plans.rendered();
            system.content = if plan.is_empty() { self.system.clone() } else { format!("{}\n\n{plan}", self.system) };
        }
        let (messages, report) = guard::fit(messages, &self.limits, &count);
        if report.dropped_turns + report.truncated > 0 {
            tracing::warn!(conversation_id = self.conversation_id, ?report, "context guard cut the prompt to fit");
        } else if report.trimmed() {
            tracing::info!(
                conversation_id = self.conversation_id,
                before = report.before,
                after = report.after,
                cleared = report.cleared,
                compacted = report.compacted,
                "context guard trimmed tool results"
            );
        }
        let meter = ContextMeter::new(report.after, report.budget, self.window, self.summarized_turns, &self.context);
        *self.meter.lock().expect("meter lock") = Some((self.conversation_id, meter));
        self.events.publish(CoreEvent::ContextUsage { conversation_id: self.conversation_id, meter });
        (messages, report)
    }
}

/// What a turn starts from: the system prompt (with summary and resumed checkpoint),
/// the live history after it, and the limits the guard keeps to.
pub struct TurnPrompt {
    pub system: String,
    pub prompt: Vec<ChatMessage>,
    pub limits: Limits,
    pub summarized_turns: bool,
}

impl TurnPrompt {
    pub(crate) fn shaper<'a>(&self, companion: &'a Companion, conversation_id: i64, chain: &Chain) -> TurnShaper<'a> {
        TurnShaper {
            system: self.system.clone(),
            plans: &companion.plans,
            limits: self.limits,
            window: chain.context_window() as usize,
            summarized_turns: self.summarized_turns,
            conversation_id,
            events: companion.events(),
            meter: &companion.context_meter,
            context: companion.settings().context.clone(),
        }
    }
}

impl Companion {
    /// Builds the prompt of the next model call in `conversation_id`, folding old turns
    /// into the summary first when the history nears the threshold.
    pub(crate) async fn turn_prompt(
        &self,
        conversation_id: i64,
        chain: &Chain,
        tools: &crate::tools::ToolRegistry,
    ) -> Result<TurnPrompt, CompanionError> {
        let settings = self.settings();
        let now = (self.clock)();
        let zone = crate::clock::user_zone(settings.user.timezone.as_deref());
        let corrections = self.store().active_corrections(now).await?;
        self.knowledge().begin_turn();
        let (persona, knowledge, _) =
            self.knowledge().prompt_parts(now.with_timezone(&zone).date_naive(), FACT_BUDGET_TOKENS, crate::tokens::count);
        let base = prompt::system_prompt(&prompt::PromptContext { now, zone, corrections: &corrections, persona: &persona, knowledge: &knowledge });
        // Each wire format wraps a tool definition in a few more tokens of its own.
        // Models that take no tools (the offline one) are sent none.
        let specs = if chain.providers.iter().any(|p| p.supports_tools) { tools.specs() } else { Vec::new() };
        let tool_tokens = count(&serde_json::to_string(&specs).unwrap_or_default()) + 16 * specs.len();
        let limits = limits_for(chain, &settings).less(tool_tokens);
        let plan = self.plans.focus(conversation_id).await?;
        let fixed = count(&base) + count(&super::plan::render(&plan));
        let live = self.live_history(conversation_id, chain, fixed, &limits).await?;
        let system = base + &self.context_blocks(conversation_id, live.summary.as_ref()).await?;
        let prompt = prompt::assemble(system.clone(), &live.messages);
        Ok(TurnPrompt { system, prompt, limits, summarized_turns: live.summary.is_some() })
    }

    /// The prompt the next message would be answered with, as the guard sends it
    /// (without the new message). Folds old turns like a turn would. For benchmarks
    /// and diagnostics.
    pub async fn preview_prompt(&self) -> Result<(Vec<ChatMessage>, guard::Report), CompanionError> {
        let conversation_id = self.store().current_conversation().await?;
        let chain = self.models.chat_chain(None).await.map_err(CompanionError::ModelUnavailable)?;
        let tools = self.tools();
        let turn = self.turn_prompt(conversation_id, &chain, &tools).await?;
        Ok(turn.shaper(self, conversation_id, &chain).shape_with_report(turn.prompt))
    }

    /// The history still sent verbatim. When it nears the threshold, the oldest turns
    /// are folded into the running summary first (nothing is deleted).
    pub(crate) async fn live_history(
        &self,
        conversation_id: i64,
        chain: &Chain,
        system_tokens: usize,
        limits: &Limits,
    ) -> Result<LiveHistory, CompanionError> {
        let settings = self.settings();
        let summary = self.store().latest_summary(conversation_id).await?;
        let after = summary.as_ref().map(|s| s.upto_message_id).unwrap_or(0);
        let mut messages: Vec<Message> =
            self.store().messages_after(conversation_id, after).await?.into_iter().filter(prompt::counts_as_context).collect();
        let fixed = system_tokens + summary.as_ref().map(|s| count(&summary_block(s))).unwrap_or(0);
        let Some(cut) = eviction_point(&messages, fixed, limits, &settings.context) else {
            return Ok(LiveHistory { summary, messages });
        };
        let kept = messages.split_off(cut);
        self.events().publish(CoreEvent::Notice { conversation_id, notice: crate::events::Notice::Summarizing });
        let folded = self.fold(conversation_id, chain, summary.as_ref(), &messages, limits).await?;
        tracing::info!(
            conversation_id,
            evicted_messages = messages.len(),
            kept_messages = kept.len(),
            before_tokens = fixed + messages.iter().chain(&kept).map(|m| count(&m.content)).sum::<usize>(),
            after_tokens = system_tokens + count(&folded.text) + kept.iter().map(|m| count(&m.content)).sum::<usize>(),
            "older turns folded into the running summary"
        );
        Ok(LiveHistory { summary: Some(folded), messages: kept })
    }

    /// Digest, memory flush, Bug 12 check, checkpoint, new summary: in that order, so
    /// a crash part-way leaves the turns unsummarised (and retried) rather than lost.
    async fn fold(
        &self,
        conversation_id: i64,
        chain: &Chain,
        previous: Option<&Summary>,
        evicted: &[Message],
        limits: &Limits,
    ) -> Result<Summary, CompanionError> {
        let turns: Vec<ChatMessage> = evicted.iter().map(Message::to_chat).collect();
        let previous_text = previous.map(|s| s.text.as_str()).unwrap_or("");
        let digest = match self.digest_call(conversation_id, chain, previous_text, &turns, limits).await {
            Ok(digest) => digest,
            Err(reason) => {
                tracing::warn!(conversation_id, %reason, "the summary model call failed; using the plain summary");
                digest::fallback(previous_text, &turns, summary_budget(limits), &count)
            }
        };
        self.flush_facts(&digest);
        self.log_unsaved_facts(conversation_id, evicted);
        let checkpoint = self.store().add_checkpoint(conversation_id, "auto", &digest.checkpoint).await?;
        self.events().publish(CoreEvent::CheckpointSaved { conversation_id, checkpoint_id: checkpoint.id, trigger: "auto".into() });
        let text = crate::context::compact::truncate_middle(&digest.summary, summary_budget(limits), &count);
        let upto = evicted.last().map(|m| m.id).unwrap_or_else(|| previous.map(|s| s.upto_message_id).unwrap_or(0));
        let id = self.store().add_summary(conversation_id, upto, &text).await?;
        Ok(Summary { id, upto_message_id: upto, text })
    }

    /// One model call for summary, checkpoint and facts; an error says why the
    /// fallback is used.
    pub(super) async fn digest_call(
        &self,
        conversation_id: i64,
        chain: &Chain,
        previous: &str,
        turns: &[ChatMessage],
        limits: &Limits,
    ) -> Result<Digest, String> {
        let room = limits.budget.saturating_sub(count(previous) + 600).max(256);
        let transcript = digest::transcript(turns, room, &count);
        let request = ChatRequest {
            messages: digest::request_messages(previous, &transcript),
            tools: Vec::new(),
            max_tokens: Some(DIGEST_MAX_TOKENS),
        };
        let text = self.call_once(chain, request, "context_digest", Some(conversation_id), DIGEST_TIMEOUT).await?;
        digest::parse(&text)
    }

    /// The memory flush: facts the digest found are saved before their turns leave.
    fn flush_facts(&self, digest: &Digest) {
        let today = self.today();
        for fact in digest.facts.iter().take(MAX_FLUSHED_FACTS) {
            let category = Category::parse(&fact.category).unwrap_or(Category::General);
            match self.knowledge().save(&fact.fact, category, today) {
                Ok(outcome) => tracing::info!(?outcome, "memory flush saved a fact"),
                Err(error) => tracing::warn!(%error, "memory flush could not save a fact"),
            }
        }
    }

    /// Bug 12: fact-like phrases leaving the context that no saved fact covers are
    /// logged and appended to `truncated_messages.jsonl`.
    fn log_unsaved_facts(&self, conversation_id: i64, evicted: &[Message]) {
        let saved: Vec<String> = self.knowledge().facts().into_iter().map(|f| f.fact.text).collect();
        let mut lines = String::new();
        for message in evicted.iter().filter(|m| m.role == crate::llm::Role::User) {
            for unsaved in digest::unsaved_facts([message.content.as_str()], &saved) {
                tracing::warn!(conversation_id, message_id = message.id, phrase = %unsaved.phrase, "a possible personal fact left the context without being saved");
                let line = serde_json::json!({
                    "logged_at": crate::store::now(),
                    "conversation_id": conversation_id,
                    "message_id": message.id,
                    "said_at": message.created_at,
                    "phrase": unsaved.phrase,
                    "content": message.content,
                });
                lines.push_str(&line.to_string());
                lines.push('\n');
            }
        }
        if lines.is_empty() {
            return;
        }
        let path = self.data_dir().join(TRUNCATED_LOG);
        let written = std::fs::OpenOptions::new().create(true).append(true).open(&path).and_then(|mut f| f.write_all(lines.as_bytes()));
        if let Err(error) = written {
            tracing::warn!(path = %path.display(), %error, "could not append to the truncated-messages log");
        }
    }

    /// The system prompt's additions: the running summary and a resumed checkpoint.
    pub(crate) async fn context_blocks(&self, conversation_id: i64, summary: Option<&Summary>) -> Result<String, CompanionError> {
        let mut out = String::new();
        if let Some(summary) = summary {
            out.push_str("\n\n");
            out.push_str(&summary_block(summary));
        }
        if let (Some(id), _) = self.store().continuation(conversation_id).await? {
            if let Some(checkpoint) = self.store().checkpoint(id).await? {
                out.push_str("\n\n");
                out.push_str(&checkpoint.to_prompt());
            }
        }
        Ok(out)
    }

    /// The current conversation's plan.
    pub async fn plan(&self) -> Result<Vec<super::plan::PlanItem>, CompanionError> {
        let conversation_id = self.store().current_conversation().await?;
        Ok(self.store().plan(conversation_id).await?)
    }

    /// How full the context was on the last model call; before any call, an estimate
    /// from the stored history.
    pub async fn context_meter(&self) -> Result<ContextMeter, CompanionError> {
        let conversation_id = self.store().current_conversation().await?;
        if let Some((id, meter)) = *self.context_meter.lock().expect("meter lock") {
            if id == conversation_id {
                return Ok(meter);
            }
        }
        let settings = self.settings();
        let window = self.models.known_window();
        let limits = Limits::new(window, settings.llm.max_tokens.unwrap_or(1024), &settings.context);
        let summary = self.store().latest_summary(conversation_id).await?;
        let after = summary.as_ref().map(|s| s.upto_message_id).unwrap_or(0);
        let history: Vec<Message> =
            self.store().messages_after(conversation_id, after).await?.into_iter().filter(prompt::counts_as_context).collect();
        let mut chats: Vec<ChatMessage> = history.iter().map(Message::to_chat).collect();
        guard::prepare(&mut chats, &limits, &count);
        let used = guard::total_tokens(&chats, &count) + summary.as_ref().map(|s| count(&s.text)).unwrap_or(0);
        Ok(ContextMeter::new(used, limits.budget, window as usize, summary.is_some(), &settings.context))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_meter_level_follows_the_fold_settings() {
        let defaults = ContextSettings::default();
        let level = |used, settings: &ContextSettings| ContextMeter::new(used, 1000, 1200, false, settings).level;
        assert_eq!([499, 500, 799, 800].map(|u| level(u, &defaults)), [MeterLevel::Low, MeterLevel::Mid, MeterLevel::Mid, MeterLevel::High]);
        let early = ContextSettings { threshold_percent: 60, target_percent: 30, ..defaults };
        assert_eq!([299, 300, 600].map(|u| level(u, &early)), [MeterLevel::Low, MeterLevel::Mid, MeterLevel::High]);
    }
}

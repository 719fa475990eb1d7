//! What a turn says while it runs and when it ends: the reply's pieces, tools, notices,
//! the plan, the context's fill, checkpoints, the facts it noticed.

use serde::Serialize;

use sidecar_llm::Usage;
use sidecar_store::MessageMeta;

#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ChatEvent {
    /// A user message was stored and a reply is being produced.
    TurnStarted {
        conversation_id: i64,
        user_message_id: i64,
        /// Where the message was said (a phone's turns show in the window too).
        channel: sidecar_domain::Channel,
        /// The message's text when it waited in the queue and starts only now.
        #[serde(skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        dequeued: Option<String>,
    },
    /// Messages waiting for the reply being written changed (one queued, started or
    /// cancelled); `items` is the whole waiting list, oldest first.
    Queue { items: Vec<crate::inbox::QueuedMessage> },
    /// A piece of the reply text, in order.
    Delta { conversation_id: i64, text: String },
    /// The model asked for a tool; it is running.
    ToolStarted { conversation_id: i64, call_id: String, name: String, arguments: String },
    /// A tool finished; `result` is what the model will read (possibly shortened).
    ToolFinished {
        conversation_id: i64,
        call_id: String,
        name: String,
        is_error: bool,
        /// The user did not allow it: it never ran.
        #[serde(default)]
        denied: bool,
        result: String,
    },
    /// Something the user may want to know while the turn runs.
    Notice { conversation_id: i64, notice: Notice },
    /// The reply is complete (or was stopped) and stored.
    TurnFinished {
        conversation_id: i64,
        message_id: i64,
        channel: sidecar_domain::Channel,
        status: String,
        finish_reason: Option<String>,
        usage: Option<Usage>,
        /// Boxed: the largest part of the turn's events, which every subscriber clones.
        meta: Box<MessageMeta>,
    },
    /// The turn failed; what was streamed so far is stored.
    TurnFailed { conversation_id: i64, message: String, retryable: bool },
    /// `update_plan` changed the conversation's checklist.
    PlanUpdated { conversation_id: i64, items: Vec<crate::context::plan_item::PlanItem> },
    /// The model's scratchpad for the conversation's request changed (empty: it went).
    ScratchpadUpdated { conversation_id: i64, text: String },
    /// How full the context was on the last model call (tokens of the prompt and the
    /// budget it must fit: window minus the reply reserve).
    ContextUsage {
        conversation_id: i64,
        #[serde(flatten)]
        meter: crate::context::meter::ContextMeter,
    },
    /// A checkpoint was written (by `/checkpoint` or because the context neared its limit).
    CheckpointSaved { conversation_id: i64, checkpoint_id: i64, trigger: String },
    /// The current chat was closed after `[retention] close_idle_hours` untouched:
    /// `checkpoint_id` sums it up (none when nothing was said since the last one), and
    /// `opened` is the new current chat, which offers to continue it.
    ConversationClosed { conversation_id: i64, opened: i64, checkpoint_id: Option<i64> },
    /// After a reply: personal facts the user said that no saved fact covers. `saved`:
    /// they were saved already (the user chose so); otherwise they are offered.
    /// `message_id` is the reply (where they are shown), `said_id` the user's message
    /// they were said in (where they are learned from, once kept).
    FactsNoticed { conversation_id: i64, message_id: i64, said_id: i64, suggestions: Vec<sidecar_memory::Suggestion>, saved: bool },
}

/// Notices shown while a turn runs.
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Notice {
    /// A provider failed transiently; it is tried again after `delay_ms`.
    Retrying { provider: String, attempt: u32, delay_ms: u64, reason: String },
    /// A provider failed; the next one in the chain answers this turn.
    FallingBack { from: String, to: String, reason: String },
    /// The reply hit the length limit and is being continued.
    Continued { attempt: u32 },
    /// The reply claimed an action it did not take; the model is asked again and the
    /// text shown so far is replaced by the new answer.
    Corrected { check: String },
    /// The model kept calling tools past the per-turn limit.
    IterationCap,
    /// The turn ran past its time limit.
    TimedOut,
    /// Older turns are being folded into the running summary before the model answers.
    Summarizing,
    /// The model answered in words with plan steps open and is asked to go on.
    PlanGoesOn { done: u32, total: u32 },
}

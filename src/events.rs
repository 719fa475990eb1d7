//! The core's typed event stream. The desktop shell, the CLI and tests subscribe to it;
//! none of them reaches into the core's state to learn what happened.

use serde::Serialize;
use tokio::sync::broadcast;

pub use crate::llm::status::ModelStatus;
use crate::llm::Usage;
use crate::store::MessageMeta;
use sidecar_domain::emitter::Emitter;

/// Something the core did that a subscriber may want to show.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum CoreEvent {
    /// A user message was stored and a reply is being produced.
    TurnStarted {
        conversation_id: i64,
        user_message_id: i64,
        /// Where the message was said (a phone's turns show in the window too).
        channel: crate::channels::channel::Channel,
        /// The message's text when it waited in the queue and starts only now.
        #[serde(skip_serializing_if = "Option::is_none")]
        dequeued: Option<String>,
    },
    /// Messages waiting for the reply being written changed (one queued, started or
    /// cancelled); `items` is the whole waiting list, oldest first.
    Queue {
        items: Vec<crate::channels::inbox::QueuedMessage>,
    },
    /// A piece of the reply text, in order.
    Delta {
        conversation_id: i64,
        text: String,
    },
    /// The model asked for a tool; it is running.
    ToolStarted {
        conversation_id: i64,
        call_id: String,
        name: String,
        arguments: String,
    },
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
    Notice {
        conversation_id: i64,
        notice: Notice,
    },
    /// The reply is complete (or was stopped) and stored.
    TurnFinished {
        conversation_id: i64,
        message_id: i64,
        channel: crate::channels::channel::Channel,
        status: String,
        finish_reason: Option<String>,
        usage: Option<Usage>,
        meta: MessageMeta,
    },
    /// The turn failed; what was streamed so far is stored.
    TurnFailed {
        conversation_id: i64,
        message: String,
        retryable: bool,
    },
    /// `update_plan` changed the conversation's checklist.
    PlanUpdated {
        conversation_id: i64,
        items: Vec<crate::context::plan_item::PlanItem>,
    },
    /// How full the context was on the last model call (tokens of the prompt and the
    /// budget it must fit: window minus the reply reserve).
    ContextUsage {
        conversation_id: i64,
        #[serde(flatten)]
        meter: crate::context::meter::ContextMeter,
    },
    /// A checkpoint was written (by `/checkpoint` or because the context neared its limit).
    CheckpointSaved {
        conversation_id: i64,
        checkpoint_id: i64,
        trigger: String,
    },
    /// Sidecar spoke first (a greeting, a check-in…) and posted it in the chat.
    SpontaneousMessage {
        conversation_id: i64,
        message_id: i64,
        message_type: String,
        first_line: String,
    },
    /// The user is typing in the chat window (said at most every second or so).
    UserTyping,
    /// Sidecar went quiet (`/quiet`, "be quiet", the tray, quiet hours set to include
    /// now) or spoke again; what stands now at the desk.
    QuietChanged {
        quiet: crate::proactive::quiet::QuietNow,
    },
    /// learnings.md, user.md or SOUL.md changed on disk; `problems` are the lines of
    /// learnings.md that could not be read (empty when all is well).
    /// Sidecar learned something worth saying about its spontaneous messages (a kind
    /// pauses for a week, unanswered); said once.
    ProactiveLearned {
        said: String,
    },
    KnowledgeChanged {
        problems: Vec<crate::knowledge::learnings::Malformed>,
        error: Option<String>,
    },
    /// After a reply: personal facts the user said that no saved fact covers. `saved`:
    /// they were saved already (the user chose so); otherwise they are offered.
    FactsNoticed {
        conversation_id: i64,
        message_id: i64,
        suggestions: Vec<crate::knowledge::suggest::Suggestion>,
        saved: bool,
    },
    /// Recall by meaning embedded another batch: `embedded` of `total` items have vectors.
    MemoryIndexing {
        embedded: u64,
        total: u64,
    },
    // A feature's own events, said as they are (no tag of their own: each carries its
    // `type`), so the JSON the UI reads is the same as when they were variants here.
    #[serde(untagged)]
    Model(crate::llm::status::ModelEvent),
    #[serde(untagged)]
    Reminders(crate::reminders::events::ReminderEvent),
    #[serde(untagged)]
    Updates(crate::updates::events::UpdateEvent),
    #[serde(untagged)]
    Budget(crate::budget::events::BudgetEvent),
    #[serde(untagged)]
    Connections(crate::connections::events::ConnectionEvent),
    #[serde(untagged)]
    Mcp(crate::mcp::events::McpEvent),
    #[serde(untagged)]
    Permissions(crate::permissions::events::PermissionEvent),
    #[serde(untagged)]
    LocalModels(crate::local_models::events::LocalModelEvent),
    #[serde(untagged)]
    Channels(crate::channels::events::ChannelEvent),
}

/// Notices shown while a turn runs.
#[derive(Debug, Clone, PartialEq, Serialize)]
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

/// A cheap-to-clone publisher. Slow subscribers lose the oldest events rather than
/// blocking the core (they can reload history from the store).
#[derive(Debug, Clone)]
pub struct EventBus {
    sender: broadcast::Sender<CoreEvent>,
}

impl Default for EventBus {
    fn default() -> Self {
        Self::new(1024)
    }
}

impl EventBus {
    pub fn new(capacity: usize) -> Self {
        let (sender, _) = broadcast::channel(capacity);
        Self { sender }
    }

    pub fn publish(&self, event: CoreEvent) {
        // No subscriber is not an error: the CLI in --json mode listens to nothing.
        let _ = self.sender.send(event);
    }

    pub fn subscribe(&self) -> broadcast::Receiver<CoreEvent> {
        self.sender.subscribe()
    }

    /// A feature's publisher over this bus: its events go out wrapped by `wrap`.
    pub fn emitter<E: 'static>(&self, wrap: fn(E) -> CoreEvent) -> Emitter<E> {
        let bus = self.clone();
        Emitter::new(move |event| bus.publish(wrap(event)))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::reminders::events::ReminderEvent;

    /// The UI (`ui/src/types/world.ts`) reads these shapes: a feature's event is said as
    /// it was when it was a variant of `CoreEvent`.
    #[test]
    fn a_features_event_is_said_as_it_was_when_it_was_a_variant_here() {
        let delivered = ReminderEvent::ReminderDelivered { conversation_id: 1, message_id: 2, reminder_id: 3, late: true, first_line: "Call mum".into() };
        assert_eq!(
            serde_json::to_value(CoreEvent::Reminders(delivered)).unwrap(),
            json!({"type": "reminder_delivered", "conversation_id": 1, "message_id": 2, "reminder_id": 3, "late": true, "first_line": "Call mum"})
        );
        assert_eq!(serde_json::to_value(CoreEvent::Reminders(ReminderEvent::RemindersChanged)).unwrap(), json!({"type": "reminders_changed"}));
        let import = ReminderEvent::CalendarImport { saved: 5, total: 9, done: false };
        assert_eq!(serde_json::to_value(CoreEvent::Reminders(import)).unwrap(), json!({"type": "calendar_import", "saved": 5, "total": 9, "done": false}));
        assert_eq!(serde_json::to_value(CoreEvent::UserTyping).unwrap(), json!({"type": "user_typing"}));
        let found = crate::updates::events::UpdateEvent::UpdateFound { title: "Sidecar 0.2".into(), body: "Ready".into() };
        assert_eq!(serde_json::to_value(CoreEvent::Updates(found)).unwrap(), json!({"type": "update_found", "title": "Sidecar 0.2", "body": "Ready"}));
        let ready = crate::llm::status::ModelEvent::ModelStatus(ModelStatus::Ready { provider: "local".into(), model: "qwen".into(), demo: false });
        assert_eq!(
            serde_json::to_value(CoreEvent::Model(ready)).unwrap(),
            json!({"type": "model_status", "state": "ready", "provider": "local", "model": "qwen", "demo": false})
        );
        let settled = crate::permissions::events::PermissionEvent::PermissionSettled { id: 7 };
        assert_eq!(serde_json::to_value(CoreEvent::Permissions(settled)).unwrap(), json!({"type": "permission_settled", "id": 7}));
        let servers = crate::mcp::events::McpEvent::McpServers { servers: Vec::new() };
        assert_eq!(serde_json::to_value(CoreEvent::Mcp(servers)).unwrap(), json!({"type": "mcp_servers", "servers": []}));
    }
}

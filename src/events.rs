//! The core's typed event stream. The desktop shell, the CLI and tests subscribe to it;
//! none of them reaches into the core's state to learn what happened.

use serde::Serialize;
use tokio::sync::broadcast;

pub use sidecar_agent::Notice;
use sidecar_domain::Emitter;
use sidecar_domain::Subscriber;
pub use sidecar_llm::ModelStatus;

/// Something the core did that a subscriber may want to show.
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum CoreEvent {
    /// The user is typing in the chat window (said at most every second or so).
    UserTyping,
    // A feature's own events, said as they are (no tag of their own: each carries its
    // `type`), so the JSON the UI reads is the same as when they were variants here.
    #[serde(untagged)]
    Model(sidecar_llm::ModelEvent),
    #[serde(untagged)]
    Reminders(sidecar_reminders::ReminderEvent),
    #[serde(untagged)]
    Updates(sidecar_desktop_features::UpdateEvent),
    #[serde(untagged)]
    Budget(sidecar_llm::BudgetEvent),
    #[serde(untagged)]
    Connections(sidecar_serve::ConnectionEvent),
    #[serde(untagged)]
    Mcp(sidecar_actions::McpEvent),
    #[serde(untagged)]
    Permissions(sidecar_actions::PermissionEvent),
    #[serde(untagged)]
    LocalModels(sidecar_llm::LocalModelEvent),
    #[serde(untagged)]
    Channels(sidecar_channels::ChannelEvent),
    #[serde(untagged)]
    Memory(sidecar_memory::MemoryEvent),
    #[serde(untagged)]
    Proactive(sidecar_proactive::ProactiveEvent),
    #[serde(untagged)]
    Chat(sidecar_agent::ChatEvent),
    #[serde(untagged)]
    Voice(sidecar_voice::VoiceEvent),
    #[serde(untagged)]
    Tasks(sidecar_tasks::TaskEvent),
}

/// How many picked events a feature's subscription holds before the oldest go.
const FORWARDED: usize = 256;

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
    pub(crate) fn new(capacity: usize) -> Self {
        let (sender, _) = broadcast::channel(capacity);
        Self { sender }
    }

    pub(crate) fn publish(&self, event: CoreEvent) {
        // No subscriber is not an error: the CLI in --json mode listens to nothing.
        let _ = self.sender.send(event);
    }

    pub fn subscribe(&self) -> broadcast::Receiver<CoreEvent> {
        self.sender.subscribe()
    }

    /// Events of one kind picked out of this bus, for a feature that listens without
    /// naming `CoreEvent`: each subscription forwards what `pick` keeps from that moment
    /// on, until its receiver is dropped or the bus closes.
    pub(crate) fn subscriber<E: Clone + Send + 'static>(&self, pick: fn(&CoreEvent) -> Option<E>) -> Subscriber<E> {
        let bus = self.sender.clone();
        Subscriber::new(move || {
            let mut all = bus.subscribe();
            let (forward, heard) = broadcast::channel(FORWARDED);
            tokio::spawn(async move {
                loop {
                    match all.recv().await {
                        Ok(event) => {
                            if let Some(picked) = pick(&event) {
                                if forward.send(picked).is_err() {
                                    return;
                                }
                            }
                        }
                        // A subscriber that fell behind lost events, as on the bus itself.
                        Err(broadcast::error::RecvError::Lagged(_)) => {}
                        Err(broadcast::error::RecvError::Closed) => return,
                    }
                }
            });
            heard
        })
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
    use sidecar_reminders::ReminderEvent;

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
        let found = sidecar_desktop_features::UpdateEvent::UpdateFound { title: "Sidecar 0.2".into(), body: "Ready".into() };
        assert_eq!(serde_json::to_value(CoreEvent::Updates(found)).unwrap(), json!({"type": "update_found", "title": "Sidecar 0.2", "body": "Ready"}));
        let ready = sidecar_llm::ModelEvent::ModelStatus(ModelStatus::Ready { provider: "local".into(), model: "qwen".into(), demo: false });
        assert_eq!(
            serde_json::to_value(CoreEvent::Model(ready)).unwrap(),
            json!({"type": "model_status", "state": "ready", "provider": "local", "model": "qwen", "demo": false})
        );
        let settled = sidecar_actions::PermissionEvent::PermissionSettled { id: 7 };
        assert_eq!(serde_json::to_value(CoreEvent::Permissions(settled)).unwrap(), json!({"type": "permission_settled", "id": 7}));
        let servers = sidecar_actions::McpEvent::McpServers { servers: Vec::new() };
        assert_eq!(serde_json::to_value(CoreEvent::Mcp(servers)).unwrap(), json!({"type": "mcp_servers", "servers": []}));
        use sidecar_agent::ChatEvent;
        let delta = ChatEvent::Delta { conversation_id: 4, text: "Hola".into() };
        assert_eq!(serde_json::to_value(CoreEvent::Chat(delta)).unwrap(), json!({"type": "delta", "conversation_id": 4, "text": "Hola"}));
        let notice = ChatEvent::Notice { conversation_id: 4, notice: Notice::Continued { attempt: 2 } };
        assert_eq!(
            serde_json::to_value(CoreEvent::Chat(notice)).unwrap(),
            json!({"type": "notice", "conversation_id": 4, "notice": {"kind": "continued", "attempt": 2}})
        );
        let finished = ChatEvent::TurnFinished {
            conversation_id: 4,
            message_id: 9,
            channel: sidecar_domain::Channel::Desktop,
            status: "complete".into(),
            finish_reason: None,
            usage: None,
            meta: Box::default(),
        };
        let said = serde_json::to_value(CoreEvent::Chat(finished)).unwrap();
        assert_eq!((said["type"].clone(), said["message_id"].clone(), said["channel"].clone()), (json!("turn_finished"), json!(9), json!("desktop")));
        assert!(said["meta"].is_object(), "the meta is said whole, not boxed: {said}");
        let indexing = sidecar_memory::MemoryEvent::MemoryIndexing { embedded: 3, total: 5 };
        assert_eq!(serde_json::to_value(CoreEvent::Memory(indexing)).unwrap(), json!({"type": "memory_indexing", "embedded": 3, "total": 5}));
        let learned = sidecar_proactive::ProactiveEvent::ProactiveLearned { said: "pausa".into() };
        assert_eq!(serde_json::to_value(CoreEvent::Proactive(learned)).unwrap(), json!({"type": "proactive_learned", "said": "pausa"}));
    }

    /// A feature below the assembly hears the events it picks, from the moment it
    /// subscribes, and nothing else.
    #[tokio::test]
    async fn a_subscriber_hears_only_what_it_picks() {
        let bus = EventBus::new(16);
        let typing = bus.subscriber(|event| matches!(event, CoreEvent::UserTyping).then_some("typing"));
        bus.publish(CoreEvent::UserTyping);
        let mut heard = typing.subscribe();
        bus.publish(CoreEvent::Reminders(ReminderEvent::RemindersChanged));
        bus.publish(CoreEvent::UserTyping);
        assert_eq!(heard.recv().await.unwrap(), "typing");
        assert!(matches!(heard.try_recv(), Err(broadcast::error::TryRecvError::Empty)), "one typing after the subscription, nothing else");
    }
}

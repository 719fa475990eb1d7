//! The sinks the core provides: the chat (the message is posted in the current
//! conversation), the terminal of `sidecar daemon`, and native OS notifications
//! (`notifier`) whose buttons are handed back to the caller. The desktop shell adds
//! the tray. Also the reminder scheduler's delivery, which goes through the router.

use std::sync::Arc;

use super::config::SinkId;
use super::notifier::{NotificationAction, Notifier};
use super::state::Channel;
use crate::events::ProactiveEvent;
use crate::words::Lang;
use futures_util::future::BoxFuture;
use sidecar_domain::Emitter;
use sidecar_llm::ChatMessage;
use sidecar_outbox::MessageType;
use sidecar_outbox::{History, Kind, Outgoing, Sink, SinkError};
use sidecar_reminders::ReminderEvent;
use sidecar_reminders::ReminderService;
use sidecar_store::MessageMeta;
use sidecar_store::MessageStatus;
use sidecar_store::NewMessage;
use sidecar_store::Store;

/// The `message_type` the chat is told for a program's note, which is no kind of
/// Sidecar's own (the UI's event shape has always carried one).
const NOTE: &str = "connection";

/// Posts proactive messages in the current conversation. Reminders are marked as
/// commands (never sent back to the model); spontaneous messages are part of the
/// conversation, so the model knows what it said.
pub struct ChatSink {
    pub store: Store,
    pub events: Emitter<ProactiveEvent>,
    /// Where a delivered reminder is told.
    pub reminders: Emitter<ReminderEvent>,
    pub channel: Channel,
}

impl ChatSink {
    /// Stores the message in the current conversation, said on `channel`.
    async fn post(&self, message: &Outgoing, channel: Channel) -> Result<(i64, i64), SinkError> {
        let conversation_id = self.store.conversations().current_conversation().await.map_err(SinkError::failed)?;
        let reminder = message.kind == Kind::Reminder;
        let meta = MessageMeta {
            command: reminder,
            proactive: Some(if reminder { "reminder".into() } else { message.message_type.map(MessageType::as_str).unwrap_or_default().into() }),
            reminder_id: message.reminder_id.filter(|_| reminder),
            ..MessageMeta::default()
        };
        let chat = ChatMessage::assistant(&message.chat);
        let stored = NewMessage {
            conversation_id,
            message: &chat,
            status: MessageStatus::Complete,
            finish_reason: None,
            meta: Some(&meta),
            channel: Some(channel),
            once_per: message.occurrence.as_deref(),
        };
        let message_id = self.store.conversations().add_message(stored).await.map_err(SinkError::failed)?;
        Ok((conversation_id, message_id))
    }
}

/// The chat keeps in the history what only a notification showed; the chat view is
/// not told (the user chose not to see it there), but a reload or recall finds it.
impl History for ChatSink {
    fn record<'a>(&'a self, message: &'a Outgoing, channel: Channel) -> BoxFuture<'a, Result<(i64, i64), SinkError>> {
        Box::pin(self.post(message, channel))
    }
}

impl Sink for ChatSink {
    fn id(&self) -> SinkId {
        SinkId::Chat
    }
    fn channel(&self) -> Channel {
        self.channel
    }
    fn send<'a>(&'a self, message: &'a Outgoing) -> BoxFuture<'a, Result<Option<i64>, SinkError>> {
        Box::pin(async move {
            let reminder = message.kind == Kind::Reminder;
            let (conversation_id, message_id) = self.post(message, self.channel).await?;
            let first_line = sidecar_domain::first_line(&message.chat);
            match message.reminder_id {
                Some(reminder_id) if reminder => {
                    self.reminders.publish(ReminderEvent::ReminderDelivered { conversation_id, message_id, reminder_id, late: message.late, first_line })
                }
                _ => self.events.publish(ProactiveEvent::SpontaneousMessage {
                    conversation_id,
                    message_id,
                    message_type: message.message_type.map_or(NOTE, MessageType::as_str).to_string(),
                    first_line,
                }),
            }
            Ok(Some(message_id))
        })
    }
}

/// Prints proactive messages on the daemon's terminal, stamped with the user's time.
pub struct ConsoleSink {
    pub clock: sidecar_domain::Clock,
}

impl Sink for ConsoleSink {
    fn id(&self) -> SinkId {
        SinkId::Console
    }
    fn channel(&self) -> Channel {
        Channel::Cli
    }
    fn send<'a>(&'a self, message: &'a Outgoing) -> BoxFuture<'a, Result<Option<i64>, SinkError>> {
        let stamp = self.clock.local_now().format("%H:%M");
        println!("[{stamp}] {}", message.chat);
        Box::pin(async { Ok(None) })
    }
}

/// Longest wait for the notification service to accept a notification.
const NOTIFY_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

/// Native OS notifications. A reminder's snooze buttons are handled here, by the
/// reminder service; `on_open` runs (on a helper thread) when the user clicks the
/// notification itself.
pub struct NotificationSink {
    pub notifier: Arc<Notifier>,
    pub channel: Channel,
    pub lang: Lang,
    pub reminders: Arc<ReminderService>,
    pub on_open: Arc<dyn Fn(Option<i64>) + Send + Sync>,
    /// How a spontaneous message's notification was taken (opened, dismissed).
    pub on_signal: Arc<dyn Fn(Option<i64>, crate::learning::Signal) -> futures_util::future::BoxFuture<'static, ()> + Send + Sync>,
}

impl NotificationSink {
    /// What a click or a button does: snoozing goes to the reminder service on the
    /// runtime the notification was sent from.
    fn on_action(&self) -> Arc<dyn Fn(NotificationAction) + Send + Sync> {
        let (reminders, on_open, runtime) = (self.reminders.clone(), self.on_open.clone(), tokio::runtime::Handle::current());
        let on_signal = self.on_signal.clone();
        Arc::new(move |action| match action {
            NotificationAction::Open { message_id, spontaneous } => {
                on_open(message_id);
                if spontaneous {
                    runtime.spawn(on_signal(message_id, crate::learning::Signal::Opened));
                }
            }
            NotificationAction::Dismissed { message_id } => {
                runtime.spawn(on_signal(message_id, crate::learning::Signal::Dismissed));
            }
            NotificationAction::Snooze { reminder_id, minutes } => {
                let reminders = reminders.clone();
                runtime.spawn(async move {
                    match reminders.snooze(reminder_id, minutes).await {
                        Ok(_) => tracing::info!(reminder_id, minutes, "reminder snoozed from its notification"),
                        Err(error) => tracing::warn!(%error, reminder_id, "could not snooze from the notification"),
                    }
                });
            }
        })
    }
}

impl Sink for NotificationSink {
    fn id(&self) -> SinkId {
        SinkId::Notification
    }
    fn channel(&self) -> Channel {
        self.channel
    }
    fn send<'a>(&'a self, message: &'a Outgoing) -> BoxFuture<'a, Result<Option<i64>, SinkError>> {
        let (title, body) = (message.title.clone(), message.body.clone());
        let (reminder_id, message_id) = (message.reminder_id, message.message_id);
        let spontaneous = message.kind == sidecar_outbox::Kind::Spontaneous;
        Box::pin(async move {
            let (on_action, notifier, lang) = (self.on_action(), self.notifier.clone(), self.lang);
            // The notifier blocks on D-Bus.
            let shown = tokio::task::spawn_blocking(move || notifier.show(&title, &body, reminder_id, message_id, spontaneous, lang, on_action));
            // A notification service that never answers must not hold every later
            // reminder back: the delivery fails and is tried again.
            tokio::time::timeout(NOTIFY_TIMEOUT, shown)
                .await
                .map_err(|_| SinkError::failed(format!("the notification service did not answer within {} s", NOTIFY_TIMEOUT.as_secs())))?
                .map_err(SinkError::failed)?
                .map_err(SinkError::failed)?;
            Ok(None)
        })
    }
}

//! Reminders: reading "when" from the user's words (`when`) and delivering them on
//! time, once (`scheduler`). The tools, the notifier and the UI build on these.

pub mod scheduler;
pub mod when;

use std::future::Future;
use std::sync::Arc;

use crate::companion::{Companion, CompanionError};
use crate::events::CoreEvent;
use crate::llm::ChatMessage;
use crate::store::reminders::Reminder;
use crate::store::{MessageMeta, NewMessage};
use scheduler::{Deliver, Scheduler, SchedulerLock};

impl Companion {
    /// The scheduler task for this data dir, delivering through `deliver`; `None` when
    /// another process (the app or the daemon) already owns it. Spawn the future on
    /// the caller's runtime; it holds the lock while it runs.
    pub fn reminder_scheduler(&self, deliver: Arc<dyn Deliver>) -> std::io::Result<Option<impl Future<Output = ()> + Send + 'static>> {
        let Some(lock) = SchedulerLock::try_acquire(self.data_dir())? else {
            return Ok(None);
        };
        let scheduler =
            Scheduler::new(Arc::new(self.store().clone()), deliver, self.clock.clone(), self.reminders_changed());
        Ok(Some(async move {
            let _lock = lock;
            scheduler.run(tokio_util::sync::CancellationToken::new()).await
        }))
    }

    /// Puts a delivered reminder into the current conversation, for the chat to show.
    pub async fn post_reminder(&self, reminder: &Reminder, late: bool) -> Result<i64, CompanionError> {
        let conversation_id = self.store().current_conversation().await?;
        let text = ReminderText::new(reminder, late).chat;
        let meta = MessageMeta { command: true, ..MessageMeta::default() };
        let message = ChatMessage::assistant(&text);
        let message_id = self
            .store()
            .add_message(NewMessage { conversation_id, message: &message, status: crate::store::MessageStatus::Complete, finish_reason: None, meta: Some(&meta) })
            .await?;
        self.events().publish(CoreEvent::ReminderDelivered { conversation_id, message_id, reminder_id: reminder.id, late });
        Ok(message_id)
    }
}

/// How a delivered reminder reads, in the user's language: the notification's title
/// and body, and the line in the chat. Words rather than an emoji: not every desktop
/// has an emoji font.
pub struct ReminderText {
    pub title: String,
    pub body: String,
    pub chat: String,
}

impl ReminderText {
    pub fn new(reminder: &Reminder, late: bool) -> Self {
        let es = crate::locale::Lang::from_env() == crate::locale::Lang::Es;
        let zone: chrono_tz::Tz = reminder.zone.parse().unwrap_or(chrono_tz::UTC);
        let due = reminder.due().with_timezone(&zone).format("%H:%M");
        let message = &reminder.message;
        let (title, chat) = match (late, es) {
            (false, false) => ("Sidecar reminder".to_string(), format!("Reminder: {message}")),
            (false, true) => ("Recordatorio de Sidecar".to_string(), format!("Recordatorio: {message}")),
            (true, false) => (
                "Sidecar reminder (late)".to_string(),
                format!("Reminder: {message} (late: it was due at {due}, while Sidecar was not running)"),
            ),
            (true, true) => (
                "Recordatorio de Sidecar (con retraso)".to_string(),
                format!("Recordatorio: {message} (con retraso: era a las {due} y Sidecar no estaba abierto)"),
            ),
        };
        Self { title, body: message.clone(), chat }
    }
}

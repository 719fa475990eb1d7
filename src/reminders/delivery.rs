//! The scheduler's delivery: a due reminder goes out through the message router.

use super::scheduler::{BoxFuture, Deliver};
use crate::words::reminders::ReminderText;
use crate::words::Lang;
use crate::events::{CoreEvent, EventBus};
use crate::proactive::router::{Kind, MessageRouter, Outgoing};
use crate::store::reminders::Reminder;
use crate::store::Store;

/// The scheduler delivers reminders through the router: shown once at least one sink
/// showed it; otherwise it stays due and is tried again.
pub struct RoutedReminders {
    pub router: MessageRouter,
    pub store: Store,
    pub events: EventBus,
    pub lang: Lang,
}

impl Deliver for RoutedReminders {
    fn deliver<'a>(&'a self, reminder: &'a Reminder, late: bool) -> BoxFuture<'a, Result<(), String>> {
        Box::pin(async move {
            let text = ReminderText::new(reminder, late, self.lang);
            let prefs = self.store.proactive().proactive_config().await.map_err(|e| e.to_string())?.sinks;
            let outgoing = Outgoing {
                kind: Kind::Reminder,
                title: text.title,
                body: text.body,
                chat: text.chat,
                message_type: None,
                reminder_id: Some(reminder.id),
                late,
                message_id: None,
            };
            let routed = self.router.send(outgoing, &prefs, None).await;
            if routed.reached_anyone() {
                Ok(())
            } else if routed.failed.is_empty() {
                Err("no sink takes reminders: set one to all or reminders-only in the proactivity settings".into())
            } else {
                Err(routed.failed.iter().map(|(sink, e)| format!("{}: {e}", sink.as_str())).collect::<Vec<_>>().join("; "))
            }
        })
    }

    fn recorded(&self, _reminder: &Reminder) {
        self.events.publish(CoreEvent::RemindersChanged);
    }
}

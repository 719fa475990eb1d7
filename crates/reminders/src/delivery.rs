//! The scheduler's delivery: a due reminder goes out through the message router.

use futures_util::future::BoxFuture;

use super::events::ReminderEvent;
use super::scheduler::Deliver;
use crate::error::NotShown;
use crate::rows::Reminder;
use crate::words::ReminderText;
use sidecar_domain::Emitter;
use sidecar_domain::Lang;
use sidecar_outbox::Kind;
use sidecar_outbox::MessageRouter;
use sidecar_outbox::Outgoing;

/// The scheduler delivers reminders through the router: shown once at least one sink
/// showed it, or a phone holds it in the stored outbox (trying again would send it
/// twice); otherwise it stays due and is tried again.
pub(crate) struct RoutedReminders {
    pub router: MessageRouter,
    pub events: Emitter<ReminderEvent>,
    pub lang: Lang,
}

impl Deliver for RoutedReminders {
    fn deliver<'a>(&'a self, reminder: &'a Reminder, late: bool, repeated: bool) -> BoxFuture<'a, Result<(), NotShown>> {
        Box::pin(async move {
            let text = ReminderText::new(reminder, late, self.lang);
            let text = if repeated { text.repeated(self.lang) } else { text };
            let (prefs, presence) = self.router.whereabouts().await?;
            let outgoing = Outgoing {
                kind: Kind::Reminder,
                title: text.title,
                body: text.body,
                chat: text.chat,
                message_type: None,
                reminder_id: Some(reminder.id),
                late,
                message_id: None,
                occurrence: Some(reminder.idempotency_key()),
            };
            let routed = self.router.send(outgoing, &prefs, presence).await;
            if routed.taken() {
                Ok(())
            } else if routed.failed.is_empty() {
                Err(NotShown::NoSink)
            } else {
                Err(NotShown::SinksFailed(routed.failed))
            }
        })
    }

    fn recorded(&self, _reminder: &Reminder) {
        self.events.publish(ReminderEvent::RemindersChanged);
    }

    fn gave_up<'a>(&'a self, reminder: &'a Reminder) -> BoxFuture<'a, ()> {
        Box::pin(async move {
            // Kept in the chat only: showing a notification is what kept failing.
            let said = crate::words::gave_up(reminder, crate::scheduler::MAX_SHOWS, self.lang);
            let note = Outgoing {
                kind: Kind::Reminder,
                title: said.clone(),
                body: said.clone(),
                chat: said,
                message_type: None,
                reminder_id: Some(reminder.id),
                late: true,
                message_id: None,
                occurrence: Some(format!("failed:{}", reminder.idempotency_key())),
            };
            match self.router.keep(&note).await {
                Ok((conversation_id, message_id)) => self.events.publish(ReminderEvent::ReminderDelivered {
                    conversation_id,
                    message_id,
                    reminder_id: reminder.id,
                    late: true,
                    first_line: sidecar_domain::first_line(&note.chat),
                }),
                Err(error) => tracing::warn!(%error, "could not tell the user a reminder failed"),
            }
            self.events.publish(ReminderEvent::RemindersChanged);
        })
    }
}

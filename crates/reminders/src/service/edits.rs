//! A pending reminder changed by hand: cancelled, the cancel undone, its words or its
//! time edited (the Reminders page, the chat, the CLI).

use sidecar_domain::EmptyMessage;

use super::ReminderService;
use crate::error::ReminderError;
use crate::rows::{Reminder, RemindersStore};

impl ReminderService {
    /// Cancels a pending reminder; the error says why not.
    pub async fn cancel(&self, id: i64) -> Result<Reminder, ReminderError> {
        let reminder = self.store.reminder_table().reminder(id).await?;
        if !self.store.reminder_table().cancel_reminder(id).await? {
            return Err(ReminderError::NoPending(id));
        }
        self.changed();
        reminder.ok_or_else(|| ReminderError::Gone(id))
    }

    /// Edits pending reminder `id` (the Reminders page's Edit): new words, and a new
    /// time when `when_text` says one (read as a new reminder's is, before an event
    /// too). A new time stores the reminder anew and cancels the old one only once the
    /// new one is kept, so a time that cannot be read changes nothing.
    pub async fn edit(&self, id: i64, message: &str, when_text: Option<&str>) -> Result<Reminder, ReminderError> {
        let message = message.trim();
        if message.is_empty() {
            return Err(EmptyMessage.into());
        }
        let table = self.store.reminder_table();
        let old = table.reminder(id).await?.filter(|r| r.state == crate::rows::ReminderState::Pending).ok_or(ReminderError::NoPending(id))?;
        let Some(when_text) = when_text.map(str::trim).filter(|w| !w.is_empty()) else {
            table.reword_reminder(id, message).await?;
            self.changed();
            return table.reminder(id).await?.ok_or(ReminderError::Gone(id));
        };
        let set = self.set(message, when_text).await?;
        self.cancel(old.id).await?;
        Ok(set.reminder)
    }

    /// Undoes the cancel of reminder `id`: pending again as it was (a time that passed
    /// meanwhile comes at once, as a late one does).
    pub async fn restore(&self, id: i64) -> Result<Reminder, ReminderError> {
        if !self.store.reminder_table().restore_reminder(id).await? {
            return Err(ReminderError::Gone(id));
        }
        self.changed();
        self.store.reminder_table().reminder(id).await?.ok_or(ReminderError::Gone(id))
    }
}

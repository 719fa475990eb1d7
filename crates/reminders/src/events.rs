//! What the reminders say happened, for the window, the tray and the character.

use serde::Serialize;

#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ReminderEvent {
    /// A reminder was shown and posted in the chat; `first_line` is the start of what it
    /// said (the character's speech bubble).
    ReminderDelivered { conversation_id: i64, message_id: i64, reminder_id: i64, late: bool, first_line: String },
    /// Reminders were added, cancelled, snoozed or delivered: lists showing them are stale.
    RemindersChanged,
    /// A calendar import at work: `saved` of `total` events stored (`total` is 0 while
    /// the file is still being read); `done` once it ended, whichever way.
    CalendarImport { saved: u64, total: u64, done: bool },
}

//! Reminders: reading "when" from the user's words (`when`) and delivering them on
//! time, once (`scheduler`). The tools, the notifier and the UI build on these.

pub mod delivery;
pub mod scheduler;
pub mod service;
pub mod when;

use crate::store::reminders::Reminder;
pub use crate::words::reminders::ReminderText;

/// The reminders a Reminders page shows, in its groups.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct Overview {
    /// One-off reminders still to come, soonest first.
    pub upcoming: Vec<Reminder>,
    /// Repeating reminders, by their next occurrence.
    pub recurring: Vec<Reminder>,
    /// Shown on time, most recent first.
    pub delivered: Vec<Reminder>,
    /// Shown after their time (Sidecar was closed or crashed), most recent first.
    pub late: Vec<Reminder>,
    /// The user's zone, in which the times are shown.
    pub zone: String,
    /// The snooze choices, in minutes (the same as a notification's buttons).
    pub snooze_choices: Vec<u32>,
}

/// How the "when" field reads as the user types.
#[derive(Debug, Clone, serde::Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum WhenPreview {
    Ok { local: String, utc: String, zone: String, rrule: Option<String>, note: Option<String> },
    Error { error: String, suggestion: Option<String> },
}

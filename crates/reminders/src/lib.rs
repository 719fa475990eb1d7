//! Reminders: set from the user's words (read by `sidecar_dates`) and delivered on
//! time, once (`scheduler`). The tools, the notifier and the UI build on these.

mod anchor;
pub(crate) mod delivery;
mod error;
mod events;
mod ics;
mod rows;
mod scheduler;
mod service;
mod tool;
pub mod words;

// The face: what the crates above, the faces and the tests name.
pub use anchor::{read, split, CalendarUnread, DayEvent, EventTime, EventTimes, Found};
pub use error::{NotShown, ReminderError};
pub use events::ReminderEvent;
pub use ics::{as_todo, check_structure, import, IcsError, Imported, Skipped, MAX_TITLE_CHARS};
pub use rows::{utc, NewReminder, NotAZone, Reminder, ReminderState, ReminderZone, RemindersStore};
pub use scheduler::{Deliver, Reminders, Scheduler, SchedulerLock, StoreReminders, MAX_SHOWS};
pub use service::{ReminderService, SNOOZE_CHOICES};
pub use tool::register;

pub use crate::words::ReminderText;
use sidecar_dates::DateError;
use sidecar_dates::DateErrorKind;
use sidecar_dates::Reading;
use sidecar_domain::Lang;

/// The reminders a Reminders page shows, in its groups.
#[derive(Debug, Clone, Default, serde::Serialize, ts_rs::TS)]
pub struct Overview {
    /// One-off reminders still to come, soonest first.
    pub upcoming: Vec<ReminderView>,
    /// Repeating reminders, by their next occurrence.
    pub recurring: Vec<ReminderView>,
    /// Shown on time, most recent first.
    pub delivered: Vec<ReminderView>,
    /// Shown after their time (Sidecar was closed or crashed), most recent first.
    pub late: Vec<ReminderView>,
    /// Given up: Sidecar stopped again and again while showing them.
    pub failed: Vec<ReminderView>,
    /// The user's zone, in which the times are shown.
    pub zone: String,
    /// The same as people say it ("Madrid time", "UTC").
    pub zone_words: String,
    /// The snooze choices, in minutes (the same as a notification's buttons).
    pub snooze_choices: Vec<u32>,
}

/// What a snooze did.
#[derive(Debug, Clone, serde::Serialize, ts_rs::TS)]
pub struct Snoozed {
    /// The reminder that comes at the snooze time (the original, moved, or a copy).
    pub reminder: Reminder,
    /// The original still comes at its own time: it repeats, or it was not due yet, so
    /// moving it would have brought it earlier. The snooze is a one-off copy.
    pub original_kept: bool,
}

/// What setting a reminder did.
#[derive(Debug, Clone, serde::Serialize, ts_rs::TS)]
pub struct Setting {
    /// The reminder that will come.
    pub reminder: Reminder,
    /// How the time was read, when that needs saying (a DST shift, moved to tomorrow).
    pub note: Option<String>,
    /// A pending reminder with the same words at the same time, set before: both are
    /// kept, and the answer says so.
    pub twin: Option<Reminder>,
    /// This chat message's request had already been carried out (Sidecar's own reading
    /// of it): nothing new was stored, `reminder` is that one.
    pub already_set: bool,
    /// The calendar event the reminder is tied to ("15 minutes before my standup"): the
    /// note then quotes the event's title, text from outside Sidecar.
    pub event: Option<String>,
}

/// A reminder as lists show it: its repeat rule in words and its next occurrences.
#[derive(Debug, Clone, serde::Serialize, ts_rs::TS)]
pub struct ReminderView {
    #[serde(flatten)]
    pub reminder: Reminder,
    /// "every weekday at 09:00", in the user's language.
    pub rule_words: Option<String>,
    /// The next three occurrences of a repeating reminder (the due one first).
    pub next: Vec<chrono::DateTime<chrono::Utc>>,
    /// Its zone as people say it ("Madrid time").
    pub zone_words: String,
}

/// How a "when" reads as the user types.
#[derive(Debug, Clone, serde::Serialize, ts_rs::TS)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum WhenPreview {
    Ok {
        local: String,
        utc: String,
        zone: String,
        rrule: Option<String>,
        rule_words: Option<String>,
        /// The first three occurrences (UTC, RFC 3339).
        next: Vec<String>,
        all_day: bool,
        note: Option<String>,
    },
    Error {
        kind: DateErrorKind,
        error: String,
        suggestion: Option<String>,
    },
}

impl WhenPreview {
    pub(crate) fn of(reading: Result<Reading, DateError>, lang: Lang) -> Self {
        match reading {
            Ok(r) => WhenPreview::Ok {
                local: format!("{} ({})", sidecar_dates::moment_words(r.local(), lang), sidecar_dates::zone_words(r.zone, lang)),
                utc: sidecar_store::utc(r.at),
                zone: r.zone.name().to_string(),
                rule_words: r.rule_words(lang),
                next: r.occurrences(3).into_iter().map(|t| t.to_rfc3339()).collect(),
                rrule: r.rrule,
                all_day: r.all_day,
                note: r.note,
            },
            Err(e) => WhenPreview::Error { kind: e.kind, error: e.error, suggestion: Some(e.suggestion) },
        }
    }
}

/// How a quick-add sentence splits as the user types.
#[derive(Debug, Clone, serde::Serialize, ts_rs::TS)]
pub struct SentencePreview {
    pub what: String,
    /// The user's words for the time.
    pub when_text: String,
    pub when: WhenPreview,
}

/// What an `.ics` import did.
#[derive(Debug, Clone, serde::Serialize, ts_rs::TS)]
#[ts(rename = "IcsImportReport")]
pub struct ImportReport {
    pub added: usize,
    /// Stopped by the user before the end: nothing was stored.
    pub stopped: bool,
    #[serde(flatten)]
    pub skipped: ics::Skipped,
}

//! Why a reminder could not be set, changed or moved, worded in both languages.

use super::ics::IcsError;
use sidecar_dates::DateError;
use sidecar_domain::CannotWrite;
use sidecar_domain::EmptyMessage;
use sidecar_domain::Worded;
use sidecar_store::StoreError;

/// A reminder said with a date and no hour ("el próximo martes", "in two weeks"):
/// the day it falls on, to ask at what time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HourQuestion {
    pub day: chrono::NaiveDate,
}

impl HourQuestion {
    /// The question, with hours said the way the reader understands them.
    pub fn words(&self, lang: sidecar_domain::Lang) -> String {
        crate::words::hour_question(self.day, lang)
    }
}

/// Why a due reminder was not shown this time; it stays due and is tried again.
#[derive(Debug, thiserror::Error)]
pub enum NotShown {
    #[error("no sink takes reminders: set one to all or reminders-only in the proactivity settings")]
    NoSink,
    /// Every sink that takes reminders failed, each for its reason.
    #[error("{}", .0.iter().map(|(sink, why)| format!("{}: {why}", sink.as_str())).collect::<Vec<_>>().join("; "))]
    SinksFailed(Vec<(sidecar_outbox::SinkId, String)>),
    #[error(transparent)]
    Routing(#[from] sidecar_outbox::SinkError),
}

#[derive(Debug, thiserror::Error)]
pub enum ReminderError {
    #[error("there is no pending reminder with id {0}; list_reminders shows them")]
    NoPending(i64),
    #[error("reminder {0} disappeared")]
    Gone(i64),
    #[error("minutes must be from 1 to {0}")]
    SnoozeMinutes(u32),
    #[error("there is no reminder with id {0} to snooze")]
    NoneToSnooze(i64),
    #[error("reminder {0} was cancelled; it cannot be snoozed")]
    SnoozeCancelled(i64),
    #[error("message {0} is not a reminder")]
    NotAReminder(i64),
    /// The calendar could not answer (its store, or its reading was lost on the way).
    #[error("the calendar could not be read: {0}")]
    Unread(#[from] crate::anchor::CalendarUnread),
    /// "before my 10:00 with Ana" with no calendar to find it in.
    #[error("a reminder before an event needs your calendar; connect one in Settings → Calendar, or say the time instead")]
    NoCalendar,
    /// No event the words name in the calendar.
    #[error("there is no event \"{0}\" in your calendar in the next two weeks; say its title or its time as the calendar has it, or say the time instead")]
    NoSuchEvent(String),
    #[error(transparent)]
    Empty(#[from] EmptyMessage),
    /// Words that could not be read as a time; the text says what to say instead.
    #[error(transparent)]
    Date(#[from] DateError),
    /// A date with no hour: the question to put to the user.
    #[error("{}", .0.words(sidecar_domain::Lang::En))]
    NeedsHour(HourQuestion),
    #[error(transparent)]
    Calendar(#[from] IcsError),
    #[error(transparent)]
    CannotWrite(#[from] CannotWrite),
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl Worded for ReminderError {
    fn spanish(&self) -> String {
        match self {
            ReminderError::NoPending(_) => "ese recordatorio ya no está pendiente".into(),
            ReminderError::Gone(_) => "ese recordatorio ya no existe".into(),
            ReminderError::SnoozeMinutes(max) => format!("los minutos deben ir de 1 a {max}"),
            ReminderError::NoneToSnooze(_) => "no hay ningún recordatorio así que posponer".into(),
            ReminderError::SnoozeCancelled(_) => "ese recordatorio se canceló; no se puede posponer".into(),
            ReminderError::NotAReminder(_) => "ese mensaje no es un recordatorio".into(),
            ReminderError::Unread(why) => format!("no se pudo leer el calendario: {why}"),
            ReminderError::NoCalendar => "un recordatorio antes de un evento necesita tu calendario; conecta uno en Ajustes → Calendario, o di la hora".into(),
            ReminderError::NoSuchEvent(words) => {
                format!("no hay ningún evento \"{words}\" en tu calendario en las próximas dos semanas; di su título o su hora como los tiene el calendario, o di la hora")
            }
            ReminderError::Empty(e) => e.spanish(),
            // Worded in the language of the words it could not read.
            ReminderError::Date(e) => e.to_string(),
            ReminderError::NeedsHour(q) => q.words(sidecar_domain::Lang::Es),
            ReminderError::Calendar(e) => e.spanish(),
            ReminderError::CannotWrite(e) => e.spanish(),
            ReminderError::Store(e) => e.spanish(),
        }
    }
}

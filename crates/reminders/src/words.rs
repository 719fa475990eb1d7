//! How a delivered reminder reads, in the user's language.

use crate::rows::Reminder;
use sidecar_domain::Lang;

/// How a delivered reminder reads, in the user's language: the notification's title
/// and body, and the line in the chat. Words rather than an emoji: not every desktop
/// has an emoji font.
pub struct ReminderText {
    pub title: String,
    pub body: String,
    pub chat: String,
}

/// What a notification shows of a reminder's text; the chat line keeps all of it.
pub(crate) const NOTIFICATION_CHARS: usize = 300;

/// `text` cut to `chars` characters, marked with "…" when it was longer.
pub fn within(text: &str, chars: usize) -> String {
    match text.char_indices().nth(chars) {
        Some((end, _)) => format!("{}…", text[..end].trim_end()),
        None => text.to_string(),
    }
}

impl ReminderText {
    pub fn new(reminder: &Reminder, late: bool, lang: Lang) -> Self {
        let es = lang == Lang::Es;
        let zone = reminder.zone.0;
        let due = reminder.due_at.with_timezone(&zone).format("%H:%M");
        let message = &reminder.message;
        let (title, chat) = match (late, es) {
            (false, false) => ("Sidecar reminder".to_string(), format!("Reminder: {message}")),
            (false, true) => ("Recordatorio de Sidecar".to_string(), format!("Recordatorio: {message}")),
            (true, false) => ("Sidecar reminder (late)".to_string(), format!("Reminder: {message} (late: it was due at {due}, while Sidecar was not running)")),
            (true, true) => (
                "Recordatorio de Sidecar (con retraso)".to_string(),
                format!("Recordatorio: {message} (con retraso: era a las {due} y Sidecar no estaba abierto)"),
            ),
        };
        Self { title, body: within(message, NOTIFICATION_CHARS), chat }
    }

    /// Shown again after a crash cut the first showing short: the user may have seen it.
    pub(crate) fn repeated(self, lang: Lang) -> Self {
        let (title, note) = match lang {
            Lang::Es => (" (otra vez)", "Sidecar se cerró mientras lo mostraba; quizá ya lo viste."),
            Lang::En => (" (again)", "Sidecar stopped while showing it; you may have seen it already."),
        };
        Self { title: format!("{}{title}", self.title), body: format!("{}\n{note}", self.body), chat: self.chat }
    }
}

/// Said in the chat when a reminder is given up: its showing was cut short `starts` times.
pub(crate) fn gave_up(reminder: &Reminder, starts: i64, lang: Lang) -> String {
    let when = due(reminder, lang);
    let message = &reminder.message;
    match lang {
        Lang::Es => format!(
            "No pude mostrarte el recordatorio \"{message}\" ({when}): Sidecar se cerró {starts} veces mientras lo mostraba. Queda como fallido en Recordatorios."
        ),
        Lang::En => format!(
            "I could not show you the reminder \"{message}\" ({when}): Sidecar stopped {starts} times while showing it. It is marked as failed on the Reminders page."
        ),
    }
}

/// When a reminder is due, in words: "Thursday 19 November 2026, 09:00".
pub fn due(reminder: &Reminder, lang: Lang) -> String {
    sidecar_dates::moment_words(reminder.due_at.with_timezone(&reminder.zone.0), lang)
}

/// A repeating reminder's rule in words: "every weekday at 09:00".
pub fn rule(reminder: &Reminder, lang: Lang) -> Option<String> {
    let rrule = reminder.rrule.as_deref()?;
    Some(sidecar_dates::rule_words(rrule, reminder.due_at.with_timezone(&reminder.zone.0), lang))
}

/// Said after setting a reminder when a pending one had the same words and time: both
/// are kept, because the user asked twice and only they know whether they meant it.
pub fn twin_kept(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "You already had a reminder with the same words at the same time; both are kept (cancel one if that was a mistake).",
        Lang::Es => "Ya tenías un recordatorio con las mismas palabras a la misma hora; se conservan los dos (cancela uno si fue un error).",
    }
}

/// Asked when a reminder's date came with no hour: "What time on Tuesday 1 December?
/// No hour was said. Answer like "at 9:00" or "at 18:30"."
pub fn hour_question(day: chrono::NaiveDate, lang: Lang) -> String {
    let named = sidecar_dates::day_words(day, lang);
    match lang {
        Lang::En => format!("What time on {named}? No hour was said. Answer like \"at 9:00\" or \"at 18:30\"."),
        Lang::Es => format!("¿A qué hora el {named}? Falta la hora. Responde, por ejemplo, «a las 9» o «a las 18:30»."),
    }
}

/// Said after setting a reminder before an event: "15 minutes before "Coffee with Ana"
/// (Tuesday 1 December 2026, 10:00); it moves if the event moves."
pub fn before_event(minutes: i64, summary: &str, start: chrono::DateTime<chrono_tz::Tz>, lang: Lang) -> String {
    let when = sidecar_dates::moment_words(start, lang);
    match lang {
        Lang::En => format!("{minutes} minutes before \"{summary}\" ({when}); it moves if the event moves."),
        Lang::Es => format!("{minutes} minutos antes de «{summary}» ({when}); se mueve si el evento se mueve."),
    }
}

/// Why an event of an imported calendar was not read.
pub(crate) enum Why<'a> {
    /// It has no start at all.
    NoStart,
    /// Its start is there and cannot be read (`DTSTART:next tuesday`).
    UnreadableStart(String),
    UnknownZone,
    NeverOccurs(&'a str),
    TooSparse(&'a str),
    TooFrequent(&'a str),
    UnreadableRule(&'a str),
    TooFar,
}

/// `"Title": why`, in `lang`: one line of an import's "Not imported" list.
pub(crate) fn unread(lang: Lang, title: &str, why: &Why) -> String {
    let minutes = sidecar_dates::MIN_REPEAT_MINUTES;
    let why = match (lang, why) {
        (Lang::En, Why::NoStart) => "no start time".to_string(),
        (Lang::Es, Why::NoStart) => "no tiene hora de inicio".to_string(),
        (Lang::En, Why::UnreadableStart(start)) => format!("its start ({start}) is not a date Sidecar can read"),
        (Lang::Es, Why::UnreadableStart(start)) => format!("su inicio ({start}) no es una fecha que Sidecar sepa leer"),
        (Lang::En, Why::UnknownZone) => "its start names a time zone Sidecar does not know".to_string(),
        (Lang::Es, Why::UnknownZone) => "su inicio nombra una zona horaria que Sidecar no conoce".to_string(),
        (Lang::En, Why::NeverOccurs(rule)) => format!("its repeat rule never occurs ({rule})"),
        (Lang::Es, Why::NeverOccurs(rule)) => format!("su regla de repetición nunca ocurre ({rule})"),
        (Lang::En, Why::TooSparse(rule)) => format!("repeats so rarely for how often its rule counts that Sidecar cannot follow it ({rule})"),
        (Lang::Es, Why::TooSparse(rule)) => format!("se repite tan de tarde en tarde para lo que cuenta su regla que Sidecar no puede seguirla ({rule})"),
        (Lang::En, Why::TooFrequent(rule)) => format!("repeats more often than every {minutes} minutes ({rule}), more than a reminder may"),
        (Lang::Es, Why::TooFrequent(rule)) => format!("se repite más a menudo que cada {minutes} minutos ({rule}), más de lo que puede un recordatorio"),
        (Lang::En, Why::UnreadableRule(rule)) => format!("a repeat rule Sidecar cannot read ({rule})"),
        (Lang::Es, Why::UnreadableRule(rule)) => format!("una regla de repetición que Sidecar no sabe leer ({rule})"),
        (Lang::En, Why::TooFar) => "more than 100 years ahead".to_string(),
        (Lang::Es, Why::TooFar) => "a más de 100 años vista".to_string(),
    };
    format!("\"{title}\": {why}")
}

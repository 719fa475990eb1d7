//! Reminders whose time is an event's: "15 minutes before my 10:00 with Ana", "media
//! hora antes de la reunión con Marta", "before the dentist". The words are read here;
//! the event is found by whoever knows the calendar ([`EventTimes`], given by the
//! assembly), and the reminder keeps the event it follows, so when the event moves the
//! reminder moves with it.

use std::future::Future;
use std::pin::Pin;

use chrono::{DateTime, Utc};

/// How long before the event when the words do not say ("before the dentist").
pub(crate) const DEFAULT_MINUTES_BEFORE: i64 = 15;
/// The longest "before" taken (a week): further is a date, not a reminder of an event.
const MAX_MINUTES_BEFORE: i64 = 7 * 24 * 60;

/// "N minutes before <an event>", read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnchorWords {
    pub minutes_before: i64,
    /// The words naming the event, as said ("10:00 with ana", "dentista").
    pub event: String,
}

/// An event found for a reminder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventTime {
    pub uid: String,
    pub summary: String,
    pub start: DateTime<Utc>,
}

/// An event of a day, as Sidecar lists it itself ("what's on my calendar tomorrow?").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DayEvent {
    pub summary: String,
    pub start: DateTime<Utc>,
    pub end: DateTime<Utc>,
    pub all_day: bool,
}

/// The calendar's own failure to answer (its store, its recurrence expansion).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct CalendarUnread(pub Box<dyn std::error::Error + Send + Sync>);

impl CalendarUnread {
    pub fn of(error: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> Self {
        Self(error.into())
    }
}

pub type Found<'a, T> = Pin<Box<dyn Future<Output = Result<T, CalendarUnread>> + Send + 'a>>;

/// The calendar as reminders need it, and Sidecar's own answer about a day (the calendar
/// crate sits above this one).
pub trait EventTimes: Send + Sync {
    /// Whether any calendar is there to look in.
    fn any<'a>(&'a self) -> Found<'a, bool>;
    /// The soonest event from `from` that `words` name: a time ("10:00"), words of its
    /// title ("with Ana", "dentista"), or both.
    fn find<'a>(&'a self, words: &'a str, from: DateTime<Utc>) -> Found<'a, Option<EventTime>>;
    /// When the event `uid` next starts from `from`; `None` once it is gone.
    fn next_start<'a>(&'a self, uid: &'a str, from: DateTime<Utc>) -> Found<'a, Option<DateTime<Utc>>>;
    /// The events between `from` and `to`, soonest first.
    fn between<'a>(&'a self, from: DateTime<Utc>, to: DateTime<Utc>) -> Found<'a, Vec<DayEvent>>;
}

/// The amount said before "before" / "antes de", in minutes.
fn amount(words: &str) -> Option<i64> {
    let words = words.trim();
    if words.is_empty() {
        return Some(DEFAULT_MINUTES_BEFORE);
    }
    match words {
        "half an hour" | "media hora" => return Some(30),
        "an hour" | "one hour" | "una hora" => return Some(60),
        "a few minutes" | "unos minutos" => return Some(10),
        _ => {}
    }
    let (number, unit) = words.split_at(words.find(|c: char| !c.is_ascii_digit()).unwrap_or(words.len()));
    let number: i64 = number.parse().ok()?;
    let per = match unit.trim() {
        "m" | "min" | "mins" | "minute" | "minutes" | "minuto" | "minutos" => 1,
        "h" | "hr" | "hour" | "hours" | "hora" | "horas" => 60,
        _ => return None,
    };
    number.checked_mul(per).filter(|m| (1..=MAX_MINUTES_BEFORE).contains(m))
}

/// Reads "[amount] before [my|your|the] <event>" and "[cantidad] antes de [mi|tu|la|el]
/// <evento>"; `None` when the words are not of that shape (a date, read as dates are).
pub fn read(text: &str) -> Option<AnchorWords> {
    let lower = text.trim().to_lowercase();
    let (said_amount, rest) = [" before ", " antes del ", " antes de "].iter().find_map(|marker| {
        let padded = format!(" {lower}");
        padded.find(marker).map(|at| (padded[..at].trim().to_string(), padded[at + marker.len()..].trim().to_string()))
    })?;
    let minutes_before = amount(&said_amount)?;
    let mut event = rest.as_str();
    for article in ["my ", "your ", "the ", "mi ", "tu ", "la ", "el ", "los ", "las "] {
        if let Some(stripped) = event.strip_prefix(article) {
            event = stripped;
            break;
        }
    }
    let event = event.trim_end_matches(['.', '!', '?']).trim();
    (!event.is_empty()).then(|| AnchorWords { minutes_before, event: event.to_string() })
}

/// A whole sentence with its reminder before an event: "Bring the book 15 minutes
/// before my 10:00 with Ana", "imprimir las diapositivas media hora antes del café con
/// Ana": what to remind (the sentence's words before the amount), and the anchor. An
/// amount must be said, so "finish it before Friday" stays the dates'.
pub fn split(sentence: &str) -> Option<(String, AnchorWords)> {
    let lower = sentence.trim().to_lowercase();
    let (before, rest) = [" before ", " antes del ", " antes de "].iter().find_map(|marker| {
        let at = lower.find(marker)?;
        Some((&sentence.trim()[..at], &lower[at + marker.len()..]))
    })?;
    let words: Vec<&str> = before.split_whitespace().collect();
    // The longest run of the last words that is an amount ("half an hour", "15 minutes").
    let (said, minutes) = (1..=3.min(words.len().saturating_sub(1))).rev().find_map(|n| {
        let tail = words[words.len() - n..].join(" ").to_lowercase();
        amount(&tail).filter(|_| !tail.is_empty()).map(|m| (words.len() - n, m))
    })?;
    let what = words[..said].join(" ").trim_end_matches([',', ':']).trim().to_string();
    let anchored = read(&format!("{} before {rest}", words[said..].join(" ")))?;
    Some((what, AnchorWords { minutes_before: minutes, ..anchored }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn said(m: i64, e: &str) -> Option<AnchorWords> {
        Some(AnchorWords { minutes_before: m, event: e.to_string() })
    }

    #[test]
    fn before_an_event_is_read_in_both_languages() {
        assert_eq!(read("15 minutes before my 10:00 with Ana"), said(15, "10:00 with ana"));
        assert_eq!(read("before the dentist"), said(DEFAULT_MINUTES_BEFORE, "dentist"));
        assert_eq!(read("half an hour before your meeting with Marta."), said(30, "meeting with marta"));
        assert_eq!(read("2h before the flight"), said(120, "flight"));
        assert_eq!(read("media hora antes de la reunión con Marta"), said(30, "reunión con marta"));
        assert_eq!(read("10 minutos antes del dentista"), said(10, "dentista"));
        assert_eq!(read("antes de mi clase de yoga"), said(DEFAULT_MINUTES_BEFORE, "clase de yoga"));
    }

    #[test]
    fn a_sentence_splits_into_what_and_before_an_event() {
        let split = |s: &str| split(s).map(|(what, a)| (what, a.minutes_before, a.event));
        assert_eq!(split("Bring the book 15 minutes before my 10:00 with Ana"), Some(("Bring the book".into(), 15, "10:00 with ana".into())));
        assert_eq!(split("print the slides half an hour before coffee with Ana"), Some(("print the slides".into(), 30, "coffee with ana".into())));
        assert_eq!(split("imprimir las diapositivas media hora antes del café con Ana"), Some(("imprimir las diapositivas".into(), 30, "café con ana".into())));
        assert_eq!(split("llamar a Marta 10 minutos antes de la reunión"), Some(("llamar a Marta".into(), 10, "reunión".into())));
        // No amount said: the dates read it ("before Friday" is a day).
        assert_eq!(split("finish the report before Friday"), None);
        assert_eq!(split("15 minutes before my coffee"), None, "nothing to remind");
    }

    #[test]
    fn other_words_are_left_to_the_dates() {
        assert_eq!(read("tomorrow at 10"), None);
        assert_eq!(read("el martes antes de"), None);
        assert_eq!(read("sometime before"), None);
        assert_eq!(read("3 weeks before the wedding"), None, "an amount it cannot read is not guessed");
        assert_eq!(read("9999 hours before the launch"), None, "further than a week is a date");
        assert_eq!(read("153722867280912931 hours before my coffee"), None, "no overflow");
    }
}

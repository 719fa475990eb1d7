//! Reminders as iCalendar (RFC 5545), through the `icalendar` crate: export as events
//! with their zone, RRULE and a display alarm at the time; import events (and to-dos)
//! from any calendar's `.ics` as reminders.

use chrono::{DateTime, NaiveTime, Utc};
use chrono_tz::Tz;
use icalendar::{Alarm, Calendar, CalendarDateTime, Component, DatePerhapsTime, Event, EventLike};

use crate::rows::Reminder;
use crate::words::{unread, Why};
use sidecar_dates::{next_after, too_frequent, too_frequent_by_its_frequency};
use sidecar_domain::Lang;

/// A reminder read from a calendar, ready to store.
#[derive(Debug, Clone, PartialEq)]
pub struct Imported {
    pub message: String,
    /// The next occurrence from now.
    pub due_at: DateTime<Utc>,
    pub zone: Tz,
    pub rrule: Option<String>,
    /// DTSTART of a repeating event (COUNT and INTERVAL count from it).
    pub series_start: Option<DateTime<Utc>>,
    pub all_day: bool,
    /// The rest of a cut title, then the event's DESCRIPTION.
    pub description: Option<String>,
}

/// What an import found besides the reminders.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, ts_rs::TS)]
#[ts(rename = "IcsSkipped")]
pub struct Skipped {
    /// One-off events already over.
    pub past: usize,
    /// Events that could not be read, with why.
    pub unreadable: Vec<String>,
    /// Titles longer than a reminder's text may be, cut (with "…").
    pub shortened: usize,
}

/// The longest reminder text a calendar event brings in, in characters.
pub const MAX_TITLE_CHARS: usize = 500;
/// The most of an event's cut title and notes kept as a reminder's description.
pub(crate) const MAX_DESCRIPTION_CHARS: usize = 20_000;

#[derive(Debug, thiserror::Error)]
pub enum IcsError {
    #[error("this is not an iCalendar file ({0}); export one from your calendar app as .ics")]
    Parse(Flaw),
    #[error("this calendar nests its parts more than {MAX_NESTING} deep (calendars use 3 at most); it is damaged or made to harm, and nothing was imported")]
    TooDeep,
}

/// What is wrong with a file that is not a calendar, with its line, in either language.
#[derive(Debug, Clone, PartialEq)]
pub enum Flaw {
    NotALine {
        number: usize,
        shown: String,
    },
    ClosesAnother {
        part: String,
        number: usize,
        began: String,
        at: usize,
    },
    ClosesNothing {
        part: String,
        number: usize,
    },
    NeverEnded {
        part: String,
        at: usize,
    },
    NoCalendar,
    /// What the calendar library said (its own words, in English).
    Library(String),
}

impl Flaw {
    pub fn said(&self, lang: Lang) -> String {
        match (self, lang) {
            (Flaw::NotALine { number, shown }, Lang::En) => format!("line {number} is not a NAME:value line (\"{shown}\")"),
            (Flaw::NotALine { number, shown }, Lang::Es) => format!("la línea {number} no es de la forma NOMBRE:valor (\"{shown}\")"),
            (Flaw::ClosesAnother { part, number, began, at }, Lang::En) => format!("END:{part} on line {number} closes BEGIN:{began} from line {at}"),
            (Flaw::ClosesAnother { part, number, began, at }, Lang::Es) => {
                format!("el END:{part} de la línea {number} cierra el BEGIN:{began} de la línea {at}")
            }
            (Flaw::ClosesNothing { part, number }, Lang::En) => format!("END:{part} on line {number} closes nothing"),
            (Flaw::ClosesNothing { part, number }, Lang::Es) => format!("el END:{part} de la línea {number} no cierra nada"),
            (Flaw::NeverEnded { part, at }, Lang::En) => format!("BEGIN:{part} on line {at} is never ended; the file may be cut short"),
            (Flaw::NeverEnded { part, at }, Lang::Es) => format!("el BEGIN:{part} de la línea {at} no se cierra nunca; puede que el archivo esté cortado"),
            (Flaw::NoCalendar, Lang::En) => "it has no BEGIN:VCALENDAR line".into(),
            (Flaw::NoCalendar, Lang::Es) => "no tiene ninguna línea BEGIN:VCALENDAR".into(),
            (Flaw::Library(said), Lang::En) => said.clone(),
            (Flaw::Library(said), Lang::Es) => format!("el lector de calendarios dice: {said}"),
        }
    }
}

impl std::fmt::Display for Flaw {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.said(Lang::En))
    }
}

/// How deep BEGIN…END blocks may nest. RFC 5545 needs three (VCALENDAR, VEVENT,
/// VALARM); the parser recurses per level, so a file nesting thousands would exhaust
/// its stack.
const MAX_NESTING: usize = 8;

/// Reads the file's lines (folded ones joined) before the parser does, for what it
/// cannot say in words: a part nested deeper than `MAX_NESTING` (the parser recurses
/// per level, so thousands would exhaust its stack), a line that is not `NAME:value`,
/// a BEGIN never ended or an END that closes another part, each with its line number.
/// Any `.ics` Sidecar reads from outside goes through it first.
pub fn check_structure(text: &str) -> Result<(), IcsError> {
    let mut open: Vec<(String, usize)> = Vec::new();
    let mut saw_calendar = false;
    // Logical lines: a line starting with a space or a tab continues the one before.
    let mut logical: Vec<(usize, String)> = Vec::new();
    for (index, raw) in text.trim_start_matches('\u{feff}').split('\n').enumerate() {
        let raw = raw.trim_end_matches('\r');
        match logical.last_mut() {
            Some((_, line)) if raw.starts_with([' ', '\t']) => line.push_str(&raw[1..]),
            _ => logical.push((index + 1, raw.to_string())),
        }
    }
    for (number, line) in &logical {
        if line.trim().is_empty() {
            continue;
        }
        let Some((name, value)) = line.split_once(':') else {
            let shown: String = line.chars().take(40).collect();
            return Err(IcsError::Parse(Flaw::NotALine { number: *number, shown }));
        };
        let name = name.split(';').next().unwrap_or_default().trim().to_ascii_uppercase();
        let part = value.trim().to_ascii_uppercase();
        match name.as_str() {
            "BEGIN" => {
                saw_calendar |= part == "VCALENDAR";
                open.push((part, *number));
                if open.len() > MAX_NESTING {
                    return Err(IcsError::TooDeep);
                }
            }
            "END" => match open.pop() {
                Some((began, _)) if began == part => {}
                Some((began, at)) => return Err(IcsError::Parse(Flaw::ClosesAnother { part, number: *number, began, at })),
                None => return Err(IcsError::Parse(Flaw::ClosesNothing { part, number: *number })),
            },
            _ => {}
        }
    }
    if let Some((part, at)) = open.last() {
        return Err(IcsError::Parse(Flaw::NeverEnded { part: part.clone(), at: *at }));
    }
    if !saw_calendar {
        return Err(IcsError::Parse(Flaw::NoCalendar));
    }
    Ok(())
}

/// The reminders as a calendar: one VEVENT each, with a display VALARM at its time.
pub(crate) fn export(reminders: &[Reminder]) -> String {
    let mut calendar = Calendar::new();
    calendar.name("Sidecar reminders");
    for r in reminders {
        let zone = r.zone.0;
        let start = r.series_start.unwrap_or(r.due_at).with_timezone(&zone);
        let mut event = Event::new();
        event.uid(&format!("sidecar-reminder-{}@sidecar.local", r.id)).summary(&r.message).timestamp(r.created_at);
        if let Some(description) = &r.description {
            event.description(description);
        }
        if r.all_day {
            event.all_day(start.date_naive());
        } else {
            event.starts(CalendarDateTime::WithTimezone { date_time: start.naive_local(), tzid: zone.name().to_string() });
        }
        if let Some(rule) = &r.rrule {
            event.add_property("RRULE", rule.as_str());
        }
        event.alarm(Alarm::display(&r.message, -chrono::Duration::zero()));
        calendar.push(event.done());
    }
    calendar.done().to_string()
}

/// A reminder as a to-do (VTODO) for the user's own calendar, so it rings on their
/// phone too: due at its time in its zone (a whole day as a date), repeating as it
/// does, with a display alarm at the time. Its UID is the reminder's.
pub fn as_todo(r: &Reminder) -> String {
    let zone = r.zone.0;
    let due = r.series_start.unwrap_or(r.due_at).with_timezone(&zone);
    let at: DatePerhapsTime = match r.all_day {
        true => DatePerhapsTime::Date(due.date_naive()),
        false => CalendarDateTime::WithTimezone { date_time: due.naive_local(), tzid: zone.name().to_string() }.into(),
    };
    let mut todo = icalendar::Todo::new();
    todo.uid(&format!("sidecar-reminder-{}@sidecar.local", r.id)).summary(&r.message).timestamp(r.created_at);
    // A repeat needs a start to count from; the first time is both.
    todo.starts(at.clone()).due(at);
    if let Some(description) = &r.description {
        todo.description(description);
    }
    if let Some(rule) = &r.rrule {
        todo.add_property("RRULE", rule.as_str());
    }
    // The alarm's own DTSTAMP and UID too (the writer makes up "now" and a random one
    // for a part with none): the same reminder is the same text, so an unchanged one is
    // not written again.
    let alarm = Alarm::display(&r.message, (chrono::Duration::zero(), icalendar::Related::End))
        .timestamp(r.created_at)
        .uid(&format!("sidecar-reminder-{}-alarm@sidecar.local", r.id))
        .done();
    todo.alarm(alarm);
    let mut calendar = Calendar::new();
    calendar.push(todo.done());
    calendar.done().to_string()
}

/// Why a component has no start it can give: none written, or one written that the
/// calendar library could not read.
fn no_start(component: &icalendar::CalendarComponent) -> Why<'static> {
    let written = match component {
        icalendar::CalendarComponent::Event(e) => e.property_value("DTSTART"),
        icalendar::CalendarComponent::Todo(t) => t.property_value("DTSTART").or(t.property_value("DUE")),
        _ => None,
    };
    match written.map(str::trim).filter(|v| !v.is_empty()) {
        Some(value) => Why::UnreadableStart(value.chars().take(60).collect()),
        None => Why::NoStart,
    }
}

/// The events of `text` as reminders, read at `now`; all-day ones at `all_day` in
/// `zone`. Past one-off events are skipped (and counted); unreadable ones are said in `lang`.
pub fn import(text: &str, now: DateTime<Utc>, zone: Tz, all_day: NaiveTime, lang: Lang) -> Result<(Vec<Imported>, Skipped), IcsError> {
    check_structure(text)?;
    let calendar: Calendar = text.parse().map_err(|e: String| IcsError::Parse(Flaw::Library(e.lines().next().unwrap_or("").chars().take(120).collect())))?;
    let mut found = Vec::new();
    let mut skipped = Skipped::default();
    for component in &calendar.components {
        let (summary, notes, start, rrule) = match component {
            icalendar::CalendarComponent::Event(e) => (e.get_summary(), e.get_description(), e.get_start(), e.property_value("RRULE")),
            icalendar::CalendarComponent::Todo(t) => (t.get_summary(), t.get_description(), t.get_start().or(t.get_due()), t.property_value("RRULE")),
            _ => continue,
        };
        let title = summary.map(str::trim).filter(|s| !s.is_empty()).unwrap_or("(no title)");
        let (summary, description) = split_title(title, notes);
        skipped.shortened += usize::from(summary.len() < title.len());
        let Some(start) = start else {
            skipped.unreadable.push(unread(lang, &summary, &no_start(component)));
            continue;
        };
        let Some((first, event_zone, is_all_day)) = instant(&start, zone, all_day) else {
            skipped.unreadable.push(unread(lang, &summary, &Why::UnknownZone));
            continue;
        };
        let rrule = rrule.map(|r| r.trim().to_string()).filter(|r| !r.is_empty());
        // Read from its words before any walk: a rule that never occurs or occurs tens of
        // thousands of periods apart would be walked a second or more per reminder.
        match rrule.as_deref().map(|rule| (rule, sidecar_dates::reach(rule, first.with_timezone(&event_zone).time()))) {
            Some((rule, sidecar_dates::Reach::Never)) => {
                skipped.unreadable.push(unread(lang, &summary, &Why::NeverOccurs(rule)));
                continue;
            }
            Some((rule, sidecar_dates::Reach::Sparse { .. })) if !too_frequent_by_its_frequency(rule) => {
                skipped.unreadable.push(unread(lang, &summary, &Why::TooSparse(rule)));
                continue;
            }
            _ => {}
        }
        if let Some(rule) = rrule.as_deref().filter(|rule| too_frequent(rule, first, event_zone, now)) {
            skipped.unreadable.push(unread(lang, &summary, &Why::TooFrequent(rule)));
            continue;
        }
        let due = match &rrule {
            Some(rule) => match next_after(rule, first, event_zone, now - chrono::Duration::seconds(1)) {
                Some(next) => next,
                None if rule.parse::<rrule::RRule<rrule::Unvalidated>>().is_err() => {
                    skipped.unreadable.push(unread(lang, &summary, &Why::UnreadableRule(rule)));
                    continue;
                }
                None => {
                    skipped.past += 1;
                    continue;
                }
            },
            None if first <= now => {
                skipped.past += 1;
                continue;
            }
            None => first,
        };
        if due > now + chrono::Duration::days(36_525) {
            skipped.unreadable.push(unread(lang, &summary, &Why::TooFar));
            continue;
        }
        found.push(Imported {
            message: summary,
            due_at: due,
            zone: event_zone,
            series_start: rrule.as_ref().map(|_| first),
            rrule,
            all_day: is_all_day,
            description,
        });
    }
    Ok((found, skipped))
}

/// A title as a reminder's text (cut to `MAX_TITLE_CHARS`, marked "…") and its
/// description: the cut rest ("…" first), then the event's notes, within
/// `MAX_DESCRIPTION_CHARS`.
fn split_title(title: &str, notes: Option<&str>) -> (String, Option<String>) {
    let (text, rest) = match title.char_indices().nth(MAX_TITLE_CHARS) {
        Some((end, _)) => (format!("{}…", title[..end].trim_end()), Some(format!("…{}", title[end..].trim_start()))),
        None => (title.to_string(), None),
    };
    let notes = notes.map(str::trim).filter(|n| !n.is_empty());
    let description = match (rest, notes) {
        (Some(rest), Some(notes)) => Some(format!("{rest}\n\n{notes}")),
        (Some(rest), None) => Some(rest),
        (None, notes) => notes.map(str::to_string),
    };
    (text, description.map(|d| crate::words::within(&d, MAX_DESCRIPTION_CHARS)))
}

/// The instant a DTSTART names, its zone, and whether it is a date alone; `None` for a
/// zone Sidecar does not know. A local time the clocks skip (a DST gap) moves forward
/// by the gap, as RFC 5545 says; one that happens twice is the first.
fn instant(start: &DatePerhapsTime, zone: Tz, all_day: NaiveTime) -> Option<(DateTime<Utc>, Tz, bool)> {
    let local = |naive: &chrono::NaiveDateTime, zone: Tz| sidecar_dates::instant(naive.date(), naive.time(), zone, sidecar_domain::Lang::En).0;
    match start {
        DatePerhapsTime::Date(date) => Some((local(&date.and_time(all_day), zone), zone, true)),
        DatePerhapsTime::DateTime(CalendarDateTime::Utc(at)) => Some((*at, zone, false)),
        DatePerhapsTime::DateTime(CalendarDateTime::Floating(naive)) => Some((local(naive, zone), zone, false)),
        DatePerhapsTime::DateTime(CalendarDateTime::WithTimezone { date_time, tzid }) => {
            let event_zone: Tz = tzid.parse().ok()?;
            Some((local(date_time, event_zone), event_zone, false))
        }
    }
}

impl sidecar_domain::Worded for IcsError {
    fn spanish(&self) -> String {
        match self {
            IcsError::Parse(why) => format!("esto no es un archivo iCalendar ({}); expórtalo desde tu aplicación de calendario como .ics", why.said(Lang::Es)),
            IcsError::TooDeep => "este calendario anida sus partes a demasiada profundidad (los calendarios usan 3 como mucho); está dañado o hecho para dañar, y no se importó nada".into(),
        }
    }
}

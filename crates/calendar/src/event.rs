//! An iCalendar item's events as Sidecar uses them: a title, a start and an end as
//! instants (a named zone, UTC, floating in the user's zone, or a whole day), whether the
//! time is busy, and a repeat rule. Read with the `icalendar` crate.

use chrono::{DateTime, Duration, NaiveTime, Utc};
use chrono_tz::Tz;
use icalendar::{Calendar, CalendarComponent, CalendarDateTime, Component, DatePerhapsTime, EventLike};
use sidecar_dates::Reach;

use crate::error::CalendarError;

/// An event of an item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    pub uid: String,
    pub summary: String,
    pub start: DateTime<Utc>,
    pub end: DateTime<Utc>,
    pub all_day: bool,
    /// Shown as busy (TRANSP is not TRANSPARENT).
    pub busy: bool,
    /// RFC 5545 RRULE, without DTSTART; its times are kept in `zone`.
    pub rrule: Option<String>,
    pub zone: Tz,
    pub location: Option<String>,
}

/// A TZID that names no zone Sidecar knows.
struct UnknownZone(String);

/// An iCalendar time as an instant, with the zone it is kept in and whether it is a
/// whole day.
fn instant(at: &DatePerhapsTime, zone: Tz) -> Result<(DateTime<Utc>, Tz, bool), UnknownZone> {
    let local = |naive: chrono::NaiveDateTime, zone: Tz| sidecar_dates::instant(naive.date(), naive.time(), zone, sidecar_domain::Lang::En).0;
    match at {
        DatePerhapsTime::Date(date) => Ok((local(date.and_time(NaiveTime::MIN), zone), zone, true)),
        DatePerhapsTime::DateTime(CalendarDateTime::Utc(at)) => Ok((*at, zone, false)),
        DatePerhapsTime::DateTime(CalendarDateTime::Floating(naive)) => Ok((local(*naive, zone), zone, false)),
        DatePerhapsTime::DateTime(CalendarDateTime::WithTimezone { date_time, tzid }) => {
            let named = zone_named(tzid).ok_or_else(|| UnknownZone(tzid.clone()))?;
            Ok((local(*date_time, named), named, false))
        }
    }
}

/// The zone a TZID names: an IANA name, quoted or not, or one behind an app's own
/// prefix ("/mozilla.org/20070129_1/America/New_York", "custom_Pacific/Fiji",
/// "/freeassociation.sourceforge.net/Tzfile/Europe/Berlin", "posix/Europe/Vaduz"): the
/// longest tail that is a zone's name. `None` for a name of no zone (an app's own zone
/// definition is not read: a time in a guessed zone would be wrong, unread is said).
pub(crate) fn zone_named(tzid: &str) -> Option<Tz> {
    let tzid = tzid.trim().trim_matches('"').trim();
    let tails = std::iter::once(0).chain(tzid.char_indices().filter(|(_, c)| matches!(c, '/' | '_')).map(|(i, _)| i + 1));
    tails.filter_map(|at| tzid.get(at..)).find_map(|tail| tail.parse::<Tz>().ok())
}

/// Checks an item's text from outside before the parser reads it: the parser recurses per
/// nested BEGIN, so an event with hundreds of nested VALARMs from a server would overflow
/// the stack of whatever reads it (at every start, from the stored items).
pub(crate) fn check_structure(text: &str) -> Result<(), CalendarError> {
    sidecar_reminders::check_structure(text).map_err(|e| match e {
        sidecar_reminders::IcsError::Parse(why) => CalendarError::Unreadable(why.to_string()),
        too_deep => CalendarError::Unreadable(too_deep.to_string()),
    })
}

/// The events (VEVENTs) of an item; times with no zone are read in `zone`. An item with
/// no event (a to-do, a journal) has none. Its structure is checked first.
pub fn events_of(data: &str, zone: Tz) -> Result<Vec<Event>, CalendarError> {
    check_structure(data)?;
    let calendar: Calendar = data.parse().map_err(|e: String| CalendarError::Unreadable(e.lines().next().unwrap_or_default().chars().take(120).collect()))?;
    let mut events = Vec::new();
    for component in &calendar.components {
        let CalendarComponent::Event(event) = component else { continue };
        let Some(start) = event.get_start() else { continue };
        let (start, event_zone, all_day) = instant(&start, zone).map_err(|UnknownZone(tzid)| {
            CalendarError::Unreadable(format!(
                "the event {:?} is in a time zone Sidecar does not know ({tzid:?})",
                event.get_summary().unwrap_or_default().trim()
            ))
        })?;
        let end = event
            .get_end()
            .and_then(|end| instant(&end, event_zone).ok())
            .map(|(end, _, _)| end)
            .unwrap_or(start + if all_day { Duration::days(1) } else { Duration::zero() });
        let mut rrule = event.property_value("RRULE").map(str::trim).filter(|r| !r.is_empty()).map(str::to_string);
        let too_frequent = |rule: &str| {
            CalendarError::Unreadable(format!(
                "the event {:?} repeats more often than every {} minutes ({rule})",
                event.get_summary().unwrap_or_default().trim(),
                sidecar_dates::MIN_REPEAT_MINUTES
            ))
        };
        if let Some(rule) = rrule.as_deref().filter(|rule| sidecar_dates::too_frequent_by_its_frequency(rule)) {
            return Err(too_frequent(rule));
        }
        // A rule that never occurs (30 February every year) or whose occurrences are tens
        // of thousands of periods apart would be walked to the `rrule` crate's step limit
        // at every reading of every window; read from its words here, without a walk. One
        // that never occurs leaves the event its own start, its first occurrence whatever
        // the rule says.
        if let Some(rule) = rrule.as_deref() {
            match sidecar_dates::reach(rule, start.with_timezone(&event_zone).time()) {
                Reach::Walkable => {}
                Reach::Never => rrule = None,
                Reach::Sparse { periods } => {
                    return Err(CalendarError::Unreadable(format!(
                        "the event {:?} repeats so rarely for how often its rule counts ({rule}) that reading it would count {periods} periods between two occurrences",
                        event.get_summary().unwrap_or_default().trim()
                    )))
                }
            }
        }
        if let Some(rule) = rrule.as_deref().filter(|rule| sidecar_dates::too_frequent(rule, start, event_zone, start - Duration::seconds(1))) {
            return Err(too_frequent(rule));
        }
        events.push(Event {
            uid: event.get_uid().unwrap_or_default().to_string(),
            // Titles and places come from anyone who can send an invitation: one line, no
            // control or bidi characters, wherever they are shown or said.
            summary: Some(sidecar_domain::one_line(event.get_summary().unwrap_or_default())).filter(|s| !s.is_empty()).unwrap_or_else(|| "(no title)".into()),
            start,
            end: end.max(start),
            all_day,
            busy: !event.property_value("TRANSP").is_some_and(|t| t.eq_ignore_ascii_case("TRANSPARENT")),
            rrule,
            zone: event_zone,
            location: event.get_location().map(sidecar_domain::one_line).filter(|l| !l.is_empty()),
        });
    }
    Ok(events)
}

/// The most occurrences of one event read in one window: a week of an event every 15
/// minutes is 672.
pub const MAX_OCCURRENCES: u16 = 5_000;

impl Event {
    /// The times it takes place that overlap `[from, to)`: (start, end), oldest first, at
    /// most [`MAX_OCCURRENCES`]; the series is walked once for the window.
    pub fn occurrences(&self, from: DateTime<Utc>, to: DateTime<Utc>) -> Vec<(DateTime<Utc>, DateTime<Utc>)> {
        let length = self.end - self.start;
        let Some(rule) = &self.rrule else {
            return if self.start < to && self.end > from { vec![(self.start, self.end)] } else { Vec::new() };
        };
        // An occurrence that began before `from` may still be on at `from`.
        let starts = sidecar_dates::between(rule, self.start, self.zone, from - length, to, MAX_OCCURRENCES);
        // The event's own start is its first occurrence, whether or not the rule matches it.
        let first = (self.start < to && self.end > from).then_some(self.start);
        let mut found: Vec<(DateTime<Utc>, DateTime<Utc>)> =
            first.into_iter().chain(starts).filter(|s| *s >= self.start && *s + length > from).map(|s| (s, s + length)).collect();
        found.sort();
        found.dedup();
        found.truncate(usize::from(MAX_OCCURRENCES));
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    const ITEM: &str = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nBEGIN:VEVENT\r\nUID:standup@example.com\r\nDTSTAMP:20261101T000000Z\r\n\
DTSTART;TZID=Europe/Madrid:20261102T093000\r\nDTEND;TZID=Europe/Madrid:20261102T094500\r\nSUMMARY:Stand-up\r\nRRULE:FREQ=WEEKLY;BYDAY=MO,WE\r\n\
END:VEVENT\r\nBEGIN:VEVENT\r\nUID:holiday@example.com\r\nDTSTAMP:20261101T000000Z\r\nDTSTART;VALUE=DATE:20261208\r\nSUMMARY:Holiday\r\nTRANSP:TRANSPARENT\r\n\
END:VEVENT\r\nEND:VCALENDAR\r\n";

    #[test]
    fn zones_whole_days_transparency_and_repeats_are_read() {
        let events = events_of(ITEM, chrono_tz::Europe::Madrid).unwrap();
        let standup = &events[0];
        assert_eq!((standup.summary.as_str(), standup.busy, standup.all_day), ("Stand-up", true, false));
        assert_eq!(standup.start, Utc.with_ymd_and_hms(2026, 11, 2, 8, 30, 0).unwrap());
        let holiday = &events[1];
        assert!(holiday.all_day && !holiday.busy);
        assert_eq!(holiday.end - holiday.start, Duration::days(1));
        // The week of 30 November: Monday and Wednesday at 9:30 Madrid.
        let week = standup.occurrences(Utc.with_ymd_and_hms(2026, 11, 30, 0, 0, 0).unwrap(), Utc.with_ymd_and_hms(2026, 12, 7, 0, 0, 0).unwrap());
        assert_eq!(
            week.iter().map(|(s, _)| *s).collect::<Vec<_>>(),
            [Utc.with_ymd_and_hms(2026, 11, 30, 8, 30, 0).unwrap(), Utc.with_ymd_and_hms(2026, 12, 2, 8, 30, 0).unwrap()]
        );
        // Under way at 9:40: it overlaps a window that starts then.
        let on = standup.occurrences(Utc.with_ymd_and_hms(2026, 11, 30, 8, 40, 0).unwrap(), Utc.with_ymd_and_hms(2026, 11, 30, 9, 0, 0).unwrap());
        assert_eq!(on.len(), 1);
    }

    #[test]
    fn zones_behind_an_apps_prefix_are_found_and_made_up_ones_are_not() {
        assert_eq!(zone_named("/mozilla.org/20070129_1/America/New_York"), Some(chrono_tz::America::New_York));
        assert_eq!(zone_named("custom_Pacific/Fiji"), Some(chrono_tz::Pacific::Fiji));
        assert_eq!(zone_named("\"Europe/Madrid\""), Some(chrono_tz::Europe::Madrid));
        assert_eq!(zone_named("America/Argentina/Buenos_Aires"), Some(chrono_tz::America::Argentina::Buenos_Aires));
        assert_eq!(zone_named("/Europe/CUSTOM"), None);
        assert_eq!(zone_named("MyTimezone"), None);
    }

    #[test]
    fn a_broken_item_is_an_error_not_a_panic() {
        assert!(events_of("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART;TZID=Mars/Olympus:20261102T093000\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n", chrono_tz::UTC)
            .is_err());
        assert!(events_of("not a calendar", chrono_tz::UTC).is_err() || events_of("not a calendar", chrono_tz::UTC).unwrap().is_empty());
    }

    /// One event of `rule` starting at `start` (UTC).
    fn repeating(rule: &str, start: &str) -> String {
        format!("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:r\r\nDTSTART:{start}\r\nDTEND:{start}\r\nSUMMARY:R\r\nRRULE:{rule}\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")
    }

    #[test]
    fn a_rule_more_often_than_reminders_may_is_unreadable_and_old_series_are_read_at_once() {
        for rule in ["FREQ=SECONDLY", "FREQ=MINUTELY;BYSECOND=0", "FREQ=HOURLY;BYMINUTE=0,5,10,15"] {
            let said = events_of(&repeating(rule, "20000101T000000Z"), chrono_tz::UTC).unwrap_err().to_string();
            assert!(said.contains("more often than every 15 minutes"), "{said}");
        }
        // Every day since 1970: the week of 30 November 2026 has seven.
        let daily = &events_of(&repeating("FREQ=DAILY", "19700101T093000Z"), chrono_tz::UTC).unwrap()[0];
        let week = daily.occurrences(Utc.with_ymd_and_hms(2026, 11, 30, 0, 0, 0).unwrap(), Utc.with_ymd_and_hms(2026, 12, 7, 0, 0, 0).unwrap());
        assert_eq!(week.len(), 7);
        assert_eq!(week[0].0, Utc.with_ymd_and_hms(2026, 11, 30, 9, 30, 0).unwrap());
        // A 30 February every year never comes: found once, when the item is read, the
        // event keeps its own start only.
        let never = &events_of(&repeating("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30", "20000101T000000Z"), chrono_tz::UTC).unwrap()[0];
        assert_eq!(never.rrule, None);
        // Found by the random calendars: each walked the crate's 100,000 periods (a second
        // and more) at every reading. Read from their words now.
        let hourly = &events_of(&repeating("FREQ=HOURLY;BYYEARDAY=235;BYSETPOS=-23", "20000101T000000Z"), chrono_tz::UTC).unwrap()[0];
        assert_eq!(hourly.rrule, None);
        let sparse = events_of(&repeating("FREQ=HOURLY;BYMONTH=2;BYMONTHDAY=29;BYDAY=MO", "20000101T000000Z"), chrono_tz::UTC).unwrap_err().to_string();
        assert!(sparse.contains("repeats so rarely"), "{sparse}");
        assert!(never.occurrences(Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap(), Utc.with_ymd_and_hms(2027, 1, 1, 0, 0, 0).unwrap()).is_empty());
    }

    #[test]
    fn a_title_is_one_line_without_escapes_or_bidi_marks() {
        let item = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:t\r\nDTSTART:20261102T093000Z\r\nSUMMARY:Stand-up\\nIMPORTANT SYSTEM NOTICE\u{1b}[2J\u{202e}\r\nLOCATION:Room\u{7} 4\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n";
        let event = &events_of(item, chrono_tz::UTC).unwrap()[0];
        assert_eq!(event.summary, "Stand-up IMPORTANT SYSTEM NOTICE[2J");
        assert_eq!(event.location.as_deref(), Some("Room 4"));
    }

    #[test]
    fn an_item_nested_hundreds_deep_is_unreadable_not_a_stack_overflow() {
        let nested = format!(
            "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:deep\r\nDTSTART:20261102T093000Z\r\nSUMMARY:Deep\r\n{}{}END:VEVENT\r\nEND:VCALENDAR\r\n",
            "BEGIN:VALARM\r\n".repeat(300),
            "END:VALARM\r\n".repeat(300)
        );
        let said = events_of(&nested, chrono_tz::UTC).unwrap_err().to_string();
        assert!(said.contains("nests"), "{said}");
    }
}

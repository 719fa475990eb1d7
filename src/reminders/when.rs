//! "When" in words to an instant: deterministic code, no model. The model passes the
//! user's words to the reminder tools; this turns them into a time in the user's IANA
//! zone (kept) and UTC (stored), or says what is unclear and how to say it instead.
//!
//! Spanish and English: ISO 8601 / RFC 3339; "en 30 minutos" / "in 30 minutes"; "en 1
//! hora y 30 minutos"; "mañana a las 9" / "tomorrow at 9"; "hoy a las 15" / "today at
//! 3pm"; "pasado mañana a las 9" / "the day after tomorrow at 9"; "el lunes a las 10" /
//! "next Monday at 10:30"; and recurrence as an RRULE: "todos los lunes a las 9",
//! "every day at 8", "cada 2 horas".
//!
//! Rules from the seed: an hour with no day ("a las 3") is ambiguous; "el lunes" on a
//! Monday means the next one; today's hours 1–11 with no am/pm mean the afternoon
//! when the morning one has passed. A local time that does not exist (the hour skipped
//! when clocks go forward) moves forward by the gap; one that happens twice (clocks go
//! back) is the first. Both are said in `note`.

use chrono::{DateTime, Datelike, Duration, LocalResult, NaiveDate, NaiveDateTime, NaiveTime, TimeZone, Utc, Weekday};
use chrono_tz::Tz;
use regex::Regex;
use serde::Serialize;
use std::sync::LazyLock;

use crate::knowledge::words::fold;

/// How a reminder repeats (the subset of RFC 5545 people say out loud).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(tag = "freq", rename_all = "lowercase")]
pub enum Repeat {
    /// Every `interval` hours from the first time.
    Hourly { interval: u32 },
    /// Every day at `time`.
    Daily { time: NaiveTime },
    /// Every `weekday` at `time`.
    Weekly { weekday: Weekday, time: NaiveTime },
}

impl Repeat {
    /// The RFC 5545 form, as stored.
    pub fn rrule(&self) -> String {
        match self {
            Repeat::Hourly { interval } => format!("FREQ=HOURLY;INTERVAL={interval}"),
            Repeat::Daily { time } => format!("FREQ=DAILY;BYHOUR={};BYMINUTE={}", time.format("%-H"), time.format("%-M")),
            Repeat::Weekly { weekday, time } => format!(
                "FREQ=WEEKLY;BYDAY={};BYHOUR={};BYMINUTE={}",
                &weekday.to_string()[..2].to_uppercase(),
                time.format("%-H"),
                time.format("%-M")
            ),
        }
    }

    /// The first occurrence strictly after `after`, in `zone`.
    pub fn next_after(&self, after: DateTime<Utc>, zone: Tz) -> (DateTime<Utc>, Option<String>) {
        match *self {
            Repeat::Hourly { interval } => (after + Duration::hours(i64::from(interval.max(1))), None),
            Repeat::Daily { time } => {
                let local = after.with_timezone(&zone).date_naive();
                (0..=2)
                    .map(|d| resolve(local + Duration::days(d), time, zone))
                    .find(|(at, _)| *at > after)
                    .expect("one of the next three days is later")
            }
            Repeat::Weekly { weekday, time } => {
                let local = after.with_timezone(&zone).date_naive();
                (0..=8)
                    .map(|d| local + Duration::days(d))
                    .filter(|d| d.weekday() == weekday)
                    .map(|d| resolve(d, time, zone))
                    .find(|(at, _)| *at > after)
                    .expect("the weekday comes within nine days")
            }
        }
    }
}

/// A time the words named.
#[derive(Debug, Clone, PartialEq)]
pub struct When {
    pub at: DateTime<Utc>,
    pub zone: Tz,
    pub repeat: Option<Repeat>,
    /// Said when the local time had to be adjusted (a daylight-saving change).
    pub note: Option<String>,
}

impl When {
    pub fn local(&self) -> DateTime<Tz> {
        self.at.with_timezone(&self.zone)
    }
}

/// Words that could not be turned into a time, and how to say it instead.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, thiserror::Error)]
#[error("{error} {suggestion}")]
pub struct WhenError {
    pub error: String,
    pub suggestion: String,
}

fn fail(error: impl Into<String>, suggestion: impl Into<String>) -> WhenError {
    WhenError { error: error.into(), suggestion: suggestion.into() }
}

/// The instant of `date` at `time` in `zone`, with DST gaps and overlaps made explicit.
pub fn resolve(date: NaiveDate, time: NaiveTime, zone: Tz) -> (DateTime<Utc>, Option<String>) {
    let naive = NaiveDateTime::new(date, time);
    match zone.from_local_datetime(&naive) {
        LocalResult::Single(t) => (t.with_timezone(&Utc), None),
        LocalResult::Ambiguous(first, _) => (
            first.with_timezone(&Utc),
            Some(format!("{naive} happens twice in {zone} (clocks go back); the first one is used")),
        ),
        LocalResult::None => {
            // Clocks jumped forward over this time: read it with the offset in force
            // just before the jump, which lands as far past the gap as it was into it.
            let before = (1..=240)
                .map(|m| naive - Duration::minutes(m))
                .find_map(|n| zone.from_local_datetime(&n).earliest())
                .expect("no DST gap is longer than four hours");
            let offset = chrono::Offset::fix(before.offset()).local_minus_utc();
            let at = Utc.from_utc_datetime(&(naive - Duration::seconds(i64::from(offset))));
            let moved = at.with_timezone(&zone);
            (at, Some(format!("{naive} does not exist in {zone} (clocks go forward); moved to {}", moved.format("%H:%M"))))
        }
    }
}

const NUMBER: &str = r"(\d{1,3})";

static ISO: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^\d{4}-\d{2}-\d{2}[t ]\d{2}:\d{2}").unwrap());
static RELATIVE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"^(?:en|in|dentro de) {NUMBER} (minutos?|mins?|minutes?|horas?|hours?|hrs?|dias?|days?)(?: (?:y|and) {NUMBER} (minutos?|mins?|minutes?))?(?: (?:a las?|at) (.+))?$"
    ))
    .unwrap()
});
static DAY_AT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?:(?:el|este|the|on|this|next|el proximo|proximo|el siguiente) )?(hoy|today|manana|tomorrow|pasado manana|the day after tomorrow|day after tomorrow|lunes|martes|miercoles|jueves|viernes|sabado|domingo|monday|tuesday|wednesday|thursday|friday|saturday|sunday)(?: (?:que viene|next))?(?: (?:a las?|a la|at|,))? (.+)$").unwrap()
});
static EVERY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?:todos los|todas las|cada|every|each) (dias?|days?|lunes|martes|miercoles|jueves|viernes|sabados?|domingos?|mondays?|tuesdays?|wednesdays?|thursdays?|fridays?|saturdays?|sundays?)(?: (?:a las?|at))? (.+)$").unwrap()
});
static EVERY_HOURS: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(&format!(r"^(?:cada|every) (?:{NUMBER} )?(horas?|hours?)$")).unwrap());
static TIME: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?:a las?|a la|at )?\s*(\d{1,2})(?:[:h\.](\d{2}))?\s*(am|a\.m\.|pm|p\.m\.|hs|h|de la manana|de la tarde|de la noche|in the morning|in the afternoon|in the evening|at night)?$").unwrap()
});

fn weekday(word: &str) -> Option<Weekday> {
    let w = word.trim_end_matches('s');
    Some(match w {
        "lune" | "lunes" | "monday" => Weekday::Mon,
        "marte" | "martes" | "tuesday" => Weekday::Tue,
        "miercole" | "miercoles" | "wednesday" => Weekday::Wed,
        "jueve" | "jueves" | "thursday" => Weekday::Thu,
        "vierne" | "viernes" | "friday" => Weekday::Fri,
        "sabado" | "saturday" => Weekday::Sat,
        "domingo" | "sunday" => Weekday::Sun,
        _ => return None,
    })
}

/// An hour as said: "9", "9:30", "3pm", "3 de la tarde", "15 hs".
#[derive(Debug, Clone, Copy)]
struct SaidTime {
    time: NaiveTime,
    /// No am/pm and an hour from 1 to 11: could be either.
    bare_morning: bool,
}

fn said_time(text: &str) -> Option<SaidTime> {
    let caps = TIME.captures(text.trim())?;
    let mut hour: u32 = caps[1].parse().ok()?;
    let minute: u32 = caps.get(2).map_or(Some(0), |m| m.as_str().parse().ok())?;
    let marker = caps.get(3).map(|m| m.as_str()).unwrap_or("");
    let pm = matches!(marker, "pm" | "p.m." | "de la tarde" | "de la noche" | "in the afternoon" | "in the evening" | "at night");
    let am = matches!(marker, "am" | "a.m." | "de la manana" | "in the morning");
    if (am || pm) && !(1..=12).contains(&hour) {
        return None;
    }
    if pm && hour < 12 {
        hour += 12;
    }
    if am && hour == 12 {
        hour = 0;
    }
    let time = NaiveTime::from_hms_opt(hour, minute, 0)?;
    Some(SaidTime { time, bare_morning: !am && !pm && (1..=11).contains(&hour) })
}

fn no_time(day: &str) -> WhenError {
    fail(format!("\"{day}\" has no time."), format!("Say the time too, e.g. \"{day} at 10\" or \"{day} a las 10\"."))
}

/// Parses `text` said at `now` by someone in `zone`.
pub fn parse(text: &str, now: DateTime<Utc>, zone: Tz) -> Result<When, WhenError> {
    let raw = text.trim();
    if raw.is_empty() {
        return Err(fail("The time is empty.", "Say when, e.g. \"in 30 minutes\" or \"mañana a las 9\"."));
    }
    if let Some(when) = parse_iso(raw, zone)? {
        return future(when, now);
    }
    let text = fold(&raw.to_lowercase()).split_whitespace().collect::<Vec<_>>().join(" ");
    let text = text.trim_end_matches(['.', '!']).to_string();
    let local_today = now.with_timezone(&zone).date_naive();
    let single = |at: DateTime<Utc>, note| When { at, zone, repeat: None, note };

    if let Some(caps) = RELATIVE.captures(&text) {
        let n: i64 = caps[1].parse().map_err(|_| fail("That number is too large.", "Use a smaller one."))?;
        let unit = &caps[2];
        let extra: i64 = caps.get(3).map_or(0, |m| m.as_str().parse().unwrap_or(0));
        if unit.starts_with('d') {
            let Some(at) = caps.get(5) else { return Err(no_time(&format!("in {n} days"))) };
            let said = said_time(at.as_str()).ok_or_else(|| unclear(raw))?;
            let (at, note) = resolve(local_today + Duration::days(n), said.time, zone);
            return future(single(at, note), now);
        }
        let span = if unit.starts_with('h') { Duration::hours(n) } else { Duration::minutes(n) } + Duration::minutes(extra);
        if span <= Duration::zero() {
            return Err(fail("That is not in the future.", "Say e.g. \"in 5 minutes\"."));
        }
        return Ok(single(now + span, None));
    }

    if let Some(caps) = EVERY_HOURS.captures(&text) {
        let interval: u32 = caps.get(1).map_or(1, |m| m.as_str().parse().unwrap_or(1)).max(1);
        let repeat = Repeat::Hourly { interval };
        return Ok(When { at: repeat.next_after(now, zone).0, zone, repeat: Some(repeat), note: None });
    }

    if let Some(caps) = EVERY.captures(&text) {
        let said = said_time(&caps[2]).ok_or_else(|| unclear(raw))?;
        let repeat = match weekday(&caps[1]) {
            Some(weekday) => Repeat::Weekly { weekday, time: said.time },
            None => Repeat::Daily { time: said.time },
        };
        let (at, note) = repeat.next_after(now, zone);
        return Ok(When { at, zone, repeat: Some(repeat), note });
    }

    if let Some(caps) = DAY_AT.captures(&text) {
        let day = &caps[1];
        let said = said_time(&caps[2]).ok_or_else(|| unclear(raw))?;
        let date = match day {
            "hoy" | "today" => local_today,
            "manana" | "tomorrow" => local_today + Duration::days(1),
            "pasado manana" | "the day after tomorrow" | "day after tomorrow" => local_today + Duration::days(2),
            name => {
                let target = weekday(name).expect("the pattern lists weekdays only");
                // "el lunes" on a Monday is the next one, never today.
                (1..=7).map(|d| local_today + Duration::days(d)).find(|d| d.weekday() == target).expect("within a week")
            }
        };
        let (at, note) = resolve(date, said.time, zone);
        if date == local_today && at <= now && said.bare_morning {
            // "hoy a las 3" at 10:00 means 15:00.
            let (pm, note) = resolve(date, said.time + Duration::hours(12), zone);
            return future(single(pm, note), now);
        }
        return future(single(at, note), now);
    }

    Err(explain(&text, raw))
}

fn parse_iso(raw: &str, zone: Tz) -> Result<Option<When>, WhenError> {
    if !ISO.is_match(&raw.to_lowercase()) {
        return Ok(None);
    }
    if let Ok(at) = DateTime::parse_from_rfc3339(raw) {
        return Ok(Some(When { at: at.with_timezone(&Utc), zone, repeat: None, note: None }));
    }
    for format in ["%Y-%m-%dT%H:%M:%S", "%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M"] {
        if let Ok(naive) = NaiveDateTime::parse_from_str(raw, format) {
            let (at, note) = resolve(naive.date(), naive.time(), zone);
            return Ok(Some(When { at, zone, repeat: None, note }));
        }
    }
    Err(fail(format!("\"{raw}\" looks like a date but is not a valid one."), "Use e.g. 2026-12-24T18:00."))
}

fn future(when: When, now: DateTime<Utc>) -> Result<When, WhenError> {
    if when.at <= now {
        return Err(fail(
            format!("{} has already passed.", when.local().format("%Y-%m-%d %H:%M")),
            "Say a later time, e.g. \"mañana a las 9\" or \"tomorrow at 9\".",
        ));
    }
    Ok(when)
}

fn unclear(raw: &str) -> WhenError {
    fail(format!("I could not read the time in \"{raw}\"."), "Say it like \"at 9\", \"at 9:30\", \"at 3pm\" or \"a las 15\".")
}

/// The seed's unsupported forms, each with its own advice.
fn explain(text: &str, raw: &str) -> WhenError {
    if TIME.is_match(text) {
        return fail(
            format!("\"{raw}\" has no day, and the hour may be morning or afternoon."),
            "Say the day: \"hoy a las 15\", \"mañana a las 3\", or \"today at 3pm\".",
        );
    }
    let vague = ["en un rato", "un rato", "luego", "mas tarde", "later", "in a while", "soon", "pronto", "en un momento"];
    if vague.iter().any(|v| text == *v) {
        return fail(format!("\"{raw}\" is too vague."), "Say how long: \"en 30 minutos\" or \"in 1 hour\".");
    }
    let week = ["la semana que viene", "la proxima semana", "next week", "el mes que viene", "next month"];
    if week.iter().any(|v| text == *v) {
        return fail(format!("\"{raw}\" has no day or time."), "Say the day and time: \"el lunes a las 10\" or \"Monday at 10\".");
    }
    let day_only = Regex::new(r"^(?:el |next |this |on |el proximo |proximo )?(hoy|today|manana|tomorrow|pasado manana|the day after tomorrow|lunes|martes|miercoles|jueves|viernes|sabado|domingo|monday|tuesday|wednesday|thursday|friday|saturday|sunday)(?: que viene)?$").unwrap();
    if let Some(caps) = day_only.captures(text) {
        return no_time(&caps[1]);
    }
    unclear(raw)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono_tz::{America::Argentina::Buenos_Aires as BA, America::New_York, Europe::Madrid};

    /// Wednesday 2026-11-18 10:00 in Buenos Aires (UTC−3, no DST).
    fn now() -> DateTime<Utc> {
        BA.with_ymd_and_hms(2026, 11, 18, 10, 0, 0).unwrap().with_timezone(&Utc)
    }

    fn local(text: &str) -> String {
        match parse(text, now(), BA) {
            Ok(w) => w.local().format("%a %Y-%m-%d %H:%M").to_string(),
            Err(e) => panic!("{text}: {e}"),
        }
    }

    fn error(text: &str) -> WhenError {
        parse(text, now(), BA).expect_err(text)
    }

    #[test]
    fn the_seed_table_in_spanish() {
        assert_eq!(local("2026-12-01T15:00"), "Tue 2026-12-01 15:00");
        assert_eq!(local("en 30 minutos"), "Wed 2026-11-18 10:30");
        assert_eq!(local("en 1 minuto"), "Wed 2026-11-18 10:01");
        assert_eq!(local("en 2 horas"), "Wed 2026-11-18 12:00");
        assert_eq!(local("en 1 hora y 30 minutos"), "Wed 2026-11-18 11:30");
        assert_eq!(local("mañana a las 9"), "Thu 2026-11-19 09:00");
        assert_eq!(local("Mañana a las 9:30"), "Thu 2026-11-19 09:30");
        assert_eq!(local("hoy a las 15"), "Wed 2026-11-18 15:00");
        assert_eq!(local("el lunes a las 10"), "Mon 2026-11-23 10:00");
        assert_eq!(local("pasado mañana a las 9"), "Fri 2026-11-20 09:00");
        assert_eq!(local("mañana a las 3 de la tarde"), "Thu 2026-11-19 15:00");
        assert_eq!(local("en 2 días a las 8"), "Fri 2026-11-20 08:00");
    }

    #[test]
    fn the_english_set() {
        assert_eq!(local("in 30 minutes"), "Wed 2026-11-18 10:30");
        assert_eq!(local("in 1 hour and 30 minutes"), "Wed 2026-11-18 11:30");
        assert_eq!(local("tomorrow at 9"), "Thu 2026-11-19 09:00");
        assert_eq!(local("next Monday at 10:30"), "Mon 2026-11-23 10:30");
        assert_eq!(local("today at 3pm"), "Wed 2026-11-18 15:00");
        assert_eq!(local("the day after tomorrow at 9"), "Fri 2026-11-20 09:00");
        assert_eq!(local("friday at 7:15 pm"), "Fri 2026-11-20 19:15");
        assert_eq!(local("tomorrow at 12am"), "Thu 2026-11-19 00:00");
    }

    #[test]
    fn disambiguation_rules() {
        // "el miércoles" on a Wednesday is next week's.
        assert_eq!(local("el miércoles a las 9"), "Wed 2026-11-25 09:00");
        // Today's 9 has passed at 10:00, so "hoy a las 9" is 21:00; 11 is still ahead.
        assert_eq!(local("hoy a las 9"), "Wed 2026-11-18 21:00");
        assert_eq!(local("hoy a las 11"), "Wed 2026-11-18 11:00");
        // Late at night, "mañana" is simply the next day.
        let late = BA.with_ymd_and_hms(2026, 11, 18, 23, 0, 0).unwrap().with_timezone(&Utc);
        let w = parse("mañana a las 9", late, BA).unwrap();
        assert_eq!(w.local().format("%Y-%m-%d %H:%M").to_string(), "2026-11-19 09:00");
        assert_eq!(w.at.to_rfc3339(), "2026-11-19T12:00:00+00:00", "stored in UTC");
    }

    #[test]
    fn unsupported_and_ambiguous_forms_say_what_to_do() {
        assert!(error("a las 3").suggestion.contains("mañana a las 3"));
        assert!(error("en un rato").suggestion.contains("en 30 minutos"));
        assert!(error("la semana que viene").suggestion.contains("el lunes a las 10"));
        assert!(error("el próximo martes").error.contains("has no time"));
        assert!(error("pasado mañana").error.contains("has no time"));
        assert!(error("next tuesday").suggestion.contains("tuesday at 10"));
        assert!(error("hoy a las 8am").error.contains("already passed"));
        assert!(error("mañana a las 25").error.contains("could not read"));
        assert!(error("2026-13-45T10:00").error.contains("not a valid one"));
        assert!(error("cuando puedas").error.contains("could not read"));
    }

    #[test]
    fn rfc3339_with_an_offset_is_taken_as_given() {
        let w = parse("2026-12-24T18:00:00+01:00", now(), BA).unwrap();
        assert_eq!(w.at.to_rfc3339(), "2026-12-24T17:00:00+00:00");
        assert_eq!(w.local().format("%H:%M").to_string(), "14:00");
    }

    #[test]
    fn recurrence_becomes_an_rrule_with_its_next_occurrence() {
        let w = parse("todos los lunes a las 9", now(), BA).unwrap();
        assert_eq!(w.repeat.unwrap().rrule(), "FREQ=WEEKLY;BYDAY=MO;BYHOUR=9;BYMINUTE=0");
        assert_eq!(w.local().format("%a %Y-%m-%d %H:%M").to_string(), "Mon 2026-11-23 09:00");
        let w = parse("every day at 8", now(), BA).unwrap();
        assert_eq!(w.repeat.unwrap().rrule(), "FREQ=DAILY;BYHOUR=8;BYMINUTE=0");
        assert_eq!(w.local().format("%Y-%m-%d %H:%M").to_string(), "2026-11-19 08:00", "today's 8:00 has passed");
        let w = parse("cada 2 horas", now(), BA).unwrap();
        assert_eq!(w.repeat.unwrap().rrule(), "FREQ=HOURLY;INTERVAL=2");
        assert_eq!(w.local().format("%H:%M").to_string(), "12:00");
        // Expansion: the next five Mondays.
        let weekly = Repeat::Weekly { weekday: Weekday::Mon, time: NaiveTime::from_hms_opt(9, 0, 0).unwrap() };
        let mut at = now();
        let mut seen = Vec::new();
        for _ in 0..5 {
            at = weekly.next_after(at, BA).0;
            seen.push(at.with_timezone(&BA).format("%m-%d %H:%M").to_string());
        }
        assert_eq!(seen, ["11-23 09:00", "11-30 09:00", "12-07 09:00", "12-14 09:00", "12-21 09:00"]);
    }

    #[test]
    fn dst_gaps_and_overlaps_in_two_zones() {
        // Madrid skips 02:00–03:00 on 2027-03-28; 02:30 does not exist.
        let before = Madrid.with_ymd_and_hms(2027, 3, 27, 12, 0, 0).unwrap().with_timezone(&Utc);
        let w = parse("mañana a las 2:30", before, Madrid).unwrap();
        assert_eq!(w.local().format("%H:%M %Z").to_string(), "03:30 CEST");
        assert!(w.note.as_deref().unwrap().contains("does not exist"));
        // Madrid repeats 02:00–03:00 on 2026-10-25: 02:30 is the first (CEST) one.
        let before = Madrid.with_ymd_and_hms(2026, 10, 24, 12, 0, 0).unwrap().with_timezone(&Utc);
        let w = parse("tomorrow at 2:30", before, Madrid).unwrap();
        assert_eq!(w.at.to_rfc3339(), "2026-10-25T00:30:00+00:00");
        assert!(w.note.as_deref().unwrap().contains("happens twice"));
        // New York skips 02:00–03:00 on 2027-03-14.
        let before = New_York.with_ymd_and_hms(2027, 3, 13, 12, 0, 0).unwrap().with_timezone(&Utc);
        let w = parse("tomorrow at 2:15am", before, New_York).unwrap();
        assert_eq!(w.local().format("%H:%M %Z").to_string(), "03:15 EDT");
        // A daily 02:30 across the gap: that day's occurrence moves, the next is normal.
        let daily = Repeat::Daily { time: NaiveTime::from_hms_opt(2, 30, 0).unwrap() };
        let first = daily.next_after(Madrid.with_ymd_and_hms(2027, 3, 27, 12, 0, 0).unwrap().with_timezone(&Utc), Madrid);
        assert_eq!(first.0.with_timezone(&Madrid).format("%d %H:%M").to_string(), "28 03:30");
        let second = daily.next_after(first.0, Madrid);
        assert_eq!(second.0.with_timezone(&Madrid).format("%d %H:%M").to_string(), "29 02:30");
    }
}

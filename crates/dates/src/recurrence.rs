//! Repeats as RFC 5545 RRULEs, with occurrences computed by the `rrule` crate in the
//! user's IANA zone (DST included: a time skipped by the clocks moves forward by the
//! gap, one that happens twice is the first). A series starts at its first
//! occurrence, so COUNT counts from there.

use chrono::{DateTime, Duration, NaiveTime, TimeZone, Timelike, Utc};
use chrono_tz::Tz;
use rrule::{RRule, RRuleSet, Unvalidated};

use super::parts::Repeat;
use super::resolve::{bounded, day_date, Context, Parts};
use super::Reading;
use crate::words::DateErrorKind;

/// The RRULE of a repeat, without DTSTART (the series start is stored beside it).
fn rule_text(repeat: &Repeat) -> String {
    let interval = |n: u32| if n > 1 { format!(";INTERVAL={n}") } else { String::new() };
    match repeat {
        Repeat::Minutes(n) => format!("FREQ=MINUTELY{}", interval(*n)),
        Repeat::Hours(n) => format!("FREQ=HOURLY{}", interval(*n)),
        Repeat::Days(n) => format!("FREQ=DAILY{}", interval(*n)),
        Repeat::Weeks { interval: n, days } => {
            let days: Vec<String> = days.iter().map(|d| d.to_string()[..2].to_uppercase()).collect();
            let by = if days.is_empty() { String::new() } else { format!(";BYDAY={}", days.join(",")) };
            format!("FREQ=WEEKLY{}{by}", interval(*n))
        }
        Repeat::MonthDay { interval: n, day } => {
            let by = if *day == 0 { String::new() } else { format!(";BYMONTHDAY={day}") };
            format!("FREQ=MONTHLY{}{by}", interval(*n))
        }
        Repeat::MonthPosition { position, weekday } => format!("FREQ=MONTHLY;BYDAY={position}{}", &weekday.to_string()[..2].to_uppercase()),
        Repeat::Yearly { interval: n, month: 0, .. } => format!("FREQ=YEARLY{}", interval(*n)),
        Repeat::Yearly { interval: n, month, day } => format!("FREQ=YEARLY{};BYMONTH={month};BYMONTHDAY={day}", interval(*n)),
    }
}

/// The series of `rrule` starting at `start`, in `zone`.
fn series(rrule: &str, start: DateTime<Utc>, zone: Tz) -> Option<RRuleSet> {
    let rule: RRule<Unvalidated> = rrule.parse().ok()?;
    rule.build(start.with_timezone(&rrule::Tz::Tz(zone))).ok()
}

/// The first occurrence of a series strictly after `after`; `None` when it has ended.
pub fn next_after(rrule: &str, start: DateTime<Utc>, zone: Tz, after: DateTime<Utc>) -> Option<DateTime<Utc>> {
    upcoming(rrule, start, zone, after, 1).into_iter().next()
}

/// Up to `n` occurrences strictly after `after`.
pub fn upcoming(rrule: &str, start: DateTime<Utc>, zone: Tz, after: DateTime<Utc>, n: u16) -> Vec<DateTime<Utc>> {
    let start = rebased(rrule, start, after);
    let Some(set) = series(rrule, start, zone) else { return Vec::new() };
    // `after` is inclusive in the crate; ask from one second later.
    let from = (after + Duration::seconds(1)).with_timezone(&rrule::Tz::Tz(zone));
    set.after(from).all(n).dates.into_iter().map(|d| d.with_timezone(&Utc)).filter(|d| *d > after).collect()
}

/// Whether a rule's frequency alone repeats more often than a reminder may: SECONDLY, or
/// MINUTELY under the floor. Read from its words, without a walk.
pub fn too_frequent_by_its_frequency(rule: &str) -> bool {
    match rule_field(rule, "FREQ").as_deref() {
        Some("SECONDLY") => true,
        Some("MINUTELY") => interval_of(rule) < crate::words::MIN_REPEAT_MINUTES,
        _ => false,
    }
}

/// Whether a rule repeats more often than a reminder may (every
/// [`MIN_REPEAT_MINUTES`](crate::words::MIN_REPEAT_MINUTES)): by its frequency alone
/// (SECONDLY, MINUTELY under the floor), before any occurrence is computed, else by the
/// gaps between its next occurrences after `after` (an HOURLY rule with many BYMINUTE
/// values). Reminders imported and calendars read refuse such a rule alike.
pub fn too_frequent(rule: &str, start: DateTime<Utc>, zone: Tz, after: DateTime<Utc>) -> bool {
    let floor = crate::words::MIN_REPEAT_MINUTES;
    let field = |name: &str| rule_field(rule, name);
    if too_frequent_by_its_frequency(rule) {
        return true;
    }
    match field("FREQ").as_deref() {
        Some("MINUTELY" | "HOURLY") => {}
        // Daily and longer rules can only be too frequent through BYHOUR/BYMINUTE lists.
        _ if field("BYHOUR").is_none() && field("BYMINUTE").is_none() && field("BYSECOND").is_none() => return false,
        _ => {}
    }
    let next = upcoming(rule, start, zone, after, 4);
    next.windows(2).any(|pair| pair[1] - pair[0] < Duration::minutes(i64::from(floor)))
}

/// The most occurrences one reading of a window walks through, counted from the
/// series' (moved) start: a rule the moves do not help (every minute at second 0 since
/// 2000) ends its walk here instead of spinning a core for minutes.
const MAX_STEPS: usize = 200_000;

/// The starts of a series in `[from, to)`, at most `cap`, in one walk of the series: a
/// calendar's window is read at once, not one occurrence per walk from the start. A
/// series starts its walk from its last period before `from` where its rule allows
/// (twenty thousand daily events since 1970 are read in a moment), and the walk ends
/// after [`MAX_STEPS`].
pub fn between(rrule: &str, start: DateTime<Utc>, zone: Tz, from: DateTime<Utc>, to: DateTime<Utc>, cap: u16) -> Vec<DateTime<Utc>> {
    let start = rebased(rrule, rebased_by_days(rrule, start, zone, from), from);
    let Some(set) = series(rrule, start, zone) else { return Vec::new() };
    let mut found = Vec::new();
    for date in set.into_iter().take(MAX_STEPS) {
        let date = date.with_timezone(&Utc);
        if date >= to || found.len() >= usize::from(cap) {
            break;
        }
        if date >= from {
            found.push(date);
        }
    }
    found
}

/// A daily or weekly series' start moved up by whole periods (INTERVAL days or weeks, in
/// the series' zone, so the hour stays) to the last one before `after`. Its BY-lists
/// filter by the calendar, the same for every period; COUNT counts from the start, so a
/// series with one keeps it. A moved start on an hour the clocks skip moves one period
/// further back.
fn rebased_by_days(rrule: &str, start: DateTime<Utc>, zone: Tz, after: DateTime<Utc>) -> DateTime<Utc> {
    let days: i64 = match rule_field(rrule, "FREQ").as_deref() {
        Some("DAILY") => 1,
        Some("WEEKLY") => 7,
        _ => return start,
    };
    if after <= start || rule_field(rrule, "COUNT").is_some() {
        return start;
    }
    let period = days * i64::from(interval_of(rrule));
    let local = start.with_timezone(&zone).naive_local();
    let mut periods = (after - start).num_days() / period - 1;
    while periods > 0 {
        let moved = local + Duration::days(periods * period);
        if let Some(at) = zone.from_local_datetime(&moved).single() {
            return at.with_timezone(&Utc);
        }
        periods -= 1;
    }
    start
}

/// A plain secondly, minutely or hourly series' start moved up to the last occurrence before
/// `after`. The `rrule` crate walks from the start and gives up after 100,000 steps:
/// every 15 minutes from three years ago would otherwise look ended, and every series
/// would slow down as it ages. A series with COUNT (counted from its start) or BY-lists
/// keeps its start; daily and longer ones take few steps anyway.
fn rebased(rrule: &str, start: DateTime<Utc>, after: DateTime<Utc>) -> DateTime<Utc> {
    let unit: i64 = match rule_field(rrule, "FREQ").as_deref() {
        Some("SECONDLY") => 1,
        Some("MINUTELY") => 60,
        Some("HOURLY") => 3600,
        _ => return start,
    };
    let with_by_list = rrule.split(';').any(|part| part.trim().to_ascii_uppercase().starts_with("BY"));
    if after <= start || with_by_list || rule_field(rrule, "COUNT").is_some() {
        return start;
    }
    let step = unit.saturating_mul(interval_of(rrule).into());
    let steps = (after - start).num_seconds() / step;
    start + Duration::seconds(steps.saturating_mul(step))
}

/// The value of `name` in an RRULE from anywhere (any case, spaces around), uppercased.
pub(crate) fn rule_field(rrule: &str, name: &str) -> Option<String> {
    rrule
        .split(';')
        .find_map(|part| part.split_once('=').filter(|(key, _)| key.trim().eq_ignore_ascii_case(name)).map(|(_, value)| value.trim().to_ascii_uppercase()))
}

/// An RRULE's INTERVAL (1 when unsaid or unreadable).
pub(crate) fn interval_of(rrule: &str) -> u32 {
    rule_field(rrule, "INTERVAL").and_then(|v| v.parse().ok()).filter(|n| *n > 0).unwrap_or(1)
}

/// The first occurrence of what `parts` say, as a reading with its rule.
pub(crate) fn first(parts: &Parts, cx: &Context) -> Result<Reading, DateErrorKind> {
    let repeat = parts.repeat.as_ref().ok_or(DateErrorKind::NoDate)?;
    if parts.offset.is_some() {
        return Err(DateErrorKind::TwoDates);
    }
    if matches!(repeat, Repeat::Minutes(n) if *n < crate::words::MIN_REPEAT_MINUTES) {
        return Err(DateErrorKind::TooFrequent);
    }
    let mut rule = rule_text(repeat);
    let seed = match repeat {
        Repeat::Minutes(n) | Repeat::Hours(n) => {
            // From now: the first one an interval away, on the minute.
            let step = if matches!(repeat, Repeat::Minutes(_)) { Duration::minutes(i64::from(*n)) } else { Duration::hours(i64::from(*n)) };
            let at = cx.now + step;
            at.with_second(0).and_then(|t| t.with_nanosecond(0)).unwrap_or(at)
        }
        _ => {
            let time = match (&parts.hour, parts.part) {
                (Some(hour), part) => {
                    let h = hour.hour + if hour.pm == Some(true) && hour.hour < 12 { 12 } else { 0 };
                    let h = match (hour.pm, hour.part.or(part)) {
                        (None, Some(p)) if !hour.settled && h < 12 && p.default_hour() >= 12 => h + 12,
                        _ => h,
                    };
                    let h = if hour.pm == Some(false) && h == 12 { 0 } else { h };
                    NaiveTime::from_hms_opt(h % 24, hour.minute, 0).ok_or(DateErrorKind::NotUnderstood)?
                }
                (None, Some(part)) => NaiveTime::from_hms_opt(part.default_hour(), 0, 0).unwrap_or(cx.all_day),
                (None, None) => cx.all_day,
            };
            let date = match parts.day {
                Some(day) => day_date(day, cx.today())?,
                // The soonest the words allow: today if the hour is still ahead, else
                // tomorrow ("every other day at 7" said at 10 starts tomorrow).
                None if cx.instant(cx.today(), time).0 > cx.now => cx.today(),
                None => cx.today() + Duration::days(1),
            };
            cx.instant(date, time).0
        }
    };
    // A start that does not match the rule is not an occurrence (BYDAY=MO from a
    // Wednesday starts on Monday).
    let first = next_after(&rule, seed, cx.zone, cx.now).ok_or(DateErrorKind::InvalidDate)?;
    if let Some(count) = parts.count {
        rule += &format!(";COUNT={}", count.max(1));
    }
    if let Some(until) = parts.until {
        let end_day = day_date(until, cx.today())?;
        let end = cx.zone.from_local_datetime(&end_day.and_hms_opt(23, 59, 59).expect("a valid time")).earliest().ok_or(DateErrorKind::InvalidDate)?;
        if end.with_timezone(&Utc) < first {
            return Err(DateErrorKind::Past);
        }
        rule += &format!(";UNTIL={}", end.with_timezone(&Utc).format("%Y%m%dT%H%M%SZ"));
    }
    let note = cx.instant(first.with_timezone(&cx.zone).date_naive(), first.with_timezone(&cx.zone).time()).1;
    bounded(
        Reading {
            at: first,
            zone: cx.zone,
            rrule: Some(rule),
            all_day: parts.hour.is_none() && parts.part.is_none() && !matches!(repeat, Repeat::Minutes(_) | Repeat::Hours(_)),
            note,
        },
        cx,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The starts in `[from, to)` by a walk from the series' own start.
    fn walked(rule: &str, start: DateTime<Utc>, zone: Tz, from: DateTime<Utc>, to: DateTime<Utc>) -> Vec<DateTime<Utc>> {
        let tz = rrule::Tz::Tz(zone);
        let set = series(rule, start, zone).unwrap();
        set.after(from.with_timezone(&tz))
            .before(to.with_timezone(&tz))
            .all(5_000)
            .dates
            .into_iter()
            .map(|d| d.with_timezone(&Utc))
            .filter(|d| *d < to)
            .collect()
    }

    #[test]
    fn a_window_read_from_a_moved_start_is_the_window_walked_from_the_first() {
        let zone = chrono_tz::Europe::Madrid;
        // The clocks go forward on 29 March 2026 at 02:00 and back on 25 October.
        let windows = [(Utc.with_ymd_and_hms(2026, 3, 20, 0, 0, 0).unwrap(), 20), (Utc.with_ymd_and_hms(2026, 10, 20, 0, 0, 0).unwrap(), 14)];
        for start in [Utc.with_ymd_and_hms(2001, 6, 4, 0, 30, 0).unwrap(), Utc.with_ymd_and_hms(2009, 1, 7, 8, 15, 0).unwrap()] {
            for rule in ["FREQ=DAILY", "FREQ=DAILY;INTERVAL=3", "FREQ=WEEKLY;BYDAY=MO,WE", "FREQ=WEEKLY;INTERVAL=2;BYDAY=FR", "FREQ=DAILY;BYHOUR=9,17"] {
                for (from, days) in windows {
                    let to = from + Duration::days(days);
                    let walked = walked(rule, start, zone, from, to);
                    assert!(!walked.is_empty(), "{rule}");
                    assert_eq!(between(rule, start, zone, from, to, 5_000), walked, "{rule} from {start}");
                }
            }
        }
    }

    #[test]
    fn a_rule_that_never_occurs_or_repeats_by_the_second_ends_its_walk() {
        let zone = chrono_tz::UTC;
        let start = Utc.with_ymd_and_hms(2000, 1, 1, 0, 0, 0).unwrap();
        let (from, to) = (Utc.with_ymd_and_hms(2026, 12, 1, 0, 0, 0).unwrap(), Utc.with_ymd_and_hms(2026, 12, 8, 0, 0, 0).unwrap());
        assert!(between("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30", start, zone, from, to, 5_000).is_empty());
        assert!(between("FREQ=SECONDLY", start, zone, from, to, 5_000).len() <= 5_000);
        assert!(too_frequent("FREQ=SECONDLY", start, zone, start));
        assert!(too_frequent("FREQ=MINUTELY;BYSECOND=0", start, zone, start));
        assert!(too_frequent("FREQ=HOURLY;BYMINUTE=0,5,10", start, zone, start));
        assert!(!too_frequent("FREQ=MINUTELY;INTERVAL=15", start, zone, start));
        assert!(!too_frequent("FREQ=DAILY", start, zone, start));
    }
}

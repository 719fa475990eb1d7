//! Repeats as RFC 5545 RRULEs, with occurrences computed by the `rrule` crate in the
//! user's IANA zone (DST included: a time skipped by the clocks moves forward by the
//! gap, one that happens twice is the first). A series starts at its first
//! occurrence, so COUNT counts from there.

use chrono::{DateTime, Duration, NaiveTime, TimeZone, Timelike, Utc};
use chrono_tz::Tz;
use rrule::{RRule, RRuleSet, Unvalidated};

use super::resolve::{bounded, day_date, Context, Parts};
use super::said::Repeat;
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

/// A plain minutely or hourly series' start moved up to the last occurrence before
/// `after`. The `rrule` crate walks from the start and gives up after 100,000 steps:
/// every 15 minutes from three years ago would otherwise look ended, and every series
/// would slow down as it ages. A series with COUNT (counted from its start) or BY-lists
/// keeps its start; daily and longer ones take few steps anyway.
fn rebased(rrule: &str, start: DateTime<Utc>, after: DateTime<Utc>) -> DateTime<Utc> {
    let unit: i64 = match rule_field(rrule, "FREQ").as_deref() {
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
pub fn rule_field(rrule: &str, name: &str) -> Option<String> {
    rrule
        .split(';')
        .find_map(|part| part.split_once('=').filter(|(key, _)| key.trim().eq_ignore_ascii_case(name)).map(|(_, value)| value.trim().to_ascii_uppercase()))
}

/// An RRULE's INTERVAL (1 when unsaid or unreadable).
pub fn interval_of(rrule: &str) -> u32 {
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

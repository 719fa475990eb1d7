//! Whether a repeat rule can be walked at all, read from its words before any walk. The
//! `rrule` crate walks a rule period by period and checks its end (UNTIL) only on the
//! dates it finds: a rule that never matches ("every hour of day 235 of the year, the
//! 23rd-from-last of each hour", "every day at 3 on a 24-hour grid that starts at 5")
//! walks its limit of 100,000 periods, a second or more at every reading, and a feed can
//! hold thousands. Found here in microseconds:
//!
//! - a BYSETPOS beyond every period's set (a set of one has no 219th);
//! - times of day the rule's own grid never reaches (HOURLY;INTERVAL=24 from 05:00 with
//!   BYHOUR=3);
//! - days no date has (day 235 of the year that is also the 10th-from-last of its
//!   month), over 28 years that hold every kind of year;
//! - days so far apart for the rule's frequency that one reading would walk tens of
//!   thousands of periods between two of them (every hour of 29 February on a Monday).

use chrono::{Datelike, NaiveDate, NaiveTime, Timelike, Weekday};

use crate::recurrence::{interval_of, rule_field};

/// The most periods a reading may walk between two occurrences: about a tenth of a
/// second of the `rrule` crate's walk.
pub(crate) const MAX_GAP_PERIODS: i64 = 10_000;

/// How a rule can be walked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reach {
    /// It may occur, and a walk finds each occurrence within [`MAX_GAP_PERIODS`].
    Walkable,
    /// It never occurs after its start.
    Never,
    /// It occurs, but `periods` apart at most: too sparse for its frequency to walk.
    Sparse { periods: i64 },
}

fn numbers(rule: &str, name: &str) -> Option<Vec<i64>> {
    rule_field(rule, name).map(|v| v.split(',').filter_map(|n| n.trim().parse().ok()).collect())
}

/// How `rule`, starting at the local time `start`, can be walked.
pub fn reach(rule: &str, start: NaiveTime) -> Reach {
    let freq = rule_field(rule, "FREQ").unwrap_or_default();
    let interval = i64::from(interval_of(rule));
    let list = |name: &str| numbers(rule, name).filter(|v| !v.is_empty());
    let (hours, minutes, seconds) = (list("BYHOUR"), list("BYMINUTE"), list("BYSECOND"));
    let count = |v: &Option<Vec<i64>>| v.as_ref().map_or(1, Vec::len) as i64;
    // At most this many dates in one period's set, for BYSETPOS.
    let times = count(&hours) * count(&minutes) * count(&seconds);
    let set = match freq.as_str() {
        "SECONDLY" => 1,
        "MINUTELY" => count(&seconds),
        "HOURLY" => count(&minutes) * count(&seconds),
        "DAILY" => times,
        "WEEKLY" => 7 * times,
        "MONTHLY" => 31 * times,
        _ => 366 * times,
    };
    if list("BYSETPOS").is_some_and(|positions| positions.iter().all(|p| *p == 0 || p.unsigned_abs() > set.unsigned_abs())) {
        return Reach::Never;
    }
    let step_seconds = match freq.as_str() {
        "SECONDLY" => Some(interval),
        "MINUTELY" => Some(60 * interval),
        "HOURLY" => Some(3_600 * interval),
        _ => None,
    };
    if let Some(step) = step_seconds {
        if !reaches_a_time(step, start, &hours, &minutes, &seconds) {
            return Reach::Never;
        }
    }
    let per_day = match step_seconds {
        Some(step) => (86_400 / step).max(1),
        None if freq == "DAILY" => 1,
        // Weekly and longer rules take few periods between any two days: whether there
        // is a day at all is the question.
        None => return if longest_gap_days(rule, false).is_some() { Reach::Walkable } else { Reach::Never },
    };
    let Some(gap_days) = longest_gap_days(rule, true) else { return Reach::Never };
    let periods = gap_days.saturating_mul(per_day) / if step_seconds.is_none() { interval } else { 1 };
    if periods > MAX_GAP_PERIODS {
        Reach::Sparse { periods }
    } else {
        Reach::Walkable
    }
}

/// Whether a sub-daily grid of `step` seconds from `start` meets one of the times the
/// lists allow (a list not given allows every value). Over days the grid's offsets within
/// a day are those `start` plus multiples of gcd(step, 86,400).
fn reaches_a_time(step: i64, start: NaiveTime, hours: &Option<Vec<i64>>, minutes: &Option<Vec<i64>>, seconds: &Option<Vec<i64>>) -> bool {
    if hours.is_none() && minutes.is_none() && seconds.is_none() {
        return true;
    }
    let grid = gcd(step, 86_400);
    let origin = i64::from(start.num_seconds_from_midnight());
    let allowed = |values: &Option<Vec<i64>>, value: i64| values.as_ref().is_none_or(|v| v.contains(&value));
    // A list that is not given follows the start (the rule keeps the start's minute and
    // second), but any value the grid reaches will do for this question.
    (0..86_400).step_by(usize::try_from(grid).unwrap_or(1)).map(|offset| (origin + offset) % 86_400).any(|t| {
        let (h, m, s) = (t / 3_600, t / 60 % 60, t % 60);
        allowed(hours, h) && allowed(minutes, m) && allowed(seconds, s)
    })
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 {
        a.abs().max(1)
    } else {
        gcd(b, a % b)
    }
}

/// The longest run of days without a day the rule's day lists allow (wrapping around the
/// stretch read), or, without `gap`, 0 at the first day allowed; `None` when no day is
/// allowed. A rule with no day lists, or only weekdays, or only month days every month
/// has, allows a day every month at least. Every occurrence of a rule meets all of its
/// lists, so what is read here is a superset of its days (week numbers depend on WKST and
/// are not read; a weekday with an ordinal, "1MO", is read as every Monday). 2001–2028
/// is read: its 28 years hold every kind of year there is (leap or not, starting on each
/// weekday), so a combination of these lists absent from them is absent from every year,
/// and they repeat as a cycle until 2100.
fn longest_gap_days(rule: &str, gap: bool) -> Option<i64> {
    let list = |name: &str| numbers(rule, name).filter(|v| !v.is_empty());
    let days = Days {
        months: list("BYMONTH"),
        month_days: list("BYMONTHDAY"),
        year_days: list("BYYEARDAY"),
        weekdays: rule_field(rule, "BYDAY")
            .map(|days| {
                days.split(',')
                    .filter_map(|d| crate::words::weekday_code(d.trim().trim_start_matches(|c: char| c == '+' || c == '-' || c.is_ascii_digit())))
                    .collect()
            })
            .filter(|days: &Vec<Weekday>| !days.is_empty()),
    };
    let every_month = days.month_days.as_ref().is_none_or(|m| m.iter().any(|d| (1..=28).contains(d) || (-28..=-1).contains(d)));
    match (&days.months, &days.year_days, &days.weekdays, &days.month_days) {
        (None, None, None, None) => return Some(1),
        (None, None, Some(_), None) => return Some(7),
        // Friday the 13th is rarer than either list alone.
        (None, None, None, Some(_)) if every_month => return Some(31),
        // A date every year ("3 March", "30 February"): its month has the day, or not.
        (Some(months), None, None, Some(month_days)) if !gap => {
            // A leap year's months: 29 February is a day of February.
            let longest = |month: i64| days_in_month(2000, u32::try_from(month).unwrap_or(1)).unsigned_abs();
            return months.iter().any(|m| (1..=12).contains(m) && month_days.iter().any(|d| *d != 0 && d.unsigned_abs() <= longest(*m))).then_some(0);
        }
        _ => {}
    }
    let start = |year| NaiveDate::from_ymd_opt(year, 1, 1).expect("a date");
    let (from, to) = (start(2001), start(2029));
    days.longest_gap(from, (to - from).num_days(), gap)
}

/// A rule's day lists, each `None` when not given.
struct Days {
    months: Option<Vec<i64>>,
    month_days: Option<Vec<i64>>,
    year_days: Option<Vec<i64>>,
    weekdays: Option<Vec<Weekday>>,
}

impl Days {
    fn allows(&self, day: NaiveDate) -> bool {
        let in_year = if day.leap_year() { 366 } else { 365 };
        self.months.as_ref().is_none_or(|m| m.contains(&i64::from(day.month())))
            && self.month_days.as_ref().is_none_or(|m| {
                let d = i64::from(day.day());
                m.contains(&d) || m.contains(&(d - days_in_month(day.year(), day.month()) - 1))
            })
            && self.year_days.as_ref().is_none_or(|y| {
                let d = i64::from(day.ordinal());
                y.contains(&d) || y.contains(&(d - in_year - 1))
            })
            && self.weekdays.as_ref().is_none_or(|w| w.contains(&day.weekday()))
    }

    /// The longest gap between allowed days among `length` days from `first`, the
    /// stretch read as a cycle (without `gap`, 0 at the first); `None` when none is allowed.
    fn longest_gap(&self, first: NaiveDate, length: i64, gap: bool) -> Option<i64> {
        let (mut earliest, mut last, mut longest) = (None, None::<i64>, 0);
        for offset in 0..length {
            if self.allows(first + chrono::Duration::days(offset)) {
                if !gap {
                    return Some(0);
                }
                if let Some(previous) = last {
                    longest = longest.max(offset - previous);
                }
                earliest.get_or_insert(offset);
                last = Some(offset);
            }
        }
        Some(longest.max(earliest? + length - last?))
    }
}

fn days_in_month(year: i32, month: u32) -> i64 {
    let next = if month == 12 { NaiveDate::from_ymd_opt(year + 1, 1, 1) } else { NaiveDate::from_ymd_opt(year, month + 1, 1) };
    next.and_then(|n| n.pred_opt()).map_or(31, |last| i64::from(last.day()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(h: u32, m: u32) -> NaiveTime {
        NaiveTime::from_hms_opt(h, m, 0).unwrap()
    }

    #[test]
    fn what_people_repeat_is_walkable() {
        for rule in [
            "FREQ=DAILY",
            "FREQ=WEEKLY;BYDAY=MO,WE",
            "FREQ=MONTHLY;BYDAY=-1FR",
            "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29",
            "FREQ=HOURLY;BYHOUR=9,10,11",
            "FREQ=MINUTELY;INTERVAL=15;BYHOUR=9",
            "FREQ=DAILY;BYHOUR=9,18;BYSETPOS=-1",
            "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1",
            "FREQ=HOURLY;BYDAY=MO",
        ] {
            assert_eq!(reach(rule, at(9, 0)), Reach::Walkable, "{rule}");
        }
    }

    #[test]
    fn rules_the_random_calendars_found_slow_are_read_without_a_walk() {
        // Each walked the crate's 100,000 periods (0.7 to 1.4 s) at every reading.
        assert_eq!(reach("FREQ=HOURLY;BYSETPOS=-23;BYYEARDAY=235;UNTIL=86770105T190836Z", at(23, 3)), Reach::Never);
        assert_eq!(reach("FREQ=HOURLY;BYYEARDAY=-276,-61;BYMONTHDAY=-10", at(10, 36)), Reach::Never);
        assert_eq!(reach("FREQ=DAILY;BYSETPOS=219", at(4, 19)), Reach::Never);
        assert_eq!(reach("FREQ=DAILY;BYSETPOS=-9223372036854775808", at(4, 19)), Reach::Never, "no overflow");
    }

    #[test]
    fn a_grid_that_misses_every_time_said_never_occurs() {
        assert_eq!(reach("FREQ=HOURLY;INTERVAL=24;BYHOUR=3", at(5, 0)), Reach::Never);
        assert_eq!(reach("FREQ=HOURLY;INTERVAL=24;BYHOUR=5", at(5, 0)), Reach::Walkable);
        assert_eq!(reach("FREQ=MINUTELY;INTERVAL=30;BYMINUTE=10", at(9, 0)), Reach::Never);
        assert_eq!(reach("FREQ=HOURLY;INTERVAL=5;BYHOUR=3", at(5, 0)), Reach::Walkable, "a 5-hour grid reaches every hour over days");
    }

    #[test]
    fn days_that_never_come_or_come_too_rarely_for_the_frequency() {
        assert_eq!(reach("FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30", at(9, 0)), Reach::Never);
        assert_eq!(reach("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30", at(9, 0)), Reach::Never);
        assert_eq!(reach("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=-9223372036854775808", at(9, 0)), Reach::Never, "no overflow");
        assert_eq!(reach("FREQ=MONTHLY;BYMONTHDAY=31;BYMONTH=4,6;COUNT=3", at(9, 0)), Reach::Never);
        assert_eq!(reach("FREQ=MONTHLY;BYMONTHDAY=31,-1;BYMONTH=4", at(9, 0)), Reach::Walkable);
        assert_eq!(reach("FREQ=HOURLY;BYYEARDAY=366;BYMONTH=1", at(9, 0)), Reach::Never);
        assert!(matches!(reach("FREQ=HOURLY;BYMONTH=2;BYMONTHDAY=29;BYDAY=MO", at(9, 0)), Reach::Sparse { periods } if periods > 100_000));
        assert!(matches!(reach("FREQ=DAILY;BYMONTH=2;BYMONTHDAY=29;BYDAY=MO", at(9, 0)), Reach::Sparse { .. }));
        assert_eq!(reach("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29;BYDAY=MO", at(9, 0)), Reach::Walkable, "28 years apart is 28 periods");
        assert_eq!(reach("FREQ=DAILY;BYMONTHDAY=13;BYDAY=FR", at(9, 0)), Reach::Walkable, "Friday the 13th: 14 months apart at most");
        assert!(matches!(reach("FREQ=MINUTELY;BYMONTHDAY=13;BYDAY=FR", at(9, 0)), Reach::Sparse { .. }));
    }
}

//! When a task is due: once at an instant, or a repeat (an RFC 5545 RRULE from a start,
//! in the user's zone), computed by the dates crate as the reminders' repeats are.

use chrono::{DateTime, Utc};
use chrono_tz::Tz;

#[derive(Debug, Clone, PartialEq)]
pub enum Schedule {
    Once {
        at: DateTime<Utc>,
    },
    /// `rule` without DTSTART; `start` is the first occurrence; wall-clock times are kept
    /// in `zone` (8:00 stays 8:00 across DST and when the user travels, as set).
    Repeat {
        rule: String,
        start: DateTime<Utc>,
        zone: Tz,
    },
}

impl Schedule {
    /// The first occurrence strictly after `after`; `None` once the schedule has ended.
    pub fn next_after(&self, after: DateTime<Utc>) -> Option<DateTime<Utc>> {
        match self {
            Schedule::Once { at } => (*at > after).then_some(*at),
            Schedule::Repeat { rule, start, zone } => {
                if *start > after {
                    return Some(*start);
                }
                sidecar_dates::next_after(rule, *start, *zone, after)
            }
        }
    }

    /// The occurrences in `(after, until]`, oldest first, at most `limit` of them (a task
    /// every minute through a month away is not listed whole: the latest matter).
    pub fn between(&self, after: DateTime<Utc>, until: DateTime<Utc>, limit: usize) -> Vec<DateTime<Utc>> {
        let mut found = std::collections::VecDeque::new();
        let mut from = after;
        while let Some(next) = self.next_after(from).filter(|n| *n <= until) {
            found.push_back(next);
            if found.len() > limit {
                found.pop_front();
            }
            from = next;
        }
        found.into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn a_weekday_task_at_eight_keeps_eight_across_the_dst_change_in_its_zone() {
        let zone: Tz = "Europe/Madrid".parse().unwrap();
        // Friday 24 October 2025, 08:00 in Madrid (CEST, UTC+2); the clocks go back on Sunday the 26th.
        let start = zone.with_ymd_and_hms(2025, 10, 24, 8, 0, 0).unwrap().with_timezone(&Utc);
        let every_weekday = Schedule::Repeat { rule: "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR".into(), start, zone };
        let next = every_weekday.next_after(start).unwrap();
        // Monday the 27th, 08:00 CET = 07:00 UTC (it was 06:00 UTC before the change).
        assert_eq!(next, Utc.with_ymd_and_hms(2025, 10, 27, 7, 0, 0).unwrap());
        assert_eq!(every_weekday.between(start - chrono::Duration::seconds(1), next, 10), [start, next]);
    }

    #[test]
    fn once_is_due_once() {
        let at = Utc.with_ymd_and_hms(2026, 11, 30, 9, 0, 0).unwrap();
        let once = Schedule::Once { at };
        assert_eq!(once.next_after(at - chrono::Duration::minutes(1)), Some(at));
        assert_eq!(once.next_after(at), None);
    }
}

//! Whether Sidecar is quiet now (asked to be, or in quiet hours) and when that changes,
//! for what shows it (the character on the desktop sleeps). Pure.

use chrono::{DateTime, Duration, NaiveTime, TimeZone, Utc};
use chrono_tz::Tz;
use serde::Serialize;

use super::config::QuietHours;
use super::state::{Channel, ProactiveState};

/// "Quiet for 1 hour" (the tray, the character, Settings) quiets Sidecar for this long.
pub const QUIET_FOR_MINUTES: i64 = 60;

/// Why Sidecar is quiet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum QuietReason {
    /// `/quiet`, "be quiet", the tray or the character's menu.
    Asked,
    QuietHours,
}

/// Quiet or not, now, and when to look again.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct QuietNow {
    pub quiet: bool,
    pub reason: Option<QuietReason>,
    /// When this may change by itself (the quiet ends, or quiet hours begin); `None`
    /// when nothing is due to change it.
    pub changes_at: Option<DateTime<Utc>>,
}

/// Quiet for the user on `here` now? A `/quiet here` from one phone leaves the other
/// channels, and the desk, as they were.
pub(crate) fn quiet_now(state: &ProactiveState, hours: &QuietHours, now: DateTime<Utc>, zone: Tz, here: Channel) -> QuietNow {
    let local = now.with_timezone(&zone).time();
    let asked = state.quiet_until.filter(|until| *until > now && state.quiet_channel.is_none_or(|c| c == here));
    let hours_on = hours.start != hours.end;
    if let Some(until) = asked {
        return QuietNow { quiet: true, reason: Some(QuietReason::Asked), changes_at: Some(until) };
    }
    if hours_on && hours.contains(local) {
        return QuietNow { quiet: true, reason: Some(QuietReason::QuietHours), changes_at: Some(next_at(now, zone, hours.end)) };
    }
    QuietNow { quiet: false, reason: None, changes_at: hours_on.then(|| next_at(now, zone, hours.start)) }
}

/// The next instant after `now` when the clock in `zone` reads `time`; in a spring-forward
/// gap, the first instant after it.
fn next_at(now: DateTime<Utc>, zone: Tz, time: NaiveTime) -> DateTime<Utc> {
    let today = now.with_timezone(&zone).date_naive();
    (0..3)
        .filter_map(|days| {
            let date = today + Duration::days(days);
            let wall = date.and_time(time);
            zone.from_local_datetime(&wall).earliest().or_else(|| zone.from_local_datetime(&(wall + Duration::hours(1))).earliest())
        })
        .map(|at| at.with_timezone(&Utc))
        .find(|at| *at > now)
        .unwrap_or(now + Duration::days(1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono_tz::Europe::Madrid;

    fn hours(start: u32, end: u32) -> QuietHours {
        QuietHours { start: NaiveTime::from_hms_opt(start, 0, 0).unwrap(), end: NaiveTime::from_hms_opt(end, 0, 0).unwrap() }
    }
    fn at(text: &str) -> DateTime<Utc> {
        text.parse().unwrap()
    }

    #[test]
    fn quiet_hours_end_at_their_end_in_the_users_zone() {
        // 23:30 in Madrid (UTC+1 in January): quiet until 08:00 Madrid = 07:00 UTC.
        let now = at("2027-01-10T22:30:00Z");
        let q = quiet_now(&ProactiveState::default(), &hours(22, 8), now, Madrid, Channel::Desktop);
        assert_eq!(q, QuietNow { quiet: true, reason: Some(QuietReason::QuietHours), changes_at: Some(at("2027-01-11T07:00:00Z")) });
        // Noon: awake until 22:00 Madrid.
        let q = quiet_now(&ProactiveState::default(), &hours(22, 8), at("2027-01-10T11:00:00Z"), Madrid, Channel::Desktop);
        assert_eq!(q, QuietNow { quiet: false, reason: None, changes_at: Some(at("2027-01-10T21:00:00Z")) });
    }

    #[test]
    fn asked_quiet_wins_and_counts_where_it_was_asked() {
        let now = at("2027-01-10T11:00:00Z");
        let until = now + Duration::hours(1);
        let asked = ProactiveState { quiet_until: Some(until), ..Default::default() };
        assert_eq!(
            quiet_now(&asked, &hours(22, 8), now, Madrid, Channel::Desktop),
            QuietNow { quiet: true, reason: Some(QuietReason::Asked), changes_at: Some(until) }
        );
        let phone_only = ProactiveState { quiet_until: Some(until), quiet_channel: Some(Channel::Telegram), ..Default::default() };
        assert!(!quiet_now(&phone_only, &hours(22, 8), now, Madrid, Channel::Desktop).quiet);
        assert!(quiet_now(&phone_only, &hours(22, 8), now, Madrid, Channel::Telegram).quiet);
        let desk_only = ProactiveState { quiet_until: Some(until), quiet_channel: Some(Channel::Desktop), ..Default::default() };
        assert!(quiet_now(&desk_only, &hours(22, 8), now, Madrid, Channel::Desktop).quiet, "`/quiet` typed at the desk");
        let over = ProactiveState { quiet_until: Some(now - Duration::minutes(1)), ..Default::default() };
        assert!(!quiet_now(&over, &hours(22, 8), now, Madrid, Channel::Desktop).quiet);
    }

    #[test]
    fn no_quiet_hours_means_nothing_changes_by_itself() {
        let q = quiet_now(&ProactiveState::default(), &hours(9, 9), at("2027-01-10T11:00:00Z"), Madrid, Channel::Desktop);
        assert_eq!(q, QuietNow { quiet: false, reason: None, changes_at: None });
    }

    #[test]
    fn a_quiet_end_in_the_spring_forward_gap_is_just_after_it() {
        // Madrid skips 02:00–03:00 on 2027-03-28: quiet hours ending at 02:00 end at
        // 03:00 local, 01:00 UTC.
        let q = quiet_now(&ProactiveState::default(), &hours(22, 2), at("2027-03-27T23:00:00Z"), Madrid, Channel::Desktop);
        assert_eq!(q.changes_at, Some(at("2027-03-28T01:00:00Z")));
    }
}

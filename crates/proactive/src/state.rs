//! What the spontaneous loop remembers between ticks (`ProactiveState`), persisted in
//! the database. Counters reset lazily: a new local day or hour is noticed when the
//! state is read, so no separate timer is needed.

use chrono::{DateTime, NaiveDate, Utc};
use chrono_tz::Tz;
use serde::{Deserialize, Serialize};

use super::greeting::GreetingKind;

pub use sidecar_domain::Channel;

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, ts_rs::TS)]
#[serde(default)]
pub struct ProactiveState {
    pub last_spontaneous_at: Option<DateTime<Utc>>,
    pub count_today: u32,
    pub count_this_hour: u32,
    /// The local day `count_today` counts ("2026-11-22").
    pub day_of_count: Option<NaiveDate>,
    /// The local hour `count_this_hour` counts ("2026-11-22T09"): day and hour, so the
    /// same hour tomorrow is a new hour.
    pub hour_of_count: Option<String>,
    pub consecutive_ticks_with_message: u32,
    pub circuit_open_until: Option<DateTime<Utc>>,
    /// `/quiet` or "be quiet": no spontaneous messages until then, on every channel.
    pub quiet_until: Option<DateTime<Utc>>,
    /// `/quiet here`: silenced on one channel only.
    pub quiet_channel: Option<Channel>,
    pub last_user_message_at: Option<DateTime<Utc>>,
    pub last_active_channel: Option<Channel>,
    /// The last sign of the user at the desk (a message from the window or the
    /// terminal, the window focused): phones take over once it is old enough.
    pub last_desk_activity_at: Option<DateTime<Utc>>,
    /// Greetings sent on `greeted_day` (local), with their times: one of each kind a day.
    pub greeted_day: Option<NaiveDate>,
    pub greeted: Vec<(GreetingKind, DateTime<Utc>)>,
    /// How welcome each kind of message has been, per channel.
    pub learned: super::learning::Learned,
}

impl ProactiveState {
    /// Starts a new day's and a new hour's count when the local clock has moved on.
    pub(crate) fn roll_counters(&mut self, now: DateTime<Utc>, zone: Tz) {
        let local = now.with_timezone(&zone);
        let today = local.date_naive();
        if self.day_of_count != Some(today) {
            self.count_today = 0;
            self.day_of_count = Some(today);
        }
        let hour = local.format("%Y-%m-%dT%H").to_string();
        if self.hour_of_count.as_deref() != Some(hour.as_str()) {
            self.count_this_hour = 0;
            self.hour_of_count = Some(hour);
        }
    }

    /// Where the user is, for the router: `/quiet here` while it lasts, whether the
    /// desk has been idle for `idle_minutes` (never seen counts as idle), where they
    /// last wrote from.
    pub(crate) fn presence(&self, now: DateTime<Utc>, idle_minutes: u32) -> sidecar_outbox::Presence {
        let idle_after = chrono::Duration::minutes(i64::from(idle_minutes));
        sidecar_outbox::Presence {
            quiet_channel: self.quiet_until.filter(|until| now < *until).and(self.quiet_channel),
            desktop_idle: self.last_desk_activity_at.is_none_or(|at| now - at >= idle_after),
            last_active: self.last_active_channel,
        }
    }

    /// When a greeting of this kind was sent today (local), if it was.
    pub(crate) fn greeted_today(&self, kind: GreetingKind, now: DateTime<Utc>, zone: Tz) -> Option<DateTime<Utc>> {
        let today = now.with_timezone(&zone).date_naive();
        if self.greeted_day != Some(today) {
            return None;
        }
        self.greeted.iter().find(|(k, _)| *k == kind).map(|(_, at)| *at)
    }

    /// Records a spontaneous message as sent, before it is sent (a crash then loses
    /// one message rather than repeating it).
    pub(crate) fn mark_sent(&mut self, now: DateTime<Utc>, zone: Tz, greeting: Option<GreetingKind>) {
        self.roll_counters(now, zone);
        self.last_spontaneous_at = Some(now);
        self.count_today += 1;
        self.count_this_hour += 1;
        self.consecutive_ticks_with_message += 1;
        if let Some(kind) = greeting {
            let today = now.with_timezone(&zone).date_naive();
            if self.greeted_day != Some(today) {
                self.greeted_day = Some(today);
                self.greeted.clear();
            }
            self.greeted.push((kind, now));
        }
        if self.consecutive_ticks_with_message >= super::config::CIRCUIT_THRESHOLD {
            tracing::warn!(consecutive = self.consecutive_ticks_with_message, "circuit breaker tripped: Sidecar pauses speaking first");
            self.circuit_open_until = Some(now + super::config::CIRCUIT_PAUSE);
            self.consecutive_ticks_with_message = 0;
        }
    }

    /// Clears the counters and pauses (`/proactive reset`).
    pub(crate) fn reset(&mut self) {
        *self = ProactiveState {
            last_user_message_at: self.last_user_message_at,
            last_active_channel: self.last_active_channel,
            last_desk_activity_at: self.last_desk_activity_at,
            // What was learned has its own Reset (Settings → Proactivity).
            learned: std::mem::take(&mut self.learned),
            ..ProactiveState::default()
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn counters_reset_on_a_new_local_day_and_hour() {
        let zone = chrono_tz::America::Argentina::Buenos_Aires;
        let mut state = ProactiveState::default();
        let nine = zone.with_ymd_and_hms(2026, 11, 22, 9, 10, 0).unwrap().with_timezone(&Utc);
        state.mark_sent(nine, zone, None);
        state.mark_sent(nine + chrono::Duration::minutes(40), zone, None);
        assert_eq!((state.count_today, state.count_this_hour), (2, 2));
        state.roll_counters(nine + chrono::Duration::minutes(55), zone);
        assert_eq!((state.count_this_hour, state.count_today), (0, 2), "10:05 is a new hour, the same day");
        // 23:59 local is still today although it is tomorrow in UTC.
        state.roll_counters(zone.with_ymd_and_hms(2026, 11, 22, 23, 59, 0).unwrap().with_timezone(&Utc), zone);
        assert_eq!(state.count_today, 2);
        // The same hour the next day is a new hour and a new day.
        state.roll_counters(nine + chrono::Duration::days(1), zone);
        assert_eq!((state.count_today, state.count_this_hour), (0, 0));
    }

    #[test]
    fn five_messages_in_a_row_trip_the_breaker() {
        let mut state = ProactiveState::default();
        let t = Utc.with_ymd_and_hms(2026, 11, 22, 12, 0, 0).unwrap();
        for i in 0..5 {
            assert!(state.circuit_open_until.is_none());
            state.mark_sent(t + chrono::Duration::minutes(30 * i), chrono_tz::UTC, None);
        }
        assert_eq!(state.circuit_open_until, Some(t + chrono::Duration::minutes(120) + chrono::Duration::hours(2)));
    }
}

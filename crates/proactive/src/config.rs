//! What the user chose about Sidecar speaking first (`ProactiveConfig`), and the limits
//! no configuration can lift (P1): at most 2 spontaneous messages an hour, 4 or 8 a
//! day by level, 30 minutes apart, none while the user is talking or in quiet hours.

use chrono::{Duration, NaiveTime};
use serde::{Deserialize, Serialize};

use crate::ProactiveError;

pub use sidecar_outbox::{SinkId, SinkPreference, SinkPreferences};

/// At most this many spontaneous messages in one clock hour.
pub(crate) const MAX_PER_HOUR: u32 = 2;
/// Minimum time between two spontaneous messages.
pub(crate) const COOLDOWN: Duration = Duration::minutes(30);
/// The user wrote this recently: they are already talking, Sidecar does not interrupt.
pub(crate) const USER_ACTIVE: Duration = Duration::minutes(10);
/// After the model answers, a user message this recent cancels the send (P15).
pub(crate) const FRESHNESS: Duration = Duration::minutes(1);
/// This many ticks in a row that each sent a message trip the circuit breaker…
pub(crate) const CIRCUIT_THRESHOLD: u32 = 5;
/// …which keeps Sidecar silent this long.
pub const CIRCUIT_PAUSE: Duration = Duration::hours(2);
/// "Be quiet" / "cállate" silences spontaneous messages this long.
pub(crate) const HUSH: Duration = Duration::hours(2);

/// How talkative Sidecar is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default, ts_rs::TS)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// Reminders only: never speaks first.
    Low,
    /// Reminders, greetings and an occasional check-in: at most 4 a day.
    #[default]
    Medium,
    /// Also suggestions from what it knows about the user: at most 8 a day.
    High,
}

impl Level {
    pub fn max_per_day(self) -> u32 {
        match self {
            Level::Low => 0,
            Level::Medium => 4,
            Level::High => 8,
        }
    }

    /// Whether a spontaneous message of `kind` belongs to this level (the plans' table:
    /// medium is greetings and occasional check-ins, contextual suggestions are high's).
    pub fn allows(self, kind: sidecar_outbox::MessageType) -> bool {
        use sidecar_outbox::MessageType;
        match self {
            Level::Low => false,
            Level::Medium => matches!(kind, MessageType::Greeting | MessageType::Checkin),
            Level::High => true,
        }
    }

    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Level::Low => "low",
            Level::Medium => "medium",
            Level::High => "high",
        }
    }
}

/// Hours in which Sidecar never speaks first (reminders still arrive: the user asked
/// for them). `start` later than `end` spans midnight.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
pub struct QuietHours {
    #[serde(with = "hh_mm")]
    #[ts(type = "string")]
    pub start: NaiveTime,
    #[serde(with = "hh_mm")]
    #[ts(type = "string")]
    pub end: NaiveTime,
}

impl Default for QuietHours {
    fn default() -> Self {
        Self { start: NaiveTime::from_hms_opt(22, 0, 0).unwrap(), end: NaiveTime::from_hms_opt(8, 0, 0).unwrap() }
    }
}

impl QuietHours {
    pub(crate) fn contains(&self, time: NaiveTime) -> bool {
        if self.start == self.end {
            false
        } else if self.start < self.end {
            time >= self.start && time < self.end
        } else {
            time >= self.start || time < self.end
        }
    }
}

/// The user's choices, persisted in the database.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[serde(default)]
pub struct ProactiveConfig {
    pub level: Level,
    pub quiet_hours: QuietHours,
    /// How often the spontaneous loop asks itself whether to speak.
    pub tick_minutes: u32,
    pub sinks: SinkPreferences,
}

impl Default for ProactiveConfig {
    fn default() -> Self {
        Self { level: Level::Medium, quiet_hours: QuietHours::default(), tick_minutes: 15, sinks: SinkPreferences::default() }
    }
}

impl ProactiveConfig {
    /// A config from the UI or a file, refused with a reason rather than half-applied.
    pub(crate) fn validate(&self) -> Result<(), ProactiveError> {
        if !(5..=240).contains(&self.tick_minutes) {
            return Err(ProactiveError::TickMinutes(self.tick_minutes));
        }
        if self.sinks.phone_when_idle_minutes > 24 * 60 {
            return Err(ProactiveError::PhoneWhenIdle(self.sinks.phone_when_idle_minutes));
        }
        Ok(())
    }
}

mod hh_mm {
    use chrono::NaiveTime;
    use serde::{Deserialize, Deserializer, Serializer};

    pub(crate) fn serialize<S: Serializer>(time: &NaiveTime, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&time.format("%H:%M").to_string())
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<NaiveTime, D::Error> {
        let text = String::deserialize(d)?;
        NaiveTime::parse_from_str(text.trim(), "%H:%M").map_err(|_| serde::de::Error::custom(format!("\"{text}\" is not a time like 22:00")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(h: u32, m: u32) -> NaiveTime {
        NaiveTime::from_hms_opt(h, m, 0).unwrap()
    }

    #[test]
    fn quiet_hours_span_midnight() {
        let q = QuietHours::default();
        assert!(q.contains(at(22, 0)) && q.contains(at(3, 0)) && q.contains(at(7, 59)));
        assert!(!q.contains(at(8, 0)) && !q.contains(at(21, 59)) && !q.contains(at(12, 0)));
        let day = QuietHours { start: at(13, 0), end: at(15, 0) };
        assert!(day.contains(at(14, 0)) && !day.contains(at(15, 0)));
        assert!(!QuietHours { start: at(9, 0), end: at(9, 0) }.contains(at(9, 0)));
    }

    #[test]
    fn config_round_trips_and_rejects_bad_times() {
        let config = ProactiveConfig::default();
        let json = serde_json::to_string(&config).unwrap();
        assert!(json.contains("\"22:00\"") && json.contains("\"primary\":\"chat\""), "{json}");
        assert_eq!(serde_json::from_str::<ProactiveConfig>(&json).unwrap(), config);
        let bad = json.replace("22:00", "25:99");
        assert!(serde_json::from_str::<ProactiveConfig>(&bad).unwrap_err().to_string().contains("not a time"));
        // Missing fields take defaults (older rows, hand edits).
        assert_eq!(serde_json::from_str::<ProactiveConfig>("{\"level\":\"high\"}").unwrap().level, Level::High);
    }

    #[test]
    fn daily_limits_by_level() {
        assert_eq!([Level::Low, Level::Medium, Level::High].map(Level::max_per_day), [0, 4, 8]);
        use sidecar_outbox::MessageType::*;
        let kinds = |level: Level| [Greeting, Checkin, Contextual].map(|k| level.allows(k));
        assert_eq!(kinds(Level::Low), [false, false, false]);
        assert_eq!(kinds(Level::Medium), [true, true, false], "contextual suggestions are for high");
        assert_eq!(kinds(Level::High), [true, true, true]);
    }
}

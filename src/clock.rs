//! Time as Sidecar sees it: an injectable clock and the user's IANA time zone.

use std::sync::Arc;

use chrono::{DateTime, Utc};
use chrono_tz::Tz;

/// The current instant. Injected so tests run at a fixed time.
pub type Clock = Arc<dyn Fn() -> DateTime<Utc> + Send + Sync>;

pub fn system_clock() -> Clock {
    Arc::new(Utc::now)
}

/// A clock stuck at `instant`.
pub fn fixed_clock(instant: DateTime<Utc>) -> Clock {
    Arc::new(move || instant)
}

/// The user's zone, shared by everything that reads it (tools, the proactive loop)
/// so a change in the settings applies at once.
#[derive(Debug, Clone)]
pub struct ZoneCell(Arc<std::sync::RwLock<Tz>>);

impl ZoneCell {
    pub fn new(zone: Tz) -> Self {
        Self(Arc::new(std::sync::RwLock::new(zone)))
    }
    pub fn get(&self) -> Tz {
        *self.0.read().expect("zone lock")
    }
    pub fn set(&self, zone: Tz) {
        *self.0.write().expect("zone lock") = zone;
    }
}

/// The user's zone: the configured one, else the system's, else UTC.
pub fn user_zone(configured: Option<&str>) -> Tz {
    configured
        .and_then(|zone| zone.parse().ok())
        .or_else(|| iana_time_zone::get_timezone().ok().and_then(|zone| zone.parse().ok()))
        .unwrap_or(Tz::UTC)
}

/// The start of today in the system's local time, as an RFC 3339 UTC stamp (the
/// form timestamps are stored in), for "today" totals.
pub fn local_midnight_utc() -> String {
    let now = chrono::Local::now();
    let midnight = now
        .date_naive()
        .and_hms_opt(0, 0, 0)
        .and_then(|t| t.and_local_timezone(chrono::Local).earliest())
        .unwrap_or(now);
    midnight.with_timezone(&Utc).to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

/// "Saturday 2026-11-21 20:30 (America/Argentina/Buenos_Aires, UTC-03:00)".
pub fn describe(now: DateTime<Utc>, zone: Tz) -> String {
    let local = now.with_timezone(&zone);
    format!("{} ({}, UTC{})", local.format("%A %Y-%m-%d %H:%M"), zone.name(), local.format("%:z"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn describes_local_time_with_zone_and_offset() {
        let now = Utc.with_ymd_and_hms(2026, 11, 21, 23, 30, 0).unwrap();
        let zone: Tz = "America/Argentina/Buenos_Aires".parse().unwrap();
        assert_eq!(describe(now, zone), "Saturday 2026-11-21 20:30 (America/Argentina/Buenos_Aires, UTC-03:00)");
    }

    #[test]
    fn configured_zone_wins_and_garbage_falls_back() {
        assert_eq!(user_zone(Some("Europe/Madrid")), chrono_tz::Europe::Madrid);
        // Not a zone: falls back to the system's or UTC, never panics.
        let _ = user_zone(Some("Mars/Olympus"));
    }
}

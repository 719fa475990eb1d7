//! Time as Sidecar sees it: one injected `Clock` that gives both the current instant and
//! the user's IANA zone. It is the only way the core asks for either, so a test can fix
//! the time and a zone change in the settings applies everywhere at once.

use std::sync::{Arc, RwLock};

use chrono::{DateTime, NaiveDate, Utc};
use chrono_tz::Tz;

/// The current instant. Injected so tests run at a fixed or hand-moved time.
pub(crate) type NowFn = Arc<dyn Fn() -> DateTime<Utc> + Send + Sync>;

/// Now and the user's zone. Clones share the zone: setting it on one sets it on all.
#[derive(Clone)]
pub struct Clock {
    now: NowFn,
    zone: Arc<RwLock<Tz>>,
}

impl std::fmt::Debug for Clock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Clock").field("now", &self.now()).field("zone", &self.zone()).finish()
    }
}

impl Clock {
    pub fn new(now: NowFn, zone: Tz) -> Self {
        Self { now, zone: Arc::new(RwLock::new(zone)) }
    }

    /// The system's time, in `zone`.
    pub(crate) fn system(zone: Tz) -> Self {
        Self::new(Arc::new(Utc::now), zone)
    }

    /// A clock stuck at `instant`, in `zone`.
    pub fn fixed(instant: DateTime<Utc>, zone: Tz) -> Self {
        Self::new(Arc::new(move || instant), zone)
    }

    pub fn now(&self) -> DateTime<Utc> {
        (self.now)()
    }

    pub fn zone(&self) -> Tz {
        *self.zone.read().expect("zone lock")
    }

    pub fn set_zone(&self, zone: Tz) {
        *self.zone.write().expect("zone lock") = zone;
    }

    pub fn local_now(&self) -> DateTime<Tz> {
        self.now().with_timezone(&self.zone())
    }

    /// The user's date today.
    pub fn local_today(&self) -> NaiveDate {
        self.local_now().date_naive()
    }

    /// The start of the user's today, as the instant it is (for "today" totals).
    pub fn local_midnight(&self) -> DateTime<Utc> {
        self.start_of(self.local_today())
    }

    /// The instant the user's `day` starts (now, if the zone skips its midnight).
    pub fn start_of(&self, day: NaiveDate) -> DateTime<Utc> {
        day.and_hms_opt(0, 0, 0)
            .and_then(|midnight| midnight.and_local_timezone(self.zone()).earliest())
            .map(|midnight| midnight.with_timezone(&Utc))
            .unwrap_or_else(|| self.now())
    }
}

/// The system clock in the system's zone (the CLI before settings are read, tests).
pub fn system_clock() -> Clock {
    Clock::system(system_zone())
}

/// A clock stuck at `instant`, in UTC until a zone is set.
pub fn fixed_clock(instant: DateTime<Utc>) -> Clock {
    Clock::fixed(instant, Tz::UTC)
}

/// The system's zone, else UTC.
pub fn system_zone() -> Tz {
    iana_time_zone::get_timezone().ok().and_then(|zone| zone.parse().ok()).unwrap_or(Tz::UTC)
}

/// Every IANA zone name Sidecar knows, for a picker.
pub fn zone_names() -> Vec<&'static str> {
    chrono_tz::TZ_VARIANTS.iter().map(|zone| zone.name()).collect()
}

/// The zone the settings name, else the system's. A name that is not an IANA zone
/// falls back to the system's and says so, so a typo never stops Sidecar starting.
pub fn resolve_zone(configured: Option<&str>) -> (Tz, Option<String>) {
    match configured.map(str::trim).filter(|z| !z.is_empty()) {
        None => (system_zone(), None),
        Some(name) => match name.parse() {
            Ok(zone) => (zone, None),
            Err(_) => {
                let fallback = system_zone();
                let warning = format!(
                    "[user] timezone \"{name}\" in settings.toml is not an IANA time zone (like \"Europe/Madrid\"); using {} instead. Fix it in Settings → Proactivity.",
                    fallback.name()
                );
                (fallback, Some(warning))
            }
        },
    }
}

/// "Saturday 2026-11-21 20:30 (America/Argentina/Buenos_Aires, UTC-03:00)".
pub fn describe(now: DateTime<Utc>, zone: Tz) -> String {
    let local = now.with_timezone(&zone);
    format!("{} ({}, UTC{})", local.format("%A %Y-%m-%d %H:%M"), zone.name(), local.format("%:z"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_picker_offers_every_iana_zone() {
        let zones = zone_names();
        assert!(zones.len() > 400 && zones.contains(&"America/Argentina/Buenos_Aires") && zones.contains(&"Europe/Madrid"));
    }
    use chrono::TimeZone;

    #[test]
    fn describes_local_time_with_zone_and_offset() {
        let now = Utc.with_ymd_and_hms(2026, 11, 21, 23, 30, 0).unwrap();
        let zone: Tz = "America/Argentina/Buenos_Aires".parse().unwrap();
        assert_eq!(describe(now, zone), "Saturday 2026-11-21 20:30 (America/Argentina/Buenos_Aires, UTC-03:00)");
    }

    #[test]
    fn configured_zone_wins_and_garbage_falls_back_with_a_warning() {
        assert_eq!(resolve_zone(Some("Europe/Madrid")), (chrono_tz::Europe::Madrid, None));
        let (zone, warning) = resolve_zone(Some("Mars/Olympus"));
        assert_eq!(zone, system_zone());
        assert!(warning.unwrap().contains("\"Mars/Olympus\" in settings.toml is not an IANA time zone"));
        assert_eq!(resolve_zone(None).1, None);
    }

    #[test]
    fn today_and_midnight_are_the_users_not_the_machines() {
        // 02:30 UTC on the 22nd is still the 21st in Buenos Aires.
        let clock = Clock::fixed(Utc.with_ymd_and_hms(2026, 11, 22, 2, 30, 0).unwrap(), chrono_tz::America::Argentina::Buenos_Aires);
        assert_eq!(clock.local_today(), NaiveDate::from_ymd_opt(2026, 11, 21).unwrap());
        assert_eq!(clock.local_midnight(), Utc.with_ymd_and_hms(2026, 11, 21, 3, 0, 0).unwrap());
        let shared = clock.clone();
        shared.set_zone(chrono_tz::Europe::Madrid);
        assert_eq!(clock.local_today(), NaiveDate::from_ymd_opt(2026, 11, 22).unwrap());
    }
}

//! When Sidecar looks for an update on its own, and which addresses it may look at.

use chrono::{DateTime, Duration, Utc};

/// How long after one look the daily look comes.
pub(crate) fn look_every() -> Duration {
    Duration::hours(24)
}

/// Whether the daily look is due: allowed, and a day has passed since the last one (a
/// look that failed counts, so a broken address is not asked every hour).
pub(crate) fn due(daily: bool, last_looked: Option<DateTime<Utc>>, now: DateTime<Utc>) -> bool {
    daily && last_looked.is_none_or(|last| now - last >= look_every() || last > now)
}

pub(crate) use sidecar_domain::check_address;
pub(crate) use sidecar_domain::AddressProblem;

#[cfg(test)]
mod tests {
    use super::*;

    fn at(hours: i64) -> DateTime<Utc> {
        DateTime::from_timestamp(1_800_000_000, 0).unwrap() + Duration::hours(hours)
    }

    #[test]
    fn the_daily_look_waits_a_day_and_only_when_allowed() {
        assert!(!due(false, None, at(0)));
        assert!(due(true, None, at(0)));
        assert!(!due(true, Some(at(0)), at(23)));
        assert!(due(true, Some(at(0)), at(24)));
        // A clock set back makes the last look "in the future": look again.
        assert!(due(true, Some(at(5)), at(0)));
    }

    #[test]
    fn addresses_must_be_encrypted_unless_on_this_computer() {
        assert!(check_address(" https://example.org/sidecar/latest.json ").is_ok());
        assert!(check_address("http://127.0.0.1:8123/latest.json").is_ok());
        assert!(check_address("http://localhost/latest.json").is_ok());
        assert!(check_address("http://[::1]:80/latest.json").is_ok());
        assert_eq!(check_address("http://example.org/latest.json"), Err(AddressProblem::NotEncrypted));
        assert_eq!(check_address("http://10.0.0.2/latest.json"), Err(AddressProblem::NotEncrypted));
        assert_eq!(check_address("example.org/latest.json"), Err(AddressProblem::Unreadable));
        assert_eq!(check_address("ftp://example.org/latest.json"), Err(AddressProblem::Unreadable));
    }
}

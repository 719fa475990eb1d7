//! When Sidecar looks for an update on its own, and which addresses it may look at.

use chrono::{DateTime, Duration, Utc};

/// How long after one look the daily look comes.
pub fn look_every() -> Duration {
    Duration::hours(24)
}

/// Whether the daily look is due: allowed, and a day has passed since the last one (a
/// look that failed counts, so a broken address is not asked every hour).
pub fn due(daily: bool, last_looked: Option<DateTime<Utc>>, now: DateTime<Utc>) -> bool {
    daily && last_looked.is_none_or(|last| now - last >= look_every() || last > now)
}

/// Why an update address is not used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AddressProblem {
    /// Not an address at all.
    Unreadable,
    /// Plain `http://` to another computer: anyone on the way could see and block it
    /// (the package itself is signed, but the manifest is not).
    NotEncrypted,
}

/// The address as it will be used: `https://`, or `http://` to this computer only (a
/// release served from a local folder, or a test).
pub fn check_address(text: &str) -> Result<String, AddressProblem> {
    let text = text.trim();
    let url = url::Url::parse(text).map_err(|_| AddressProblem::Unreadable)?;
    match url.scheme() {
        "https" if url.host().is_some() => Ok(text.to_string()),
        "http" if on_this_computer(&url) => Ok(text.to_string()),
        "http" => Err(AddressProblem::NotEncrypted),
        _ => Err(AddressProblem::Unreadable),
    }
}

fn on_this_computer(url: &url::Url) -> bool {
    match url.host() {
        Some(url::Host::Domain(name)) => name.eq_ignore_ascii_case("localhost"),
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        None => false,
    }
}

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

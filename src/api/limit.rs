//! A request budget per client: a bucket of `BURST` requests that refills at `PER_MINUTE`
//! a minute. Pure: the caller gives the time.

use std::collections::HashMap;
use std::time::Instant;

pub const PER_MINUTE: f64 = 120.0;
pub const BURST: f64 = 30.0;

#[derive(Default)]
pub struct RateLimit {
    buckets: HashMap<String, (f64, Instant)>,
}

impl RateLimit {
    /// Takes one request for `client` at `now`; `Err(seconds)` to wait when none is left.
    pub fn take(&mut self, client: &str, now: Instant) -> Result<(), u64> {
        let (left, at) = self.buckets.entry(client.to_string()).or_insert((BURST, now));
        let refilled = (*left + now.saturating_duration_since(*at).as_secs_f64() * PER_MINUTE / 60.0).min(BURST);
        *at = now;
        if refilled >= 1.0 {
            *left = refilled - 1.0;
            Ok(())
        } else {
            *left = refilled;
            Err(((1.0 - refilled) * 60.0 / PER_MINUTE).ceil() as u64)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_burst_is_served_then_the_client_waits_and_others_do_not() {
        let mut limit = RateLimit::default();
        let start = Instant::now();
        for _ in 0..BURST as usize {
            assert!(limit.take("script", start).is_ok());
        }
        assert_eq!(limit.take("script", start), Err(1));
        assert!(limit.take("other", start).is_ok(), "each client has its own budget");
        assert!(limit.take("script", start + Duration::from_millis(600)).is_ok(), "half a second refills one");
    }
}

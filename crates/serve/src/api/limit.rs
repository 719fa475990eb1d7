//! A request budget per client: a bucket of a quarter of a minute's requests that
//! refills at `per_minute` a minute. Pure: the caller gives the time.

use std::collections::HashMap;
use std::time::Instant;

pub struct RateLimit {
    per_minute: f64,
    burst: f64,
    buckets: HashMap<String, (f64, Instant)>,
}

impl RateLimit {
    pub fn new(per_minute: u32) -> Self {
        let per_minute = f64::from(per_minute.max(1));
        Self { per_minute, burst: (per_minute / 4.0).max(1.0), buckets: HashMap::new() }
    }

    /// How many requests a client may make at once.
    pub fn burst(&self) -> usize {
        self.burst as usize
    }

    /// Takes one request for `client` at `now`; `Err(seconds)` to wait when none is left.
    pub(crate) fn take(&mut self, client: &str, now: Instant) -> Result<(), u64> {
        let (per_minute, burst) = (self.per_minute, self.burst);
        let (left, at) = self.buckets.entry(client.to_string()).or_insert((burst, now));
        let refilled = (*left + now.saturating_duration_since(*at).as_secs_f64() * per_minute / 60.0).min(burst);
        *at = now;
        if refilled >= 1.0 {
            *left = refilled - 1.0;
            Ok(())
        } else {
            *left = refilled;
            Err(((1.0 - refilled) * 60.0 / per_minute).ceil() as u64)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_burst_is_served_then_the_client_waits_and_others_do_not() {
        let mut limit = RateLimit::new(120);
        let start = Instant::now();
        assert_eq!(limit.burst(), 30);
        for _ in 0..limit.burst() {
            assert!(limit.take("script", start).is_ok());
        }
        assert_eq!(limit.take("script", start), Err(1));
        assert!(limit.take("other", start).is_ok(), "each client has its own budget");
        assert!(limit.take("script", start + Duration::from_millis(600)).is_ok(), "half a second refills one");
    }
}

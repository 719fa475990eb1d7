//! Waits between attempts to reach a server that is down: doubling from a short
//! first wait up to a ceiling, with some jitter so many clients do not retry together.

use std::time::Duration;

#[derive(Debug, Clone)]
pub(crate) struct Backoff {
    first: Duration,
    ceiling: Duration,
    next: Duration,
}

impl Backoff {
    pub(crate) fn new(first: Duration, ceiling: Duration) -> Self {
        Self { first, ceiling, next: first }
    }

    /// The wait before the next attempt; each one doubles, up to the ceiling.
    pub(crate) fn next_wait(&mut self) -> Duration {
        let wait = self.next;
        self.next = (self.next * 2).min(self.ceiling);
        // Up to a fifth more, never less: the server asked for at least this much rest.
        wait + wait.mul_f64(fastrand::f64() / 5.0)
    }

    /// The server answered: the next failure starts short again.
    pub(crate) fn reset(&mut self) {
        self.next = self.first;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doubles_to_the_ceiling_and_starts_over_after_a_success() {
        let mut backoff = Backoff::new(Duration::from_millis(500), Duration::from_secs(4));
        let waits: Vec<Duration> = (0..6).map(|_| backoff.next_wait()).collect();
        let bases = [500, 1000, 2000, 4000, 4000, 4000].map(Duration::from_millis);
        for (wait, base) in waits.iter().zip(bases) {
            assert!(*wait >= base && *wait <= base.mul_f64(1.2), "{wait:?} for {base:?}");
        }
        backoff.reset();
        assert!(backoff.next_wait() < Duration::from_millis(601));
    }
}

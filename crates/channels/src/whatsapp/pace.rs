//! The outbound pace WhatsApp tolerates (W3): at least `min_gap` between two messages
//! and at most `per_hour` in any hour. Pure: it is told the time and answers when the
//! next message may go.

use std::collections::VecDeque;
use std::time::Duration;

use tokio::time::Instant;

const HOUR: Duration = Duration::from_secs(3600);

#[derive(Debug)]
pub(crate) struct Pace {
    min_gap: Duration,
    per_hour: usize,
    /// When the messages of the last hour went out, oldest first.
    sent: VecDeque<Instant>,
}

impl Pace {
    pub(crate) fn new(min_gap: Duration, per_hour: u32) -> Self {
        Self { min_gap, per_hour: per_hour.max(1) as usize, sent: VecDeque::new() }
    }

    /// When a message may go, asked at `now`: `now` itself when it may go at once.
    pub(crate) fn next_slot(&mut self, now: Instant) -> Instant {
        while self.sent.front().is_some_and(|at| now.saturating_duration_since(*at) >= HOUR) {
            self.sent.pop_front();
        }
        let after_gap = self.sent.back().map_or(now, |last| (*last + self.min_gap).max(now));
        let after_hour = if self.sent.len() >= self.per_hour { self.sent[self.sent.len() - self.per_hour] + HOUR } else { now };
        after_gap.max(after_hour)
    }

    /// A message went out at `at`.
    pub(crate) fn record(&mut self, at: Instant) {
        self.sent.push_back(at);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_a_second_and_twenty_an_hour() {
        let start = Instant::now();
        let mut pace = Pace::new(Duration::from_secs(1), 20);
        let mut at = start;
        for _ in 0..20 {
            at = pace.next_slot(at);
            pace.record(at);
        }
        // Twenty went out a second apart…
        assert_eq!(at - start, Duration::from_secs(19));
        // …and the twenty-first waits for the first to be an hour old.
        assert_eq!(pace.next_slot(at), start + HOUR);
        // Later, with the hour behind, the pace is one a second again.
        let later = start + HOUR * 3;
        assert_eq!(pace.next_slot(later), later);
    }
}

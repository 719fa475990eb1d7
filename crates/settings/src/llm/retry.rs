//! How hard to retry one provider before the router moves on to the next.

use std::time::Duration;

/// How hard to retry one provider before moving on.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RetryPolicy {
    /// Retries after the first attempt.
    pub max_retries: u32,
    /// Delay before the first retry; doubles each time.
    pub base_delay: Duration,
    /// Longest wait; a `Retry-After` asking for more moves on to the next provider.
    pub max_delay: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        Self { max_retries: 2, base_delay: Duration::from_millis(500), max_delay: Duration::from_secs(30) }
    }
}

impl RetryPolicy {
    /// The wait before retry number `attempt` (0-based): exponential with up to 25%
    /// jitter, never less than what the server asked for.
    pub fn delay(&self, attempt: u32, retry_after: Option<Duration>, jitter: f64) -> Duration {
        let exponential = self.base_delay.saturating_mul(1u32 << attempt.min(16));
        let jittered = exponential.mul_f64(1.0 + 0.25 * jitter.clamp(0.0, 1.0));
        jittered.max(retry_after.unwrap_or(Duration::ZERO))
    }
}

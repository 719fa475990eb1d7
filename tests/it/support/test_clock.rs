//! A clock the test moves by hand.

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;

use chrono::{DateTime, TimeZone, Utc};

#[derive(Clone)]
pub(crate) struct TestClock(Arc<AtomicI64>);

impl TestClock {
    pub(crate) fn at(t: DateTime<Utc>) -> Self {
        Self(Arc::new(AtomicI64::new(t.timestamp_millis())))
    }

    pub(crate) fn set(&self, t: DateTime<Utc>) {
        self.0.store(t.timestamp_millis(), Ordering::SeqCst);
    }

    pub(crate) fn now(&self) -> DateTime<Utc> {
        Utc.timestamp_millis_opt(self.0.load(Ordering::SeqCst)).unwrap()
    }

    /// The companion's clock, reading this one.
    pub(crate) fn clock(&self) -> sidecar_domain::Clock {
        let this = self.clone();
        sidecar_domain::Clock::new(Arc::new(move || this.now()), chrono_tz::UTC)
    }
}

//! Random hostile calendars (see `random/mod.rs`) read as a feed and as a server's item
//! are: split, checked and read without a panic or a stack overflow; what is read has
//! titles of one clean line and a bounded number of occurrences in any window; what is
//! not is refused in words. `cargo bench -p sidecar-calendar --bench random_calendars`
//! prints the time and memory of the worst case.

mod random;

use chrono::{TimeZone, Utc};
use proptest::prelude::*;
use sidecar_calendar::events_of;
use sidecar_calendar::split;
use sidecar_calendar::MAX_OCCURRENCES;

proptest! {
    #![proptest_config(ProptestConfig { cases: 192, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn a_random_calendar_is_read_or_refused_never_crashes(text in random::calendar()) {
        if let Err(error) = split(&text) {
            prop_assert!(!error.to_string().trim().is_empty());
        }
        match events_of(&text, chrono_tz::Europe::Madrid) {
            Err(error) => prop_assert!(!error.to_string().trim().is_empty()),
            Ok(events) => {
                let windows = [
                    (Utc.with_ymd_and_hms(2026, 11, 30, 0, 0, 0).unwrap(), Utc.with_ymd_and_hms(2026, 12, 7, 0, 0, 0).unwrap()),
                    (Utc.with_ymd_and_hms(1970, 1, 1, 0, 0, 0).unwrap(), Utc.with_ymd_and_hms(2100, 1, 1, 0, 0, 0).unwrap()),
                ];
                for event in &events {
                    prop_assert!(!event.summary.chars().any(|c| c.is_control() || matches!(c, '\u{202e}' | '\u{2066}')), "{:?}", event.summary);
                    for (from, to) in windows {
                        let found = event.occurrences(from, to);
                        prop_assert!(found.len() <= usize::from(MAX_OCCURRENCES));
                        prop_assert!(found.windows(2).all(|w| w[0].0 <= w[1].0), "oldest first");
                    }
                }
            }
        }
    }
}

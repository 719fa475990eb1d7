//! Random hostile recordings (see `random/mod.rs`) are decoded or refused in words,
//! never a panic, and nothing decoded is longer than the limit.
//! `cargo bench -p sidecar-voice --bench random_recordings` prints the time and memory
//! of the worst case.

mod random;

use proptest::prelude::*;
use sidecar_voice::Audio;
use sidecar_voice::MAX_SECONDS;

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn a_random_recording_is_decoded_within_the_limit_or_refused(bytes in random::recording()) {
        match Audio::decode(&bytes) {
            Ok(audio) => prop_assert!(audio.seconds() <= MAX_SECONDS as f32 + 1.0, "{} s", audio.seconds()),
            Err(error) => prop_assert!(!error.to_string().trim().is_empty()),
        }
    }
}

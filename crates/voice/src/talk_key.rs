//! Push-to-talk's global shortcut as presses and releases: a tap toggles (the first
//! starts listening, the next sends), a hold sends when let go. The shell reports the
//! key; this says when the microphone button is pressed.

use std::time::{Duration, Instant};

/// Held at least this long, the shortcut sends what was said when let go.
pub(crate) const HOLD_TO_TALK: Duration = Duration::from_millis(600);
/// A press this soon after the last one seen is the key repeating while held, not a new
/// press (a desktop that never reports the release, as some Wayland portals, still
/// toggles).
const REPEAT: Duration = Duration::from_millis(300);

/// The key's state: when it went down and when it was last seen, while it is down.
#[derive(Debug, Default)]
pub struct TalkKey {
    down: Option<(Instant, Instant)>,
}

impl TalkKey {
    /// Up.
    pub const fn new() -> Self {
        Self { down: None }
    }

    /// The key went down at `now`; whether that presses the microphone button.
    pub fn pressed(&mut self, now: Instant) -> bool {
        if let Some((_, seen)) = self.down.as_mut().filter(|(_, seen)| now.duration_since(*seen) < REPEAT) {
            *seen = now;
            return false;
        }
        self.down = Some((now, now));
        true
    }

    /// The key came up at `now`; whether that presses the button (the end of a hold).
    pub fn released(&mut self, now: Instant) -> bool {
        self.down.take().is_some_and(|(at, _)| now.duration_since(at) >= HOLD_TO_TALK)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tap_toggles_a_hold_sends_when_let_go_and_repeats_are_not_presses() {
        let (mut key, t0) = (TalkKey::default(), Instant::now());
        let at = |ms: u64| t0 + Duration::from_millis(ms);
        // A tap: pressed (listen), released soon (nothing), pressed again (send).
        assert!(key.pressed(at(0)));
        assert!(!key.released(at(120)));
        assert!(key.pressed(at(3_000)));
        assert!(!key.released(at(3_100)));
        // A hold: repeats while down are not presses; letting go sends.
        assert!(key.pressed(at(5_000)));
        for ms in (5_050..7_000).step_by(50) {
            assert!(!key.pressed(at(ms)));
        }
        assert!(key.released(at(7_000)));
        // No release reported: the next press, well after, is a press all the same.
        assert!(key.pressed(at(9_000)));
        assert!(key.pressed(at(12_000)));
    }
}

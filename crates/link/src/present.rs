//! Which devices are attached now, and which one the user is at: where a notification
//! from the core is shown. The device the user gave input on last (within a few
//! minutes) is the one; when none was used lately, every attached device is. A web
//! page (the phone's browser) is attached but never where a notification is shown: a tab
//! in the background or closed would lose it; the phone's bridges carry it instead.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How recent a device's input must be for the user to count as being at it.
pub const AT_HAND: Duration = Duration::from_secs(5 * 60);

#[derive(Debug, Default)]
pub struct Present {
    devices: Mutex<BTreeMap<i64, Seen>>,
    /// The latest input in the home core's own window.
    here: Mutex<Option<Instant>>,
}

#[derive(Debug, Default)]
struct Seen {
    /// Open links (a device may attach twice for a moment while one reconnects).
    links: usize,
    input: Option<Instant>,
    /// Its links show notifications (a computer's app), not a web page's.
    shows: bool,
}

/// Held while a link is open; detaches when dropped.
pub(crate) struct AttachedLink {
    present: Arc<Present>,
    device: i64,
}

impl Drop for AttachedLink {
    fn drop(&mut self) {
        let mut devices = self.present.devices.lock().expect("present");
        if let Some(seen) = devices.get_mut(&self.device) {
            seen.links = seen.links.saturating_sub(1);
        }
    }
}

impl Present {
    /// A link of `device` opened; `shows` says whether it shows notifications.
    pub(crate) fn attach(self: &Arc<Self>, device: i64, shows: bool) -> AttachedLink {
        let mut devices = self.devices.lock().expect("present");
        let seen = devices.entry(device).or_default();
        seen.links += 1;
        seen.shows = shows;
        AttachedLink { present: self.clone(), device }
    }

    /// The user just did something on `device` (wrote, looked at its window).
    pub fn input(&self, device: i64) {
        self.devices.lock().expect("present").entry(device).or_default().input = Some(Instant::now());
    }

    /// The user just did something in the home core's own window.
    pub fn input_here(&self) {
        *self.here.lock().expect("present") = Some(Instant::now());
    }

    /// The devices attached now.
    pub fn attached(&self) -> Vec<i64> {
        self.devices.lock().expect("present").iter().filter(|(_, seen)| seen.links > 0).map(|(id, _)| *id).collect()
    }

    /// Where the user is: of the attached devices that show notifications, the one with
    /// the latest input within `within`, or every one when none had any; none when the
    /// latest input was in the home core's own window (it shows its own).
    pub fn at_hand(&self, within: Duration) -> Vec<i64> {
        let devices = self.devices.lock().expect("present");
        let attached = devices.iter().filter(|(_, seen)| seen.links > 0 && seen.shows);
        let latest = attached.clone().filter_map(|(id, seen)| Some((seen.input?, *id))).filter(|(at, _)| at.elapsed() <= within).max();
        let here = self.here.lock().expect("present").filter(|at| at.elapsed() <= within);
        match (latest, here) {
            (latest, Some(here_at)) if latest.is_none_or(|(device_at, _)| here_at >= device_at) => Vec::new(),
            (Some((_, id)), _) => vec![id],
            (None, _) => attached.map(|(id, _)| *id).collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_device_used_last_is_where_the_user_is_else_every_attached_one() {
        let present = Arc::new(Present::default());
        assert!(present.at_hand(AT_HAND).is_empty(), "nobody attached");
        let (laptop, desk) = (present.attach(1, true), present.attach(2, true));
        let page = present.attach(3, false);
        present.input(3);
        assert_eq!(present.at_hand(AT_HAND), [1, 2], "no input yet: both");
        present.input(2);
        assert_eq!(present.at_hand(AT_HAND), [2]);
        present.input(1);
        assert_eq!(present.at_hand(AT_HAND), [1], "the latest input wins");
        assert_eq!(present.at_hand(Duration::ZERO), [1, 2], "input too long ago: both");
        present.input_here();
        assert!(present.at_hand(AT_HAND).is_empty(), "at the home's own window: no device");
        present.input(2);
        assert_eq!(present.at_hand(AT_HAND), [2], "at a device again");
        drop(laptop);
        assert_eq!(present.at_hand(AT_HAND), [2], "a device that left is not where the user is");
        assert_eq!(present.attached(), [2, 3], "a web page is attached, but never where notifications go");
        drop((desk, page));
        assert!(present.attached().is_empty());
    }
}

//! The computer's state as Sidecar's background work needs it (the seeds' DT-3): how long
//! the user has been away from the keyboard and mouse, and the battery. Read through one
//! small trait, [`Computer`], so the features that care (the tasks that wait for a
//! charger, recall's indexing, where a message finds the user) never ask the OS
//! themselves and are tested with [`FakeComputer`].
//!
//! - `state`: what is known ([`ComputerState`]) and the rules read from it: saving power
//!   (on battery and at [`LOW_BATTERY_PERCENT`] or under), away for a while.
//! - `linux`: the Linux adapter: the battery from `/sys/class/power_supply`, the idle time
//!   from the X server (MIT-SCREEN-SAVER) or GNOME's idle monitor on Wayland.
//! - `fake`: a computer whose state a test sets.
//! - `words`: what Sidecar says of it, in both languages.

mod fake;
#[cfg(target_os = "linux")]
mod linux;
mod state;
mod words;

use std::sync::Arc;

use futures_util::future::BoxFuture;

// The face: what the crates above, the faces and the tests name.
pub use fake::FakeComputer;
#[cfg(target_os = "linux")]
pub use linux::Linux;
pub use state::{ComputerState, Power, LOW_BATTERY_PERCENT};
pub use words::waits_for_power;

/// Where the computer's state is read from. Each read asks afresh: the state changes
/// under Sidecar (a charger plugged in, the user back at the keyboard).
pub trait Computer: Send + Sync {
    /// What is known now; an unknown part is `None`, never a guess.
    fn state(&self) -> BoxFuture<'_, ComputerState>;
}

/// This computer's adapter (on a platform without one yet, a computer that knows nothing,
/// so nothing waits for it).
pub fn this_computer() -> Arc<dyn Computer> {
    #[cfg(target_os = "linux")]
    {
        Arc::new(Linux::new())
    }
    #[cfg(not(target_os = "linux"))]
    {
        Arc::new(FakeComputer::default())
    }
}

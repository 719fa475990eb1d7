//! The desktop's own features, which only the window shows: where the character stands
//! on each screen (`character`) and the look for updates with its rules for where they
//! come from (`updates`), and the app lock (`lock`: a passphrase, idle minutes, the
//! window's commands refused while locked). `words` is what an update says, in both
//! languages.
//!
//! The package is `sidecar-desktop-features` because `sidecar-desktop` is the Tauri
//! shell; this crate has no Tauri in it, and the shell only adapts it.

mod character;
mod lock;
mod updates;
mod words;

// The face: what the crates above, the faces and the tests name.
pub use character::place::{grow as grow_character, Grown, Screen, Size, Spot, WindowFacts, MARGIN};
pub use character::CharacterPlaces;
pub use lock::{AppLock, LockError, LockView, LOCK_MIN_CHARS};
pub use updates::events::UpdateEvent;
pub use updates::source::{Offer, PackageFormat, UpdateFailure, UpdateSource};
pub use updates::{UpdateState, Updates, UpdatesError, UpdatesView, BUILT_ADDRESS};

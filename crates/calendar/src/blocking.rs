//! Work too long for the app's async threads (walking thousands of series, splitting and
//! reading a large feed), run on tokio's blocking pool so a Stop, a tool's time limit or a
//! reminder due goes on meanwhile.

use crate::error::CalendarError;

/// Said when work on the blocking pool was dropped because the app is closing.
pub(crate) fn closing() -> CalendarError {
    CalendarError::Unreachable("Sidecar closed while reading the calendar".into())
}

/// `work` on tokio's blocking pool. A panic there stays a panic; work the runtime's
/// shutdown dropped gives the empty value.
pub(crate) async fn off_workers<T: Default + Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> T {
    match tokio::task::spawn_blocking(work).await {
        Ok(done) => done,
        Err(error) if error.is_panic() => std::panic::resume_unwind(error.into_panic()),
        Err(_) => T::default(),
    }
}

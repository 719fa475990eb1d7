//! The reminder scheduler: sleeps until the next reminder is due, delivers it, and
//! records the delivery only after the notification was shown.
//!
//! - It re-arms when reminders change (`Scheduler::waker`), and never sleeps longer
//!   than `MAX_SLEEP`, so a suspended machine or a wall-clock jump is noticed within
//!   that time (the due check reads the wall clock, not a monotonic timer).
//! - A reminder set by another process (`sidecar remind` beside the app, a phone
//!   channel served elsewhere) cannot notify it: every `LOOK_ELSEWHERE` it asks the
//!   store whether anyone committed (`Reminders::changed_elsewhere`), and re-arms then.
//! - Each occurrence has an idempotency key (reminder id and due time): one already
//!   recorded as delivered is never shown again.
//! - A reminder left attempting by a crash, or that fell due while the app was closed,
//!   is delivered once, marked late.
//! - Showing is noted before it starts (`begin_showing`), so an occurrence a crash cut
//!   short between showing and recording is known at the next start: it is shown again
//!   once more, marked as possibly repeated (its chat line is keyed by the occurrence,
//!   so the chat never shows it twice). After `MAX_SHOWS` starts it is failed and the
//!   user told, so a crash loop cannot show one reminder forever; fresh occurrences
//!   go first, so a stuck one never holds the others back.
//! - One process owns the scheduler: `SchedulerLock` is an exclusive lock on a file in
//!   the data dir (the desktop app and `sidecar daemon` cannot both deliver).

use crate::rows::RemindersStore;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Utc};
use futures_util::future::BoxFuture;
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;
use tracing::Instrument;

use crate::rows::Reminder;
use sidecar_domain::Clock;
use sidecar_store::Store;
use sidecar_store::StoreError;

/// Longest sleep between two looks at the wall clock.
pub(crate) const MAX_SLEEP: Duration = Duration::from_secs(30);
/// How often the store is asked whether another process changed it: the longest a
/// reminder set elsewhere can wait beyond its time.
pub(crate) const LOOK_ELSEWHERE: Duration = Duration::from_secs(1);
/// Delivered this long after its time, a reminder is marked late.
pub(crate) const LATE_AFTER: chrono::Duration = chrono::Duration::seconds(60);
/// A failed delivery is tried again after this long.
const RETRY_AFTER: Duration = Duration::from_secs(10);
/// Starts of one occurrence's showing before it is given up as failed.
pub const MAX_SHOWS: i64 = 3;

/// Shows a reminder (OS notification, chat message…). `Ok` only once the user can see it.
pub trait Deliver: Send + Sync {
    /// `repeated`: a crash cut an earlier showing short; the user may have seen it.
    fn deliver<'a>(&'a self, reminder: &'a Reminder, late: bool, repeated: bool) -> BoxFuture<'a, Result<(), crate::error::NotShown>>;
    /// The delivery is recorded (the reminder moved on to delivered or its next time).
    fn recorded(&self, _reminder: &Reminder) {}
    /// The reminder was given up after `MAX_SHOWS` cut-short showings: tell the user.
    fn gave_up<'a>(&'a self, _reminder: &'a Reminder) -> BoxFuture<'a, ()> {
        Box::pin(async {})
    }
}

/// Where reminders live: the store, or a stand-in for timing tests.
pub trait Reminders: Send + Sync {
    fn next_due(&self) -> BoxFuture<'_, Result<Option<DateTime<Utc>>, StoreError>>;
    fn claim_due(&self, at: DateTime<Utc>) -> BoxFuture<'_, Result<Vec<Reminder>, StoreError>>;
    fn was_delivered<'a>(&'a self, key: &'a str) -> BoxFuture<'a, Result<bool, StoreError>>;
    fn finish<'a>(&'a self, reminder: &'a Reminder, at: DateTime<Utc>, late: bool, next: Option<DateTime<Utc>>) -> BoxFuture<'a, Result<(), StoreError>>;
    fn release(&self, id: i64) -> BoxFuture<'_, Result<(), StoreError>>;
    fn begin_showing(&self, id: i64) -> BoxFuture<'_, Result<(), StoreError>>;
    fn fail(&self, id: i64) -> BoxFuture<'_, Result<(), StoreError>>;
    /// Whether anything changed the reminders since the last call, from any process.
    /// Stand-ins that only this process changes need not say.
    fn changed_elsewhere(&self) -> BoxFuture<'_, Result<bool, StoreError>> {
        Box::pin(async { Ok(false) })
    }
}

/// The store, with a connection of its own watching the file for other processes'
/// commits.
pub struct StoreReminders {
    store: Store,
    watch: tokio::sync::Mutex<Option<sidecar_store::DataVersion>>,
}

impl StoreReminders {
    pub fn new(store: Store) -> Self {
        Self { store, watch: tokio::sync::Mutex::new(None) }
    }
}

impl Reminders for StoreReminders {
    fn next_due(&self) -> BoxFuture<'_, Result<Option<DateTime<Utc>>, StoreError>> {
        Box::pin(async move { self.store.reminder_table().next_due().await })
    }
    fn claim_due(&self, at: DateTime<Utc>) -> BoxFuture<'_, Result<Vec<Reminder>, StoreError>> {
        Box::pin(async move { self.store.reminder_table().claim_due(at).await })
    }
    fn was_delivered<'a>(&'a self, key: &'a str) -> BoxFuture<'a, Result<bool, StoreError>> {
        Box::pin(async move { self.store.reminder_table().was_delivered(key).await })
    }
    fn finish<'a>(&'a self, reminder: &'a Reminder, at: DateTime<Utc>, late: bool, next: Option<DateTime<Utc>>) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move { self.store.reminder_table().finish_delivery(reminder, at, late, next).await })
    }
    fn release(&self, id: i64) -> BoxFuture<'_, Result<(), StoreError>> {
        Box::pin(async move { self.store.reminder_table().release_reminder(id).await })
    }
    fn begin_showing(&self, id: i64) -> BoxFuture<'_, Result<(), StoreError>> {
        Box::pin(async move { self.store.reminder_table().begin_showing(id).await })
    }
    fn fail(&self, id: i64) -> BoxFuture<'_, Result<(), StoreError>> {
        Box::pin(async move { self.store.reminder_table().fail_reminder(id).await })
    }
    fn changed_elsewhere(&self) -> BoxFuture<'_, Result<bool, StoreError>> {
        Box::pin(async move {
            let mut watch = self.watch.lock().await;
            if watch.is_none() {
                // The first look opens the connection: what came before is already read.
                *watch = Some(sidecar_store::DataVersion::open(&self.store).await?);
                return Ok(false);
            }
            watch.as_mut().expect("opened above").changed().await
        })
    }
}

pub struct Scheduler {
    reminders: Arc<dyn Reminders>,
    deliver: Arc<dyn Deliver>,
    clock: Clock,
    wake: Arc<Notify>,
}

/// The next occurrence of a repeating reminder after `now` (missed ones are not
/// replayed: one late delivery stands for them).
fn next_occurrence(reminder: &Reminder, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
    let rule = reminder.rrule.as_deref()?;
    let start = reminder.series_start.unwrap_or(reminder.due_at);
    sidecar_dates::next_after(rule, start, reminder.zone.0, now.max(reminder.due_at))
}

impl Scheduler {
    /// `wake` is notified after a reminder is added, cancelled or snoozed
    /// (`Companion::reminders_changed`).
    pub fn new(reminders: Arc<dyn Reminders>, deliver: Arc<dyn Deliver>, clock: Clock, wake: Arc<Notify>) -> Self {
        Self { reminders, deliver, clock, wake }
    }

    /// Delivers every reminder due now (and any a crash left attempting). Returns how
    /// many were shown and how many could not be (they stay due).
    pub async fn deliver_due(&self) -> Result<(usize, usize), StoreError> {
        let now = self.clock.now();
        let (mut shown, mut failed) = (0, 0);
        for reminder in self.reminders.claim_due(now).await? {
            let late = now - reminder.due_at > LATE_AFTER;
            let next = next_occurrence(&reminder, now);
            if self.reminders.was_delivered(&reminder.idempotency_key()).await? {
                // Shown before a crash cut the bookkeeping short: finish it, show nothing.
                self.reminders.finish(&reminder, now, late, next).await?;
                self.deliver.recorded(&reminder);
                continue;
            }
            let repeated = reminder.shown_attempts > 0;
            let span = tracing::info_span!("delivery", reminder_id = reminder.id, key = %reminder.idempotency_key(), late, repeated);
            if reminder.shown_attempts >= MAX_SHOWS {
                span.in_scope(|| tracing::warn!(starts = reminder.shown_attempts, "showing was cut short too often; given up"));
                // Told first, then marked failed: Sidecar stopped between the two tells
                // again at its next start (the chat keeps one line per occurrence) instead
                // of never (the crash soak caught one never told).
                self.deliver.gave_up(&reminder).instrument(span).await;
                self.reminders.fail(reminder.id).await?;
                continue;
            }
            self.reminders.begin_showing(reminder.id).await?;
            span.in_scope(|| tracing::info!(attempt = reminder.shown_attempts + 1, "reminder attempting delivery"));
            match self.deliver.deliver(&reminder, late, repeated).instrument(span.clone()).await {
                Ok(()) => {
                    // The window a crash can repeat a notification in: shown, not yet recorded.
                    let shown_at = std::time::Instant::now();
                    self.reminders.finish(&reminder, self.clock.now(), late, next).await?;
                    let window_us = shown_at.elapsed().as_micros() as u64;
                    self.deliver.recorded(&reminder);
                    span.in_scope(|| tracing::info!(window_us, "reminder delivered"));
                    shown += 1;
                }
                Err(error) => {
                    span.in_scope(|| tracing::warn!(%error, "reminder could not be shown; will try again"));
                    self.reminders.release(reminder.id).await?;
                    failed += 1;
                }
            }
        }
        Ok((shown, failed))
    }

    /// How long to sleep from now: until the next due reminder, at most `MAX_SLEEP`.
    async fn wait(&self) -> Result<Duration, StoreError> {
        let now = self.clock.now();
        Ok(match self.reminders.next_due().await? {
            Some(due) if due <= now => Duration::ZERO,
            Some(due) => (due - now).to_std().unwrap_or(MAX_SLEEP).min(MAX_SLEEP),
            None => MAX_SLEEP,
        })
    }

    /// Runs until `cancel`: delivers what is due (late ones first, at start), then
    /// sleeps until the next one or a change.
    pub async fn run(self, cancel: CancellationToken) {
        loop {
            // Marked before reading the store: a commit from elsewhere after this point
            // is seen at the next look (this pass's own writes cost one re-read at most).
            let _ = self.reminders.changed_elsewhere().await;
            let pause = match self.deliver_due().await {
                Ok((_, failed)) => match self.wait().await {
                    // Still due right after a pass: a delivery failed; pace the retries.
                    Ok(wait) if wait.is_zero() && failed > 0 => RETRY_AFTER,
                    Ok(wait) => wait,
                    Err(_) => RETRY_AFTER,
                },
                Err(error) => {
                    tracing::warn!(%error, "reminder scheduler could not read the store");
                    RETRY_AFTER
                }
            };
            if !self.sleep(pause, &cancel).await {
                return;
            }
        }
    }

    /// Sleeps `pause`, or until a change here, a change from another process that
    /// brings the next reminder closer, or `cancel` (then false).
    async fn sleep(&self, pause: Duration, cancel: &CancellationToken) -> bool {
        let mut until = tokio::time::Instant::now() + pause;
        loop {
            let look = tokio::time::Instant::now() + LOOK_ELSEWHERE;
            tokio::select! {
                _ = tokio::time::sleep_until(until) => return true,
                _ = self.wake.notified() => return true,
                _ = cancel.cancelled() => return false,
                _ = tokio::time::sleep_until(look), if look < until => {
                    // Re-read only when the file changed: an idle look writes nothing.
                    if let Ok(true) = self.reminders.changed_elsewhere().await {
                        match self.wait().await {
                            Ok(wait) => until = until.min(tokio::time::Instant::now() + wait),
                            Err(_) => return true,
                        }
                    }
                }
            }
        }
    }
}

/// Exclusive ownership of the scheduler for this data dir, held while the value lives.
pub struct SchedulerLock(#[allow(dead_code)] std::fs::File);

impl SchedulerLock {
    /// `None` when another process (the app or the daemon) already runs the scheduler.
    pub fn try_acquire(data_dir: &Path) -> std::io::Result<Option<Self>> {
        std::fs::create_dir_all(data_dir)?;
        let file = std::fs::OpenOptions::new().create(true).truncate(false).write(true).open(data_dir.join("scheduler.lock"))?;
        match file.try_lock() {
            Ok(()) => Ok(Some(Self(file))),
            Err(std::fs::TryLockError::WouldBlock) => Ok(None),
            Err(std::fs::TryLockError::Error(e)) => Err(e),
        }
    }
}

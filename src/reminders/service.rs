//! The reminder service: sets, cancels, snoozes, lists and finds reminders, and runs
//! the scheduler that delivers them through the message router. The chat tools, the
//! Reminders page and the CLI all come here; every change wakes the scheduler and
//! tells the lists to refresh.

use std::future::Future;
use std::path::PathBuf;
use std::sync::Arc;

use tokio::sync::Notify;

use super::delivery::RoutedReminders;
use super::scheduler::{Scheduler, SchedulerLock};
use super::{when, Overview, WhenPreview};
use crate::clock::Clock;
use crate::error::CompanionError;
use crate::events::{CoreEvent, EventBus};
use crate::proactive::router::MessageRouter;
use crate::store::reminders::{NewReminder, Reminder, ReminderState};
use crate::store::Store;
use crate::words::Lang;

/// Longest snooze, so a typo does not hide a reminder for years.
const MAX_SNOOZE_MINUTES: u32 = 7 * 24 * 60;

/// The snooze choices offered everywhere (a notification's buttons, the Reminders
/// page), in minutes.
pub const SNOOZE_CHOICES: [u32; 3] = [5, 15, 60];

/// Reminders: set, cancel, snooze, list and find them, and the scheduler that
/// delivers them through the message router.
pub struct ReminderService {
    store: Store,
    clock: Clock,
    /// Notified on every change, so the scheduler re-arms.
    changed: Arc<Notify>,
    /// Told of every change, so lists of reminders refresh.
    events: EventBus,
    router: MessageRouter,
    data_dir: PathBuf,
    lang: Lang,
}

impl ReminderService {
    pub fn new(store: Store, clock: Clock, events: EventBus, router: MessageRouter, data_dir: PathBuf, lang: Lang) -> Self {
        Self { store, clock, changed: Arc::new(Notify::new()), events, router, data_dir, lang }
    }

    /// "[id:3] "call mum" — Thursday 2026-11-19 09:00 (Europe/Madrid), repeats FREQ=…"
    pub fn describe(&self, r: &Reminder) -> String {
        let zone = r.zone.0;
        let local = r.due_at.with_timezone(&zone).format("%A %Y-%m-%d %H:%M");
        let repeats = r.rrule.as_deref().map(|rule| format!(", repeats {rule}")).unwrap_or_default();
        format!("[id:{}] \"{}\" — {local} ({}){repeats}", r.id, r.message, zone.name())
    }

    /// Sets a reminder from the user's words for when; returns it and any note about
    /// how the time was read (a DST shift, an ambiguous hour).
    pub async fn set(&self, message: &str, when_text: &str) -> Result<(Reminder, Option<String>), CompanionError> {
        if message.trim().is_empty() {
            return Err(CompanionError::EmptyMessage);
        }
        let zone = self.clock.zone();
        let parsed = when::parse(when_text, self.clock.now(), zone).map_err(|e| CompanionError::InvalidInput(e.to_string()))?;
        let repeat = parsed.repeat.map(|r| serde_json::to_string(&r).expect("a repeat rule serializes"));
        let rrule = parsed.repeat.map(|r| r.rrule());
        let stored = self
            .store
            .reminder_table()
            .add_reminder(NewReminder {
                message: message.trim(),
                due_at: parsed.at,
                zone: zone.name(),
                repeat: repeat.as_deref(),
                rrule: rrule.as_deref(),
            })
            .await?;
        self.changed();
        Ok((stored, parsed.note))
    }

    /// Cancels a pending reminder; the error says why not.
    pub async fn cancel(&self, id: i64) -> Result<Reminder, CompanionError> {
        let reminder = self.store.reminder_table().reminder(id).await?;
        if !self.store.reminder_table().cancel_reminder(id).await? {
            return Err(CompanionError::InvalidInput(format!("there is no pending reminder with id {id}; list_reminders shows them")));
        }
        self.changed();
        reminder.ok_or_else(|| CompanionError::InvalidInput(format!("reminder {id} disappeared")))
    }

    /// Shows a reminder again `minutes` from now. A repeating one keeps its series: the
    /// snooze is a one-off copy, so the next regular occurrence still comes.
    pub async fn snooze(&self, id: i64, minutes: u32) -> Result<Reminder, CompanionError> {
        if minutes == 0 || minutes > MAX_SNOOZE_MINUTES {
            return Err(CompanionError::InvalidInput(format!("minutes must be from 1 to {MAX_SNOOZE_MINUTES}")));
        }
        let until = self.clock.now() + chrono::Duration::minutes(i64::from(minutes));
        let Some(reminder) = self.store.reminder_table().reminder(id).await? else {
            return Err(CompanionError::InvalidInput(format!("there is no reminder with id {id} to snooze")));
        };
        let snoozed = if reminder.repeat.is_some() {
            self.store
                .reminder_table()
                .add_reminder(NewReminder { message: &reminder.message, due_at: until, zone: reminder.zone.0.name(), repeat: None, rrule: None })
                .await?
        } else {
            if !self.store.reminder_table().snooze_reminder(id, until).await? {
                return Err(CompanionError::InvalidInput(format!("reminder {id} was cancelled; it cannot be snoozed")));
            }
            self.store.reminder_table().reminder(id).await?.ok_or_else(|| CompanionError::InvalidInput(format!("reminder {id} disappeared")))?
        };
        self.changed();
        Ok(snoozed)
    }

    fn changed(&self) {
        self.changed.notify_one();
        self.events.publish(CoreEvent::RemindersChanged);
    }


    /// The scheduler task for this data dir, delivering through the message router;
    /// `None` when another process (the app or the daemon) already owns it. Spawn
    /// the future on the caller's runtime; it holds the lock while it runs.
    pub fn scheduler(&self) -> std::io::Result<Option<impl Future<Output = ()> + Send + 'static>> {
        let deliver = Arc::new(RoutedReminders { router: self.router.clone(), store: self.store.clone(), events: self.events.clone(), lang: self.lang });
        let Some(lock) = SchedulerLock::try_acquire(&self.data_dir)? else {
            return Ok(None);
        };
        let scheduler = Scheduler::new(Arc::new(self.store.clone()), deliver, self.clock.clone(), self.changed.clone());
        Ok(Some(async move {
            let _lock = lock;
            scheduler.run(tokio_util::sync::CancellationToken::new()).await
        }))
    }

    /// Cancels every pending reminder (`/reminders clear`); how many.
    pub async fn clear(&self) -> Result<usize, CompanionError> {
        let cancelled = self.store.reminder_table().cancel_pending_reminders().await? as usize;
        self.changed();
        Ok(cancelled)
    }

    /// Pending reminders, soonest first.
    pub async fn pending(&self) -> Result<Vec<Reminder>, CompanionError> {
        Ok(self.store.reminder_table().pending_reminders().await?)
    }

    /// Reminders whose text matches `query`.
    pub async fn find(&self, query: &str) -> Result<Vec<Reminder>, CompanionError> {
        Ok(self.store.reminder_table().find_reminders(query).await?)
    }

    /// What a scheduler waits on besides the clock: notified on every change.
    pub fn changed_signal(&self) -> Arc<Notify> {
        self.changed.clone()
    }

    pub async fn overview(&self) -> Result<Overview, CompanionError> {
        let mut overview = Overview {
            zone: self.clock.zone().name().to_string(),
            snooze_choices: SNOOZE_CHOICES.to_vec(),
            ..Overview::default()
        };
        let all = self.store.reminder_table().reminders().await?;
        // A repeating reminder that came late keeps its series pending; its late
        // occurrences are shown too, from the deliveries.
        for (id, due_at) in self.store.reminder_table().late_deliveries().await? {
            let listed = overview.late.iter().any(|l| l.id == id);
            if let Some(reminder) = all.iter().find(|r| r.id == id && !listed && !(r.state == ReminderState::Delivered && r.late)) {
                overview.late.push(Reminder { due_at, late: true, ..reminder.clone() });
            }
        }
        for reminder in all {
            match reminder.state {
                ReminderState::Pending | ReminderState::Attempting if reminder.repeat.is_some() => overview.recurring.push(reminder),
                ReminderState::Pending | ReminderState::Attempting => overview.upcoming.push(reminder),
                ReminderState::Delivered if reminder.late => overview.late.push(reminder),
                ReminderState::Delivered => overview.delivered.push(reminder),
                ReminderState::Cancelled | ReminderState::Missed => {}
            }
        }
        overview.delivered.sort_by(|a, b| b.delivered_at.cmp(&a.delivered_at));
        overview.late.sort_by(|a, b| b.due_at.cmp(&a.due_at));
        Ok(overview)
    }

    /// Reads a "when" as the Reminders page's field is typed, in the user's zone.
    pub fn preview(&self, text: &str) -> WhenPreview {
        let zone = self.clock.zone();
        match when::parse(text, self.clock.now(), zone) {
            Ok(parsed) => WhenPreview::Ok {
                local: crate::clock::describe(parsed.at, zone),
                utc: crate::store::utc(parsed.at),
                zone: zone.name().to_string(),
                rrule: parsed.repeat.map(|r| r.rrule()),
                note: parsed.note,
            },
            Err(error) => WhenPreview::Error { error: error.error, suggestion: Some(error.suggestion) },
        }
    }
}

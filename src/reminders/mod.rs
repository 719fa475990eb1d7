//! Reminders: reading "when" from the user's words (`when`) and delivering them on
//! time, once (`scheduler`). The tools, the notifier and the UI build on these.

pub mod scheduler;
pub mod when;

use std::future::Future;
use std::sync::Arc;

use crate::companion::{Companion, CompanionError};
use crate::store::reminders::Reminder;
use scheduler::{Scheduler, SchedulerLock};

/// The reminders a Reminders page shows, in its groups.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct Overview {
    /// One-off reminders still to come, soonest first.
    pub upcoming: Vec<Reminder>,
    /// Repeating reminders, by their next occurrence.
    pub recurring: Vec<Reminder>,
    /// Shown on time, most recent first.
    pub delivered: Vec<Reminder>,
    /// Shown after their time (Sidecar was closed or crashed), most recent first.
    pub late: Vec<Reminder>,
    /// The user's zone, in which the times are shown.
    pub zone: String,
}

/// How the "when" field reads as the user types.
#[derive(Debug, Clone, serde::Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum WhenPreview {
    Ok { local: String, utc: String, zone: String, rrule: Option<String>, note: Option<String> },
    Error { error: String, suggestion: Option<String> },
}

impl Companion {
    /// The scheduler task for this data dir, delivering through the message router;
    /// `None` when another process (the app or the daemon) already owns it. Spawn
    /// the future on the caller's runtime; it holds the lock while it runs.
    pub fn reminder_scheduler(&self) -> std::io::Result<Option<impl Future<Output = ()> + Send + 'static>> {
        let deliver = Arc::new(crate::proactive::sinks::RoutedReminders {
            router: self.router().clone(),
            store: self.store().clone(),
            events: self.events().clone(),
        });
        let Some(lock) = SchedulerLock::try_acquire(self.data_dir())? else {
            return Ok(None);
        };
        let scheduler =
            Scheduler::new(Arc::new(self.store().clone()), deliver, self.clock.clone(), self.reminders_changed());
        Ok(Some(async move {
            let _lock = lock;
            scheduler.run(tokio_util::sync::CancellationToken::new()).await
        }))
    }

    /// Sets a reminder from the user's words (the Reminders page, `sidecar remind`).
    pub async fn add_reminder(&self, message: &str, when_text: &str) -> Result<(Reminder, Option<String>), CompanionError> {
        self.reminder_desk.set(message, when_text).await.map_err(CompanionError::InvalidInput)
    }

    pub async fn cancel_reminder(&self, id: i64) -> Result<Reminder, CompanionError> {
        self.reminder_desk.cancel(id).await.map_err(CompanionError::InvalidInput)
    }

    /// Shows a reminder again in `minutes` (the page, a notification's button).
    pub async fn snooze_reminder(&self, id: i64, minutes: u32) -> Result<Reminder, CompanionError> {
        self.reminder_desk.snooze(id, minutes).await.map_err(CompanionError::InvalidInput)
    }

    /// Cancels every pending reminder (`/reminders clear`); how many.
    pub async fn clear_reminders(&self) -> Result<usize, CompanionError> {
        let cancelled = self.store().cancel_pending_reminders().await? as usize;
        self.reminders_changed().notify_one();
        self.events().publish(crate::events::CoreEvent::RemindersChanged);
        Ok(cancelled)
    }

    /// One line describing a reminder in the user's zone.
    pub fn describe_reminder(&self, reminder: &Reminder) -> String {
        self.reminder_desk.describe(reminder)
    }

    pub async fn reminders_overview(&self) -> Result<Overview, CompanionError> {
        let mut overview = Overview { zone: self.zone().name().to_string(), ..Overview::default() };
        let all = self.store().reminders().await?;
        // A repeating reminder that came late keeps its series pending; its late
        // occurrences are shown too, from the deliveries.
        for (id, due_at) in self.store().late_deliveries().await? {
            let listed = overview.late.iter().any(|l| l.id == id);
            if let Some(reminder) = all.iter().find(|r| r.id == id && !listed && !(r.state == "delivered" && r.late)) {
                overview.late.push(Reminder { due_at, late: true, ..reminder.clone() });
            }
        }
        for reminder in all {
            match reminder.state.as_str() {
                "pending" | "attempting" if reminder.repeat.is_some() => overview.recurring.push(reminder),
                "pending" | "attempting" => overview.upcoming.push(reminder),
                "delivered" if reminder.late => overview.late.push(reminder),
                "delivered" => overview.delivered.push(reminder),
                _ => {}
            }
        }
        overview.delivered.sort_by(|a, b| b.delivered_at.cmp(&a.delivered_at));
        overview.late.sort_by(|a, b| b.due_at.cmp(&a.due_at));
        Ok(overview)
    }

    /// Reads a "when" as the Reminders page's field is typed, in the user's zone.
    pub fn preview_when(&self, text: &str) -> WhenPreview {
        let zone = self.zone();
        match when::parse(text, (self.clock)(), zone) {
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

/// How a delivered reminder reads, in the user's language: the notification's title
/// and body, and the line in the chat. Words rather than an emoji: not every desktop
/// has an emoji font.
pub struct ReminderText {
    pub title: String,
    pub body: String,
    pub chat: String,
}

impl ReminderText {
    pub fn new(reminder: &Reminder, late: bool) -> Self {
        let es = crate::locale::Lang::from_env() == crate::locale::Lang::Es;
        let zone: chrono_tz::Tz = reminder.zone.parse().unwrap_or(chrono_tz::UTC);
        let due = reminder.due().with_timezone(&zone).format("%H:%M");
        let message = &reminder.message;
        let (title, chat) = match (late, es) {
            (false, false) => ("Sidecar reminder".to_string(), format!("Reminder: {message}")),
            (false, true) => ("Recordatorio de Sidecar".to_string(), format!("Recordatorio: {message}")),
            (true, false) => (
                "Sidecar reminder (late)".to_string(),
                format!("Reminder: {message} (late: it was due at {due}, while Sidecar was not running)"),
            ),
            (true, true) => (
                "Recordatorio de Sidecar (con retraso)".to_string(),
                format!("Recordatorio: {message} (con retraso: era a las {due} y Sidecar no estaba abierto)"),
            ),
        };
        Self { title, body: message.clone(), chat }
    }
}

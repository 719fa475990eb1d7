//! Delivers reminders on the desktop: an OS notification (click opens Sidecar), then
//! the reminder in the chat. The core's scheduler decides when.

use std::sync::Arc;

use sidecar::reminders::scheduler::{BoxFuture, Deliver};
use sidecar::reminders::ReminderText;
use sidecar::store::reminders::Reminder;
use sidecar::Companion;
use tauri::AppHandle;

use crate::notifier;

pub struct DesktopDelivery {
    pub app: AppHandle,
    pub companion: Arc<Companion>,
}

impl Deliver for DesktopDelivery {
    fn deliver<'a>(&'a self, reminder: &'a Reminder, late: bool) -> BoxFuture<'a, Result<(), String>> {
        Box::pin(async move {
            let app = self.app.clone();
            let text = ReminderText::new(reminder, late);
            // notify-rust blocks on D-Bus.
            tauri::async_runtime::spawn_blocking(move || notifier::notify(&app, &text.title, &text.body))
                .await
                .map_err(|e| e.to_string())??;
            // The notification was shown: a failure to post in the chat must not show it again.
            if let Err(error) = self.companion.post_reminder(reminder, late).await {
                tracing::warn!(%error, reminder = reminder.id, "reminder shown but not posted in the chat");
            }
            Ok(())
        })
    }
}

/// Starts the scheduler unless another Sidecar process owns it.
pub fn start(app: &AppHandle, companion: Arc<Companion>) {
    let delivery = Arc::new(DesktopDelivery { app: app.clone(), companion: companion.clone() });
    match companion.reminder_scheduler(delivery) {
        Ok(Some(task)) => {
            tauri::async_runtime::spawn(task);
        }
        Ok(None) => tracing::warn!("another Sidecar process delivers reminders for this data folder"),
        Err(error) => tracing::warn!(%error, "could not start the reminder scheduler"),
    }
}

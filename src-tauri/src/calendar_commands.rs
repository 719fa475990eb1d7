//! IPC commands for Settings → Calendar. Each a few lines calling the core.

use sidecar::calendar::mirror::MirrorReport;
use sidecar::calendar::service::CalendarView;
use sidecar::calendar::sync::SyncReport;

use crate::commands::{CommandError, Core, SaidBy};

#[tauri::command]
pub async fn calendar_view(core: Core<'_>) -> Result<CalendarView, CommandError> {
    core.calendar().view().await.said(&core)
}

#[tauri::command]
pub async fn connect_calendar(core: Core<'_>, url: String, username: String, password: String) -> Result<CalendarView, CommandError> {
    core.connect_calendar(&url, &username, &password).await.said(&core)
}

#[tauri::command]
pub async fn choose_calendars(core: Core<'_>, read: Vec<i64>, writable: Option<i64>) -> Result<CalendarView, CommandError> {
    core.calendar().choose(&read, writable).await.said(&core)
}

#[tauri::command]
pub async fn sync_calendars(core: Core<'_>) -> Result<Vec<SyncReport>, CommandError> {
    core.sync_calendars_now().await.said(&core)
}

#[tauri::command]
pub async fn disconnect_calendar(core: Core<'_>) -> Result<CalendarView, CommandError> {
    core.disconnect_calendar().await.said(&core)
}

#[tauri::command]
pub async fn subscribe_calendar(core: Core<'_>, url: String) -> Result<CalendarView, CommandError> {
    core.subscribe_calendar(&url).await.said(&core)
}

#[tauri::command]
pub async fn unsubscribe_calendar(core: Core<'_>, id: i64) -> Result<CalendarView, CommandError> {
    core.unsubscribe_calendar(id).await.said(&core)
}

#[tauri::command]
pub async fn mirror_reminders(core: Core<'_>, on: bool) -> Result<(CalendarView, MirrorReport), CommandError> {
    core.set_mirror_reminders(on).await.said(&core)
}

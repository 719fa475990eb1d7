//! The window's calendar commands (`commands` says how the table serves them).

use crate::commands::{commands, CommandError, SaidBy};
use sidecar_calendar::CalendarView;
use sidecar_calendar::MirrorReport;
use sidecar_calendar::SyncReport;

commands! {
    async fn calendar_view(core) -> Result<CalendarView, CommandError> {
        core.calendar().view().await.said(&core)
    }

    async fn connect_calendar(core, url: String, username: String, password: String) -> Result<CalendarView, CommandError> {
        core.connect_calendar(&url, &username, &password).await.said(&core)
    }

    async fn choose_calendars(core, read: Vec<i64>, writable: Option<i64>) -> Result<CalendarView, CommandError> {
        core.calendar().choose(&read, writable).await.said(&core)
    }

    async fn sync_calendars(core) -> Result<Vec<SyncReport>, CommandError> {
        core.sync_calendars_now().await.said(&core)
    }

    async fn disconnect_calendar(core) -> Result<CalendarView, CommandError> {
        core.disconnect_calendar().await.said(&core)
    }

    async fn subscribe_calendar(core, url: String) -> Result<CalendarView, CommandError> {
        core.subscribe_calendar(&url).await.said(&core)
    }

    async fn unsubscribe_calendar(core, id: i64) -> Result<CalendarView, CommandError> {
        core.unsubscribe_calendar(id).await.said(&core)
    }

    async fn mirror_reminders(core, on: bool) -> Result<(CalendarView, MirrorReport), CommandError> {
        core.set_mirror_reminders(on).await.said(&core)
    }
}

//! The calendar in the assembly: the account's calendars kept up to date by a loop of
//! its own (every quarter of an hour, and at start), and read by the brief.

use std::sync::Arc;
use std::time::Duration;

use super::Companion;
use crate::calendar::service::{CalendarService, CalendarView};

/// How often the calendars are brought up to date (a sync whose ctag did not move costs
/// one request per calendar).
pub const SYNC_EVERY: Duration = Duration::from_secs(15 * 60);

impl Companion {
    /// The CalDAV account: connect, choose calendars, sync, events, free time.
    pub fn calendar(&self) -> &Arc<CalendarService> {
        &self.calendar
    }

    /// Connects the CalDAV account at `url` (see [`CalendarService::connect`]); its
    /// tools are offered from now on.
    pub async fn connect_calendar(&self, url: &str, username: &str, password: &str) -> Result<CalendarView, crate::CompanionError> {
        let view = self.calendar.connect(url, username, password, self.preferences.lang()).await?;
        Ok(self.offer_calendar_tools(view))
    }

    /// Forgets the account; its tools are no longer offered (reading stays while feeds
    /// are subscribed).
    pub async fn disconnect_calendar(&self) -> Result<CalendarView, crate::CompanionError> {
        self.calendar.disconnect().await?;
        Ok(self.offer_calendar_tools(self.calendar.view().await?))
    }

    /// Subscribes to an `.ics` feed by its address (see [`CalendarService::subscribe`]).
    pub async fn subscribe_calendar(&self, url: &str) -> Result<CalendarView, crate::CompanionError> {
        let view = self.calendar.subscribe(url, self.preferences.lang()).await?;
        Ok(self.offer_calendar_tools(view))
    }

    /// Forgets a subscribed feed.
    pub async fn unsubscribe_calendar(&self, calendar_id: i64) -> Result<CalendarView, crate::CompanionError> {
        let view = self.calendar.unsubscribe(calendar_id).await?;
        Ok(self.offer_calendar_tools(view))
    }

    /// Offers the calendar tools `view` allows (see [`crate::calendar::tools::offered`]).
    fn offer_calendar_tools(&self, view: CalendarView) -> CalendarView {
        let (tools, board) = &self.calendar_tools;
        board.set("calendar", crate::calendar::tools::offered(&view, tools));
        view
    }

    /// Syncs the calendars now and every [`SYNC_EVERY`]; a failure is kept with each
    /// calendar (Settings shows it) and the last copy is used meanwhile.
    pub(crate) async fn sync_calendars(self: Arc<Self>) {
        loop {
            if let Err(error) = self.calendar.sync_all(self.preferences.lang()).await {
                tracing::warn!(%error, "the calendars could not all be synced");
            }
            tokio::time::sleep(SYNC_EVERY).await;
        }
    }

    /// Today's events from now on, as a brief says them ("09:00–10:00 Dentist").
    pub(crate) async fn todays_events(&self) -> Vec<String> {
        let (now, zone) = (self.clock.now(), self.clock.zone());
        let end = self.clock.start_of(self.clock.local_today() + chrono::Duration::days(1));
        let found = self.calendar.between(now, end).await.unwrap_or_default();
        found
            .iter()
            .map(|o| match o.all_day {
                true => format!("all day: {}", o.summary),
                false => format!("{}–{} {}", o.start.with_timezone(&zone).format("%H:%M"), o.end.with_timezone(&zone).format("%H:%M"), o.summary),
            })
            .collect()
    }
}

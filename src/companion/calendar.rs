//! The calendar in the assembly: the account's calendars kept up to date by a loop of
//! its own (every quarter of an hour, and at start), and read by the brief.

use std::sync::Arc;
use std::time::Duration;

use super::Companion;
use sidecar_calendar::CalendarService;
use sidecar_calendar::CalendarView;

/// How often the calendars are brought up to date (a sync whose ctag did not move costs
/// one request per calendar).
pub(super) const SYNC_EVERY: Duration = Duration::from_secs(15 * 60);
/// How long reminders must be still before their to-dos are written.
const MIRROR_SETTLE: Duration = Duration::from_millis(500);

impl Companion {
    /// The CalDAV account: connect, choose calendars, sync, events, free time.
    pub fn calendar(&self) -> &Arc<CalendarService> {
        &self.calendar
    }

    /// Connects the CalDAV account at `url` (see [`CalendarService::connect`]); its
    /// tools are offered from now on.
    pub async fn connect_calendar(&self, url: &str, username: &str, password: &str) -> Result<CalendarView, crate::CompanionError> {
        let view = self.calendar.connect(url, username, password, self.preferences.lang()).await?;
        if view.mirror_reminders {
            // The same account again, its mirror on as it was: the to-dos go back now.
            if let Err(error) = self.mirror_reminders().await {
                tracing::warn!(%error, "the reminders could not be mirrored to the calendar");
            }
        }
        Ok(self.offer_calendar_tools(view))
    }

    /// Takes Sidecar's to-dos off the account's calendar and forgets the account
    /// (its choices kept for a reconnect); its tools are no longer offered (reading
    /// stays while feeds are subscribed).
    pub async fn disconnect_calendar(&self) -> Result<CalendarView, crate::CompanionError> {
        let report = self.calendar.disconnect().await?;
        tracing::info!(removed = report.removed, kept_theirs = report.kept_theirs.len(), "the calendar was disconnected, Sidecar's to-dos taken off");
        Ok(self.offer_calendar_tools(self.calendar.view().await?))
    }

    /// Subscribes to an `.ics` feed by its address (see [`CalendarService::subscribe`]).
    pub async fn subscribe_calendar(&self, url: &str) -> Result<CalendarView, crate::CompanionError> {
        let view = self.calendar.subscribe(url).await?;
        Ok(self.offer_calendar_tools(view))
    }

    /// Forgets a subscribed feed.
    pub async fn unsubscribe_calendar(&self, calendar_id: i64) -> Result<CalendarView, crate::CompanionError> {
        let view = self.calendar.unsubscribe(calendar_id).await?;
        Ok(self.offer_calendar_tools(view))
    }

    /// Offers the calendar tools `view` allows (see [`sidecar_calendar::offered`]).
    fn offer_calendar_tools(&self, view: CalendarView) -> CalendarView {
        let (tools, board) = &self.calendar_tools;
        board.set("calendar", sidecar_calendar::offered(&view, tools));
        view
    }

    /// Syncs the calendars now and every [`SYNC_EVERY`]; a failure is kept with each
    /// calendar (Settings shows it) and the last copy is used meanwhile. Reminders are
    /// mirrored after each sync, and as soon as they change.
    pub(crate) async fn sync_calendars(self: Arc<Self>) {
        use tokio::sync::broadcast::error::RecvError;
        let mut events = self.events.subscribe();
        let mut next_sync = tokio::time::Instant::now();
        loop {
            tokio::select! {
                _ = tokio::time::sleep_until(next_sync) => {
                    if let Err(error) = self.sync_calendars_now().await {
                        tracing::warn!(%error, "the calendars could not all be synced");
                    }
                    next_sync = tokio::time::Instant::now() + SYNC_EVERY;
                    continue;
                }
                event = events.recv() => match event {
                    Ok(crate::events::CoreEvent::Reminders(sidecar_reminders::ReminderEvent::RemindersChanged)) | Err(RecvError::Lagged(_)) => {
                        // A burst of changes (an import) is mirrored once, after it.
                        tokio::time::sleep(MIRROR_SETTLE).await;
                        while !matches!(events.try_recv(), Err(tokio::sync::broadcast::error::TryRecvError::Empty | tokio::sync::broadcast::error::TryRecvError::Closed)) {}
                    }
                    Ok(_) => continue,
                    Err(RecvError::Closed) => return,
                },
            }
            if let Err(error) = self.mirror_reminders().await {
                tracing::warn!(%error, "the reminders could not be mirrored to the calendar");
            }
        }
    }

    /// Syncs every calendar now; then the reminders set before an event go where their
    /// event went, and the reminders' to-dos are brought in line. The first sync error,
    /// after all were tried (the rest still runs on the last copy).
    pub async fn sync_calendars_now(&self) -> Result<Vec<sidecar_calendar::SyncReport>, crate::CompanionError> {
        let synced = self.calendar.sync_all(self.preferences.lang()).await;
        if let Err(error) = self.reminders.follow_events().await {
            tracing::warn!(%error, "reminders could not follow their events");
        }
        if let Err(error) = self.mirror_reminders().await {
            tracing::warn!(%error, "the reminders could not be mirrored to the calendar");
        }
        Ok(synced?)
    }

    /// Brings the to-dos in the user's calendar in line with the pending reminders
    /// (nothing when the mirror is off; see the calendar crate's mirror).
    pub async fn mirror_reminders(&self) -> Result<sidecar_calendar::MirrorReport, crate::CompanionError> {
        let wanted: Vec<(i64, String)> = match self.calendar.mirrors_reminders().await? {
            true => self.reminders.pending().await?.iter().map(|r| (r.id, sidecar_reminders::as_todo(r))).collect(),
            false => Vec::new(),
        };
        Ok(self.calendar.mirror(&wanted).await?)
    }

    /// Turns the reminders' mirror on or off, and mirrors (or takes away) at once.
    pub async fn set_mirror_reminders(&self, on: bool) -> Result<(CalendarView, sidecar_calendar::MirrorReport), crate::CompanionError> {
        self.calendar.set_mirror(on).await?;
        let report = self.mirror_reminders().await?;
        Ok((self.calendar.view().await?, report))
    }
}

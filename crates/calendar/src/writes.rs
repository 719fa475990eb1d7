//! The events Sidecar writes: made in the calendar the user chose for it, moved or
//! deleted only if Sidecar made them, and only in the version it last saw. When someone
//! changed the event meanwhile, the calendar's version is kept (read again) and the
//! write is refused with [`CalendarError::Changed`].

use chrono::{DateTime, Utc};
use chrono_tz::Tz;
use icalendar::{Calendar, CalendarDateTime, Component, Event, EventLike};
use sidecar_domain::Lang;

use crate::error::CalendarError;
use crate::rows::CalendarStore;
use crate::service::{CalendarService, Occurrence};

/// An event as iCalendar text, its times in `zone`.
fn item(uid: &str, summary: &str, start: DateTime<Utc>, end: DateTime<Utc>, zone: Tz) -> String {
    let local = |at: DateTime<Utc>| CalendarDateTime::WithTimezone { date_time: at.with_timezone(&zone).naive_local(), tzid: zone.name().to_string() };
    let event = Event::new().uid(uid).summary(summary).starts(local(start)).ends(local(end)).done();
    let mut calendar = Calendar::new();
    calendar.push(event);
    calendar.done().to_string()
}

impl CalendarService {
    /// Makes an event in the calendar Sidecar may write, and keeps it as Sidecar's.
    pub async fn create(&self, summary: &str, start: DateTime<Utc>, end: DateTime<Utc>, lang: Lang) -> Result<Occurrence, CalendarError> {
        let dav = self.connected().await?;
        let table = self.store().calendar_table();
        let calendar = table.all().await?.into_iter().find(|c| c.writable).ok_or(CalendarError::NoWritable)?;
        let uid = format!("sidecar-{:016x}@sidecar", fastrand::u64(..));
        let href = format!("{}/{uid}.ics", calendar.href.trim_end_matches('/'));
        dav.create(&href, &item(&uid, summary, start, end, self.zone())).await?;
        crate::sync::sync(&dav, self.store(), &calendar, self.zone(), lang).await?;
        table.mark_sidecars(calendar.id, &href).await?;
        Ok(Occurrence { uid, summary: summary.to_string(), start, end, all_day: false, busy: true, location: None })
    }

    /// Moves an event Sidecar made.
    pub async fn reschedule(&self, uid: &str, summary: &str, start: DateTime<Utc>, end: DateTime<Utc>, lang: Lang) -> Result<Occurrence, CalendarError> {
        let (dav, calendar_id, href, etag) = self.sidecars(uid).await?;
        let written = dav.update(&href, &item(uid, summary, start, end, self.zone()), &etag).await;
        self.resync(&dav, calendar_id, &href, lang).await?;
        written?;
        Ok(Occurrence { uid: uid.to_string(), summary: summary.to_string(), start, end, all_day: false, busy: true, location: None })
    }

    /// Deletes an event Sidecar made.
    pub async fn remove(&self, uid: &str, lang: Lang) -> Result<(), CalendarError> {
        let (dav, calendar_id, href, etag) = self.sidecars(uid).await?;
        let deleted = dav.delete(&href, &etag).await;
        self.resync(&dav, calendar_id, &href, lang).await?;
        deleted
    }

    async fn sidecars(&self, uid: &str) -> Result<(crate::dav::Dav, i64, String, String), CalendarError> {
        let dav = self.connected().await?;
        let (calendar_id, href, etag) = self.store().calendar_table().sidecars(uid).await?.ok_or_else(|| CalendarError::NotSidecars(uid.to_string()))?;
        Ok((dav, calendar_id, href, etag))
    }

    /// Reads the calendar again after a write (what the server holds is what is kept),
    /// Sidecar's mark on the item kept.
    async fn resync(&self, dav: &crate::dav::Dav, calendar_id: i64, href: &str, lang: Lang) -> Result<(), CalendarError> {
        let table = self.store().calendar_table();
        if let Some(mut calendar) = table.all().await?.into_iter().find(|c| c.id == calendar_id) {
            // Whatever its ctag says: a server that kept it still must not hide a write.
            calendar.ctag = None;
            crate::sync::sync(dav, self.store(), &calendar, self.zone(), lang).await?;
            table.mark_sidecars(calendar_id, href).await?;
        }
        Ok(())
    }
}

//! Reminders mirrored as to-dos in the calendar Sidecar may write, when the user turns
//! it on, so they ring on the phone too. A reconciliation, not a log of changes: the
//! to-dos wanted now (one per pending reminder) are compared with the ones Sidecar wrote
//! (kept with the version it last saw and a hash of what it wrote); only what differs
//! is written. An edit made on the phone meanwhile is never overwritten: the server's
//! copy is kept and said. Turned off, Sidecar's to-dos are taken away.

use std::collections::HashMap;

use serde::Serialize;
use sidecar_store::StoreError;

use crate::dav::Dav;
use crate::error::CalendarError;
use crate::rows::CalendarStore;
use crate::service::CalendarService;

/// What a reconciliation wrote.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct MirrorReport {
    pub created: usize,
    pub updated: usize,
    pub removed: usize,
    /// To-dos changed on the calendar since Sidecar wrote them (their reminders' ids):
    /// the calendar's version was kept.
    pub kept_theirs: Vec<i64>,
}

/// A to-do Sidecar wrote: its calendar, where, the version it last saw, what it wrote.
#[derive(sqlx::FromRow)]
struct Mirrored {
    reminder_id: i64,
    calendar_id: i64,
    href: String,
    etag: String,
    content: String,
}

impl CalendarService {
    /// Forgets the account: first Sidecar's to-dos are taken off the server (so the
    /// phone stops ringing for them) and the choices kept for a reconnect; then its
    /// calendars, their copies and the password (subscribed feeds stay). A server that
    /// cannot be reached stops the disconnect with its error: the to-dos would be left
    /// ringing with nothing in Sidecar to take them away.
    pub async fn disconnect(&self) -> Result<MirrorReport, CalendarError> {
        let _mirroring = self.mirroring.lock().await;
        let Some((url, username)) = self.account().await? else { return Ok(Default::default()) };
        self.remember_choices(&url, &username).await?;
        let on = self.mirrors_reminders().await?;
        self.set_mirror(false).await?;
        let report = match self.mirror_held(&[]).await {
            Ok(report) => report,
            Err(error) => {
                // Left as it was: the user may try again, or remove the to-dos by hand.
                if on {
                    self.set_mirror(true).await?;
                }
                return Err(error);
            }
        };
        self.forget_account().await?;
        Ok(report)
    }

    /// Whether reminders are mirrored.
    pub async fn mirrors_reminders(&self) -> Result<bool, CalendarError> {
        let on: Option<bool> = sqlx::query_scalar("SELECT mirror_reminders FROM calendar_account WHERE id = 1")
            .fetch_optional(self.store().pool())
            .await
            .map_err(StoreError::from)?;
        Ok(on.unwrap_or(false))
    }

    /// Turns the mirror on or off (the next [`Self::mirror`] writes or takes away).
    /// On needs an account and a calendar chosen for Sidecar to write in.
    pub async fn set_mirror(&self, on: bool) -> Result<(), CalendarError> {
        if on {
            self.connected().await?;
            self.store().calendar_table().all().await?.into_iter().find(|c| c.writable).ok_or(CalendarError::NoWritable)?;
        }
        sqlx::query("UPDATE calendar_account SET mirror_reminders = ? WHERE id = 1").bind(on).execute(self.store().pool()).await.map_err(StoreError::from)?;
        Ok(())
    }

    /// Brings the calendar's to-dos in line with `wanted` (reminder id → its to-do as
    /// iCalendar text): all of them when the mirror is on, none when it is off. With no
    /// account there is nothing to write and nothing is done.
    pub async fn mirror(&self, wanted: &[(i64, String)]) -> Result<MirrorReport, CalendarError> {
        let _mirroring = self.mirroring.lock().await;
        self.mirror_held(wanted).await
    }

    /// [`Self::mirror`] with the lock held.
    async fn mirror_held(&self, wanted: &[(i64, String)]) -> Result<MirrorReport, CalendarError> {
        let on = self.mirrors_reminders().await?;
        let written: Vec<Mirrored> = sqlx::query_as("SELECT reminder_id, calendar_id, href, etag, content FROM calendar_mirrors")
            .fetch_all(self.store().pool())
            .await
            .map_err(StoreError::from)?;
        // Off with nothing written: every change to reminders comes here, and nothing is
        // to be done (no connection made).
        if !on && written.is_empty() {
            return Ok(MirrorReport::default());
        }
        let Ok(dav) = self.connected().await else { return Ok(MirrorReport::default()) };
        let target = self.store().calendar_table().all().await?.into_iter().find(|c| c.writable);
        let wanted: HashMap<i64, &String> = match (&target, on) {
            (Some(_), true) => wanted.iter().map(|(id, data)| (*id, data)).collect(),
            _ => HashMap::new(),
        };
        let mut report = MirrorReport::default();
        for old in &written {
            // Gone from the wanted ones, or in a calendar no longer the one written.
            if !wanted.contains_key(&old.reminder_id) || target.as_ref().is_some_and(|t| t.id != old.calendar_id) {
                match dav.delete(&old.href, &old.etag).await {
                    Ok(()) => report.removed += 1,
                    Err(CalendarError::Changed) => report.kept_theirs.push(old.reminder_id),
                    // Already gone from the server (deleted on the phone): nothing to do.
                    Err(CalendarError::Gone) => {}
                    Err(other) => return Err(other),
                }
                self.forget(old.reminder_id).await?;
            }
        }
        let Some(target) = target.filter(|_| on) else { return Ok(report) };
        let written: HashMap<i64, &Mirrored> = written.iter().filter(|m| m.calendar_id == target.id).map(|m| (m.reminder_id, m)).collect();
        for (id, data) in wanted {
            let content = crate::subscription::content_tag(data);
            match written.get(&id) {
                Some(old) if old.content == content => {}
                Some(old) => match dav.update(&old.href, data, &old.etag).await {
                    Ok(etag) => {
                        let etag = self.etag_of(&dav, &target.href, &old.href, etag).await?;
                        self.keep(id, target.id, &old.href, &etag, &content).await?;
                        report.updated += 1;
                    }
                    Err(CalendarError::Changed) => {
                        // The phone's edit stays; Sidecar writes again only when the
                        // reminder changes again.
                        let theirs = self.etag_of(&dav, &target.href, &old.href, None).await?;
                        self.keep(id, target.id, &old.href, &theirs, &content).await?;
                        report.kept_theirs.push(id);
                    }
                    Err(other) => return Err(other),
                },
                None => {
                    let href = format!("{}/sidecar-reminder-{id}.ics", target.href.trim_end_matches('/'));
                    let etag = match dav.create(&href, data).await {
                        Ok(etag) => etag,
                        // Left by an earlier run that crashed before keeping it: replaced.
                        Err(CalendarError::Changed) => {
                            let theirs = self.etag_of(&dav, &target.href, &href, None).await?;
                            dav.update(&href, data, &theirs).await?
                        }
                        Err(other) => return Err(other),
                    };
                    let etag = self.etag_of(&dav, &target.href, &href, etag).await?;
                    self.keep(id, target.id, &href, &etag, &content).await?;
                    report.created += 1;
                }
            }
        }
        if report != MirrorReport::default() {
            tracing::info!(
                created = report.created,
                updated = report.updated,
                removed = report.removed,
                kept_theirs = report.kept_theirs.len(),
                "reminders mirrored"
            );
        }
        Ok(report)
    }

    /// The version the server holds at `href`: the one a write returned, else listed.
    async fn etag_of(&self, dav: &Dav, calendar: &str, href: &str, returned: Option<String>) -> Result<String, CalendarError> {
        if let Some(etag) = returned {
            return Ok(etag);
        }
        dav.list(calendar)
            .await?
            .into_iter()
            .find(|(listed, _)| listed == href)
            .map(|(_, etag)| etag)
            .ok_or_else(|| CalendarError::Server(format!("{href} is not listed after it was written")))
    }

    async fn keep(&self, reminder_id: i64, calendar_id: i64, href: &str, etag: &str, content: &str) -> Result<(), CalendarError> {
        sqlx::query(
            "INSERT INTO calendar_mirrors (reminder_id, calendar_id, href, etag, content) VALUES (?, ?, ?, ?, ?)
             ON CONFLICT (reminder_id) DO UPDATE SET calendar_id = excluded.calendar_id, href = excluded.href, etag = excluded.etag, content = excluded.content",
        )
        .bind(reminder_id)
        .bind(calendar_id)
        .bind(href)
        .bind(etag)
        .bind(content)
        .execute(self.store().pool())
        .await
        .map_err(StoreError::from)?;
        Ok(())
    }

    async fn forget(&self, reminder_id: i64) -> Result<(), CalendarError> {
        sqlx::query("DELETE FROM calendar_mirrors WHERE reminder_id = ?").bind(reminder_id).execute(self.store().pool()).await.map_err(StoreError::from)?;
        Ok(())
    }
}

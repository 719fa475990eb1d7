//! One calendar brought up to date with its server: nothing is fetched when the
//! calendar's ctag did not move; otherwise only the items whose etag changed are fetched
//! (in multigets), the ones gone are removed, and the whole outcome is kept in one
//! transaction. When the server cannot be reached the last copy stays, and the calendar
//! says why until the next sync that works.

use chrono_tz::Tz;
use sidecar_domain::locale::Lang;
use sidecar_domain::said::Worded;
use sidecar_store::Store;

use crate::dav::Dav;
use crate::error::CalendarError;
use crate::event::events_of;
use crate::rows::{CalendarStore, Refreshed, StoredCalendar};

/// What a sync did.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct SyncReport {
    pub added: usize,
    pub changed: usize,
    pub removed: usize,
    /// The ctag had not moved: nothing was listed or fetched.
    pub unchanged: bool,
    /// Items kept but not understood (a zone Sidecar does not know…), said as they are.
    pub unreadable: Vec<String>,
}

/// Brings `calendar` up to date; times with no zone are read in `zone`. On failure the
/// stored copy is untouched and the calendar keeps the reason in `lang`.
pub async fn sync(dav: &Dav, store: &Store, calendar: &StoredCalendar, zone: Tz, lang: Lang) -> Result<SyncReport, CalendarError> {
    let result = sync_once(dav, store, calendar, zone).await;
    if let Err(error) = &result {
        tracing::warn!(calendar = %calendar.href, %error, "calendar sync failed; the last copy is kept");
        store.calendar_table().set_problem(calendar.id, &error.said_in(lang)).await?;
    }
    result
}

async fn sync_once(dav: &Dav, store: &Store, calendar: &StoredCalendar, zone: Tz) -> Result<SyncReport, CalendarError> {
    let table = store.calendar_table();
    let ctag = dav.ctag(&calendar.href).await?;
    if ctag.is_some() && ctag == calendar.ctag && calendar.problem.is_none() {
        return Ok(SyncReport { unchanged: true, ..SyncReport::default() });
    }
    let listed = dav.list(&calendar.href).await?;
    let known = table.etags(calendar.id).await?;
    let changed: Vec<String> = listed.iter().filter(|(href, etag)| known.get(href) != Some(etag)).map(|(href, _)| href.clone()).collect();
    let removed: Vec<String> = known.keys().filter(|href| !listed.iter().any(|(l, _)| l == *href)).cloned().collect();
    let mut report = SyncReport { removed: removed.len(), ..SyncReport::default() };
    let mut refreshed = Vec::new();
    for item in dav.fetch(&calendar.href, &changed).await? {
        if known.contains_key(&item.href) {
            report.changed += 1;
        } else {
            report.added += 1;
        }
        let events = events_of(&item.data, zone).unwrap_or_else(|error| {
            report.unreadable.push(format!("{}: {error}", item.href));
            Vec::new()
        });
        refreshed.push(Refreshed { item, events });
    }
    table.apply(calendar.id, &refreshed, &removed, ctag.as_deref()).await?;
    tracing::info!(calendar = %calendar.href, added = report.added, changed = report.changed, removed = report.removed, "calendar synced");
    Ok(report)
}

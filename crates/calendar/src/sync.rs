//! One calendar brought up to date with its server: nothing is fetched when the
//! calendar's ctag did not move; otherwise only the items whose etag changed are fetched
//! (in multigets), the ones gone are removed, and the outcome is kept a few hundred items
//! per transaction with the ctag last, so a sync cut short is finished by the next. When
//! the server cannot be reached the last copy stays, and the calendar says why until the
//! next sync that works. A subscribed `.ics` feed is brought up to
//! date the same way, its ETag standing for the ctag.

use std::collections::HashMap;

use chrono_tz::Tz;
use sidecar_domain::Lang;
use sidecar_domain::Worded;
use sidecar_store::Store;

use crate::dav::{Dav, RemoteItem};
use crate::error::CalendarError;
use crate::event::events_of;
use crate::rows::{CalendarStore, Refreshed, StoredCalendar};
use crate::subscription::Feed;

/// What a sync did.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, ts_rs::TS)]
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
    said_if_failed(store, calendar, lang, sync_once(dav, store, calendar, zone).await).await
}

/// Brings a subscribed feed up to date, as [`sync`] does a CalDAV calendar: asked with
/// the ETag last seen (unchanged: nothing read), then only the items that changed.
pub async fn sync_feed(http: &reqwest::Client, store: &Store, calendar: &StoredCalendar, zone: Tz, lang: Lang) -> Result<SyncReport, CalendarError> {
    said_if_failed(store, calendar, lang, feed_once(http, store, calendar, zone).await).await
}

async fn said_if_failed(store: &Store, calendar: &StoredCalendar, lang: Lang, result: Result<SyncReport, CalendarError>) -> Result<SyncReport, CalendarError> {
    if let Err(error) = &result {
        tracing::warn!(calendar = calendar.id, %error, "calendar sync failed; the last copy is kept");
        store.calendar_table().set_problem(calendar.id, &error.said_in(lang)).await?;
    }
    result
}

async fn sync_once(dav: &Dav, store: &Store, calendar: &StoredCalendar, zone: Tz) -> Result<SyncReport, CalendarError> {
    let ctag = dav.ctag(&calendar.href).await?;
    if ctag.is_some() && ctag == calendar.ctag && calendar.problem.is_none() {
        return Ok(SyncReport { unchanged: true, ..SyncReport::default() });
    }
    let listed = dav.list(&calendar.href).await?;
    let known = store.calendar_table().etags(calendar.id).await?;
    let changed: Vec<String> = listed.iter().filter(|(href, etag)| known.get(href) != Some(etag)).map(|(href, _)| href.clone()).collect();
    let fetched = dav.fetch(&calendar.href, &changed).await?;
    keep(store, calendar, &known, &listed, fetched, zone, ctag.as_deref()).await
}

async fn feed_once(http: &reqwest::Client, store: &Store, calendar: &StoredCalendar, zone: Tz) -> Result<SyncReport, CalendarError> {
    let version = calendar.ctag.as_deref().filter(|_| calendar.problem.is_none());
    let Some(feed) = crate::subscription::fetch(http, &calendar.href, version).await? else {
        store.calendar_table().apply(calendar.id, &[], &[], version).await?;
        return Ok(SyncReport { unchanged: true, ..SyncReport::default() });
    };
    keep_feed(store, calendar, feed, zone).await
}

/// Keeps a feed as fetched: only the items whose content changed are read again.
pub(crate) async fn keep_feed(store: &Store, calendar: &StoredCalendar, feed: Feed, zone: Tz) -> Result<SyncReport, CalendarError> {
    let known = store.calendar_table().etags(calendar.id).await?;
    let listed: Vec<(String, String)> = feed.items.iter().map(|i| (i.href.clone(), i.etag.clone())).collect();
    let fetched = feed.items.into_iter().filter(|i| known.get(&i.href) != Some(&i.etag)).collect();
    keep(store, calendar, &known, &listed, fetched, zone, feed.version.as_deref()).await
}

/// Keeps what changed: the items `fetched` (read into events), the ones `known` but no
/// longer `listed` removed, the new `ctag` (see [`crate::rows::CalendarTable::apply`]).
async fn keep(
    store: &Store,
    calendar: &StoredCalendar,
    known: &HashMap<String, String>,
    listed: &[(String, String)],
    fetched: Vec<RemoteItem>,
    zone: Tz,
    ctag: Option<&str>,
) -> Result<SyncReport, CalendarError> {
    // A set: 20,000 items listed against 20,000 known is 400 million comparisons as lists.
    let still: std::collections::HashSet<&str> = listed.iter().map(|(href, _)| href.as_str()).collect();
    let removed: Vec<String> = known.keys().filter(|href| !still.contains(href.as_str())).cloned().collect();
    let known: std::collections::HashSet<String> = known.keys().cloned().collect();
    // Reading 20,000 items takes seconds: on the blocking pool, not the app's threads.
    let read = crate::blocking::off_workers(move || {
        let mut report = SyncReport::default();
        let mut refreshed = Vec::new();
        for item in fetched {
            if known.contains(&item.href) {
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
        Some((report, refreshed))
    })
    .await;
    // Cut short as the app closes: nothing is kept, the ctag stays, the next sync reads it all.
    let (mut report, refreshed) = read.ok_or_else(crate::blocking::closing)?;
    report.removed = removed.len();
    store.calendar_table().apply(calendar.id, &refreshed, &removed, ctag).await?;
    tracing::info!(calendar = calendar.id, added = report.added, changed = report.changed, removed = report.removed, "calendar synced");
    Ok(report)
}

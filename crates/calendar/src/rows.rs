//! The calendars and their items in Sidecar's database: what the server last gave (the
//! copy used while it is down) and the events read from it, for queries by time.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use chrono_tz::Tz;
use sidecar_store::utc;
use sidecar_store::Store;
use sidecar_store::StoreError;

use crate::dav::RemoteItem;
use crate::event::Event;

/// Items written per transaction when a sync keeps what changed: a few milliseconds of
/// the database each, so other writers wait no longer than that.
pub(crate) const ITEMS_PER_WRITE: usize = 500;
/// The pause between two such writes.
const WRITE_PAUSE: std::time::Duration = std::time::Duration::from_millis(100);

/// A calendar as Sidecar keeps it.
#[derive(Debug, Clone, PartialEq, serde::Serialize, sqlx::FromRow, ts_rs::TS)]
pub struct StoredCalendar {
    pub id: i64,
    pub href: String,
    pub name: Option<String>,
    pub color: Option<String>,
    pub read: bool,
    pub writable: bool,
    pub ctag: Option<String>,
    pub synced_at: Option<DateTime<Utc>>,
    pub problem: Option<String>,
    /// `caldav`: the account's; `ics`: a feed subscribed by its address (read only).
    pub source: String,
}

/// An item's new version, with the events read from it.
pub struct Refreshed {
    pub item: RemoteItem,
    pub events: Vec<Event>,
}

/// A handle on the store: `store.calendar_table()`.
pub struct CalendarTable<'a> {
    store: &'a Store,
}

pub trait CalendarStore {
    fn calendar_table(&self) -> CalendarTable<'_>;
}

impl CalendarStore for Store {
    fn calendar_table(&self) -> CalendarTable<'_> {
        CalendarTable { store: self }
    }
}

/// The events' columns, from the calendars they are in, then `$rest` (a WHERE).
macro_rules! events_sql {
    ($rest:literal) => {
        concat!(
            "SELECT e.uid, e.summary, e.start, e.\"end\", e.all_day, e.busy, e.rrule, e.zone, e.location
             FROM calendar_events e JOIN calendar_items i ON i.id = e.item_id JOIN calendars c ON c.id = i.calendar_id",
            $rest
        )
    };
}

type EventRow = (String, String, DateTime<Utc>, DateTime<Utc>, bool, bool, Option<String>, String, Option<String>);

impl CalendarTable<'_> {
    /// Keeps a calendar found on the server (its name and colour refreshed; the user's
    /// choices kept).
    pub async fn found(&self, href: &str, name: Option<&str>, color: Option<&str>) -> Result<StoredCalendar, StoreError> {
        Ok(sqlx::query_as(
            "INSERT INTO calendars (href, name, color) VALUES (?, ?, ?)
             ON CONFLICT (href) DO UPDATE SET name = excluded.name, color = excluded.color
             RETURNING id, href, name, color, read, writable, ctag, synced_at, problem, source",
        )
        .bind(href)
        .bind(name)
        .bind(color)
        .fetch_one(self.store.pool())
        .await?)
    }

    /// Keeps a feed subscribed at `url` (read only, read from now on).
    pub async fn subscribed(&self, url: &str, name: Option<&str>) -> Result<StoredCalendar, StoreError> {
        Ok(sqlx::query_as(
            "INSERT INTO calendars (href, name, source) VALUES (?, ?, 'ics')
             ON CONFLICT (href) DO UPDATE SET name = excluded.name
             RETURNING id, href, name, color, read, writable, ctag, synced_at, problem, source",
        )
        .bind(url)
        .bind(name)
        .fetch_one(self.store.pool())
        .await?)
    }

    /// Forgets a calendar and its copy.
    pub async fn remove(&self, calendar_id: i64) -> Result<bool, StoreError> {
        Ok(sqlx::query("DELETE FROM calendars WHERE id = ?").bind(calendar_id).execute(self.store.pool()).await?.rows_affected() > 0)
    }

    pub async fn all(&self) -> Result<Vec<StoredCalendar>, StoreError> {
        Ok(sqlx::query_as("SELECT id, href, name, color, read, writable, ctag, synced_at, problem, source FROM calendars ORDER BY id")
            .fetch_all(self.store.pool())
            .await?)
    }

    /// Which calendars are read, and the one Sidecar may write (at most one).
    pub async fn choose(&self, read: &[i64], writable: Option<i64>) -> Result<(), StoreError> {
        let mut tx = self.store.write_transaction().await?;
        sqlx::query("UPDATE calendars SET read = 0, writable = 0").execute(&mut *tx).await?;
        for id in read {
            sqlx::query("UPDATE calendars SET read = 1 WHERE id = ?").bind(id).execute(&mut *tx).await?;
        }
        // A feed is read only: it cannot be the calendar Sidecar writes.
        sqlx::query("UPDATE calendars SET writable = 1 WHERE id = ? AND source = 'caldav'").bind(writable).execute(&mut *tx).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Each item's etag, by href.
    pub async fn etags(&self, calendar_id: i64) -> Result<HashMap<String, String>, StoreError> {
        let rows: Vec<(String, String)> =
            sqlx::query_as("SELECT href, etag FROM calendar_items WHERE calendar_id = ?").bind(calendar_id).fetch_all(self.store.pool()).await?;
        Ok(rows.into_iter().collect())
    }

    /// A sync's outcome: the removed items gone, the changed items and their events, then
    /// the new ctag. Written [`ITEMS_PER_WRITE`] items at a time, so a feed of 20,000
    /// events does not hold the database from every other writer (a fact remembered, a
    /// reminder set) for seconds. Each item is whole (a series with the occurrences it
    /// moves), and the ctag comes last: a sync cut short leaves it as it was, and the
    /// next one compares every item's etag and finishes the work.
    pub async fn apply(&self, calendar_id: i64, refreshed: &[Refreshed], removed: &[String], ctag: Option<&str>) -> Result<(), StoreError> {
        for hrefs in removed.chunks(ITEMS_PER_WRITE) {
            let mut tx = self.store.write_transaction().await?;
            for href in hrefs {
                sqlx::query("DELETE FROM calendar_items WHERE calendar_id = ? AND href = ?").bind(calendar_id).bind(href).execute(&mut *tx).await?;
            }
            tx.commit().await?;
        }
        for (n, items) in refreshed.chunks(ITEMS_PER_WRITE).enumerate() {
            if n > 0 {
                // Room for a writer waiting on the lock: SQLite's busy handler looks again
                // every 100 ms at most, and would miss a shorter gap between two writes.
                tokio::time::sleep(WRITE_PAUSE).await;
            }
            let mut tx = self.store.write_transaction().await?;
            for item in items {
                keep_item(&mut tx, calendar_id, item).await?;
            }
            tx.commit().await?;
        }
        sqlx::query("UPDATE calendars SET ctag = ?, synced_at = ?, problem = NULL WHERE id = ?")
            .bind(ctag)
            .bind(self.store.now())
            .bind(calendar_id)
            .execute(self.store.pool())
            .await?;
        Ok(())
    }

    /// Marks an item as made by Sidecar (it may move or delete it).
    pub async fn mark_sidecars(&self, calendar_id: i64, href: &str) -> Result<(), StoreError> {
        sqlx::query("UPDATE calendar_items SET by_sidecar = 1 WHERE calendar_id = ? AND href = ?")
            .bind(calendar_id)
            .bind(href)
            .execute(self.store.pool())
            .await?;
        Ok(())
    }

    /// The item Sidecar made that holds the event `uid`: its calendar, href and etag.
    pub async fn sidecars(&self, uid: &str) -> Result<Option<(i64, String, String)>, StoreError> {
        Ok(sqlx::query_as(
            "SELECT i.calendar_id, i.href, i.etag FROM calendar_items i JOIN calendar_events e ON e.item_id = i.id WHERE e.uid = ? AND i.by_sidecar = 1 LIMIT 1",
        )
        .bind(uid)
        .fetch_optional(self.store.pool())
        .await?)
    }

    /// What went wrong at the last sync, kept for the user; the last copy stays.
    pub async fn set_problem(&self, calendar_id: i64, problem: &str) -> Result<(), StoreError> {
        sqlx::query("UPDATE calendars SET problem = ? WHERE id = ?").bind(problem).bind(calendar_id).execute(self.store.pool()).await?;
        Ok(())
    }

    /// The events of the calendars read that may take place in `[from, to)`: those that
    /// repeat, and the others that overlap it.
    pub async fn events_near(&self, from: DateTime<Utc>, to: DateTime<Utc>) -> Result<Vec<Event>, StoreError> {
        let rows: Vec<EventRow> = sqlx::query_as(events_sql!(" WHERE c.read = 1 AND (e.rrule IS NOT NULL OR (e.start < ? AND e.\"end\" > ?))"))
            .bind(utc(to))
            .bind(utc(from))
            .fetch_all(self.store.pool())
            .await?;
        Ok(rows.into_iter().map(event).collect())
    }

    /// The events (a series and the occurrences it moves) of `uid` in the calendars read.
    pub async fn events_with_uid(&self, uid: &str) -> Result<Vec<Event>, StoreError> {
        let rows: Vec<EventRow> = sqlx::query_as(events_sql!(" WHERE c.read = 1 AND e.uid = ?")).bind(uid).fetch_all(self.store.pool()).await?;
        Ok(rows.into_iter().map(event).collect())
    }
}

/// One item and its events, in place of what was kept under its href.
async fn keep_item(tx: &mut sqlx::SqliteConnection, calendar_id: i64, Refreshed { item, events }: &Refreshed) -> Result<(), StoreError> {
    let (item_id,): (i64,) = sqlx::query_as(
        "INSERT INTO calendar_items (calendar_id, href, etag, data) VALUES (?, ?, ?, ?)
         ON CONFLICT (calendar_id, href) DO UPDATE SET etag = excluded.etag, data = excluded.data RETURNING id",
    )
    .bind(calendar_id)
    .bind(&item.href)
    .bind(&item.etag)
    .bind(&item.data)
    .fetch_one(&mut *tx)
    .await?;
    sqlx::query("DELETE FROM calendar_events WHERE item_id = ?").bind(item_id).execute(&mut *tx).await?;
    for e in events {
        sqlx::query(
            "INSERT INTO calendar_events (item_id, uid, summary, start, \"end\", all_day, busy, rrule, zone, location) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        )
        .bind(item_id)
        .bind(&e.uid)
        .bind(&e.summary)
        .bind(utc(e.start))
        .bind(utc(e.end))
        .bind(e.all_day)
        .bind(e.busy)
        .bind(&e.rrule)
        .bind(e.zone.name())
        .bind(&e.location)
        .execute(&mut *tx)
        .await?;
    }
    Ok(())
}

fn event((uid, summary, start, end, all_day, busy, rrule, zone, location): EventRow) -> Event {
    Event { uid, summary, start, end, all_day, busy, rrule, zone: zone.parse::<Tz>().unwrap_or(Tz::UTC), location }
}

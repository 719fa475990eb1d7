//! The calendar as the rest of Sidecar uses it: an account connected (its password in
//! the keychain), its calendars chosen (which are read, the one Sidecar may write), all
//! brought up to date, and the events between two times, free time, and the events
//! Sidecar writes (created, moved or deleted only if Sidecar made them, and only the
//! version it last saw: an edit made elsewhere is kept and said). `.ics` feeds subscribed
//! by address are read beside them.

use std::sync::Arc;

use chrono::{DateTime, Duration, Utc};
use serde::Serialize;
use sidecar_domain::Clock;
use sidecar_domain::Lang;
use sidecar_domain::Secrets;
use sidecar_store::Store;

use crate::dav::Dav;
use crate::error::CalendarError;
use crate::rows::{CalendarStore, StoredCalendar};
use crate::sync::{sync, SyncReport};

/// The keychain entry of the account's password.
const SECRET: &str = "calendar/account";

/// An event's time, as the tools, the brief and quiet hours see it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Occurrence {
    pub uid: String,
    pub summary: String,
    pub start: DateTime<Utc>,
    pub end: DateTime<Utc>,
    pub all_day: bool,
    pub busy: bool,
    pub location: Option<String>,
}

/// Settings → Calendar.
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
pub struct CalendarView {
    /// The account's address and user name, when one is connected.
    pub account: Option<(String, String)>,
    pub calendars: Vec<StoredCalendar>,
    /// The user's zone, in which sync times are shown.
    pub zone: String,
    /// Reminders are mirrored as to-dos in the calendar Sidecar writes.
    pub mirror_reminders: bool,
}

pub struct CalendarService {
    store: Store,
    secrets: Arc<Secrets>,
    clock: Clock,
    /// Fetches the subscribed feeds.
    http: reqwest::Client,
    /// Held while Sidecar's to-dos are written or taken off: a mirror still writing the
    /// to-do of a reminder just set would otherwise leave it ringing after a disconnect
    /// that read the to-dos written before it.
    pub(crate) mirroring: tokio::sync::Mutex<()>,
}

impl CalendarService {
    pub fn new(store: Store, secrets: Arc<Secrets>, clock: Clock, http: reqwest::Client) -> Self {
        Self { store, secrets, clock, http, mirroring: tokio::sync::Mutex::new(()) }
    }

    pub(crate) async fn account(&self) -> Result<Option<(String, String)>, CalendarError> {
        Ok(sqlx::query_as("SELECT url, username FROM calendar_account WHERE id = 1")
            .fetch_optional(self.store.pool())
            .await
            .map_err(sidecar_store::StoreError::from)?)
    }

    pub(crate) fn store(&self) -> &Store {
        &self.store
    }

    pub(crate) fn zone(&self) -> chrono_tz::Tz {
        self.clock.zone()
    }

    /// The account's connection; [`CalendarError::NoAccount`] when none is connected.
    pub(crate) async fn connected(&self) -> Result<Dav, CalendarError> {
        self.dav().await?.ok_or(CalendarError::NoAccount)
    }

    async fn dav(&self) -> Result<Option<Dav>, CalendarError> {
        let Some((url, username)) = self.account().await? else { return Ok(None) };
        let password = self.secrets.get(SECRET).unwrap_or_default();
        Ok(Some(Dav::new(&url, &username, &password)?))
    }

    /// Connects the account at `url`: its calendars are found (which checks the
    /// password), kept, and read from now on; the password goes to the keychain.
    pub async fn connect(&self, url: &str, username: &str, password: &str, lang: Lang) -> Result<CalendarView, CalendarError> {
        let dav = Dav::new(url, username, password)?;
        let found = dav.calendars().await?;
        sqlx::query(
            "INSERT INTO calendar_account (id, url, username) VALUES (1, ?, ?) ON CONFLICT (id) DO UPDATE SET url = excluded.url, username = excluded.username",
        )
        .bind(url.trim())
        .bind(username)
        .execute(self.store.pool())
        .await
        .map_err(sidecar_store::StoreError::from)?;
        self.secrets.store(SECRET, password);
        let table = self.store.calendar_table();
        for calendar in &found {
            table.found(&calendar.href, calendar.name.as_deref(), calendar.color.as_deref()).await?;
        }
        self.restore_choices(url.trim(), username).await?;
        self.sync_all(lang).await?;
        self.view().await
    }

    /// Subscribes to the `.ics` feed at `url` (read only): fetched now (which checks it
    /// is a calendar), kept, read from now on, and fetched again at each sync.
    pub async fn subscribe(&self, url: &str) -> Result<CalendarView, CalendarError> {
        let address = url.trim();
        let Some(feed) = crate::subscription::fetch(&self.http, address, None).await? else {
            return Err(CalendarError::Server("the feed answered 304 Not Modified to a first request".into()));
        };
        let table = self.store.calendar_table();
        let calendar = table.subscribed(address, feed.name.as_deref()).await?;
        // Kept as fetched: the check was the first download.
        crate::sync::keep_feed(&self.store, &calendar, feed, self.clock.zone()).await?;
        self.view().await
    }

    /// Forgets a subscribed feed and its copy; [`CalendarError::NotAFeed`] for a CalDAV
    /// calendar (those go with the account).
    pub async fn unsubscribe(&self, calendar_id: i64) -> Result<CalendarView, CalendarError> {
        let table = self.store.calendar_table();
        match table.all().await?.into_iter().find(|c| c.id == calendar_id) {
            Some(feed) if feed.source == "ics" => {
                table.remove(calendar_id).await?;
                self.view().await
            }
            other => Err(CalendarError::NotAFeed(other.map(|c| c.href).unwrap_or_else(|| calendar_id.to_string()))),
        }
    }

    /// Forgets the account: its calendars, their copies and the password (subscribed
    /// feeds stay). [`Self::disconnect`] takes Sidecar's to-dos away first.
    pub(crate) async fn forget_account(&self) -> Result<(), CalendarError> {
        let mut tx = self.store.write_transaction().await.map_err(sidecar_store::StoreError::from)?;
        sqlx::query("DELETE FROM calendars WHERE source = 'caldav'").execute(&mut *tx).await.map_err(sidecar_store::StoreError::from)?;
        sqlx::query("DELETE FROM calendar_account").execute(&mut *tx).await.map_err(sidecar_store::StoreError::from)?;
        tx.commit().await.map_err(sidecar_store::StoreError::from)?;
        self.secrets.delete(SECRET);
        Ok(())
    }

    pub async fn view(&self) -> Result<CalendarView, CalendarError> {
        Ok(CalendarView {
            account: self.account().await?,
            calendars: self.store.calendar_table().all().await?,
            zone: self.clock.zone().name().to_string(),
            mirror_reminders: self.mirrors_reminders().await?,
        })
    }

    /// Which calendars are read and which one Sidecar may write.
    pub async fn choose(&self, read: &[i64], writable: Option<i64>) -> Result<CalendarView, CalendarError> {
        self.store.calendar_table().choose(read, writable).await?;
        self.view().await
    }

    /// Brings every calendar read up to date; each keeps its own problem. The first
    /// error, if any, after all were tried.
    pub async fn sync_all(&self, lang: Lang) -> Result<Vec<SyncReport>, CalendarError> {
        let dav = self.dav().await?;
        let (mut reports, mut first_error) = (Vec::new(), None);
        for calendar in self.store.calendar_table().all().await?.into_iter().filter(|c| c.read) {
            let synced = match (&dav, calendar.source.as_str()) {
                (_, "ics") => crate::sync::sync_feed(&self.http, &self.store, &calendar, self.clock.zone(), lang).await,
                (Some(dav), _) => sync(dav, &self.store, &calendar, self.clock.zone(), lang).await,
                (None, _) => continue,
            };
            match synced {
                Ok(report) => reports.push(report),
                Err(error) => {
                    first_error.get_or_insert(error);
                }
            }
        }
        match first_error {
            Some(error) => Err(error),
            None => Ok(reports),
        }
    }

    /// The events of the calendars read that overlap `[from, to)`, soonest first.
    pub async fn between(&self, from: DateTime<Utc>, to: DateTime<Utc>) -> Result<Vec<Occurrence>, CalendarError> {
        let events = self.store.calendar_table().events_near(from, to).await?;
        // Walking thousands of repeating series takes up to a second: on the blocking
        // pool, so the app's other work (a Stop, a tool's time limit, a reminder due)
        // goes on meanwhile, and a caller that gives up is not held.
        Ok(crate::blocking::off_workers(move || {
            let mut found: Vec<Occurrence> = events
                .into_iter()
                .flat_map(|e| {
                    e.occurrences(from, to).into_iter().map(move |(start, end)| Occurrence {
                        uid: e.uid.clone(),
                        summary: e.summary.clone(),
                        start,
                        end,
                        all_day: e.all_day,
                        busy: e.busy,
                        location: e.location.clone(),
                    })
                })
                .collect();
            found.sort_by_key(|o| (o.start, o.end));
            found
        })
        .await)
    }

    /// A busy event under way at `at` (not a whole-day one: a holiday does not silence
    /// Sidecar), for quiet hours.
    pub async fn busy_at(&self, at: DateTime<Utc>) -> Result<Option<Occurrence>, CalendarError> {
        Ok(self.between(at, at + Duration::seconds(1)).await?.into_iter().find(|o| o.busy && !o.all_day))
    }

    /// The free stretches of at least `minutes` in `[from, to)`, between busy events.
    pub async fn free(&self, from: DateTime<Utc>, to: DateTime<Utc>, minutes: i64) -> Result<Vec<(DateTime<Utc>, DateTime<Utc>)>, CalendarError> {
        let mut free = Vec::new();
        let mut cursor = from;
        for busy in self.between(from, to).await?.into_iter().filter(|o| o.busy) {
            if busy.start > cursor && busy.start - cursor >= Duration::minutes(minutes) {
                free.push((cursor, busy.start));
            }
            cursor = cursor.max(busy.end);
        }
        if to > cursor && to - cursor >= Duration::minutes(minutes) {
            free.push((cursor, to));
        }
        Ok(free)
    }
}

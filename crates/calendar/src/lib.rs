//! Sidecar's calendar (issue 46): a CalDAV account's calendars kept in the database,
//! synced incrementally, read by the tools, quiet hours and the morning brief.
//!
//! - [`dav`]: the CalDAV conversation (libdav): discovery, listing, multiget, writes
//!   with preconditions;
//! - [`event`]: an iCalendar item's events, read with the `icalendar` crate;
//! - [`find`]: an event found by the words a person uses for it ("my 10:00 with Ana"),
//!   for reminders set before an event;
//! - [`mirror`]: reminders as to-dos in the calendar Sidecar writes (on the phone too),
//!   reconciled: only what differs is written, a phone's edit is never overwritten;
//! - [`rows`]: the calendars and their items in the database;
//! - `remembered`: an account's choices kept across a disconnect;
//! - [`sync`]: one calendar brought up to date: nothing fetched when its ctag did not
//!   move, else only the items whose etag changed; the last copy kept when the server
//!   is down;
//! - [`subscription`]: `.ics` feeds by address, read only, fetched again only when
//!   their ETag moved, split by UID so only changed events are read again.

mod blocking;
mod capped;
mod dav;
mod error;
mod event;
mod find;
mod mirror;
mod remembered;
mod rows;
mod service;
mod subscription;
mod sync;
mod tools;
mod writes;

// The face: what the crates above, the faces and the tests name.
pub use dav::Dav;
pub use event::{events_of, MAX_OCCURRENCES};
pub use mirror::MirrorReport;
pub use rows::CalendarStore;
pub use service::{CalendarService, CalendarView, Occurrence};
pub use subscription::{feed_client, split, MAX_FEED_EVENTS};
pub use sync::{sync, sync_feed, SyncReport};
pub use tools::{offered, tools, ToolServices};

pub use error::CalendarError;

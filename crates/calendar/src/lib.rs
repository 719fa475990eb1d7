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
pub mod dav;
pub mod error;
pub mod event;
pub mod find;
pub mod mirror;
mod remembered;
pub mod rows;
pub mod service;
pub mod subscription;
pub mod sync;
pub mod tools;
pub mod writes;

pub use error::CalendarError;

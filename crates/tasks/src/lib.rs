//! Scheduled tasks (issue 46): work Sidecar does on its own at a time the user set ("every
//! weekday at 8, check the weather and my calendar"). This crate starts with the rule of
//! time, pure and with no clock of its own (`now` is always given):
//!
//! - [`schedule::Schedule`]: once, or a repeat as the reminders keep it (an RRULE from a
//!   start, in the user's zone, DST included);
//! - [`catch_up::plan`]: what is due at a wake-up: the latest occurrence that fell due,
//!   with those before it folded in (a task due hourly through a night's sleep runs once,
//!   not nine times), run, asked about or skipped as its [`catch_up::CatchUp`] says;
//! - [`runs`]: a run's record per occurrence (attempting → done | failed | skipped), a
//!   run a crash interrupted, and the pause after three failures in a row;
//! - [`rows`]: the tasks and their runs in the database, a run unique per occurrence;
//! - [`manage`]: the user's side: a task made from words, listed, paused, resumed,
//!   removed or run now;
//! - [`service::Tasks`]: a look at the tasks (what is due, recorded before it is acted
//!   on), the runs a crash cut, and the pause after the third failure, said in words.
//!
//! Never missed, never doubled: an occurrence is the key of its run, handled once.

pub mod brief;
pub mod catch_up;
pub mod error;
pub mod events;
pub mod manage;
pub mod rows;
pub mod runs;
pub mod schedule;
pub mod service;
pub mod tool;
pub mod words;

pub use catch_up::{plan, Action, CatchUp, Due, Plan};
pub use error::TasksError;
pub use events::TaskEvent;
pub use manage::{TaskRequest, TaskView};
pub use runs::{RunState, TaskError};
pub use schedule::Schedule;
pub use service::{Look, Tasks, Work, NOTIFICATIONS_PER_DAY};

/// The kind of the conversation task results arrive in.
pub const CONVERSATION_KIND: &str = "tasks";

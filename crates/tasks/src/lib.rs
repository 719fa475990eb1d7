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
//!   on), the runs a crash cut, and the pause after the third failure, said in words;
//! - [`Runner`]: the loop that runs what is due as a turn, keeps its reply and tokens,
//!   and delivers the result (held back while quiet or past the day's notifications),
//!   and the morning brief gathered from the day; what it needs from the features above
//!   (the agent's turn, quiet hours, the outbox, the calendar) it asks [`TaskServices`],
//!   which the assembly fills.
//!
//! Never missed, never doubled: an occurrence is the key of its run, handled once.

mod brief;
mod catch_up;
mod error;
mod events;
mod manage;
mod rows;
mod runner;
mod runs;
mod schedule;
mod service;
mod tool;
mod words;

// The face: what the crates above, the faces and the tests name.
pub use brief::{facts, prompt, read_place, BriefParts};
pub use catch_up::{plan, Action, CatchUp, Due, Plan};
pub use error::TasksError;
pub use events::TaskEvent;
pub use manage::{runnable_prompt, MAX_PROMPT_CHARS};
pub use manage::{TaskRequest, TaskView};
pub use rows::{NewTask, Task, TaskKind, TasksStore};
pub use runner::{Day, DayEvent, Runner, ServiceError, TaskNote, TaskServices, TaskTurn, TurnFailed, TurnReply, WEATHER};
pub use runs::TaskError;
pub use runs::{pauses, RunState};
pub use schedule::Schedule;
pub use service::{Look, Tasks, Work, NOTIFICATIONS_PER_DAY};
pub use tool::{ScheduleTask, DEFAULT_SKIP_MINUTES, NAME};
pub use words::{all_day, ask_late, failed, held_title, prompt_cut, tasks_conversation};

/// The kind of the conversation task results arrive in.
pub const CONVERSATION_KIND: &str = "tasks";

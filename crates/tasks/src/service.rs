//! The tasks at a look (the scheduler's tick, the start after a restart, the computer back
//! from sleep): what is due now is recorded before anything is done about it, so a crash
//! between the two leaves an attempt to finish, never a second run. The assembly's loop
//! runs the work it is handed and tells [`Tasks::finish`] how it went.

use chrono::{DateTime, Utc};
use sidecar_domain::Emitter;
use sidecar_domain::Lang;
use sidecar_store::Store;
use sidecar_store::StoreError;

use crate::catch_up::{plan, Action};

/// The most task notifications a day (those not "always deliver"): a task every hour
/// does not buzz all day. The results past it wait in Tasks and are notified together
/// the next day.
pub const NOTIFICATIONS_PER_DAY: u32 = 12;
use crate::events::TaskEvent;
use crate::rows::{Task, TasksStore};
use crate::runs::{pauses, RunState};

/// What the loop is to do.
#[derive(Debug, Clone, PartialEq)]
pub enum Work {
    /// Run the task's prompt for this occurrence, under the run `run_id`.
    Run { task: Task, run_id: i64, occurrence: DateTime<Utc>, late: bool, folded: usize },
    /// Ask the user whether to run this late occurrence now.
    Ask { task: Task, occurrence: DateTime<Utc> },
}

/// A look's outcome.
#[derive(Debug, Clone, PartialEq)]
pub struct Look {
    pub work: Vec<Work>,
    /// When the next occurrence of any running task falls due.
    pub next: Option<DateTime<Utc>>,
}

pub struct Tasks {
    store: Store,
    /// Rung when a task is added or changed: the loop looks again at once.
    changed: tokio::sync::Notify,
    events: Emitter<TaskEvent>,
}

impl Tasks {
    pub fn new(store: Store, events: Emitter<TaskEvent>) -> Self {
        Self { store, changed: tokio::sync::Notify::new(), events }
    }

    pub(crate) fn store(&self) -> &Store {
        &self.store
    }

    /// Wakes the loop waiting in [`Tasks::until_changed`].
    pub(crate) fn changed(&self) {
        self.changed.notify_one();
        self.events.publish(TaskEvent::TasksChanged);
    }

    /// Tells the faces what a run did.
    pub(crate) fn publish(&self, event: TaskEvent) {
        self.events.publish(event);
    }

    /// Returns when a task was added, changed or removed since the last return.
    pub async fn until_changed(&self) {
        self.changed.notified().await
    }

    /// The tokens scheduled runs took since `since` (RFC 3339), or overall: prompt,
    /// completion, runs.
    pub async fn tokens_since(&self, since: Option<&str>) -> Result<(u64, u64, u64), StoreError> {
        self.store.task_table().tokens_since(since).await
    }

    /// Holds a result quiet kept from being notified, to notify when the quiet ends.
    pub async fn hold(&self, task_id: i64, message_id: i64) -> Result<(), StoreError> {
        self.store.task_table().hold(task_id, message_id).await
    }

    /// The results held back by quiet, taken to be notified now (see [`crate::rows::TaskTable::take_held`]).
    pub async fn take_held(&self) -> Result<Vec<(i64, String, String)>, StoreError> {
        self.store.task_table().take_held().await
    }

    /// Whether a task's notification may go out now: fewer than
    /// [`NOTIFICATIONS_PER_DAY`] went out since `midnight`.
    pub async fn may_notify(&self, midnight: DateTime<Utc>) -> Result<bool, StoreError> {
        Ok(self.notified_since(midnight).await? < NOTIFICATIONS_PER_DAY)
    }

    /// Task notifications that went out since `since`.
    pub async fn notified_since(&self, since: DateTime<Utc>) -> Result<u32, StoreError> {
        self.store.task_table().notified_since(since).await
    }

    /// A task's notification went out at `at`.
    pub async fn notified(&self, at: DateTime<Utc>) -> Result<(), StoreError> {
        self.store.task_table().notified(at).await
    }

    /// Whether any result is held back.
    pub async fn any_held(&self) -> Result<bool, StoreError> {
        self.store.task_table().any_held().await
    }

    /// Keeps a run's reply and the tokens it took.
    pub async fn keep_reply(&self, run_id: i64, message_id: Option<i64>, prompt_tokens: u64, completion_tokens: u64) -> Result<(), StoreError> {
        self.store.task_table().keep_reply(run_id, message_id, prompt_tokens, completion_tokens).await
    }

    /// At start: the runs a crash cut, to run again under their own records (once each).
    pub async fn recover(&self) -> Result<Vec<Work>, StoreError> {
        let table = self.store.task_table();
        let tasks = table.all().await?;
        let mut work = Vec::new();
        for run in table.interrupted().await? {
            if let Some(task) = tasks.iter().find(|t| t.id == run.task_id && t.paused.is_none()) {
                work.push(Work::Run { task: task.clone(), run_id: run.id, occurrence: run.occurrence, late: true, folded: 0 });
            }
        }
        Ok(work)
    }

    /// What is due at `now`, recorded: a run begun (attempting), a question asked, or a
    /// stale occurrence skipped. An occurrence that already has its run is left alone.
    pub async fn look(&self, now: DateTime<Utc>) -> Result<Look, StoreError> {
        self.look_saving(now, false).await
    }

    /// As [`Tasks::look`]; while `saving_power` (on a low battery, DT-3), a task not set
    /// to always deliver is not looked at: its occurrence stays unrecorded and waits, and
    /// when power is back its own catch-up policy says whether it runs late, asks or skips.
    /// A task the user set to reach them always is one they want run on battery too.
    pub async fn look_saving(&self, now: DateTime<Utc>, saving_power: bool) -> Result<Look, StoreError> {
        let table = self.store.task_table();
        let (mut work, mut next) = (Vec::new(), None::<DateTime<Utc>>);
        for task in table.all().await?.into_iter().filter(|t| t.paused.is_none()) {
            if saving_power && !task.always_deliver {
                tracing::info!(task_id = task.id, "a task waits for power (the battery is low and not charging)");
                continue;
            }
            let planned = plan(&task.schedule, task.catch_up, table.handled(&task).await?, now);
            next = match (next, planned.next) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
            let Some(due) = planned.due else { continue };
            let state = match due.action {
                Action::Run => RunState::Attempting,
                Action::Ask => RunState::Asked,
                Action::Skip => RunState::Skipped,
            };
            let Some(run_id) = table.record(task.id, due.occurrence, state).await? else { continue };
            match due.action {
                Action::Run => work.push(Work::Run { task, run_id, occurrence: due.occurrence, late: due.late, folded: due.folded }),
                Action::Ask => work.push(Work::Ask { task, occurrence: due.occurrence }),
                Action::Skip => {}
            }
        }
        Ok(Look { work, next })
    }

    /// A run ended with what it produced or what went wrong. After the third failure in a
    /// row the task is paused; the reason, in `lang`, is returned to be said.
    pub async fn finish(&self, task_id: i64, run_id: i64, outcome: Result<&str, &str>, lang: Lang) -> Result<Option<String>, StoreError> {
        let table = self.store.task_table();
        let (state, said) = match outcome {
            Ok(text) => (RunState::Done, text),
            Err(error) => (RunState::Failed, error),
        };
        table.end(run_id, state, said).await?;
        if state == RunState::Done || !pauses(table.runs(task_id, crate::runs::PAUSE_AFTER_FAILURES as u32 * 4).await?.iter().map(|r| r.state)) {
            return Ok(None);
        }
        let reason = crate::words::paused_after_failures(lang, said);
        table.set_paused(task_id, Some(&reason)).await?;
        Ok(Some(reason))
    }
}

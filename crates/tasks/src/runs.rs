//! A run's record, one per occurrence: `attempting` when it starts, then `done` or
//! `failed`; `skipped` and `asked` are recorded as they are decided. A record still
//! `attempting` at start was cut by a crash: its occurrence runs again under the same
//! record, so it is neither lost nor doubled. Three failures in a row pause the task.

use serde::{Deserialize, Serialize};

/// Failed runs in a row that pause a task (it says so, with what went wrong).
pub(crate) const PAUSE_AFTER_FAILURES: usize = 3;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, sqlx::Type, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
#[sqlx(rename_all = "lowercase")]
pub enum RunState {
    Attempting,
    Done,
    Failed,
    Skipped,
    /// The user was asked whether to run a late occurrence.
    Asked,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TaskError {
    #[error("a run goes from attempting to done or failed, not from {from:?} to {to:?}")]
    Transition { from: RunState, to: RunState },
}

impl RunState {
    /// The run ends: only an attempt ends, as done or failed.
    pub fn end(self, to: RunState) -> Result<RunState, TaskError> {
        match (self, to) {
            (RunState::Attempting, RunState::Done | RunState::Failed) => Ok(to),
            (from, to) => Err(TaskError::Transition { from, to }),
        }
    }

    /// Found at start: the process ended during the run.
    pub fn interrupted(self) -> bool {
        self == RunState::Attempting
    }
}

/// Whether the runs so far (newest first) pause the task: the last
/// [`PAUSE_AFTER_FAILURES`] that ran all failed (skipped and asked ones did not run).
pub fn pauses(newest_first: impl IntoIterator<Item = RunState>) -> bool {
    let ran: Vec<RunState> = newest_first.into_iter().filter(|s| matches!(s, RunState::Done | RunState::Failed)).take(PAUSE_AFTER_FAILURES).collect();
    ran.len() == PAUSE_AFTER_FAILURES && ran.iter().all(|s| *s == RunState::Failed)
}

#[cfg(test)]
mod tests {
    use super::RunState::*;
    use super::*;

    #[test]
    fn only_an_attempt_ends_and_only_as_done_or_failed() {
        assert_eq!(Attempting.end(Done), Ok(Done));
        assert_eq!(Attempting.end(Failed), Ok(Failed));
        assert!(Done.end(Failed).is_err() && Attempting.end(Skipped).is_err() && Skipped.end(Done).is_err());
        assert!(Attempting.interrupted() && !Done.interrupted());
    }

    #[test]
    fn three_failed_runs_in_a_row_pause_skips_between_them_do_not_reset() {
        assert!(pauses([Failed, Skipped, Failed, Asked, Failed, Done]));
        assert!(!pauses([Failed, Failed, Done, Failed]));
        assert!(!pauses([Failed, Failed]));
    }
}

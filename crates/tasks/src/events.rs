//! What the tasks tell the faces: a list to show again, a run that began or ended, a late
//! occurrence waiting for the user's answer.

use serde::Serialize;

#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum TaskEvent {
    /// A task was made, changed, paused, resumed or removed.
    TasksChanged,
    TaskRunStarted {
        task_id: i64,
        run_id: i64,
    },
    /// A run ended; its result (or what went wrong) is `message_id` in `conversation_id`.
    TaskRunFinished {
        task_id: i64,
        run_id: i64,
        conversation_id: i64,
        message_id: Option<i64>,
        ok: bool,
    },
    /// A late occurrence waits for the user: run it now or not.
    TaskAsks {
        task_id: i64,
        conversation_id: i64,
        message_id: i64,
    },
}

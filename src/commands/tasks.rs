//! The window's tasks commands (`commands` says how the table serves them).

use crate::commands::{commands, CommandError, SaidBy};
use crate::companion::TasksPage;
use sidecar_tasks::TaskRequest;

commands! {
    async fn tasks_page(core) -> Result<TasksPage, CommandError> {
        core.tasks_page().await.said(&core)
    }

    async fn add_task(core, request: TaskRequest) -> Result<i64, CommandError> {
        core.add_task(&request).await.map(|task| task.id).said(&core)
    }

    async fn pause_task(core, id: i64) -> Result<(), CommandError> {
        core.tasks().pause(id, core.preferences().lang()).await.said(&core)
    }

    async fn resume_task(core, id: i64) -> Result<(), CommandError> {
        core.tasks().resume(id, core.clock().now()).await.said(&core)
    }

    async fn remove_task(core, id: i64) -> Result<(), CommandError> {
        core.tasks().remove(id).await.said(&core)
    }

    /// Runs a task now (or the late time it asked about); its reply's message id.
    async fn run_task_now(core, id: i64) -> Result<Option<i64>, CommandError> {
        core.task_runner().run_now(id).await.said(&core)
    }

    /// The user said not to run the late time a task asked about.
    async fn decline_task(core, id: i64) -> Result<bool, CommandError> {
        core.tasks().decline_asked(id).await.said(&core)
    }

    /// Turns the morning brief on at `at` ("07:30"), moves it, or turns it off (`None`).
    async fn set_brief(core, at: Option<String>) -> Result<(), CommandError> {
        core.set_brief(at.as_deref()).await.map(drop).said(&core)
    }

    /// Where the brief looks up the weather; empty takes it away.
    async fn set_brief_place(core, place: String) -> Result<(), CommandError> {
        core.set_brief_place(&place).await.said(&core)
    }

    /// A thumb up or down on a brief.
    async fn rate_brief(core, message_id: i64, liked: bool) -> Result<(), CommandError> {
        core.rate_brief(message_id, liked).await.said(&core)
    }
}

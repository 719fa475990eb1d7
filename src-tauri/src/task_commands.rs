//! IPC commands for scheduled tasks: Settings → Tasks and the Tasks conversation's
//! buttons. Each a few lines calling the core.

use sidecar::companion::TasksPage;
use sidecar::tasks::TaskRequest;

use crate::commands::{CommandError, Core, SaidBy};

#[tauri::command]
pub async fn tasks_page(core: Core<'_>) -> Result<TasksPage, CommandError> {
    core.tasks_page().await.said(&core)
}

#[tauri::command]
pub async fn add_task(core: Core<'_>, request: TaskRequest) -> Result<i64, CommandError> {
    core.add_task(&request).await.map(|task| task.id).said(&core)
}

#[tauri::command]
pub async fn pause_task(core: Core<'_>, id: i64) -> Result<(), CommandError> {
    core.tasks().pause(id, core.preferences().lang()).await.said(&core)
}

#[tauri::command]
pub async fn resume_task(core: Core<'_>, id: i64) -> Result<(), CommandError> {
    core.tasks().resume(id, core.clock().now()).await.said(&core)
}

#[tauri::command]
pub async fn remove_task(core: Core<'_>, id: i64) -> Result<(), CommandError> {
    core.tasks().remove(id).await.said(&core)
}

/// Runs a task now (or the late time it asked about); its reply's message id.
#[tauri::command]
pub async fn run_task_now(core: Core<'_>, id: i64) -> Result<Option<i64>, CommandError> {
    core.run_task_now(id).await.said(&core)
}

/// The user said not to run the late time a task asked about.
#[tauri::command]
pub async fn decline_task(core: Core<'_>, id: i64) -> Result<bool, CommandError> {
    core.tasks().decline_asked(id).await.said(&core)
}

/// Turns the morning brief on at `at` ("07:30"), moves it, or turns it off (`None`).
#[tauri::command]
pub async fn set_brief(core: Core<'_>, at: Option<String>) -> Result<(), CommandError> {
    core.set_brief(at.as_deref()).await.map(drop).said(&core)
}

/// A thumb up or down on a brief.
#[tauri::command]
pub async fn rate_brief(core: Core<'_>, message_id: i64, liked: bool) -> Result<(), CommandError> {
    core.rate_brief(message_id, liked).await.said(&core)
}

//! Scheduled tasks as the faces reach them: Settings → Tasks in one read, a task made
//! with the tools there are, and the runner (`task_runner()`: Run now, one look, the
//! loop). The runner itself is `sidecar_tasks::Runner`; what it asks of the features
//! above its crate is filled in `task_services`.

use std::sync::Arc;

use super::Companion;
use sidecar_tasks::Tasks;

/// The time a morning brief is offered at when turned on.
const BRIEF_DEFAULT: &str = "07:30";

/// Settings → Tasks: the tasks, the tools one can be given, and what runs took today.
#[derive(Debug, Clone, serde::Serialize, ts_rs::TS)]
pub struct TasksPage {
    pub tasks: Vec<sidecar_tasks::TaskView>,
    /// The tools a task can be given: the name a task keeps, and what a person calls it
    /// (the description is the model's).
    pub tools: Vec<(String, String)>,
    /// "Skip it when late" skips past this many minutes unless the user says otherwise.
    pub default_skip_minutes: u32,
    /// Prompt tokens, completion tokens and runs of scheduled tasks since midnight.
    pub tokens_today: (u64, u64, u64),
    /// The user's zone, which the next times are shown in.
    pub zone: String,
    /// The morning brief's time ("07:30"), when it is on.
    pub brief_at: Option<String>,
    /// The time the brief is offered at when it is turned on.
    pub brief_default: String,
    /// Where the brief looks up the weather, when the user said.
    pub brief_place: Option<String>,
    /// There is a weather tool for the brief to use.
    pub brief_weather: bool,
    /// Task notifications that went out today, and the most a day (past it, results
    /// wait in Tasks and come together the next day).
    pub notified_today: (u32, u32),
    /// Only the demo model answers: tasks cannot run (the page says so, and what to do).
    pub demo_only: bool,
    /// On a low battery, not charging: what waits, in the user's language (DT-3).
    pub waiting_for_power: Option<String>,
}

impl Companion {
    /// Scheduled tasks: make, list, pause, resume, remove.
    pub fn tasks(&self) -> &Arc<Tasks> {
        &self.tasks
    }

    /// What runs them: Run now, one look, the Tasks conversation, and the loop.
    pub fn task_runner(&self) -> &Arc<sidecar_tasks::Runner> {
        &self.runner
    }

    /// Settings → Tasks in one read.
    pub async fn tasks_page(&self) -> Result<TasksPage, crate::CompanionError> {
        let tools = self.conversation.tools();
        // The turn's own plumbing (finding tools, a plan) is no work to give a task.
        let plumbing = [sidecar_tasks::NAME, "find_tools", "update_plan", "write_scratchpad"];
        let tools = tools.tools().filter(|t| !plumbing.contains(&t.name())).map(|t| (t.name().to_string(), t.title(self.lang))).collect();
        let midnight = sidecar_store::utc(self.clock.local_midnight());
        Ok(TasksPage {
            tasks: self.tasks.list(self.clock.now(), self.lang).await?,
            tools,
            default_skip_minutes: sidecar_tasks::DEFAULT_SKIP_MINUTES,
            tokens_today: self.tasks.tokens_since(Some(&midnight)).await?,
            zone: self.clock.zone().name().to_string(),
            brief_at: self.tasks.brief().await?.and_then(|task| match task.schedule {
                sidecar_tasks::Schedule::Repeat { start, zone, .. } => Some(start.with_timezone(&zone).format("%H:%M").to_string()),
                sidecar_tasks::Schedule::Once { .. } => None,
            }),
            brief_default: BRIEF_DEFAULT.to_string(),
            brief_place: self.models.settings().user.place.clone(),
            brief_weather: self.conversation.tools().tools().any(|t| t.name() == sidecar_tasks::WEATHER),
            notified_today: (self.tasks.notified_since(self.clock.local_midnight()).await?, sidecar_tasks::NOTIFICATIONS_PER_DAY),
            demo_only: self.models.only_demo(),
            waiting_for_power: self.computer_state().await.said,
        })
    }

    /// Makes a task from Settings or the CLI, with the tools there are now.
    pub async fn add_task(&self, request: &sidecar_tasks::TaskRequest) -> Result<sidecar_tasks::Task, crate::CompanionError> {
        let tools = self.conversation.tools();
        let known: Vec<&str> = tools.tools().map(|t| t.name()).collect();
        Ok(self.tasks.add(request, &known, self.clock.now(), self.clock.zone(), self.lang).await?)
    }
}

//! The morning brief in the assembly: turned on at a time, its prompt gathered at each
//! run from the features that hold the day (reminders, the tasks' results, open work, the
//! user's thumbs on earlier briefs), and the thumbs kept.

use chrono::{DateTime, Duration, NaiveTime, Utc};

use super::Companion;
use crate::context::checkpoint::Status;
use sidecar_tasks::brief::BriefParts;
use sidecar_tasks::rows::{Task, TasksStore};

/// Earlier briefs' thumbs the next brief is told.
const OPINIONS: u32 = 4;
/// The weather tool a brief may use without asking, when there is one.
const WEATHER: &str = "get_weather";

impl Companion {
    /// Turns the morning brief on at `at` ("07:30", the user's time) every day, moves
    /// it, or turns it off (`None`).
    pub async fn set_brief(&self, at: Option<&str>) -> Result<Option<Task>, crate::CompanionError> {
        let at = at.map(|t| NaiveTime::parse_from_str(t.trim(), "%H:%M").map_err(|_| sidecar_tasks::TasksError::NotATime(t.to_string()))).transpose()?;
        let tools: Vec<String> = self.conversation.tools().tools().filter(|t| t.name() == WEATHER).map(|t| t.name().to_string()).collect();
        Ok(self.tasks.set_brief(at, &tools, self.clock.now(), self.clock.zone(), self.preferences.lang()).await?)
    }

    /// The user's thumb on a brief (a message in the Tasks conversation).
    pub async fn rate_brief(&self, message_id: i64, liked: bool) -> Result<(), crate::CompanionError> {
        let text = self.store.conversations().message(message_id).await?.map(|m| m.content).unwrap_or_default();
        Ok(self.tasks.rate_brief(message_id, liked, &text).await?)
    }

    /// Today's brief's prompt, for the run `run_id` of the brief `task`.
    pub(crate) async fn brief_prompt(&self, task: &Task, run_id: i64) -> String {
        let (now, zone) = (self.clock.now(), self.clock.zone());
        let table = self.store.task_table();
        // What tasks produced since the last brief (or the last day, for the first one).
        let previous = table.runs(task.id, 5).await.unwrap_or_default().into_iter().find(|r| r.id != run_id && r.state == sidecar_tasks::RunState::Done);
        let since = previous.map_or(now - Duration::days(1), |r| r.occurrence);
        let end_of_day: DateTime<Utc> = self.clock.start_of(self.clock.local_today() + Duration::days(1));
        let reminders = self.reminders.pending().await.unwrap_or_default();
        let parts = BriefParts {
            events: self.todays_events().await,
            reminders: reminders
                .iter()
                .filter(|r| r.due_at >= now && r.due_at < end_of_day)
                .map(|r| format!("{} {}", r.due_at.with_timezone(&zone).format("%H:%M"), r.message))
                .collect(),
            overnight: table.results_since(since).await.unwrap_or_default(),
            following: self
                .context
                .checkpoints()
                .await
                .unwrap_or_default()
                .into_iter()
                .filter(|c| matches!(c.status, Status::InProgress | Status::Paused))
                .map(|c| c.body.title)
                .collect(),
            opinions: table.brief_opinions(OPINIONS).await.unwrap_or_default(),
        };
        sidecar_tasks::brief::prompt(&parts, self.preferences.lang())
    }
}
